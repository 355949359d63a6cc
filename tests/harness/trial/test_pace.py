"""The customer's pace (``--pace``): what each action must take, and the wait for the rest."""

from __future__ import annotations

import time

import pytest
from pydantic import ValidationError

from claims_records import CustomerAction, CustomerTimeModel, CustomerWork, RunConfig
from harness.trial import make_pace
from harness.trial._pace import take_time

SAY = CustomerAction(kind="say", text="It happened on the 3rd of May.")  # 30 characters
CLICK = CustomerAction(kind="click", label="Yes")


def test_a_fixed_pace_gives_each_answer_its_seconds_but_not_the_opening_message(tmp_path):
    pace = make_pace(2.0, tmp_path)
    assert pace is not None
    assert pace("What happened?", SAY, False) == 2.0
    assert pace("", CLICK, False) == 2.0
    assert pace("", SAY, True) == 0.0
    assert make_pace(None, tmp_path) is None


def test_a_human_pace_is_the_acceptance_criteria_model_of_the_corpus(tmp_path):
    # without acceptance.toml: the standard's defaults
    default = make_pace("human", tmp_path)
    assert default is not None
    want = CustomerTimeModel().seconds(CustomerWork.of_step("What happened?", SAY))
    assert default("What happened?", SAY, False) == pytest.approx(want)
    # 2 words read at 238/min, 30 characters at 36.2 words of 5/min, one decision
    assert want == pytest.approx(2 * 60 / 238 + 6 * 60 / 36.2 + 1.35, abs=0.01)
    assert default("", SAY, True) == pytest.approx(6 * 60 / 36.2 + 1.35, abs=0.01)
    # a corpus of its own customers
    (tmp_path / "acceptance.toml").write_text(
        "[report_duration.customer_time]\ntyping_wpm = 60\nthink_s = 0\nclick_s = 0.5\n")
    own = make_pace("human", tmp_path)
    assert own is not None
    assert own("", SAY, False) == pytest.approx(6.0)
    assert own("", CLICK, False) == pytest.approx(0.5)


@pytest.mark.asyncio
async def test_the_wait_counts_the_time_already_taken_deciding(tmp_path, monkeypatch):
    import harness.trial._pace as pace_module

    asked: list[float] = []

    async def sleep(seconds: float) -> None:
        asked.append(seconds)

    monkeypatch.setattr(pace_module.asyncio, "sleep", sleep)
    pace = make_pace(0.4, tmp_path)
    await take_time(pace, "", SAY, time.monotonic() - 0.3)  # 0.3 s already spent deciding
    assert len(asked) == 1 and 0.0 < asked[0] <= 0.1
    await take_time(pace, "", SAY, time.monotonic() - 1.0)  # slower than the pace: no wait
    await take_time(None, "", SAY, time.monotonic())  # machine speed
    assert len(asked) == 1


@pytest.mark.parametrize(("given", "pace"), [
    ("2", 2.0), ("2s", 2.0), ("0.5S", 0.5), (" human ", "human"), ("off", None), ("", None),
    (1.5, 1.5), (None, None)])
def test_the_pace_as_written_on_the_command_line(given, pace):
    assert RunConfig(pace=given).pace == pace


@pytest.mark.parametrize("given", ["fast", "-1", "2 min", "3601", "nan s", True])
def test_a_pace_that_is_no_pace_is_refused_naming_what_was_given(given):
    with pytest.raises(ValidationError) as err:
        RunConfig(pace=given)
    assert "pace" in str(err.value)
