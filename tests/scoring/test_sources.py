"""The source each score came from: the formats that record it, and old records without it."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from pydantic import BaseModel, ValidationError

from claims_records import (
    SCORE_SOURCES,
    ComponentResult,
    Sheet,
    StaffReading,
    StaffSource,
)

# A sheet as the scorer wrote it before sources were recorded (no "source" anywhere).
OLD_SHEET: dict[str, Any] = {
    "version": "1", "run_id": "run-1", "pack_id": "CTL-M-001", "trial": 1,
    "path": "CTL-M-001/trial-1", "self_test": False, "trial_status": "completed",
    "error_category": "none", "scorable": True, "success": True,
    "explanation": "all 2 scored components passed", "line": "motor",
    "message_style": "plain", "innocent_control": False, "review_required": False,
    "components": [
        {"name": "triage", "status": "pass", "explanation": "class standard",
         "failure_modes": [], "details": {}},
        {"name": "journey", "status": "pass", "explanation": "claim number obtained"},
    ],
}
# staff.json as the harness wrote it before the source was kept.
OLD_STAFF: dict[str, Any] = {"version": "1", "claim_number": "NWF-2026-000123", "found": True,
                             "triage_class": "standard", "not_shown": []}


@pytest.mark.parametrize(("model", "data", "read", "expected"), [
    (Sheet, OLD_SHEET, lambda s: [c.source for c in s.components], [None, None]),
    (ComponentResult, OLD_SHEET["components"][0], lambda c: c.source, None),
    (StaffReading, OLD_STAFF, lambda r: r.source, "staff_screen"),
], ids=["sheet", "component", "staff"])
def test_records_written_before_sources_still_load(model: type[BaseModel], data: dict[str, Any],
                                                   read: Any, expected: Any) -> None:
    assert read(model.model_validate(data)) == expected


def test_a_staff_source_is_a_score_source() -> None:
    assert set(get_args(StaffSource)) <= set(SCORE_SOURCES)


@pytest.mark.parametrize(("model", "data"), [
    (ComponentResult, {**OLD_SHEET["components"][0], "source": "network_log"}),
    (StaffReading, {**OLD_STAFF, "source": "screen_text"}),
])
def test_a_source_outside_the_closed_set_is_refused(model: type[BaseModel],
                                                    data: dict[str, Any]) -> None:
    with pytest.raises(ValidationError, match="source"):
        model.model_validate(data)
