"""Packs of the corpus driven through the engine with their scripted facts, to a claim number:
the stored claim agrees with the pack's labels (triage, review checks, reasons, facts), and the
decision follows Heron Mutual's authority (fast-track claims within the limit settled, every
other claim referred)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from claims_corpus.formats.matching import kind_of, values_match
from claims_prototype_app import CLAIM_NUMBER_PATTERN, Conversation, Store
from claims_prototype_app._answers import shown

from ._packs import MONEY, PACKS, PackCustomer, load_json

# One pack of each line and of the harder paths: fast track, a review hit, a time window and
# a receipt, a fact to follow, a file handed over unasked, a foreign plate, two incidents.
FAST = ["CTL-M-004", "CTL-M-001", "CTL-H-005", "CTL-C-003", "CTL-C-004", "CTL-M-020",
        "CTL-M-010", "CTL-C-015"]
ALL = sorted(p.name for p in PACKS.glob("CTL-*") if p.is_dir())


def play_and_check(make: Callable[[str], Conversation], store: Store, pack_id: str) -> None:
    pack: Path = PACKS / pack_id
    c = make(pack_id)
    number = PackCustomer(pack).play(c)
    assert re.fullmatch(CLAIM_NUMBER_PATTERN, number)
    assert f"Your claim number is {number}." in c.latest.text
    labels = load_json(pack / "oracle/labels.json")
    [claim] = store.rows("claims")
    assert claim["claim_number"] == number and claim["status"] == "open"
    assert claim["policy_number"] == labels["expected_facts"]["policy_number"]
    assert claim["severity"] == labels["triage"]["triage_class"]
    assert claim["details"]["checks"] == labels["review"]["checks"]
    assert claim["review_required"] is labels["review"]["review_required"]
    required = set(labels["triage"]["required_reasons"])
    assert required <= set(claim["details"]["reasons"]) <= required | set(
        labels["triage"]["allowed_reasons"])
    for key, value in labels["expected_facts"].items():
        detail = c.details[key]
        assert detail.state == "confirmed", key
        assert values_match(kind_of(key, value), value, shown(key, detail, c.line), MONEY), key
    for key in labels.get("unknown_facts", {}):
        assert key not in c.details or c.details[key].value is None, key
    settled = claim["decision"] == "approved"
    # docs/prototype-app.md: only a fast-track claim whose every check is clear or
    # not_applicable is approved; a check that could not be made goes to a person
    made = all(o in ("clear", "not_applicable") for o in labels["review"]["checks"].values())
    assert settled is (labels["triage"]["triage_class"] == "fast_track" and made), \
        claim["details"]
    if settled:
        assert re.search(r"Decision: approved — €[\d,]+\.\d\d payable", c.latest.text)
    else:
        assert "Decision: referred to a claims handler." in c.latest.text
        assert "approved" not in c.latest.text
    asked = [m.text for m in c.messages if m.role == "assistant"]
    assert len(asked) == len(set(asked)), "a reply was repeated word for word"


@pytest.mark.parametrize("pack_id", FAST)
def test_pack_to_a_claim_number(pack_conversation: Callable[[str], Conversation], store: Store,
                                pack_id: str) -> None:
    play_and_check(pack_conversation, store, pack_id)


@pytest.mark.slow
@pytest.mark.parametrize("pack_id", sorted(set(ALL) - set(FAST)))
def test_every_other_pack_to_a_claim_number(pack_conversation: Callable[[str], Conversation],
                                            store: Store, pack_id: str) -> None:
    play_and_check(pack_conversation, store, pack_id)
