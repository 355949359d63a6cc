"""`claims-harness run` refuses a corpus that fails `corpus check` (before anything starts or
is recorded), runs it with --allow-unchecked-corpus labelled 'corpus fails check', and keeps
the check's outcome per corpus content so an unchanged corpus is not checked again."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import claims_corpus
from claims_cli import app
from claims_corpus import _gate as _corpus_gate
from claims_records import LABEL_CORPUS_FAILS_CHECK, PackError, RunConfig
from harness.runner import run_labels

from ..conftest import PACKS

runner = CliRunner()
PLANTED = " My reason: third_party_involved.\n"  # a reason code only the oracle holds


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv(_corpus_gate.CACHE_ENV, str(cache))
    return cache


def _plant(root: Path, text: str = PLANTED) -> None:
    message = root / "CTL-M-001" / "input" / "initial_message.txt"
    message.write_text(message.read_text(encoding="utf-8") + text, encoding="utf-8")
    claims_corpus.update_manifest(root)


def _run(root: Path, runs: Path, *more: str):
    return runner.invoke(app, ["run", "--packs", str(root), "--runs-dir", str(runs), *more])


def test_a_corpus_failing_the_check_is_refused_before_anything_is_recorded(
        corpus_copy: Path, tmp_path: Path, captured: list) -> None:
    _plant(corpus_copy)
    _plant(corpus_copy, " Also: vehicle_driveable.\n")
    result = _run(corpus_copy, tmp_path / "runs")
    assert result.exit_code == 2, result.output
    out = " ".join(result.output.split())
    assert "fails `corpus check` with 2 problem(s)" in out
    assert "pack=CTL-M-001" in out and "file=input/initial_message.txt" in out
    assert "field=<text>" in out and "problems=2" in out
    assert "'third_party_involved'" in out  # the first problem, as the checker words it
    assert "--allow-unchecked-corpus" in out
    assert captured == []  # the run never started
    assert not (tmp_path / "runs").exists()


def test_the_override_runs_it_labelled(corpus_copy: Path, tmp_path: Path,
                                      captured: list) -> None:
    _plant(corpus_copy)
    result = _run(corpus_copy, tmp_path / "runs", "--allow-unchecked-corpus")
    assert result.exit_code == 0, result.output
    assert "running it anyway: the run is labelled 'corpus fails check'" in " ".join(
        result.output.split())
    (config, ctx), = captured
    assert config.allow_unchecked_corpus is True  # recorded in run.json's options
    assert ctx.corpus_fails_check is True


def test_a_passing_corpus_runs_unlabelled(corpus_copy: Path, tmp_path: Path,
                                          captured: list) -> None:
    result = _run(corpus_copy, tmp_path / "runs", "--allow-unchecked-corpus")
    assert result.exit_code == 0, result.output
    (config, ctx), = captured
    assert ctx.corpus_fails_check is False
    assert "fails `corpus check`" not in result.output


def test_a_held_out_corpus_beside_a_passing_one_is_checked_too(
        corpus_copy: Path, tmp_path: Path, captured: list) -> None:
    from ..conftest import make_held_out

    held = make_held_out(tmp_path / "held", {"CTL-M-001": "HLD-M-901"})
    message = held / "HLD-M-901" / "input" / "initial_message.txt"
    message.write_text(message.read_text(encoding="utf-8") + PLANTED, encoding="utf-8")
    claims_corpus.update_manifest(held)
    result = runner.invoke(app, ["run", "--packs", str(corpus_copy), "--packs", str(held),
                                 "--runs-dir", str(tmp_path / "runs")])
    assert result.exit_code == 2, result.output
    assert "pack=HLD-M-901" in result.output
    assert captured == []


def test_the_label_is_one_of_the_runs_labels() -> None:
    assert LABEL_CORPUS_FAILS_CHECK in run_labels(False, False, True, corpus_fails_check=True)
    assert run_labels(False, False, True) == []
    assert RunConfig().allow_unchecked_corpus is False


def test_an_unchanged_corpus_is_checked_once(corpus_copy: Path, private_cache: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Path] = []
    real = claims_corpus.check_corpus

    def counting(root, *args, **kwargs):
        calls.append(Path(root))
        return real(root, *args, **kwargs)

    monkeypatch.setattr(_corpus_gate, "check_corpus", counting)
    first = _corpus_gate.check_stamp(corpus_copy)
    again = _corpus_gate.check_stamp(corpus_copy)
    assert first.ok and again == first and len(calls) == 1
    assert len(list((private_cache / "corpus-checks").glob("*.json"))) == 1
    _plant(corpus_copy)  # any change to a file is another key: checked again
    changed = _corpus_gate.check_stamp(corpus_copy)
    assert len(calls) == 2 and changed.problems == 1 and changed.key != first.key
    (private_cache / "corpus-checks" / f"{changed.key}.json").write_text("{", "utf-8")
    rechecked = _corpus_gate.check_stamp(corpus_copy)  # a damaged stamp: checked again
    assert len(calls) == 3
    assert rechecked.model_dump(exclude={"checked_at"}) == changed.model_dump(
        exclude={"checked_at"})


def test_a_cache_that_cannot_be_written_only_means_checking(corpus_copy: Path,
                                                            tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    _plant(corpus_copy)
    with pytest.raises(PackError, match="1 problem"):
        _corpus_gate.failing_corpora([str(corpus_copy)], allow=False, cache=blocked)


def test_a_missing_corpus_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="corpus folder not found"):
        _corpus_gate.failing_corpora([str(tmp_path / "nowhere")], allow=False)


def test_the_checker_code_is_part_of_the_key(corpus_copy: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    before = _corpus_gate.corpus_key(corpus_copy)
    monkeypatch.setattr(_corpus_gate, "_checker_digest", lambda: b"another checker")
    assert _corpus_gate.corpus_key(corpus_copy) != before


@pytest.mark.slow  # the first check of the whole corpus pays in full
def test_checking_the_whole_corpus_again_costs_a_fraction_of_a_second() -> None:
    _corpus_gate.check_stamp(PACKS)  # the first check of this content pays in full
    # CPU time, not the clock: a busy machine slows the clock, not the work
    started = time.process_time()
    stamp = _corpus_gate.check_stamp(PACKS)
    took = time.process_time() - started
    assert stamp.ok and stamp.packs_checked >= 100
    assert took < 1.0, took


def test_a_corpus_not_checked_yet_is_checked_in_a_child_process(corpus_copy: Path,
                                                                 private_cache: Path) -> None:
    _plant(corpus_copy)
    with _corpus_gate.PendingCheck([str(corpus_copy)], allow=True) as check:
        assert not check.decided  # checking meanwhile
        failing, = check.result()
    assert failing.problems == 1 and failing.first_pack == "CTL-M-001"
    again = _corpus_gate.PendingCheck([str(corpus_copy)], allow=False)
    assert again.decided  # the child kept its stamp: the next run decides at once
    with pytest.raises(PackError, match="1 problem"):
        again.result()


def test_a_stopped_run_stops_its_check(private_cache: Path) -> None:
    check = _corpus_gate.PendingCheck([str(PACKS)], allow=False)
    (proc, _), = check._parts  # the whole corpus: seconds of checking
    check.close()
    assert not proc.is_alive() and proc.exitcode is not None
    assert not list(private_cache.glob("corpus-checks/*.json"))  # nothing half-kept


def test_with_dev_a_failing_corpus_stops_the_dev_environment_it_was_checked_beside(
        corpus_copy: Path, tmp_path: Path, captured: list,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import contextlib
    from types import SimpleNamespace

    import harness

    events: list[str] = []

    @contextlib.contextmanager
    def fake_dev(prof, lanes, packs, runtime, faults):
        events.append("started")
        try:
            yield prof, SimpleNamespace(lanes=[object()], seed_token="t")
        finally:
            events.append("stopped")

    monkeypatch.setattr(harness, "dev_product", fake_dev)
    _plant(corpus_copy)
    result = _run(corpus_copy, tmp_path / "runs", "--dev")
    assert result.exit_code == 2, result.output
    assert "fails `corpus check` with 1 problem(s)" in " ".join(result.output.split())
    assert events == ["started", "stopped"] and captured == []
    assert not (tmp_path / "runs").exists()
    result = _run(corpus_copy, tmp_path / "runs", "--dev")  # now kept: refused at once
    assert result.exit_code == 2 and events == ["started", "stopped"]


def _nightly(root: Path, tmp_path: Path, *more: str):
    config = tmp_path / "nightly.toml"
    config.write_text(f'name = "gate"\ncorpora = ["{root}"]\npacks = ["CTL-M-001"]\n'
                      + "".join(f"{line}\n" for line in more), encoding="utf-8")
    return runner.invoke(app, ["nightly", str(config), "--night-id", "n"])


def test_the_nightly_job_refuses_a_corpus_failing_the_check_too(
        corpus_copy: Path, tmp_path: Path, captured: list) -> None:
    _plant(corpus_copy)
    result = _nightly(corpus_copy, tmp_path)
    assert result.exit_code == 3, result.output  # the night could not be judged
    out = " ".join(result.output.split())
    assert "fails `corpus check` with 1 problem(s)" in out and "pack=CTL-M-001" in out
    assert "set allow_unchecked_corpus = true in nightly.toml" in out
    assert captured == []  # nothing ran


def test_the_nightly_key_runs_it_labelled(corpus_copy: Path, tmp_path: Path,
                                         captured: list) -> None:
    _plant(corpus_copy)
    result = _nightly(corpus_copy, tmp_path, "allow_unchecked_corpus = true")
    assert "running it anyway: the run is labelled 'corpus fails check'" in " ".join(
        result.output.split())
    (config, ctx), = captured
    assert config.allow_unchecked_corpus is True and ctx.corpus_fails_check is True


def test_a_missing_corpus_folder_says_what_helps_from_another_folder(tmp_path, monkeypatch,
                                                                      captured):
    monkeypatch.chdir(tmp_path)  # the default --packs is packs/ of the current folder
    result = runner.invoke(app, ["run", "--runs-dir", str(tmp_path / "runs")])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "allow-unchecked-corpus" not in text  # it cannot help: there is nothing to run
    assert f"corpus folder not found: {tmp_path / 'packs'}" in text
    assert "run --packs PATH" in text
    assert not captured and not (tmp_path / "runs").exists()
    with pytest.raises(PackError) as caught:  # allowed or not, a folder that is not there
        _corpus_gate.failing_corpora([str(tmp_path / "nowhere")], allow=True)
    assert "allow-unchecked-corpus" not in str(caught.value)
