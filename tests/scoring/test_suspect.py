"""Simulator-suspect trials: on the sheet, out of the rates, in the summary, the report and
the gate; invalid under strict fidelity."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from claims_cli import app
from scoring import fidelity_gate, gate, score_run, write_junit, write_report

from .builders import Variant, make_labels, write_corpus, write_run

REAL_PACK = Path(__file__).resolve().parents[2] / "packs" / "CTL-M-001"
# event 2 answers "On what date did it happen?"; event 5 answers "Where did it happen?"
INVENTS = Variant(actions={5: {"kind": "say", "text": "On Oak Lane in Barnsley."}})
HINTS = Variant(actions={2: {"kind": "say", "text": "12 March 2026. You forgot to ask "
                                                   "about the police."}})
runner = CliRunner()


def _run(tmp_path: Path, prompt_view: str | None = None) -> Path:
    labels = [make_labels("CTL-M-001"), make_labels("CTL-M-002")]
    corpus = write_corpus(tmp_path / "packs", labels, customer_from=REAL_PACK)
    run_dir = write_run(tmp_path / "run", corpus, [
        (labels[0], 1, None), (labels[0], 2, INVENTS), (labels[0], 3, Variant(ask_twice=True)),
        (labels[1], 1, None), (labels[1], 2, HINTS)])
    if prompt_view:
        run = json.loads((run_dir / "run.json").read_text())
        run["customer"] = {"kind": "llm", "model": "m", "prompt_view": prompt_view}
        (run_dir / "run.json").write_text(json.dumps(run))
    return run_dir


def _sheet(run_dir: Path, pack: str, trial: int) -> dict:
    return json.loads((run_dir / pack / f"trial-{trial}" / "sheet.json").read_text())


def test_a_suspect_trial_is_shown_but_kept_out_of_the_rates(tmp_path):
    run_dir = _run(tmp_path)
    summary = score_run(run_dir)
    clean, suspect = _sheet(run_dir, "CTL-M-001", 1), _sheet(run_dir, "CTL-M-001", 2)
    assert clean["fidelity"]["audited"] and clean["fidelity"]["findings"] == []
    assert clean["scorable"] and clean["success"] is True
    assert suspect["simulator_suspect"] and not suspect["scorable"]
    assert suspect["success"] is None and suspect["error_category"] == "simulator_suspect"
    [finding] = suspect["fidelity"]["findings"]
    assert finding["rule"] == "invented" and finding["step"] == 5
    assert "Barnsley" in finding["evidence"] and finding["message"] == "On Oak Lane in Barnsley."
    assert suspect["explanation"].startswith("simulator suspect, kept out of the rates")
    assert {c["status"] for c in suspect["components"]} >= {"pass"}  # still scored, shown
    # the rates: 2 + 1 scorable trials; the suspect ones are not among them
    assert (summary.trials, summary.scorable_trials, summary.successes) == (5, 3, 2)
    packs = {p.pack_id: p for p in summary.packs}
    assert (packs["CTL-M-001"].n, packs["CTL-M-001"].c) == (2, 1)
    assert packs["CTL-M-001"].errors == {"simulator_suspect": 1}
    assert summary.infrastructure_errors == []  # a suspect trial is not an infrastructure error
    assert summary.components["journey"].not_scored == 2
    f = summary.fidelity
    assert (f.audited_trials, f.suspect_trials, f.not_audited_trials) == (5, 2, 0)
    assert f.findings_by_rule == {"hinting": 1, "invented": 1}
    assert {(s.pack_id, s.trial) for s in f.suspects} == {("CTL-M-001", 2), ("CTL-M-002", 2)}
    assert f.valid and not f.strict


def test_strict_fidelity_makes_the_run_invalid_and_fails_the_gate(tmp_path):
    run_dir = _run(tmp_path)
    loose = score_run(run_dir)
    shown = fidelity_gate(loose)
    assert shown.ok and not shown.strict
    assert "2 simulator-suspect trial(s)" in shown.message and "not strict" in shown.message
    assert "hinting 1, invented 1" in shown.message
    strict_gate = fidelity_gate(loose, strict=True)
    assert not strict_gate.ok and "not valid under strict fidelity" in strict_gate.message
    strict = score_run(run_dir, strict_fidelity=True)
    assert strict.fidelity.strict and not strict.fidelity.valid
    assert not fidelity_gate(strict).ok  # a summary scored strict stays strict
    path = write_junit(gate(strict, 0.0, 1), strict, tmp_path / "junit.xml", None,
                       fidelity_gate(strict))
    suites = ET.parse(path).getroot().findall("testsuite")
    assert [s.get("name").endswith("simulator fidelity") for s in suites] == [False, True]
    [case] = list(suites[1].iter("testcase"))
    assert case.get("name") == "simulator-fidelity" and case.find("failure") is not None
    assert suites[1].get("failures") == "1"


def test_the_cli_shows_suspects_and_exits_1_when_strict(tmp_path):
    run_dir = _run(tmp_path)
    result = runner.invoke(app, ["score", str(run_dir)])
    assert result.exit_code == 0, result.output
    assert "simulator fidelity: 2 of 5 audited trial(s) simulator-suspect" in result.output
    assert "SUSPECT CTL-M-001 trial 2: invented at step 5" in result.output
    result = runner.invoke(app, ["score", str(run_dir), "--strict-fidelity"])
    assert result.exit_code == 1 and "strict fidelity: the run is not valid" in result.output
    result = runner.invoke(app, ["gate", str(run_dir), "--min-pass-hat-k", "0", "--k", "1"])
    assert result.exit_code == 1  # the summary was scored strict
    assert "FAIL: simulator fidelity (strict)" in result.output
    runner.invoke(app, ["score", str(run_dir)])
    result = runner.invoke(app, ["gate", str(run_dir), "--min-pass-hat-k", "0", "--k", "1"])
    assert result.exit_code == 0 and "PASS: simulator fidelity (not strict)" in result.output
    assert "SUSPECT CTL-M-002 trial 2: hinting" in result.output
    result = runner.invoke(app, ["gate", str(run_dir), "--min-pass-hat-k", "0", "--k", "1",
                                 "--strict-fidelity"])
    assert result.exit_code == 1 and "FAIL: simulator fidelity (strict)" in result.output


def test_the_report_shows_suspects_and_labels_a_wide_prompt_view(tmp_path):
    run_dir = _run(tmp_path, prompt_view="wide")
    summary = score_run(run_dir)
    assert summary.customer == "llm m [wide prompt view]"
    index = write_report(run_dir, tmp_path / "report")
    html = index.read_text()
    assert 'data-testid="wide-view"' in html and "WIDE PROMPT VIEW" in html
    assert 'data-testid="suspects"' in html and "CTL-M-001 trial 2" in html
    page = (tmp_path / "report" / "packs" / "CTL-M-001.html").read_text()
    assert page.count('data-testid="suspect"') == 1
    assert 'data-testid="fidelity-findings"' in page and "Barnsley" in page
    screen_view = _run(tmp_path / "screen", prompt_view="screen")
    score_run(screen_view)
    html = write_report(screen_view, tmp_path / "report2").read_text()
    assert "WIDE PROMPT VIEW" not in html and "prompt view screen" in html


def test_a_pack_without_customer_files_is_not_audited_and_says_so(tmp_path):
    labels = [make_labels("CTL-M-001")]
    corpus = write_corpus(tmp_path / "packs", labels)
    run_dir = write_run(tmp_path / "run", corpus, [(labels[0], 1, INVENTS)])
    summary = score_run(run_dir)
    sheet = _sheet(run_dir, "CTL-M-001", 1)
    assert sheet["fidelity"]["audited"] is False and "not audited" in sheet["fidelity"]["note"]
    assert sheet["scorable"] and summary.fidelity.not_audited_trials == 1
