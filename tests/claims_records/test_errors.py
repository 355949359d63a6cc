"""The context a caller acts on is read through typed attributes; the message users see is
unchanged (the context still rendered after it)."""

from __future__ import annotations

import pytest

from claims_records import HarnessError, LeakError, PackError, SeedError, SimulatorError


@pytest.mark.parametrize(("error", "attribute", "expected", "shown"), [
    (PackError("bad value", pack="CTL-M-001", file="oracle.json", field="triage.class"),
     "field", "triage.class", "bad value [pack=CTL-M-001, file=oracle.json, field=triage.class]"),
    (PackError("bad value", pack="CTL-M-001"), "field", None, "bad value [pack=CTL-M-001]"),
    (PackError("bad value", pack="CTL-M-001"), "pack", "CTL-M-001", "bad value [pack=CTL-M-001]"),
    (HarnessError("gone", file="run.json"), "file", "run.json", "gone [file=run.json]"),
    (SeedError("refused", reason="production_marker"), "reason", "production_marker",
     "refused [reason=production_marker]"),
    (SeedError("failed"), "reason", None, "failed"),
    (SimulatorError("the customer model failed: timeout", kind="timeout", step=3), "kind",
     "timeout", "the customer model failed: timeout [kind=timeout, step=3]"),
    (SimulatorError("no action", kind=None), "kind", None, "no action"),
    (LeakError("leak", term="standard", source="oracle.triage"), "term", "standard",
     "leak [term=standard, source=oracle.triage]"),
    (LeakError("leak", term="standard", source="oracle.triage"), "source", "oracle.triage",
     "leak [term=standard, source=oracle.triage]"),
    (PackError("bad index", field=3), "field", "3", "bad index [field=3]"),
])
def test_typed_context(error, attribute, expected, shown):
    assert getattr(error, attribute) == expected
    assert str(error) == shown


def test_attributes_are_read_only():
    with pytest.raises(AttributeError):
        SimulatorError("x", kind="timeout").kind = "other"  # type: ignore[misc]
