"""Paired comparison and the pass^k gate with JUnit XML."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from claims_records import ScoringError
from scoring import compare, gate, score_run, write_junit

from .builders import Variant, make_labels, write_corpus, write_run

PACKS = [f"CTL-M-00{i}" for i in range(1, 7)]


def _run(tmp_path: Path, name: str, failing: dict[str, int], trials: int = 3,
         corpus_version: str = "0.2.0"):
    labels = [make_labels(p) for p in PACKS]
    corpus = write_corpus(tmp_path / "packs", labels)
    spec = [(lab, n, Variant(ask_twice=True) if n <= failing.get(lab.pack_id, 0) else None)
            for lab in labels for n in range(1, trials + 1)]
    run_dir = write_run(tmp_path / name, corpus, spec, run_id=name,
                        corpus_version=corpus_version)
    return score_run(run_dir, resamples=500)


def test_clearly_better_and_worse(tmp_path):
    bad = _run(tmp_path, "bad", {p: 2 for p in PACKS})
    good = _run(tmp_path, "good", {})
    up = compare(good, bad, resamples=500)
    assert up.verdict == "better"
    assert up.mean_difference == pytest.approx(2 / 3)
    assert all(d.difference == pytest.approx(2 / 3) for d in up.packs)
    assert up.low > 0 and up.seed is not None and up.resamples == 500
    down = compare(bad, good, resamples=500)
    assert down.verdict == "worse" and down.high < 0


def test_inconclusive_when_the_interval_includes_zero(tmp_path):
    a = _run(tmp_path, "a", {"CTL-M-001": 1, "CTL-M-002": 1})
    b = _run(tmp_path, "b", {"CTL-M-003": 1, "CTL-M-004": 2})
    result = compare(a, b, resamples=500)
    assert result.verdict == "inconclusive"
    assert result.low <= 0 <= result.high
    assert "includes zero" in result.explanation


def test_paired_bootstrap_is_seeded(tmp_path):
    a = _run(tmp_path, "a", {"CTL-M-001": 1})
    b = _run(tmp_path, "b", {"CTL-M-003": 2, "CTL-M-004": 1})
    assert compare(a, b, seed=5, resamples=400) == compare(a, b, seed=5, resamples=400)


def test_refuses_different_corpus_versions_unless_told(tmp_path):
    a = _run(tmp_path, "a", {})
    b = _run(tmp_path, "b", {}, corpus_version="0.3.0")
    with pytest.raises(ScoringError, match="different corpus versions") as err:
        compare(a, b)
    assert err.value.context["field"] == "corpus_version"
    result = compare(a, b, allow_different_corpus=True)
    assert result.different_corpus_allowed is True and result.verdict == "inconclusive"


def test_only_packs_scored_in_both_runs_are_paired(tmp_path):
    a = _run(tmp_path, "a", {})
    labels = make_labels("CTL-M-001")
    corpus = write_corpus(tmp_path / "packs", [labels])
    b = score_run(write_run(tmp_path / "b", corpus, [(labels, 1, None)], run_id="b"))
    result = compare(a, b)
    assert [d.pack_id for d in result.packs] == ["CTL-M-001"]
    assert result.only_in_run == PACKS[1:]


def test_gate_passes_and_fails_on_the_floor(tmp_path):
    summary = _run(tmp_path, "r", {"CTL-M-001": 1})
    # pass^3 per pack: five packs 1.0, one pack C(2,3)/C(3,3) = 0 -> mean 5/6
    ok = gate(summary, 0.8, 3)
    assert ok.passed and ok.value == pytest.approx(5 / 6)
    no = gate(summary, 0.9, 3)
    assert not no.passed and "is below the floor 0.9" in no.message
    failing = [p for p in no.packs if not p.passed]
    assert [p.pack_id for p in failing] == ["CTL-M-001"]
    assert "repeated question" in failing[0].message


def test_gate_fails_when_k_exceeds_the_trials(tmp_path):
    summary = _run(tmp_path, "r", {}, trials=2)
    result = gate(summary, 0.5, 3)
    assert not result.passed and "too few trials for k=3" in result.message


def test_junit_has_one_testcase_per_pack_with_explanations(tmp_path):
    summary = _run(tmp_path, "r", {"CTL-M-002": 3})
    result = gate(summary, 0.8, 2)
    path = write_junit(result, summary, tmp_path / "out" / "junit.xml")
    root = ET.parse(path).getroot()
    suite = root.find("testsuite")
    assert suite is not None and suite.get("tests") == "6" and suite.get("failures") == "1"
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert set(cases) == set(PACKS)
    failure = cases["CTL-M-002"].find("failure")
    assert failure is not None
    assert "pass^2 = 0.000" in failure.get("message")
    assert "journey:" in failure.get("message")
    assert cases["CTL-M-001"].find("failure") is None


def _hashed(summary, corpus_hash: str, pack_hashes: dict[str, str | None]):
    packs = [p.model_copy(update={"pack_hash": pack_hashes.get(p.pack_id)})
             for p in summary.packs]
    corpora = [c.model_copy(update={"hash": corpus_hash}) for c in summary.corpora]
    return summary.model_copy(update={"corpus_hash": corpus_hash, "packs": packs,
                                      "corpora": corpora})


SAME = {p: f"h-{p}" for p in PACKS}
EDITED = {**SAME, "CTL-M-002": "h-edited"}


# (baseline corpus hash and pack hashes, run's, what the refusal and the label name)
CONTENT_CASES = [
    ("edited pack", ("c1", SAME), ("c2", EDITED), "CTL-M-002 differ"),
    ("two edited", ("c1", SAME), ("c2", {**EDITED, "CTL-M-005": "x"}),
     "CTL-M-002, CTL-M-005 differ"),
    ("no pack hashes", ("c1", {}), ("c2", {}), "6 pack(s) cannot be told apart"),
    ("one side unhashed", ("c1", SAME), ("c2", {}), "6 pack(s) cannot be told apart"),
    ("packs added", ("c1", SAME), ("c2", SAME), "packs were added or removed"),
]


@pytest.mark.parametrize(("case", "base", "mine", "named"), CONTENT_CASES,
                         ids=[c[0] for c in CONTENT_CASES])
def test_different_corpus_content_is_refused_or_labelled(tmp_path, case, base, mine,
                                                         named) -> None:
    a = _run(tmp_path, "a", {})
    baseline, run = _hashed(a, *base), _hashed(a, *mine)
    with pytest.raises(ScoringError, match="content differs") as err:
        compare(run, baseline)
    assert named in err.value.message
    assert err.value.context["field"] == "corpus_hash"
    result = compare(run, baseline, allow_different_content=True)
    assert result.different_corpus_content_allowed is True
    assert result.explanation.startswith("CORPUS CONTENT DIFFERS (")
    assert named in result.explanation and named in result.corpus_content_differs[0]


def test_the_same_corpus_hash_compares_unlabelled(tmp_path) -> None:
    a = _run(tmp_path, "a", {})
    result = compare(_hashed(a, "c1", SAME), _hashed(a, "c1", EDITED))  # hashes decide
    assert result.corpus_content_differs == [] and not result.different_corpus_content_allowed
    assert "CORPUS CONTENT" not in result.explanation


def test_another_corpus_version_allowed_is_still_labelled(tmp_path) -> None:
    a = _run(tmp_path, "a", {})
    b = _run(tmp_path, "b", {}, corpus_version="0.3.0")
    result = compare(_hashed(a, "c1", SAME), _hashed(b, "c2", EDITED),
                     allow_different_corpus=True)
    assert result.corpus_content_differs == ["corpus c2 (baseline) vs c1 (run): CTL-M-002 "
                                             "differ"]


def test_the_summary_records_pack_hashes_only_of_the_corpus_the_run_used(tmp_path) -> None:
    import shutil

    import claims_corpus
    from claims_records import CorpusInfo, RunSummary
    from scoring._summary import with_pack_hashes

    from .conftest import PACKS as SHIPPED

    root = tmp_path / "packs"
    root.mkdir()
    shutil.copy2(SHIPPED / "manifest.json", root / "manifest.json")
    _, digest = claims_corpus.corpus_identity(root)
    manifest = claims_corpus.load_manifest(root)
    a = _run(tmp_path, "a", {})
    summary = a.model_copy(update={"packs": [
        p.model_copy(update={"pack_id": pid, "pack_hash": None})
        for p, pid in zip(a.packs, sorted(manifest.packs), strict=False)]})
    from scoring._record import load_run_record

    run = load_run_record(tmp_path / "a")
    same = run.model_copy(update={"corpus": CorpusInfo(version="x", hash=digest,
                                                       path=str(root)), "corpora": []})
    filled: RunSummary = with_pack_hashes(summary, same, {None: root})
    assert [p.pack_hash for p in filled.packs] == [manifest.packs[p.pack_id].hash
                                                   for p in filled.packs]
    other = same.model_copy(update={"corpus": CorpusInfo(version="x", hash="other",
                                                         path=str(root))})
    assert {p.pack_hash for p in with_pack_hashes(summary, other, {None: root}).packs} == {None}
