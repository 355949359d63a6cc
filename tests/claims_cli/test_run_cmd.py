"""`claims-harness run`: refusal of a controlled runtime, self-test labels, kill and resume."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from claims_records import RunRecord, TrialResult
from harness import SELF_TEST_LABEL
from harness.profile import PROFILES_DIR

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"
runner = CliRunner()


def _env(tmp_path_factory, runtime: str):
    import claims_dev

    return claims_dev.start_dev(lanes=1, app=True, runtime=runtime,
                          baseline_path=PACKS / "baseline.json",
                          log_dir=tmp_path_factory.mktemp(f"dev-{runtime}"))


def write_profile(env, path: Path) -> Path:
    """The reference profile with the environment's lanes instead of base_url."""
    text = (PROFILES_DIR / "reference.toml").read_text(encoding="utf-8")
    text = text.replace('base_url = "http://127.0.0.1:8000"\n', "")
    text = text.replace("timeout_s = 60", "timeout_s = 20").replace(
        "new_reply_timeout_s = 20", "new_reply_timeout_s = 6")
    for lane in env.lanes:
        text += (f'\n[[lanes]]\nname = "{lane.name}"\nbase_url = "{lane.base_url}"\n'
                 f'seed_url = "{lane.seed_url}"\ndatabase = "{lane.database}"\n')
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def reference_env(reference_dev_env):
    """The reference app on one lane: this worker's shared one (tests/conftest.py)."""
    return reference_dev_env


@pytest.mark.slow
@pytest.mark.browser
def test_controlled_runtime_is_refused_with_a_clear_message(tmp_path_factory, tmp_path,
                                                            monkeypatch):
    env = _env(tmp_path_factory, "controlled")
    try:
        monkeypatch.setenv("CLAIMS_HARNESS_SEED_TOKEN", env.seed_token)
        profile = write_profile(env, tmp_path / "p.toml")
        result = runner.invoke(app, ["run", "--profile", str(profile), "--packs", str(PACKS),
                                     "--pack", "CTL-M-001", "--runs-dir", str(tmp_path / "runs"),
                                     "--run-id", "refused"])
        assert result.exit_code == 2
        assert "controlled" in result.output and "--self-test" in result.output
        assert not (tmp_path / "runs" / "refused").exists()
    finally:
        env.close()


@pytest.mark.slow
@pytest.mark.browser
def test_self_test_runs_in_the_dev_environment_and_is_labelled(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    runs = tmp_path / "runs"
    result = runner.invoke(app, ["run", "--dev", "--runtime", "controlled", "--self-test",
                                 "--packs", str(PACKS), "--pack", "CTL-M-001",
                                 "--runs-dir", str(runs), "--run-id", "selftest",
                                 "--turn-limit", "6", "--tracing", "retain-on-failure"])
    assert result.exit_code == 0, result.output
    summary = result.output.strip().splitlines()[-1]
    assert summary.startswith("SELF-TEST run selftest")
    assert str(runs / "selftest") in summary
    record = RunRecord.model_validate_json((runs / "selftest" / "run.json").read_text())
    assert record.self_test and record.product.runtime == "controlled"
    trial = runs / "selftest" / "CTL-M-001" / "trial-1"
    assert TrialResult.model_validate_json((trial / "trial.json").read_text()).self_test
    assert SELF_TEST_LABEL in (trial / "transcript.md").read_text(encoding="utf-8")
    status = record.trials[0].status
    assert (trial / "trace.zip").is_file() == (status != "completed")


def test_bad_options_are_refused(tmp_path):
    result = runner.invoke(app, ["run", "--tracing", "sometimes", "--runs-dir", str(tmp_path)])
    assert result.exit_code != 0 and "--tracing" in result.output
    result = runner.invoke(app, ["run", "--profile", str(tmp_path / "none.toml"),
                                 "--runs-dir", str(tmp_path)])
    assert result.exit_code == 2 and "no such profile" in result.output
    result = runner.invoke(app, ["run", "--customer", "llm", "--runs-dir", str(tmp_path)],
                           env={"CLAIMS_HARNESS_LLM_BASE_URL": "", "CLAIMS_HARNESS_LLM_MODEL": ""})
    assert result.exit_code == 2 and "needs a model" in result.output
    result = runner.invoke(app, ["run", "--customer", "llm", "--llm-model", "m",
                                 "--llm-base-url", "https://me:pw-CANARY@llm.example/v1",
                                 "--runs-dir", str(tmp_path)])
    assert result.exit_code == 2 and "carries credentials" in result.output
    assert "pw-CANARY" not in result.output
    result = runner.invoke(app, ["run", "--prompt-view", "wide", "--runs-dir", str(tmp_path)])
    assert result.exit_code != 0 and "--prompt-view" in result.output


def test_faults_only_with_dev_and_only_known_ones(tmp_path):
    result = runner.invoke(app, ["run", "--fault", "ask_twice", "--runs-dir", str(tmp_path)])
    assert result.exit_code == 2 and "--dev" in result.output
    result = runner.invoke(app, ["run", "--dev", "--fault", "make_it_pass",
                                 "--runs-dir", str(tmp_path)])
    assert result.exit_code == 2 and "unknown fault(s) make_it_pass" in result.output
    assert not any(tmp_path.iterdir())


def test_faults_in_the_environment_stop_a_dev_run_before_it_starts(tmp_path):
    result = runner.invoke(app, ["run", "--dev", "--runs-dir", str(tmp_path)],
                           env={"CLAIMS_APP_FAULTS": "flag_everything"})
    assert result.exit_code == 2
    assert "CLAIMS_APP_FAULTS is set" in result.output and "--fault" in result.output
    assert not any(tmp_path.iterdir())


@pytest.mark.slow
@pytest.mark.browser
def test_a_killed_run_is_resumed_without_redoing_finished_trials(reference_env, tmp_path,
                                                                 request):
    profile = write_profile(reference_env, tmp_path / "p.toml")
    runs = tmp_path / "runs"
    run_dir = runs / "killed"
    # SIGKILL lets nothing clean up: the killed run's temporary folders go into a folder of
    # this test's, removed at the end (short: Chromium puts a socket in it)
    scratch = Path(tempfile.mkdtemp(prefix="kill-"))
    request.addfinalizer(lambda: shutil.rmtree(scratch, ignore_errors=True))
    env = {**os.environ, "CLAIMS_HARNESS_SEED_TOKEN": reference_env.seed_token,
           "TMPDIR": str(scratch)}
    argv = [sys.executable, "-c", "from claims_cli import main; main()", "run", "--profile",
            str(profile), "--packs", str(PACKS), "--pack", "CTL-M-001", "--trials", "3",
            "--runs-dir", str(runs), "--run-id", "killed"]
    proc = subprocess.Popen(argv, env=env, cwd=REPO, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    first = run_dir / "CTL-M-001" / "trial-1" / "trial.json"
    second = run_dir / "CTL-M-001" / "trial-2" / "journey.jsonl"
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and not (first.exists() and second.exists()
                                                   and len(second.read_text().splitlines()) >= 3):
            assert proc.poll() is None, "the run ended before it could be interrupted"
            time.sleep(0.05)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    assert first.exists()
    kept = first.read_bytes()
    interrupted = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    assert [t.status for t in interrupted.trials] == ["completed", "pending", "pending"]

    result = runner.invoke(app, ["run", "--profile", str(profile), "--packs", str(PACKS),
                                 "--runs-dir", str(runs), "--resume", "killed"],
                           env={"CLAIMS_HARNESS_SEED_TOKEN": reference_env.seed_token})
    assert result.exit_code == 0, result.output
    assert "trial 1" not in result.output  # finished trials are not run again
    assert first.read_bytes() == kept
    record = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    assert [(t.trial, t.status) for t in record.trials] == [
        (1, "completed"), (2, "completed"), (3, "completed")]
    aside = run_dir / "CTL-M-001" / "trial-2.interrupted-1"
    assert (aside / "journey.jsonl").is_file()
    assert not (aside / "trial.json").exists()
    assert record.finished_at
    assert record.lanes == interrupted.lanes  # same lanes: nothing added on resume


@pytest.mark.slow
def test_resume_refuses_a_product_that_now_reports_another_runtime(reference_env, tmp_path):
    import claims_corpus
    from claims_records import CorpusInfo, CustomerInfo, HarnessInfo, ProductInfo, TrialEntry

    profile = write_profile(reference_env, tmp_path / "p.toml")
    version, chash = claims_corpus.corpus_identity(PACKS)
    run_dir = tmp_path / "runs" / "other-runtime"
    run_dir.mkdir(parents=True)
    started = RunRecord(
        run_id="other-runtime", created_at="2026-01-01T00:00:00+00:00",
        harness=HarnessInfo(version="0"), corpus=CorpusInfo(version=version, hash=chash,
                                                            path=str(PACKS)),
        product=ProductInfo(profile="reference", base_urls=["http://127.0.0.1:1"],
                            runtime="model"),
        customer=CustomerInfo(kind="scripted"),
        trials=[TrialEntry(pack_id="CTL-M-001", trial=1, path="CTL-M-001/trial-1")])
    (run_dir / "run.json").write_text(started.model_dump_json(), encoding="utf-8")

    def resume() -> str:
        result = runner.invoke(app, ["run", "--profile", str(profile), "--packs", str(PACKS),
                                     "--runs-dir", str(tmp_path / "runs"), "--resume",
                                     "other-runtime"],
                               env={"CLAIMS_HARNESS_SEED_TOKEN": reference_env.seed_token})
        assert result.exit_code == 2, result.output
        return result.output

    output = resume()
    assert "another runtime" in output and "recorded=model" in output
    after = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    assert after == started  # refused before anything was written
    assert not (run_dir / "CTL-M-001").exists()
    # the same runtime with other fault switches would mix a clean and a defect product
    started.product.runtime = "reference"
    started.product.faults = ["ask_twice"]
    (run_dir / "run.json").write_text(started.model_dump_json(), encoding="utf-8")
    output = resume()
    assert "other fault switches" in output and "recorded=['ask_twice']" in output
    assert not (run_dir / "CTL-M-001").exists()


def test_dev_with_a_profile_that_cannot_start_its_product_is_refused(tmp_path):
    text = (PROFILES_DIR / "kestrel.toml").read_text(encoding="utf-8")
    head, _, rest = text.partition("\n[dev]\n")
    path = tmp_path / "no-dev.toml"
    path.write_text(head + "\n[completion]\n" + rest.split("\n[completion]\n", 1)[1],
                    encoding="utf-8")
    result = runner.invoke(app, ["run", "--dev", "--profile", str(path), "--packs", str(PACKS),
                                 "--runs-dir", str(tmp_path / "runs"), "--run-id", "x"])
    assert result.exit_code == 2, result.output
    assert "does not say how to start this product ([dev])" in result.output
    assert not (tmp_path / "runs").exists()
    result = runner.invoke(app, ["run", "--dev", "--profile", "kestrel", "--runtime",
                                 "controlled", "--packs", str(PACKS), "--runs-dir",
                                 str(tmp_path / "runs")])
    assert result.exit_code == 2, result.output
    assert "choose how the reference app runs" in result.output
