"""What the customer screen shows, built from a journey (shared by page and fragments)."""

from __future__ import annotations

from datetime import date
from typing import Any

from . import _faults, rules
from ._decisions import status_text
from ._journey import Journey
from ._text import choice_labels, fact_label, material, wording


def display_value(key: str, value: Any, line: str | None) -> str:
    if value is None:
        return ""
    kind = rules.FACT_KINDS.get(key, "text")
    if kind == "yes_no":
        return "Yes" if value else "No"
    if kind == "choice":
        return choice_labels(line).get(str(value), str(value))
    if kind == "date":
        try:
            return date.fromisoformat(str(value)).strftime("%-d %B %Y")
        except ValueError:
            return str(value)
    if kind == "money":
        return display_money(value)
    if kind == "time" and "-" in str(value):
        start, end = str(value).split("-", 1)
        return f"between {start} and {end}"
    return str(value)


CURRENCY_SYMBOLS = {"GBP": "£", "EUR": "€", "NZD": "NZ$", "USD": "US$", "AUD": "A$", "CAD": "C$"}


def display_money(value: Any) -> str:
    """An amount as a customer reads it: '£1,850', 'NZ$2,400', '1,200 CHF'."""
    amount, currency = (value.get("amount"), value.get("currency")) if isinstance(
        value, dict) else (value, "GBP")
    if not isinstance(amount, int | float):
        return str(value)
    text = f"{amount:,.2f}".replace(".00", "")
    symbol = CURRENCY_SYMBOLS.get(str(currency))
    return f"{symbol}{text}" if symbol else f"{text} {currency}"


def canonical_value(value: Any) -> str:
    """A stored fact value as text in its canonical form (yes/no, ISO date, number with its
    currency, code, time or time window)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict) and "amount" in value:
        return f"{canonical_value(value['amount'])} {value.get('currency', 'GBP')}"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


STATE_TEXT = {"unknown": "Not known", "to_follow": "To follow"}


def fact_rows(j: Journey) -> list[dict[str, str]]:
    keys = list(j.needed())
    keys += [k for k in j.facts if k not in keys and k == "police_reference"]
    rows = []
    for key in keys:
        f = j.facts.get(key)
        state = f["state"] if f else "needed"
        value = display_value(key, f["value"], j.line) if f else ""
        rows.append(
            {
                "key": key,
                "label": fact_label(key),
                "value": value or STATE_TEXT.get(state, "—"),
                "state": state,
            }
        )
    return rows


_MATERIAL_STATUS = {
    "requested": "requested",
    "later": "to follow",
    "uploaded": "received",
    "not_provided": "not provided",
}


def material_rows(j: Journey) -> list[dict[str, str]]:
    known = wording()["materials"]
    return [
        {
            "label": material(k, "label") if k in known else k.replace("_", " ").capitalize(),
            "status": _MATERIAL_STATUS.get(m["status"], m["status"]),
        }
        for k, m in j.materials().items()
    ]


def workspace_context(j: Journey, runtime: str) -> dict[str, Any]:
    messages = j.store.messages(j.session_id)
    last = messages[-1] if messages else None
    chips = (
        last["chips"]
        if last and last["role"] == "agent" and not j.session.get("claim_number")
        else []
    )
    confirm_ready = bool(j.state.get("confirm_ready"))
    if runtime == "model" and not j.session.get("claim_number") and j.facts:
        confirm_ready = j.all_needed_filled()
    faults = j.settings.faults
    history = []
    query = _faults.history_query(faults, j.session.get("customer_id"))
    if query is not None:
        history = list(j.db.claims.find(query).sort("created_at", -1).limit(20))
    claim = (j.db.claims.find_one({"_id": j.session["claim_number"]})
             if j.session.get("claim_number") else None)
    decision = (claim or {}).get("decision") if (claim or {}).get("customer_status") else None
    return {
        "messages": messages,
        "claim_status": status_text((claim or {}).get("customer_status")) if claim else None,
        "decision_note": decision.get("note") if decision else None,
        "chips": chips,
        "facts": fact_rows(j),
        "materials": material_rows(j),
        "todo": j.todo(),
        "claim_number": _faults.claim_number_shown(faults, j.session.get("claim_number")),
        "submitted": bool(j.session.get("claim_number")),
        "signin_prompt": bool(j.state.get("signin_prompt")) and not j.signed_in(),
        "confirm_ready": confirm_ready,
        "signed_in": j.signed_in(),
        "customer_name": j.session.get("customer_name"),
        "history": [c for c in history if c["claim_number"] != j.session.get("claim_number")],
    }
