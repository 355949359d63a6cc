"""A generated pack's customer side: facts, persona and the materials list."""

from __future__ import annotations

import datetime as dt
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from ._materials import Files
from ._table import Row
from ._words import SAY, TOPICS, TYPE_SAY, YES_NO, clock, phrase, spoken_date, voiced

INCIDENT_TYPES = {
    "rear_end_collision": "collision", "parked_hit_and_run": "collision",
    "vehicle_theft": "theft", "windscreen_damage": "windscreen",
    "single_vehicle_crash_injury": "collision", "escape_of_water_ceiling": "escape_of_water",
    "storm_roof_damage": "storm", "kitchen_fire": "fire", "burglary_electronics": "theft",
    "tv_accidental_damage": "accidental_damage",
}
SYMBOLS = {"GBP": "£", "EUR": "€", "USD": "US$", "NZD": "NZ$", "AUD": "A$", "CAD": "C$"}
LATER_POLICE = ["The police said they'd email me the crime reference by {d}; I haven't got it "
                "yet.", "I'm still waiting for the police to send the reference, they said by "
                "{d}.", "No reference yet, the police promised it by {d}."]
LATER_FILE = ["They said they'd email it to me, I haven't got it yet.",
              "I'm still waiting for it to come through.",
              "It hasn't arrived yet, they're sending it over.",
              "Not yet, they promised to send it soon."]


@cache
def voices() -> dict[str, list[dict[str, str]]]:
    return tomllib.loads(Path(__file__).with_name("voices.toml").read_text(encoding="utf-8"))


def time_value(row: Row) -> Any:
    if not row.time:
        return None
    if "-" in row.time:
        a, b = row.time.split("-")
        return {"earliest": a, "latest": b}
    return row.time


def _time_say(row: Row, n: int) -> str:
    value = time_value(row)
    if isinstance(value, dict):
        a, b = clock(value["earliest"]), clock(value["latest"])
        text = ["Some time between {a} and {b}, I can't be more exact.",
                "Between {a} and {b}, I don't know exactly when.",
                "It was between {a} and {b}, that's as close as I can say."][n % 3]
        return voiced(text.format(a=a, b=b), row.style, n)
    return phrase(SAY["incident_time"], n, clock(str(value)), row.style)


def money_words(amount: float, currency: str) -> str:
    number = f"{amount:,.0f}" if float(amount).is_integer() else f"{amount:,.2f}"
    return f"{SYMBOLS.get(currency, currency + ' ')}{number}"


def fact(key: str, kind: str, value: Any, say: str, later: dict | None = None) -> dict:
    out = {"key": key, "kind": kind, "value": value, "say": say, "topic": TOPICS[key]}
    if later is not None:
        out["later"] = later
    return out


def facts(row: Row, n: int, policy_number: str) -> list[dict[str, Any]]:
    style = row.style
    out = [fact("policy_number", "text", policy_number,
                phrase(SAY["policy_number"], n, policy_number, style)),
           fact("incident_date", "date", row.date,
                phrase(SAY["incident_date"], n + 1, spoken_date(row.incident), style))]
    if row.time:
        out.append(fact("incident_time", "time", time_value(row), _time_say(row, n)))
    itype = INCIDENT_TYPES[row.kind]
    out.append(fact("incident_type", "choice", itype,
                    voiced(TYPE_SAY[itype][n % len(TYPE_SAY[itype])], style, n)))
    if row.line == "motor":
        out.append(fact("incident_location", "text", row.place,
                        phrase(SAY["incident_location"], n, row.place, style)))
    out.append(fact("incident_description", "text", row.description,
                    voiced(row.description, style, n)))

    def yes_no(key: str, yes: bool, k: int) -> None:
        options = YES_NO[key]["yes" if yes else "no"]
        out.append(fact(key, "yes_no", "yes" if yes else "no",
                        voiced(options[(n + k) % len(options)], style, n + k)))

    if row.line == "motor":
        out.append(fact("vehicle_registration", "text", row.reg,
                        phrase(SAY["vehicle_registration"], n, row.reg, style)))
        if row.kind == "vehicle_theft":
            out.append(fact("vehicle_driveable", "yes_no", "no",
                            voiced("No, it's been stolen, I haven't got it.", style, n)))
        else:
            yes_no("vehicle_driveable", row.driveable, 1)
        yes_no("third_party_involved", row.third_party, 2)
    if row.line == "home":
        yes_no("property_habitable", row.habitable, 3)
    if row.line == "contents":
        out.append(fact("damaged_items", "text", row.item,
                        phrase(SAY["damaged_items"], n, row.item, style)))
        if row.value:
            out.append(fact("items_value", "money",
                            {"amount": row.value, "currency": row.currency},
                            voiced(["It cost {m}.", "It was worth {m}.", "About {m} in total.",
                                    "{m} altogether."][n % 4], style, n)
                            .replace("{m}", money_words(row.value, row.currency))))
    yes_no("injuries", row.injured, 4)
    if row.police_ref:
        later = None
        if "police_never" in row.features:
            due = spoken_date(row.incident + dt.timedelta(days=10 + n % 5))
            later = {"describe_before": voiced(LATER_POLICE[n % 3].format(d=due), style, n),
                     "arrives": None}
        out.append(fact("police_reference", "text", row.police_ref,
                        phrase(SAY["police_reference"], n, row.police_ref, style), later))
    return out


def persona(row: Row, n: int, files: Files) -> dict[str, Any]:
    pool = voices()[row.style]
    v = pool[n % len(pool)]
    hands = [d.handed_over for d in files.docs if d.handed_over]
    asks = []
    if row.ask:
        asks.append({"text": row.ask, "kind": "question", "after_messages": 3 + n % 3})
    if row.person:
        asks.append({"text": row.person, "kind": "person", "after_messages": 4 + n % 2})
    return {"version": "0.3", "name": row.name, "personality": v["personality"],
            "speaking_style": v["speaking_style"], "dont_know_phrase": v["dont_know"],
            "volunteers_information": False, "correction_phrase": v["correction"],
            "hands_over": hands, **({"asks": asks} if asks else {})}


def materials(row: Row, n: int, files: Files) -> dict[str, Any]:
    items = [{"file": files.photo.file, "evidence_kind": files.photo.kind,
              "label": files.photo.label, "availability": "at_start"}]
    for d in files.docs:
        entry: dict[str, Any] = {"file": d.file, "evidence_kind": d.kind, "label": d.label,
                                 "availability": "later" if d.later else "at_start"}
        if d.later:
            entry["later"] = {"describe_before": voiced(LATER_FILE[n % 4], row.style, n),
                              "arrives": d.later}
        items.append(entry)
    return {"version": "0.3", "materials": items}
