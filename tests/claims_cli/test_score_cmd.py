"""score / compare / gate / report through the CLI, in-process."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from claims_cli.app import app
from tests.scoring.builders import Variant, make_labels, write_corpus, write_run

runner = CliRunner()


def _run(tmp_path: Path, name: str, bad: int = 0, self_test: bool = False,
         version: str = "0.2.0") -> Path:
    labels = [make_labels(f"CTL-M-00{i}") for i in range(1, 4)]
    corpus = write_corpus(tmp_path / "packs", labels)
    spec = [(lab, n, Variant(ask_twice=True) if n <= bad else None)
            for lab in labels for n in (1, 2)]
    spec.append((labels[0], 3, Variant(status="harness_error", detail="browser died")))
    return write_run(tmp_path / name, corpus, spec, run_id=name, self_test=self_test,
                     corpus_version=version)


def test_score_prints_the_summary_and_writes_files(tmp_path):
    run_dir = _run(tmp_path, "r1", bad=1, self_test=True)
    result = runner.invoke(app, ["score", str(run_dir), "--seed", "9", "--resamples", "100"])
    assert result.exit_code == 0, result.output
    assert "SELF-TEST" in result.output
    assert "3/6 scorable trials succeeded" in result.output
    assert "infrastructure errors (not in the rates): 1 harness_error 1" in result.output
    assert "FAIL CTL-M-002 trial 1: journey:" in result.output
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["mean_success"]["seed"] == 9 and summary["mean_success"]["resamples"] == 100
    assert (run_dir / "CTL-M-003/trial-2/sheet.json").is_file()


def test_score_reports_a_bad_oracle_clearly(tmp_path):
    run_dir = _run(tmp_path, "r1")
    (tmp_path / "packs/CTL-M-001/oracle/labels.json").write_text("{}")
    result = runner.invoke(app, ["score", str(run_dir)])
    assert result.exit_code == 2
    assert "pack=CTL-M-001" in result.output and "labels.json" in result.output


def test_gate_exit_codes_and_junit(tmp_path):
    good, bad = _run(tmp_path, "good"), _run(tmp_path, "bad", bad=2)
    ok = runner.invoke(app, ["gate", str(good), "--min-pass-hat-k", "0.8", "--k", "2"])
    assert ok.exit_code == 0, ok.output
    assert "PASS: pass^2 = 1.000" in ok.output
    junit = tmp_path / "ci" / "junit.xml"
    no = runner.invoke(app, ["gate", str(bad), "--min-pass-hat-k", "0.8", "--k", "2",
                             "--junit", str(junit)])
    assert no.exit_code == 1
    assert "FAIL: pass^2 = 0.000" in no.output
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "3"
    assert (good / "junit.xml").is_file()


def test_compare_verdicts_and_corpus_guard(tmp_path):
    good, bad = _run(tmp_path, "good"), _run(tmp_path, "bad", bad=2)
    out = tmp_path / "cmp.json"
    result = runner.invoke(app, ["compare", str(good), "--baseline", str(bad), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "BETTER" in result.output
    assert json.loads(out.read_text())["verdict"] == "better"
    other = _run(tmp_path, "other", version="0.3.0")
    refused = runner.invoke(app, ["compare", str(good), "--baseline", str(other)])
    assert refused.exit_code == 2 and "different corpus versions" in refused.output
    allowed = runner.invoke(app, ["compare", str(good), "--baseline", str(other),
                                  "--allow-different-corpus"])
    assert allowed.exit_code == 0 and "INCONCLUSIVE" in allowed.output


def test_report_writes_index_and_pack_pages(tmp_path):
    run_dir = _run(tmp_path, "r1", bad=1)
    out = tmp_path / "rep"
    result = runner.invoke(app, ["report", str(run_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (out / "index.html").is_file()
    assert sorted(p.name for p in (out / "packs").iterdir()) == [
        "CTL-M-001.html", "CTL-M-002.html", "CTL-M-003.html"]
    assert (run_dir / "summary.json").is_file()  # scored on the way
