"""Packs for Heron Mutual's in-process tests: a pack's setup written into Heron's tables, and
a customer that answers each open question from the pack's facts.json and uploads its files
when asked (the scripted customer's behaviour, without a browser)."""

from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from claims_corpus.formats import MoneyConventions
from claims_corpus.formats.matching import is_not_known, kind_of, values_match
from claims_prototype_app import Conversation, Store
from claims_prototype_app import _schema as T
from claims_prototype_app._wording import button, labels

PACKS = Path(__file__).resolve().parents[2] / "packs"
MONEY = MoneyConventions(locale="en_IE", currency="EUR")
FILE_KINDS = {"photo": ("damage_photo", "scene_photo", "item_photo"),
              "repair_quote": ("repair_quote",), "receipt": ("purchase_receipt",)}


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _day(text: str | None) -> dt.date | None:
    return dt.date.fromisoformat(text) if text else None


def load_setup(store: Store, pack: Path) -> None:
    """The baseline's and the pack's customers, policies and prior claims, in Heron's
    tables (what the harness's SQL reset will do through the profile's mapping)."""
    docs: dict[str, list[dict[str, Any]]] = {}
    for source in (load_json(PACKS / "baseline.json"), load_json(pack / "setup.json")):
        for name, rows in source["collections"].items():
            docs.setdefault(name, []).extend(rows)
    with store.engine.begin() as conn:
        for c in docs.get("customers", []):
            conn.execute(sa.insert(T.policyholders).values(
                id=c["_id"], name=c["name"], email=c.get("email"), phone=c.get("phone")))
        for p in docs.get("policies", []):
            conn.execute(sa.insert(T.policies).values(
                id=p["_id"], policy_number=p["policy_number"], holder_id=p["customer_id"],
                line=p["line"], start_date=_day(p.get("start_date")),
                end_date=_day(p.get("end_date")),
                status=p["status"], vehicle_registration=p.get("vehicle_registration"),
                property_address=p.get("property_address"),
                excess=Decimal(str(p["excess"])) if p.get("excess") is not None else None))
        for h in docs.get("prior_claims", []):
            conn.execute(sa.insert(T.claim_history).values(
                id=h["_id"], holder_id=h["customer_id"], policy_number=h["policy_number"],
                claim_date=_day(h["claim_date"]), line=h.get("line"), status=h.get("status")))


class PackCustomer:
    """Plays one pack: the opening message, then an answer to whatever is asked."""

    def __init__(self, pack: Path) -> None:
        self.pack = pack
        self.facts = {f["key"]: f for f in load_json(pack / "input/facts.json")["facts"]}
        self.persona = load_json(pack / "input/persona.json")
        self.materials = load_json(pack / "input/materials.json")["materials"]
        self.said: list[str] = []
        self.requests: dict[str, int] = {}
        self.uploaded: list[str] = []
        self.asks = list(self.persona.get("asks") or [])
        self.corrected: list[str] = []

    def play(self, c: Conversation, steps: int = 60) -> str:
        """Play until a claim number is given; the claim number."""
        self.send(c, (self.pack / "input/initial_message.txt").read_text("utf-8").rstrip("\n"))
        for _ in range(steps):
            if c.claim_number:
                return c.claim_number
            for ask in list(self.asks):
                if len(self.said) >= ask["after_messages"]:
                    self.asks.remove(ask)
                    self.send(c, ask["text"])
            self.hand_over(c, "after_actions")
            kind, key = c.open
            if kind == "fact":
                self.answer(c, key)
            elif kind == "file":
                self.file(c, key)
            elif kind == "line":  # the policy was not found twice: what the claim is about
                self.send(c, button(load_json(self.pack / "oracle/labels.json")["line"]))
            elif kind == "summary":
                self.hand_over(c, "before_confirming")
                wrong = self.wrong_details(c.latest.text)
                self.corrected.extend(wrong)
                if self.corrected.count(wrong[0] if wrong else "") > 2:
                    raise AssertionError(f"{self.pack.name}: correction ignored: {wrong}")
                self.send(c, " ".join([self.persona["correction_phrase"], *wrong]) if wrong
                          else "Yes, that's all correct.")
            else:
                raise AssertionError(f"{self.pack.name}: nothing to answer: {c.open} "
                                     f"{c.latest.text}")
        raise AssertionError(f"{self.pack.name}: no claim number after {steps} steps")

    def send(self, c: Conversation, text: str) -> None:
        self.said.append(text)
        c.say(text)
        self.hand_over(c, "after_actions")

    def hand_over(self, c: Conversation, when: str) -> None:
        """Upload the files the persona hands over unasked, at their moment."""
        for h in self.persona.get("hands_over") or []:
            if h["when"] != when or h["file"] in self.uploaded:
                continue
            if when == "after_actions" and len(self.said) + len(self.uploaded) < \
                    h["after_actions"]:
                continue
            m = next(m for m in self.materials if m["file"] == h["file"])
            if m["availability"] == "later" and not self._arrived(
                    (m.get("later") or {}).get("arrives"), m["file"]):
                continue
            path = self.pack / "input/materials" / h["file"]
            self.uploaded.append(h["file"])
            c.upload(path.name, path.read_bytes(), "application/pdf")

    def wrong_details(self, summary: str) -> list[str]:
        """``Label: what the customer says`` for each detail shown wrongly (free text is
        never nit-picked), as the scripted customer corrects a summary."""
        keys = {label: key for key, label in labels().items()}
        out = []
        for line in summary.splitlines():
            label, _, value = line.lstrip("- ").partition(": ")
            key = keys.get(label)
            if key is None:
                continue
            fact = self.facts.get(key)
            later = fact is not None and fact.get("later") and not self._arrived(
                fact["later"].get("arrives"), key)
            if fact is None or later:
                if not is_not_known(value):
                    say = fact["later"]["describe_before"] if fact else \
                        self.persona["dont_know_phrase"]
                    out.append(f"{label}: {say}")
                continue
            kind = kind_of(key, fact["value"])
            if kind == "text" and " " in str(fact["value"]).strip():
                if is_not_known(value):
                    out.append(f"{label}: {fact['say']}")
                continue
            if is_not_known(value) or not values_match(kind, fact["value"], value, MONEY):
                out.append(f"{label}: {fact['say']}")
        return out

    def answer(self, c: Conversation, key: str) -> None:
        fact = self.facts.get(key)
        self.requests[key] = self.requests.get(key, 0) + 1
        if fact is None:
            self.send(c, self.persona["dont_know_phrase"])
        elif fact.get("later") and not self._arrived(fact["later"].get("arrives"), key):
            self.send(c, fact["later"]["describe_before"])
        else:
            self.send(c, fact["say"])

    def _arrived(self, arrives: dict[str, int] | None, name: str) -> bool:
        if not arrives:
            return False
        if "after_messages" in arrives:
            return len(self.said) >= arrives["after_messages"]
        if "after_requests" in arrives:
            return self.requests.get(name, 0) >= arrives["after_requests"]
        return len(self.said) + len(self.uploaded) >= arrives.get("after_actions", 10**6)

    def file(self, c: Conversation, kind: str) -> None:
        m = next((m for m in self.materials if m["evidence_kind"] in FILE_KINDS[kind]
                  and m["file"] not in self.uploaded), None)
        if m is None:
            self.send(c, "I don't have anything like that, sorry.")
            return
        self.requests[m["file"]] = self.requests.get(m["file"], 0) + 1
        if m["availability"] == "later" and not self._arrived(
                (m.get("later") or {}).get("arrives"), m["file"]):
            self.send(c, m["later"]["describe_before"])
            return
        path = self.pack / "input/materials" / m["file"]
        mime = "application/pdf" if path.suffix == ".pdf" else "image/jpeg"
        self.uploaded.append(m["file"])
        c.upload(path.name, path.read_bytes(), mime)
        for h in self.persona.get("hands_over") or []:
            if h["when"] == "with_first_upload" and h["file"] not in self.uploaded:
                other = self.pack / "input/materials" / h["file"]
                self.uploaded.append(h["file"])
                c.upload(other.name, other.read_bytes(), "application/pdf")
