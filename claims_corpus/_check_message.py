"""The first message states only what the pack's facts hold (packs/STANDARD.md section 3: a
style changes the wording, never a fact).

Every date, clock time, amount naming its currency and registration the message writes must
be a value of the pack's facts (their values or their wordings: a time inside a known time
window counts), and a word of damage beyond repair ("written off", "total loss") is allowed
only where a fact says so too. Anything else contradicts the facts: the scripted customer
would later correct itself, and a product that believed the first message is graded against
facts the message denied.

A pack under the ``two_claims`` pressure reports a second incident in the same message, with
values of its own: there, a value of a kind (a date, say) that the facts do not hold is the
second incident's, as long as the message also states a value of that kind the facts do hold.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

from claims_records import PackError

from . import _io
from ._check_pack import Problem
from .formats import Facts, Labels, Money, TimeWindow
from .formats.matching import find_times, parse_date
from .formats.money import find_amounts, same_amount

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_DATES = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{4}\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+\d{{4}}\b"
    rf"|\b{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}\b", re.I)
_REGISTRATION = re.compile(r"\b[A-Z]{2}\d{2}\s?[A-Z]{3}\b")
# Damage beyond repair: a message may say it only where a fact does.
BEYOND_REPAIR = ("written off", "write-off", "write off", "writeoff", "total loss",
                 "totalled", "totaled", "beyond repair", "burnt out", "burned out",
                 "completely destroyed", "destroyed")


def _alnum(text: str) -> str:
    return re.sub(r"[^0-9a-z]", "", text.lower())


def _dates(text: str) -> list[tuple[str, dt.date]]:
    out = []
    for m in _DATES.finditer(text):
        day = parse_date(m.group(0))
        if day is not None:
            out.append((m.group(0), day))
    return out


def _minutes(t: tuple[int, int]) -> int:
    return t[0] * 60 + t[1]


def _damage(text: str) -> list[str]:
    low = text.lower()
    return [w for w in BEYOND_REPAIR if re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", low)]


def message_problems(pack: str, pack_dir: Path) -> list[Problem]:
    """Every value of the first message that the pack's facts do not hold."""
    try:
        message = _io.read_bytes(pack_dir / _io.INITIAL_MESSAGE, pack=pack,
                                 file=_io.INITIAL_MESSAGE).decode("utf-8")
        facts = _io.read_model(pack_dir / _io.FACTS, Facts, pack=pack, file=_io.FACTS)
    except (PackError, UnicodeDecodeError):
        return []  # check_pack reports the file
    try:
        labels = _io.read_model(pack_dir / _io.LABELS, Labels, pack=pack, file=_io.LABELS)
        second_claim = "two_claims" in labels.pressure
    except PackError:
        second_claim = False
    texts = [t for f in facts.facts for t in (str(f.value), f.say)]
    # kind -> (what the message wrote, whether the facts hold it)
    stated: dict[str, list[tuple[str, bool]]] = {}

    def state(kind: str, written: str, held: bool) -> None:
        stated.setdefault(kind, []).append((written, held))

    known_dates = {day for t in texts for _, day in _dates(t)}
    known_dates |= {d for f in facts.facts if isinstance(f.value, str)
                    and (d := parse_date(f.value)) is not None and f.kind == "date"}
    for written, day in _dates(message):
        state("date", repr(written), day in known_dates)
    without_dates = _DATES.sub(" ", message)

    windows = [(_minutes(w[0]), _minutes(w[1])) for f in facts.facts
               if isinstance(f.value, TimeWindow)
               and (w := (find_times(f.value.earliest)[:1] + find_times(f.value.latest)[:1]))
               and len(w) == 2]
    known_times = {_minutes(t) for x in texts for t in find_times(_DATES.sub(" ", x))}
    for t in find_times(without_dates):
        m = _minutes(t)
        state("time", f"{t[0]:02d}:{t[1]:02d}",
              m in known_times or any(lo <= m <= hi for lo, hi in windows))

    money = [f.value for f in facts.facts if isinstance(f.value, Money)]
    said = [a for t in texts for a in find_amounts(t) if a.currencies]
    for a in find_amounts(message):
        if not a.currencies:
            continue  # a bare number is no amount
        state("amount", f"{a.mark}{a.amount}",
              any(same_amount(a.amount, Decimal(str(m.amount))) and m.currency in a.currencies
                  for m in money)
              or any(same_amount(a.amount, s.amount) and bool(a.currencies & s.currencies)
                     for s in said))

    plates = {_alnum(p) for t in texts for p in _REGISTRATION.findall(t)}
    for plate in _REGISTRATION.findall(message):
        state("registration", repr(plate), _alnum(plate) in plates)

    known_damage = {w for t in texts for w in _damage(t)}
    for word in _damage(message):
        state("damage", repr(word), bool(known_damage))
    found = [f"the {kind} {written}" for kind, values in stated.items()
             for written, held in values
             if not held and not (second_claim and any(h for _, h in values))]
    if not found:
        return []
    return [Problem(pack, _io.INITIAL_MESSAGE, "<text>",
                    f"states {', '.join(found)}, which {_io.FACTS} does not hold: the first "
                    "message may state only the pack's facts (a style changes the wording, "
                    "never a fact; packs/STANDARD.md section 3)")]

