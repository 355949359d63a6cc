"""Staff-side claim checks: triage, review signal, facts, incident date and time.

Each check is a pure function of the staff reading and the oracle and returns one
``ComponentResult``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeVar

from pydantic import BaseModel

from claims_corpus.formats import HOME_CONVENTIONS, FactValue, Labels, MoneyConventions
from claims_corpus.formats.matching import (
    collapses_window,
    is_not_known,
    kind_of,
    norm_text,
    values_match,
)
from claims_records import (
    ALL_CHECKS,
    ComponentResult,
    ComponentStatus,
    JsonValue,
    StaffFact,
    StaffReading,
)

V = TypeVar("V")

# Names a StaffReading.not_shown may use for each component's region.
HIDDEN_REGION_NAMES: dict[str, tuple[str, ...]] = {
    "triage": ("triage", "triage_class", "reasons", "triage_reasons"),
    "review": ("review", "review_signal", "review_required"),
    "review_checks": ("checks", "review_checks", "check_outcomes"),
    "facts": ("facts", "staff_facts", "collected_facts"),
    "waiting_list": ("waiting_list", "waiting"),
}

INCIDENT_KEYS: tuple[str, ...] = ("incident_date", "incident_time")


def component(name: str, status: ComponentStatus, explanation: str, modes: Iterable[str] = (),
              /, **details: JsonValue) -> ComponentResult:
    return ComponentResult(name=name, status=status, explanation=explanation,
                           failure_modes=sorted(set(modes)), details=details)


def region_hidden(staff: StaffReading | None, region: str) -> bool:
    if staff is None:
        return False
    if not staff.available:
        return True
    hidden = {norm_text(n).replace(" ", "_") for n in staff.not_shown}
    return any(n in hidden for n in HIDDEN_REGION_NAMES[region])


def hidden(name: str, staff: StaffReading | None, what: str) -> ComponentResult:
    """The not_implemented result of a component whose staff region the product lacks."""
    if staff is not None and not staff.available:
        return component(name, "not_implemented", "the product has no staff side (profile)")
    return component(name, "not_implemented", f"the staff side does not show {what}")


def unmapped(staff: StaffReading | None, kinds: Iterable[str]) -> tuple[list[str], list[str]]:
    """Problems and failure modes for shown words the profile's vocabulary does not map."""
    if staff is None:
        return [], []
    found = [f"{k} {', '.join(repr(w) for w in staff.unmapped[k])}" for k in kinds
             if staff.unmapped.get(k)]
    if not found:
        return [], []
    return [f"shown words not in the profile's vocabulary: {'; '.join(found)}"], ["unmapped_term"]


def _claim_missing(name: str, staff: StaffReading | None) -> ComponentResult | None:
    if staff is None:
        return component(name, "fail", "no staff reading was recorded (staff.json missing)",
                         ["claim_not_found"])
    if not staff.found:
        why = f": {staff.error}" if staff.error else ""
        return component(name, "fail", f"the staff side did not show the claim{why}",
                         ["claim_not_found"])
    return None


def unread(name: str, staff: StaffReading | None, region: str, what: str
           ) -> ComponentResult | None:
    """The result of a component whose staff region is not there to read: ``not_implemented``
    when the product does not show it, a failure when the claim is not found; None when the
    region can be read."""
    if region_hidden(staff, region):
        return hidden(name, staff, what)
    return _claim_missing(name, staff)


def shown_code(text: str) -> str:
    """The reason code a shown reason starts with ('third_party_involved — ...')."""
    m = re.match(r"\s*([a-z][a-z0-9_]*)", text.strip().lower())
    return m[1] if m else text.strip().lower()


def check_triage(staff: StaffReading | None, labels: Labels) -> ComponentResult:
    if region_hidden(staff, "triage"):
        return hidden("triage", staff, "triage")
    missing_claim = _claim_missing("triage", staff)
    if missing_claim:
        return missing_claim
    assert staff is not None
    want = labels.triage
    shown_class = shown_code(staff.triage_class or "") or None
    reasons = [shown_code(r) for r in staff.reasons]
    missing = [r for r in want.required_reasons if r not in reasons]
    allowed = set(want.required_reasons) | set(want.allowed_reasons)
    extra = [r for r in reasons if r not in allowed]
    problems, modes = unmapped(staff, ("triage_class", "reasons"))
    if shown_class != want.triage_class:
        problems.append(f"class {shown_class or 'not shown'}, expected {want.triage_class}")
        modes.append("wrong_triage")
    if missing:
        problems.append(f"missing reason {', '.join(missing)}")
        modes.append("missing_reason")
    if extra:
        problems.append(f"reason outside required and allowed: {', '.join(extra)}")
        modes.append("extra_reason")
    details: dict[str, JsonValue] = {
        "expected_class": want.triage_class, "shown_class": shown_class,
        "shown_reasons": list(reasons), "missing": list(missing), "extra": list(extra)}
    if problems:
        return component("triage", "fail", "; ".join(problems), modes, **details)
    return component("triage", "pass",
                     f"class {shown_class} with reasons {', '.join(reasons) or 'none'}", **details)


def check_review(staff: StaffReading | None, labels: Labels) -> ComponentResult:
    if region_hidden(staff, "review"):
        return hidden("review", staff, "the review signal")
    missing_claim = _claim_missing("review", staff)
    if missing_claim:
        return missing_claim
    assert staff is not None
    want = labels.review
    fired = staff.review_required
    problems, modes = unmapped(staff, ("review_signal", "check_ids", "check_outcomes"))
    details: dict[str, JsonValue] = {
        "expected": want.review_required, "fired": fired,
        "innocent_control": labels.innocent_control,
        "false_positive": bool(fired) and not want.review_required,
        "false_negative": fired is False and want.review_required,
    }
    if fired is None:
        problems.append("review signal not read")
        modes.append("missed_flag" if want.review_required else "false_flag")
    elif fired and not want.review_required:
        problems.append("review signal fired, not required")
        modes.append("false_flag")
        if labels.innocent_control:
            modes.append("innocent_flagged")
    elif not fired and want.review_required:
        problems.append("review signal did not fire, required")
        modes.append("missed_flag")

    checks: dict[str, JsonValue] = {}
    if region_hidden(staff, "review_checks"):
        details["checks_shown"] = False
    else:
        details["checks_shown"] = True
        for check in ALL_CHECKS:
            expected = want.checks[check]
            row = staff.checks.get(check)
            shown = shown_code(row.outcome) if row is not None else None
            ok = shown == expected or (shown is None and expected == "not_applicable")
            checks[check] = {"expected": expected, "shown": shown, "ok": ok}
            if ok:
                continue
            if expected == "not_checked" and shown == "clear":
                problems.append(f"{check} shown clear, but it could not be checked")
                modes.append("not_checked_as_clear")
            else:
                problems.append(f"{check} {shown or 'not shown'}, expected {expected}")
                modes.append("wrong_check_outcome")
                if shown == "hit":
                    modes.append("false_check_hit")
    not_checked = [c for c in ALL_CHECKS if want.checks[c] == "not_checked"]
    details["checks"] = checks
    details["not_checked"] = list(not_checked)
    if problems:
        return component("review", "fail", "; ".join(problems), modes, **details)
    signal = "fired" if fired else "did not fire"
    tail = (f"; not checked (reported apart): {', '.join(not_checked)}" if not_checked
            else "")
    return component("review", "pass", f"review signal {signal} as expected; every check "
                     f"outcome matches{tail}", **details)


def _plain(value: FactValue) -> JsonValue:
    """A fact value as JSON data (money and time windows as objects)."""
    return value.model_dump() if isinstance(value, BaseModel) else value


def _expected_fact(key: str, value: FactValue, shown: StaffFact | None,
                   money: MoneyConventions = HOME_CONVENTIONS
                   ) -> tuple[dict[str, JsonValue], list[str], list[str]]:
    """(details, problems, failure modes) of one expected fact."""
    kind = kind_of(key, value)
    entry: dict[str, JsonValue] = {"expected": _plain(value), "kind": kind, "optional": False}
    if shown is None or (not shown.value.strip() and not is_not_known("", shown.state)):
        entry.update(shown=None, ok=False)
        return entry, [f"{key} missing"], ["missing_fact"]
    entry.update(shown=shown.value, state=shown.state)
    if is_not_known(shown.value, shown.state):
        entry.update(ok=False, not_known=True)
        if kind == "time_window":
            return entry, [f"{key} shown as not known, expected the window {value}"], [
                "window_as_unknown"]
        return entry, [f"{key} shown as not known, expected {_plain(value)!r}"], [
            "missing_fact"]
    match = values_match(kind, value, shown.value, money)
    confirmed = norm_text(shown.state) == "confirmed"
    entry.update(match=match, confirmed=confirmed, ok=match and confirmed)
    problems: list[str] = []
    modes: list[str] = []
    if not match and kind == "time_window" and collapses_window(shown.value):
        problems.append(f"{key} {shown.value!r}: the window {value} was recorded as one time")
        modes.append("window_collapsed")
    elif not match:
        problems.append(f"{key} {shown.value!r}, expected {_plain(value)!r}")
        modes.append("wrong_fact")
    if not confirmed:
        problems.append(f"{key} is {shown.state}, not confirmed")
        modes.append("unconfirmed_fact")
    return entry, problems, modes


def _unknown_fact(key: str, why: str, shown: StaffFact | None
                  ) -> tuple[dict[str, JsonValue], list[str], list[str]]:
    """(details, problems, failure modes) of a fact the customer cannot know."""
    entry: dict[str, JsonValue] = {"expected": "not known", "why": why, "optional": False}
    if shown is None:
        entry.update(shown=None, ok=False)
        return entry, [f"{key} not recorded; expected it recorded as not known"], [
            "missing_fact"]
    entry.update(shown=shown.value, state=shown.state)
    if is_not_known(shown.value, shown.state) or not shown.value.strip():
        entry.update(ok=True)
        return entry, [], []
    entry.update(ok=False)
    return entry, [f"{key} {shown.value!r} invented: the customer does not know it"], [
        "invented_fact"]


def _fact_results(staff: StaffReading, wanted: dict[str, FactValue],
                  optional: dict[str, FactValue], unknown: dict[str, str],
                  money: MoneyConventions = HOME_CONVENTIONS
                  ) -> tuple[list[str], list[str], dict[str, JsonValue]]:
    problems: list[str] = []
    modes: list[str] = []
    per_fact: dict[str, JsonValue] = {}
    for key, value in wanted.items():
        entry, p, m = _expected_fact(key, value, staff.facts.get(key), money)
        per_fact[key] = entry
        problems += p
        modes += m
    for key, why in unknown.items():
        entry, p, m = _unknown_fact(key, why, staff.facts.get(key))
        per_fact[key] = entry
        problems += p
        modes += m
    for key, value in optional.items():
        shown = staff.facts.get(key)
        kind = kind_of(key, value)
        if shown is None or not shown.value.strip() or is_not_known(shown.value, shown.state):
            per_fact[key] = {"expected": _plain(value), "kind": kind, "optional": True,
                             "shown": shown.value if shown else None, "ok": True}
            continue
        match = values_match(kind, value, shown.value, money)
        per_fact[key] = {"expected": _plain(value), "kind": kind, "optional": True,
                         "shown": shown.value, "state": shown.state, "ok": match}
        if not match:
            problems.append(f"optional {key} {shown.value!r}, expected {_plain(value)!r}")
            modes.append("wrong_optional_fact")
    return problems, modes, per_fact


# A shown fact with one of these values (or state ``unknown``) claims no knowledge.
NO_VALUE: frozenset[str] = frozenset(("", "not known", "unknown", "none", "n a", "not given"))


def invented_facts(staff: StaffReading, known: frozenset[str]) -> dict[str, str]:
    """Facts shown with a value whose key the customer does not know (not in facts.json):
    the customer cannot have given them, so the product made them up."""
    return {k: f.value for k, f in staff.facts.items()
            if k not in known and norm_text(f.state) != "unknown"
            and norm_text(f.value) not in NO_VALUE}


def _facts_component(name: str, staff: StaffReading | None, wanted: dict[str, FactValue],
                     optional: dict[str, FactValue], unknown: dict[str, str],
                     known: frozenset[str] | None = None,
                     money: MoneyConventions = HOME_CONVENTIONS) -> ComponentResult:
    not_read = unread(name, staff, "facts", "the facts")
    if not_read:
        return not_read
    assert staff is not None
    problems, modes, per_fact = _fact_results(staff, wanted, optional, unknown, money)
    words, word_modes = unmapped(staff, ("fact_keys", "fact_states"))
    problems, modes = words + problems, word_modes + modes
    invented = invented_facts(staff, known) if known is not None else {}
    if invented:
        problems.append("shown though the customer never knew it: " + ", ".join(
            f"{k} {v!r}" for k, v in invented.items()))
        modes.append("invented_fact")
    if problems:
        return component(name, "fail", "; ".join(problems), modes, facts=per_fact,
                         invented=dict(invented))
    keys = ", ".join(wanted) or "none"
    tail = f"; recorded as not known: {', '.join(unknown)}" if unknown else ""
    return component(name, "pass", f"present, confirmed and matching: {keys}{tail}",
                     facts=per_fact, invented=dict(invented))


def _split(labels: Labels, incident: bool
           ) -> tuple[dict[str, FactValue], dict[str, FactValue], dict[str, str]]:
    """(expected, optional, unknown) facts of the incident date/time, or of everything else."""
    def part(d: dict[str, V]) -> dict[str, V]:
        return {k: v for k, v in d.items() if (k in INCIDENT_KEYS) == incident}

    return part(labels.expected_facts), part(labels.optional_facts), part(labels.unknown_facts)


def check_facts(staff: StaffReading | None, labels: Labels,
                known: frozenset[str] | None = None,
                money: MoneyConventions = HOME_CONVENTIONS) -> ComponentResult:
    """Expected, optional and unknown facts (incident date and time apart); with ``known``
    (the fact keys of the pack's facts.json), any other fact shown with a value is
    ``invented_fact`` (the oracle's unknown facts are judged by their own rule). Amounts
    shown are read by the product's ``money`` conventions."""
    if known is not None:
        known = known | frozenset(labels.unknown_facts)
    return _facts_component("facts", staff, *_split(labels, incident=False), known, money)


def check_incident_datetime(staff: StaffReading | None, labels: Labels) -> ComponentResult:
    """The incident date and time (expected, optional, unknown), on their own."""
    return _facts_component("incident_datetime", staff, *_split(labels, incident=True))
