"""Showing stored answer values to people: dates, times, yes/no, money, types."""

from __future__ import annotations

from datetime import date
from typing import Any

from claims_corpus.formats.money import as_money, format_money
from claims_reference_app import rules


def show_value(key: str, value: Any, type_words: dict[str, str], yes: str = "Yes",
               no: str = "No") -> str:
    """``value`` of canonical detail ``key`` as a person would write it."""
    if value is None:
        return ""
    kind = rules.FACT_KINDS.get(key, "text")
    if kind == "yes_no" and isinstance(value, bool):
        return yes if value else no
    if kind == "date":
        try:
            return date.fromisoformat(str(value)).strftime("%-d %B %Y")
        except ValueError:
            return str(value)
    if kind == "money" and isinstance(value, int | float):
        return f"£{value:,.2f}".removesuffix(".00")
    if kind == "money" and isinstance(value, dict):  # {"amount", "currency"}, as packs hold it
        money = as_money(value)
        if money is not None:
            return format_money(money)
    if kind == "choice":
        return type_words.get(str(value), str(value))
    return str(value)
