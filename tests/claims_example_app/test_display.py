"""How Kestrel shows stored answer values to its staff."""

from __future__ import annotations

from claims_example_app._display import show_value


def test_money_is_shown_as_money_whatever_form_it_is_stored_in():
    assert show_value("items_value", 1850, {}) == "£1,850"
    assert show_value("items_value", 1234.5, {}) == "£1,234.50"
    # a pack's money value as its JSON holds it: the amount in its own currency, never the dict
    assert show_value("items_value", {"amount": 2400, "currency": "NZD"}, {}) == "NZ$2,400"
    assert show_value("items_value", {"amount": 99.9, "currency": "GBP"}, {}) == "£99.90"
