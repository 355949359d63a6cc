"""The harness drives Heron Mutual through its shipped profile in Chromium, the way a team
would: Heron started by hand on a SQLite file and an uploads folder named by the environment,
the same variables exported for the harness, one lane (one conversation per process). Each
trial is reset by Heron's own command and the harness's loading (verified through SQL),
starts a new conversation with Heron's "Start a new claim" button, and ends with a claim
number in Heron's format; the run record says the runtime is declared, not reported, and the
staff side is read from Heron's tables (scored from the stores). The
fast-track claim Heron settles itself is read off the screen as the agent's approval with the
amount payable and fails wrong_authority; the claims it refers show no agent decision."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from claims_prototype_app import CLAIM_NUMBER_PATTERN
from claims_records import RunConfig, RunRecord, Sheet, StaffReading, StateDump

from ..conftest import CHROMIUM
from ..records import first_trial

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PACKS = Path(__file__).resolve().parents[2] / "packs"
# Anonymous sessions (Heron has no accounts): two claims Heron refers to a handler and a
# fast-track one it settles itself.
REFERRED = ["CTL-C-001", "CTL-H-002"]
SETTLED = "CTL-M-004"
PACK_IDS = [*REFERRED, SETTLED]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_heron(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[str]:
    """Heron on ``port``, once it says where it listens (its log kept in ``log``)."""
    proc = subprocess.Popen([sys.executable, "-m", "claims_prototype_app", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True, start_new_session=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    with log.open("w", encoding="utf-8") as out:
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            out.write(line)
            if "Heron Mutual on" in line:
                return proc
            if not line and proc.poll() is not None:
                break
    _stop(proc)
    pytest.fail(f"Heron did not start: {log.read_text('utf-8')[-2000:]}")


def _stop(proc: subprocess.Popen[str]) -> None:
    """Heron and everything it started: SIGTERM to its process group, then SIGKILL."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


@pytest.fixture(scope="module")
def heron_run() -> Iterator[Path]:
    """A scored run of PACK_IDS against a Heron started here; Heron is stopped and its
    folder (database, uploads, run record) removed on every way out."""
    import harness
    import scoring

    folder = Path(tempfile.mkdtemp(prefix="heron-e2e-"))
    proc: subprocess.Popen[str] | None = None
    try:
        uploads = folder / "uploads"
        uploads.mkdir()
        variables = {"HERON_DATABASE_URL": f"sqlite:///{folder / 'heron_test.sqlite3'}",
                     "HERON_UPLOADS_DIR": str(uploads)}
        port = _free_port()
        proc = _start_heron({**os.environ, **variables}, port, folder / "heron.log")
        with pytest.MonkeyPatch.context() as mp:
            for name, value in variables.items():
                mp.setenv(name, value)  # the harness reads the same variables
            profile = harness.load_profile("heron").with_lanes(
                [harness.Lane(name="heron", base_url=f"http://127.0.0.1:{port}")])
            config = RunConfig(corpora=[str(PACKS)], customer="scripted", packs=PACK_IDS,
                               browser={"executable": CHROMIUM})
            _, run_dir = harness.run(config, harness.RunContext(
                profile=profile, runs_dir=folder / "runs", run_id="heron"))
        scoring.score_run(run_dir, PACKS)
        yield run_dir
    finally:
        if proc is not None:
            _stop(proc)
        shutil.rmtree(folder, ignore_errors=True)


def test_the_run_record_says_the_runtime_is_declared(heron_run: Path) -> None:
    run = RunRecord.model_validate_json((heron_run / "run.json").read_text("utf-8"))
    product = run.product
    assert (product.profile, product.runtime_source) == ("heron", "declared")
    assert product.declared_runtime is not None
    assert product.declared_runtime.model == "rules (no model)"
    assert product.runtime.startswith("model rules (no model)")
    assert (product.reset_adapter, product.state_source) == ("command+stores", "stores")
    assert (product.conversation_scope, product.new_conversation) == ("process", "control")
    assert (product.locale, product.currency) == ("en_IE", "EUR")
    assert product.staff_side == "stores"
    assert any("declared" in label for label in run.labels)
    assert [t.status.value for t in run.trials] == ["completed"] * len(PACK_IDS)


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_each_trial_is_reset_through_sql_renewed_and_numbered_by_heron(
        heron_run: Path, pack_id: str) -> None:
    _, result, sheet = first_trial(heron_run, pack_id)
    assert result.status == "completed" and result.stop_reason == "claim_number", result.detail
    assert re.fullmatch(CLAIM_NUMBER_PATTERN, result.claim_number or "")
    assert result.reset is not None
    assert (result.reset.adapter, result.reset.verified) == ("command+stores", True)
    step = result.new_conversation
    assert step is not None and (step.by, step.ok, step.fresh) == ("control", True, True)
    status = {c.name: c.status for c in sheet.components}
    for name in ("journey", "state", "assertions_state", "assertions_text", "privacy"):
        assert status[name] == "pass", (name, sheet.explanation)
    # No staff screen: the staff side is read from Heron's tables after the journey, and
    # Heron's rules engine gets these claims right (the flagged ones included).
    source = {c.name: c.source for c in sheet.components}
    for name in ("triage", "review", "facts", "incident_datetime", "waiting_list"):
        assert (status[name], source[name]) == ("pass", "stores"), (name, sheet.explanation)
    if "explanation" in status:  # what staff see beside a check: a staff screen only
        assert status["explanation"] == "not_implemented"
    staff = StaffReading.model_validate_json(
        (heron_run / pack_id / "trial-1" / "staff.json").read_text("utf-8"))
    assert (staff.source, staff.found, staff.claim_number) == ("stores", True,
                                                               result.claim_number)


def _agent_decision(sheet: Sheet) -> tuple[str, list[str], dict[str, object]]:
    c = next(c for c in sheet.components if c.name == "agent_decision")
    return c.status, c.failure_modes, dict(c.details)


def test_the_claim_heron_settles_is_read_as_its_agents_approval(heron_run: Path) -> None:
    _, result, sheet = first_trial(heron_run, SETTLED)
    seen = result.agent_decision
    assert seen is not None and seen.outcome == "approved", seen
    assert seen.phrase == "Decision: approved" and seen.text is not None
    assert seen.turn == seen.messages  # the reply with the claim number, the last one
    assert result.claim_number is not None and result.claim_number in seen.text
    claim = StateDump.model_validate_json(
        (heron_run / SETTLED / "trial-1" / "state-after.json").read_text("utf-8")
    ).collections["claims"][result.claim_number]
    assert claim["decision"] == "approved"  # what Heron stored, beside what it said
    assert seen.amount is not None
    assert (seen.amount.amount, seen.amount.currency) == (
        float(str(claim["payable_amount"])), claim["payable_currency"])
    status, modes, details = _agent_decision(sheet)
    assert (status, modes) == ("fail", ["wrong_authority"]), sheet.explanation
    assert (details["agrees"], details["expected_status"]) == (True, "approved")
    assert sheet.success is False and "wrong_authority" in sheet.failure_modes


@pytest.mark.parametrize("pack_id", REFERRED)
def test_a_claim_heron_refers_shows_no_agent_decision(heron_run: Path, pack_id: str) -> None:
    _, result, sheet = first_trial(heron_run, pack_id)
    seen = result.agent_decision
    assert seen is not None and seen.messages > 1
    assert (seen.outcome, seen.amount, seen.turn) == (None, None, None)
    status, modes, details = _agent_decision(sheet)
    assert (status, modes, details["messages"]) == ("pass", [], seen.messages)
