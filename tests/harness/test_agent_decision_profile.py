"""``[agent_decision]``: the words a product's own agent uses for a decision it tells the
customer. Loaded strictly, refused with the key named, absent by default (no browser)."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims_records import ProfileError
from harness import load_profile
from harness.profile import HEDGE_WORDS, AgentDecisionWords

from .profiles import bare_profile

PROFILE = bare_profile("settling-bot", top='locale = "en_IE"\ncurrency = "EUR"\n')


def _load(tmp_path: Path, section: str) -> AgentDecisionWords | None:
    path = tmp_path / "product.toml"
    path.write_text(PROFILE + section, encoding="utf-8")
    return load_profile(path).agent_decision


def test_a_profile_without_the_section_reads_no_agent_decision(tmp_path: Path) -> None:
    assert _load(tmp_path, "") is None
    assert load_profile("kestrel").agent_decision is None


def test_the_reference_profile_reads_the_staff_decisions_words_as_an_agent_decision() -> None:
    words = load_profile("reference").agent_decision
    assert words is not None
    assert words.outcomes() == {"approved": ["your claim has been approved"],
                                "declined": ["your claim has been declined"]}


def test_the_section_gives_phrases_per_outcome_amount_words_and_hedges(tmp_path: Path) -> None:
    words = _load(tmp_path, """
[agent_decision]
approved = ["Decision: approved", "settled at"]
declined = ["Decision: declined"]
amount_words = ["payable"]
""")
    assert words is not None
    assert words.outcomes() == {"approved": ["Decision: approved", "settled at"],
                                "declined": ["Decision: declined"]}
    assert words.amount_words == ["payable"]
    assert words.hedge_words == list(HEDGE_WORDS)
    assert words.describe() == ("approved 'Decision: approved' | 'settled at'; declined "
                                "'Decision: declined'; amount by 'payable'")
    own = _load(tmp_path, '[agent_decision]\ndeclined = ["abgelehnt"]\n'
                          'hedge_words = ["nicht", "falls"]\n')
    assert own is not None and (own.approved, own.hedge_words) == ([], ["nicht", "falls"])


@pytest.mark.parametrize(("section", "field", "message"), [
    ("[agent_decision]\namount_words = ['payable']\n", "agent_decision",
     "phrases for 'approved', 'declined' or both"),
    ("[agent_decision]\napproved = ['Approved!']\ndeclined = ['approved']\n", "agent_decision",
     "stand for both approved and declined"),
    ("[agent_decision]\napproved = ['—']\n", "agent_decision.approved", "hold no word"),
    ("[agent_decision]\napproved = ['approved']\namount_words = ['']\n",
     "agent_decision.amount_words", "hold no word"),
    ("[agent_decision]\napproved = ['approved']\nhedge_words = [' ! ']\n",
     "agent_decision.hedge_words", "hold no word"),
    ("[agent_decision]\napproved = 'approved'\n", "agent_decision.approved",
     "valid list"),
    ("[agent_decision]\napproved = ['approved']\nsettled = ['settled']\n",
     "agent_decision.settled", "Extra inputs are not permitted"),
])
def test_bad_values_are_refused_with_the_key_named(tmp_path: Path, section: str, field: str,
                                                   message: str) -> None:
    with pytest.raises(ProfileError) as err:
        _load(tmp_path, section)
    assert err.value.context["field"] == field
    assert message in err.value.message
