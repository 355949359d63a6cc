"""Which facts each line needs and in what order, which materials are asked for, and reading
a fact from a direct answer or from free text."""

from __future__ import annotations

from .._parsing import (
    find_dates,
    find_times,
    parse_date,
    parse_money,
    parse_police_reference,
    parse_policy_number,
    parse_registration,
    parse_registration_answer,
    parse_time,
    parse_time_window,
    parse_yes_no,
)

FACT_KINDS: dict[str, str] = {
    "policy_number": "text",
    "incident_date": "date",
    "incident_time": "time",
    "incident_type": "choice",
    "incident_description": "text",
    "incident_location": "text",
    "injuries": "yes_no",
    "vehicle_registration": "text",
    "vehicle_driveable": "yes_no",
    "third_party_involved": "yes_no",
    "property_habitable": "yes_no",
    "damaged_items": "text",
    "items_value": "money",
    "police_reference": "text",
}

LINES = ("motor", "home", "contents")

NEEDED_FACTS: dict[str, tuple[str, ...]] = {
    "motor": (
        "policy_number",
        "incident_date",
        "incident_time",
        "incident_type",
        "incident_location",
        "incident_description",
        "vehicle_registration",
        "vehicle_driveable",
        "third_party_involved",
        "injuries",
    ),
    "home": (
        "policy_number",
        "incident_date",
        "incident_time",
        "incident_type",
        "incident_description",
        "property_habitable",
        "injuries",
    ),
    "contents": (
        "policy_number",
        "incident_date",
        "incident_time",
        "incident_type",
        "incident_description",
        "damaged_items",
        "items_value",
        "injuries",
    ),
}
COMMON_FACTS = (
    "policy_number",
    "incident_date",
    "incident_time",
    "incident_type",
    "incident_description",
)

INCIDENT_TYPES: dict[str, tuple[str, ...]] = {
    "motor": ("collision", "theft", "windscreen", "vandalism", "other"),
    "home": ("escape_of_water", "storm", "fire", "other"),
    "contents": ("theft", "accidental_damage", "other"),
}
_TYPE_WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    "motor": {
        "collision": (
            "collision",
            "crash",
            "collided",
            "hit",
            "bump",
            "ran into",
            "drove into",
            "accident",
            "rear-end",
            "rear end",
            "reversed into",
        ),
        "theft": ("theft", "stolen", "stole", "nicked"),
        "windscreen": ("windscreen", "windshield", "glass"),
        "vandalism": ("vandal", "keyed", "deliberately", "smashed"),
    },
    "home": {
        "escape_of_water": ("escape of water", "water", "leak", "pipe", "flood", "burst"),
        "storm": ("storm", "wind", "gale", "hail", "tiles"),
        "fire": ("fire", "smoke", "burn", "flames"),
    },
    "contents": {
        "theft": ("theft", "stolen", "stole", "burgl", "nicked"),
        "accidental_damage": (
            "accidental",
            "accident",
            "dropped",
            "broke",
            "broken",
            "spilled",
            "cracked",
            "damage",
        ),
    },
}
_OTHER_WORDS = ("something else", "other", "none of these")


def needed_facts(line: str | None, incident_type: str | None = None) -> list[str]:
    """The facts to ask for, in order; ``police_reference`` for theft or vandalism."""
    keys = list(NEEDED_FACTS[line]) if line in NEEDED_FACTS else list(COMMON_FACTS)
    if incident_type in ("theft", "vandalism"):
        keys.append("police_reference")
    return keys


def materials_needed(line: str | None, incident_type: str | None) -> list[str]:
    """Evidence kinds to ask for: always a photo; a quote or a receipt by line and type.
    (A customer may hand over other documents unasked; they are read all the same.)"""
    kinds = ["damage_photo"]
    if (
        line == "motor" and incident_type in ("collision", "vandalism", "windscreen")
    ) or line == "home":
        kinds.append("repair_quote")
    if line == "contents":
        kinds.append("purchase_receipt")
    return kinds


def parse_choice(line: str | None, text: str, labels: dict[str, str] | None = None) -> str | None:
    """An incident type of ``line`` named in ``text`` (by chip label first, then by words)."""
    options = INCIDENT_TYPES.get(line or "", ())
    low = text.strip().lower()
    for code in options:
        if labels and labels.get(code, "").lower() == low:
            return code
        if code.replace("_", " ") == low or code == low:
            return code
    for code, words in _TYPE_WORDS.get(line or "", {}).items():
        if any(w in low for w in words):
            return code
    if any(w in low for w in _OTHER_WORDS) and "other" in options:
        return "other"
    return None


def parse_fact(
    key: str, text: str, line: str | None = None, labels: dict[str, str] | None = None
) -> str | int | float | bool | dict[str, int | float | str] | None:
    """The value of fact ``key`` in a direct answer, by the fact's kind (money as
    ``{"amount", "currency"}``); None if unreadable."""
    kind = FACT_KINDS.get(key, "text")
    if key == "policy_number":
        return parse_policy_number(text)
    if key == "police_reference":
        return parse_police_reference(text)
    if key == "vehicle_registration":
        return parse_registration_answer(text)
    if kind == "date":
        return parse_date(text)
    if kind == "time":
        return parse_time_window(text) or parse_time(text)
    if kind == "yes_no":
        return parse_yes_no(text)
    if kind == "money":
        return parse_money(text)
    if kind == "choice":
        return parse_choice(line, text, labels)
    cleaned = text.strip()
    return cleaned[:500] if len(cleaned) >= 2 else None


def extract_facts(text: str) -> dict[str, str]:
    """Facts that can be read reliably from free text: one absolute date, one time, a
    registration plate and a policy number (only when exactly one of each is present)."""
    out: dict[str, str] = {}
    dates = {v for _, _, v in find_dates(text)}
    if len(dates) == 1:
        out["incident_date"] = dates.pop()
    window = parse_time_window(text)
    times = {v for _, _, v in find_times(text)}
    if window:
        out["incident_time"] = window
    elif len(times) == 1:
        out["incident_time"] = times.pop()
    reg = parse_registration(text)
    if reg:
        out["vehicle_registration"] = reg
    policy = parse_policy_number(text)
    if policy:
        out["policy_number"] = policy
    return out
