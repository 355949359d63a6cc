"""A product whose own reset fails (its endpoint answers 500, hangs past its timeout, cannot
be reached, or its clearing command fails) gets ``reset_failed`` trials: the product's error,
kept out of the rates and shown with its own label; a refusal of what the harness sent (401,
404) and a failure of the harness's own means stay harness errors."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from claims_dev import BackgroundServer
from claims_records import (
    STATUS_CATEGORY,
    ErrorCategory,
    RunConfig,
    SeedError,
    TrialStatus,
    read_run_record,
    read_trial_result,
)
from harness import RunContext, make_reset, run
from harness.profile import Profile
from harness.reset import ProductResetError, run_clear_command, setup_and_files

from .profiles import stand_in

PACKS = Path(__file__).resolve().parents[2] / "packs"


class ResettingProduct:
    """A stand-in product with only a reset endpoint, answering as ``mode`` says."""

    def __init__(self) -> None:
        self.mode = "ok"
        self.calls = 0
        app = FastAPI()

        @app.post("/ops/reset")
        async def reset(request: Request):
            self.calls += 1
            await request.body()
            if self.mode == "500":
                return JSONResponse({"detail": "fixtures table locked"}, status_code=500)
            if self.mode == "hang":
                await asyncio.sleep(5)
            if self.mode == "401":
                return JSONResponse({"detail": "bad key"}, status_code=401)
            return {"ok": True}

        self.server = BackgroundServer(app).start()
        self.url = self.server.url


@pytest.fixture(scope="module")
def product():
    p = ResettingProduct()
    yield p
    p.server.stop()


ENDPOINT = {"adapter": "endpoint", "endpoint": {
    "path": "/ops/reset", "timeout_s": 0.5, "body": {"pack": "{{pack_id}}"}}}


def _profile(url: str, reset: dict = ENDPOINT, **more) -> Profile:
    return Profile.model_validate(stand_in(base_url=url, reset=reset, **more))


@pytest.mark.parametrize(("mode", "error", "words"), [
    ("500", ProductResetError, "HTTP 500: "),
    ("hang", ProductResetError, "did not answer within 0.5 s"),
    ("401", SeedError, "HTTP 401"),
])
def test_whose_failure_a_reset_endpoint_failure_is(product, mode, error, words):
    prof = _profile(product.url)
    reset = make_reset(prof, prof.resolved_lanes()[0], PACKS)
    product.mode = mode
    try:
        with pytest.raises(SeedError, match=words) as caught:
            reset.reset(*setup_and_files(PACKS / "CTL-M-001"))
    finally:
        product.mode = "ok"
        reset.close()
    assert type(caught.value) is error


def test_an_unreachable_reset_endpoint_is_the_products(product):
    prof = _profile("http://127.0.0.1:9")  # the discard port: nothing listens
    reset = make_reset(prof, prof.resolved_lanes()[0], PACKS)
    try:
        with pytest.raises(ProductResetError, match="unreachable"):
            reset.reset(*setup_and_files(PACKS / "CTL-M-001"))
    finally:
        reset.close()


def test_a_failing_clearing_command_is_the_products_one_that_cannot_start_is_not(tmp_path):
    def prof(argv: list[str], timeout_s: float = 60) -> Profile:
        # a generous bound for the commands that end by themselves, so a busy machine
        # cannot turn their exit into a timeout; a short one only for the stuck command
        return _profile("http://127.0.0.1:9", {"adapter": "command+stores", "command": {
            "argv": argv, "timeout_s": timeout_s}}, stores={"mongo_uri_env": "NOT_USED"})

    failing = prof(["{python}", "-c", "import sys; sys.exit('no space left')"])
    with pytest.raises(ProductResetError, match="exit code 1: no space left"):
        run_clear_command(failing, failing.resolved_lanes()[0], "CTL-M-001")
    slow = prof(["{python}", "-c", "import time; time.sleep(60)"], timeout_s=0.5)
    with pytest.raises(ProductResetError, match="did not finish in time"):
        run_clear_command(slow, slow.resolved_lanes()[0], "CTL-M-001")
    missing = prof([str(tmp_path / "no-such-command")])
    with pytest.raises(SeedError, match="cannot start") as caught:
        run_clear_command(missing, missing.resolved_lanes()[0], "CTL-M-001")
    assert not isinstance(caught.value, ProductResetError)


def test_reset_failed_is_the_products_error_kept_out_of_the_rates():
    assert TrialStatus("reset_failed") is TrialStatus.RESET_FAILED
    assert STATUS_CATEGORY[TrialStatus.RESET_FAILED] is ErrorCategory.PRODUCT


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.parametrize("mode", ["500", "hang"])
def test_a_run_on_a_product_whose_reset_fails_records_reset_failed(product, tmp_path, mode):
    product.mode = mode
    try:
        record, run_dir = run(
            RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001"], trials=2,
                      allow_unreported_runtime=True),
            RunContext(profile=_profile(product.url), runs_dir=tmp_path, run_id=mode))
    finally:
        product.mode = "ok"
    assert [t.status for t in record.trials] == [TrialStatus.RESET_FAILED] * 2
    assert {t.stop_reason for t in record.trials} == {"reset_failed"}
    first = record.trials[0]
    assert first.detail.startswith("reset (endpoint): ")
    assert ("HTTP 500" if mode == "500" else "did not answer within 0.5 s") in first.detail
    result = read_trial_result(run_dir / first.path)
    assert result.status == TrialStatus.RESET_FAILED and result.reset is None
    assert "reset_failed" in (run_dir / first.path / "transcript.md").read_text("utf-8")
    again = read_run_record(run_dir)  # run.json reads back with the new status
    assert again.trials[1].status == TrialStatus.RESET_FAILED
    raw = json.loads((run_dir / "run.json").read_text("utf-8"))
    assert raw["trials"][0]["status"] == "reset_failed"
    import scoring  # listed by its own status, counted as the product's error

    summary = scoring.score_run(run_dir)
    assert summary.scorable_trials == 0
    assert [e.status for e in summary.infrastructure_errors] == ["reset_failed"] * 2
    assert summary.errors_by_category == {"product_error": 2}
    index = scoring.write_report(run_dir).read_text(encoding="utf-8")
    assert "reset_failed — trial ended in reset_failed: reset (endpoint): " in index
