"""The draft profile for Heron Mutual loads with today's keys and says what Heron is."""

from __future__ import annotations

import re

from claims_prototype_app import CLAIM_NUMBER_PATTERN, Money
from claims_prototype_app._wording import button
from harness.profile import load_profile


def test_the_draft_profile_loads_and_matches_the_product() -> None:
    profile = load_profile("heron")
    assert (profile.name, profile.locale, profile.currency) == ("heron", "en_IE", "EUR")
    assert set(profile.capabilities.absent()) == {
        "customer_accounts", "staff_side", "todo_bar", "facts_panel", "talk_to_person",
        "waiting_list", "runtime_report"}
    assert (profile.reset.adapter, profile.state_source()) == ("none", "none")
    pattern = profile.customer_screen.claim_number_pattern
    assert pattern == CLAIM_NUMBER_PATTERN and re.fullmatch(pattern, "HM-2026-000123")
    assert profile.customer_screen.confirm_labels == [button("confirm")]
    assert profile.dev is not None and "claims_prototype_app" in profile.dev.command
    shown = Money.from_stored("1250.00 EUR").shown()
    assert shown == "€1,250.00"
