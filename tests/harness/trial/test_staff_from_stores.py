"""A product without a staff screen whose profile says where its stores keep the staff side
(Heron): the trial dumps the state after the journey once, writes it to state-after.json and
reads staff.json from it; evidence off, a product error or a dump that fails behave as they
do for any product. The browser, the journey and the product's stores are stand-ins."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from claims_records import (
    SeedError,
    StaffReading,
    StateDump,
    TrialStatus,
)
from harness import ResetAdapter, ResetOutcome, TrialRig, TrialSettings, load_profile, run_trial
from harness.profile import Profile
from harness.trial import _after, _run

pytestmark = [pytest.mark.asyncio]

PACKS = Path(__file__).resolve().parents[3] / "packs"
NUMBER = "HM-2026-000002"
CLAIM = {"_id": NUMBER, "status": "submitted",
         "triage": {"class": "standard", "reasons": ["theft"], "urgency": "normal"},
         "review": {"review_required": True, "checks": {"receipt_after_incident": "hit"}},
         "facts": {"incident_date": {"value": "2026-02-21", "state": "confirmed"}}}
WAITING = {"1": {"_id": "1", "kind": "question", "text": "Will you call me?",
                 "claim_number": NUMBER}}


class _Tab:
    """The customer's tab, without a browser."""

    def __init__(self, *_args: Any, **_kw: Any) -> None:
        pass

    def open(self) -> None:
        pass

    async def page(self) -> object:
        return object()

    async def storage_state(self) -> None:
        return None

    async def close(self, keep_trace: bool) -> None:
        pass

    def redact(self, folder: Path, secrets: list[str]) -> None:
        pass

    def discard(self) -> None:
        pass


class _Browser:
    def is_connected(self) -> bool:
        return True


class _Stores(ResetAdapter):
    """The product's stores: every dump counted; ``fail`` makes a dump fail."""

    name = "test"

    def __init__(self, profile: Profile, fail: bool = False) -> None:
        super().__init__(profile, profile.resolved_lanes()[0], PACKS)
        self.fail = fail
        self.dumps = 0

    def reset(self, setup: Any, files: Any) -> ResetOutcome:
        return ResetOutcome(adapter=self.name, claimant_session=setup.claimant_session,
                            customer_credentials=None, staff_credentials=None, took_ms=0.0,
                            verified=True)

    def state(self) -> StateDump:
        self.dumps += 1
        if self.fail and self.dumps > 1:  # the state before is taken, the one after fails
            raise SeedError("the database went away", database="heron_dev_lane1")
        return StateDump(taken_at=dt.datetime.now(dt.UTC).isoformat(), database="heron_dev",
                         bucket="", collections={"claims": {NUMBER: CLAIM},
                                                 "waiting_list": WAITING}, objects={})


async def _trial(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, pack: str = "CTL-C-001",
                 prof: Profile | None = None, stop: TrialStatus | None = None,
                 fail: bool = False, **settings: Any) -> tuple[_Stores, StaffReading, Any]:
    async def play(cp: Any, view: Any, outcome: Any, customer: Any, j: Any, _s: Any) -> None:
        j.claim_number = NUMBER
        if stop is None:
            j.stop("claim_number", f"claim number {NUMBER} shown")
        else:
            j.stop("product_error", "the product showed an error", stop)

    monkeypatch.setattr(_run, "CustomerTab", _Tab)
    monkeypatch.setattr(_after, "play", play)
    monkeypatch.setattr(_after, "CustomerPage", lambda *_args: object())
    prof = prof or load_profile("heron")
    stores = _Stores(prof, fail=fail)
    rig = TrialRig(_Browser(), prof, prof.resolved_lanes()[0], stores,  # type: ignore[arg-type]
                   lambda view, _dir: _Customer(), TrialSettings(**settings))
    folder = tmp_path / pack / "trial-1"
    result = await run_trial(rig, PACKS / pack, 1, folder)
    reading = StaffReading.model_validate_json((folder / "staff.json").read_text())
    return stores, reading, (result, folder)


class _Customer:
    async def aclose(self) -> None:
        return None


@pytest.mark.parametrize("pack", ["CTL-C-001", "CTL-M-005"],
                         ids=["with-a-staff-decision", "without"])
async def test_the_staff_side_is_read_from_the_state_dumped_once_after_the_journey(
        monkeypatch, tmp_path, pack):
    stores, reading, (result, folder) = await _trial(monkeypatch, tmp_path, pack)
    assert result.status == TrialStatus.COMPLETED
    assert stores.dumps == 2  # before the journey, and after it (read for staff.json)
    assert (reading.source, reading.found, reading.claim_number) == ("stores", True, NUMBER)
    assert (reading.triage_class, reading.review_required) == ("standard", True)
    assert reading.checks["receipt_after_incident"].outcome == "hit"
    assert [(i.kind, i.text) for i in reading.waiting_list] == [("question",
                                                                   "Will you call me?")]
    after = json.loads((folder / "state-after.json").read_text())
    assert after["collections"]["claims"][NUMBER]["_id"] == NUMBER


async def test_a_product_without_the_section_still_has_no_staff_side(monkeypatch, tmp_path):
    bare = load_profile("heron").model_copy(update={"staff_stores": None})
    stores, reading, (result, _folder) = await _trial(monkeypatch, tmp_path, "CTL-M-005",
                                                      prof=bare)
    assert result.status == TrialStatus.COMPLETED and stores.dumps == 2
    assert (reading.source, reading.available, reading.found) == ("staff_screen", False, False)


@pytest.mark.parametrize(("kw", "error", "dumps"), [
    ({"evidence": False}, "not read: evidence off", 0),
    ({"stop": TrialStatus.PRODUCT_ERROR}, "not read: product error", 2),
    # the dump for the staff side fails: the trial tries once more at its end, as it does
    # for any product, and notes the failure in the journey
    ({"fail": True, "pack": "CTL-M-005"},
     "not read: the state after the journey was not taken: the database went away", 3),
], ids=["evidence-off", "product-error", "dump-fails"])
async def test_evidence_off_a_product_error_and_a_failed_dump_are_not_read(
        monkeypatch, tmp_path, kw, error, dumps):
    stores, reading, (_result, folder) = await _trial(monkeypatch, tmp_path, **kw)
    assert reading.error is not None and reading.error.startswith(error)
    assert not reading.found and stores.dumps == dumps
    assert (folder / "state-after.json").is_file() == (dumps == 2)
    notes = (folder / "journey.jsonl").read_text()
    assert ("state after the journey not taken" in notes) == ("fail" in kw)
