"""The staff decision step: a product whose profile has no decision controls (Kestrel) records
not_implemented and never touches a browser; the reference profile's controls are complete."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import ValidationError

import claims_corpus
import harness
from claims_corpus.formats import StaffScript
from claims_records import DecisionRecord
from harness.profile import DecisionControls, Profile
from harness.trial import DECISION_FILE, TrialContext, TrialSettings
from harness.trial._decision import decide_and_return
from harness.trial._record import Journey

PACKS = Path(__file__).resolve().parents[3] / "packs"


def _context(profile: Profile, script: StaffScript | None, journey: Journey) -> TrialContext:
    """A trial's context with no browser, lane, reset, customer or staff session: nothing of
    them may be touched."""
    return TrialContext(
        browser=None, lane=None, reset=None, settings=TrialSettings(),  # type: ignore[arg-type]
        setup=SimpleNamespace(staff_script=script), view=None,  # type: ignore[arg-type]
        customer=None, journey=journey, outcome=None,  # type: ignore[arg-type]
        customer_side=profile.customer_side(), staff_side=profile.staff_side(), headers={},
        staff=None)


@pytest.mark.asyncio
async def test_a_product_without_decision_controls_records_not_implemented(tmp_path) -> None:
    profile = harness.load_profile("kestrel")
    assert not profile.decision.present
    script = claims_corpus.load_setup(PACKS / "CTL-M-001").staff_script
    assert script is not None
    j = Journey(folder=tmp_path, claim_number="KC-1")
    rec = await decide_and_return(_context(profile, script, j))
    assert rec is not None and rec.outcome == "not_implemented"
    saved = DecisionRecord.model_validate_json((tmp_path / DECISION_FILE).read_text())
    assert saved.outcome == "not_implemented" and "[decision]" in saved.detail
    assert not (tmp_path / "state-after-decision.json").exists()


@pytest.mark.asyncio
async def test_no_staff_script_no_decision_step(tmp_path) -> None:
    profile = harness.load_profile("reference")
    rec = await decide_and_return(_context(profile, None, Journey(folder=tmp_path)))
    assert rec is None and not (tmp_path / DECISION_FILE).exists()


def test_decision_controls_are_all_or_nothing() -> None:
    assert harness.load_profile("reference").decision.present
    with pytest.raises(ValidationError, match="decision controls need"):
        DecisionControls(confirm="#go", approve="#a")
    with pytest.raises(ValidationError, match="map to no canonical code"):
        DecisionControls(confirm="#go", approve="#a", amend_amount="#b", decline="#c",
                         return_for_info="#d", note="#n", amount="#m", customer_status="#s",
                         status_words={"Paid": "paid"})


def test_a_staff_script_fits_its_decision() -> None:
    with pytest.raises(ValidationError, match="amount"):
        StaffScript(decision="amend_amount", note="Settled at the quote.")
    with pytest.raises(ValidationError, match="requested"):
        StaffScript(decision="return_for_info", note="Please send the crime reference.")
    with pytest.raises(ValidationError, match="amount"):
        StaffScript(decision="approve", note="All in order here.",
                    amount={"amount": 5, "currency": "GBP"})
