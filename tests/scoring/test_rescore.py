"""Re-scoring a stored run against a corrected oracle (``score_run(..., packs=DIR)``): only
the corrected pack's sheets change, both corpus versions are recorded, the run's own sheets and
summary stay byte for byte, and a pack whose input or setup changed is refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import scoring
from claims_corpus import corpus_identity, pack_file_hashes, pack_hash
from claims_corpus.formats import Manifest, ManifestPack
from claims_records import PackError, RunSummary, Sheet, read_model
from tests.scoring.builders import Variant, make_labels, write_corpus, write_run

PACKS = ("CTL-M-001", "CTL-M-002", "CTL-M-003")


def write_manifest(root: Path, version: str = "0.2.0") -> str:
    """A manifest of the packs in ``root`` as they are now; returns the corpus hash."""
    packs = {}
    for pid in PACKS:
        files = pack_file_hashes(root / pid)
        packs[pid] = ManifestPack(hash=pack_hash(files), line="motor", scenario="rear_end",
                                  message_style="plain", claimant_session="anonymous",
                                  review_required=False, innocent_control=False, files=files)
    manifest = Manifest(id_prefix="CTL", corpus_version=version, packs=packs)
    (root / "manifest.json").write_text(manifest.model_dump_json(indent=2))
    return corpus_identity(root)[1]


def scored_run(tmp_path: Path, asked_twice: tuple[tuple[str, int], ...] = ()
               ) -> tuple[Path, Path]:
    """A run of three packs, two trials each, recorded with its corpus's real hash and
    scored against its own packs; the trials ``asked_twice`` (pack, trial) fail their
    journey."""
    labels = [make_labels(pid) for pid in PACKS]
    corpus = write_corpus(tmp_path / "packs", labels)
    (corpus / "baseline.json").write_text("{}")
    corpus_hash = write_manifest(corpus)
    run_dir = write_run(tmp_path / "run-1", corpus, [
        (lab, n, Variant(ask_twice=True) if (lab.pack_id, n) in asked_twice else None)
        for lab in labels for n in (1, 2)])
    record = json.loads((run_dir / "run.json").read_text())
    record["corpus"].update(hash=corpus_hash, id_prefix="CTL")
    record["corpora"] = [record["corpus"]]
    (run_dir / "run.json").write_text(json.dumps(record))
    scoring.score_run(run_dir)
    return run_dir, corpus


def corrected_copy(corpus: Path, dest: Path) -> Path:
    """The corpus with CTL-M-002's oracle corrected to expect another triage class."""
    shutil.copytree(corpus, dest)
    path = dest / "CTL-M-002/oracle/labels.json"
    data = json.loads(path.read_text())
    data["triage"]["triage_class"] = "complex"
    path.write_text(json.dumps(data, indent=2))
    return dest


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "rescored" not in p.relative_to(root).parts}


def test_rescoring_a_corrected_pack_changes_only_its_sheets_and_keeps_the_runs_own(
        tmp_path: Path) -> None:
    run_dir, corpus = scored_run(tmp_path)
    fixed = corrected_copy(corpus, tmp_path / "packs-fixed")
    before = _files(run_dir)

    summary = scoring.score_run(run_dir, packs=[fixed])

    assert _files(run_dir) == before  # the run's own sheets and summary untouched
    info = summary.rescored
    assert info is not None
    assert [(p.pack_id, p.changed_files) for p in info.changed] == [
        ("CTL-M-002", ["oracle/labels.json"])]
    assert info.unchanged_packs == 2
    assert info.run_corpora == {"CTL": corpus_identity(corpus)[1]}  # the run's own version
    assert info.versions == {"CTL": "0.2.0"} and info.packs_dirs == [str(fixed)]
    assert info.changed[0].run_hash != info.changed[0].hash
    out = scoring.rescored_dir(run_dir, info)
    assert out == run_dir / "rescored" / info.oracle_hash[:12]
    assert read_model(RunSummary, out / "summary.json").rescored == info
    own = read_model(RunSummary, run_dir / "summary.json")
    assert own.rescored is None and own.successes == 6
    assert summary.successes == 4  # CTL-M-002's two trials now fail on triage
    for pid in PACKS:
        for n in (1, 2):
            new = read_model(Sheet, out / pid / f"trial-{n}" / "sheet.json")
            old = read_model(Sheet, run_dir / pid / f"trial-{n}" / "sheet.json")
            assert new.oracle_hash == pack_hash(pack_file_hashes(fixed / pid))
            assert old.oracle_hash is None
            if pid == "CTL-M-002":
                assert new.success is False and old.success is True
                triage = next(c for c in new.components if c.name == "triage")
                assert triage.status == "fail"
            else:
                assert new.model_dump(exclude={"oracle_hash"}) == old.model_dump(
                    exclude={"oracle_hash"})


@pytest.mark.parametrize(("changed", "words"), [
    ("input/initial_message.txt", "CTL-M-003 (input/initial_message.txt)"),
    ("setup.json", "CTL-M-003 (setup.json)"),
    ("../baseline.json", "(baseline.json)"),
])
def test_a_changed_input_or_setup_is_refused_and_nothing_is_written(
        tmp_path: Path, changed: str, words: str) -> None:
    run_dir, corpus = scored_run(tmp_path)
    fixed = corrected_copy(corpus, tmp_path / "packs-fixed")
    target = fixed / "CTL-M-003" / changed
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text('{"changed": true}')

    with pytest.raises(PackError) as err:
        scoring.score_run(run_dir, packs=[fixed])

    assert words in err.value.message
    assert "driven with" in err.value.message
    assert not (run_dir / "rescored").exists()


def test_metadata_changes_are_recorded_not_refused(tmp_path: Path) -> None:
    run_dir, corpus = scored_run(tmp_path)
    fixed = corrected_copy(corpus, tmp_path / "packs-fixed")
    (fixed / "CTL-M-001" / "review.json").write_text('{"signed": "someone"}')

    info = scoring.score_run(run_dir, packs=[fixed]).rescored

    assert info is not None
    assert {p.pack_id: p.changed_files for p in info.changed} == {
        "CTL-M-001": ["review.json"], "CTL-M-002": ["oracle/labels.json"]}


def test_refused_when_the_runs_own_corpus_changed_since_the_run(tmp_path: Path) -> None:
    run_dir, corpus = scored_run(tmp_path)
    fixed = corrected_copy(corpus, tmp_path / "packs-fixed")
    (corpus / "CTL-M-001/oracle/labels.json").write_text(
        make_labels("CTL-M-001", scenario="edited_later").model_dump_json())
    write_manifest(corpus, version="0.3.0")  # the corpus moved on after the run

    with pytest.raises(PackError) as err:
        scoring.score_run(run_dir, packs=[fixed])

    assert "has changed since the run" in err.value.message
    assert err.value.context["recorded"] != err.value.context["now"]


def test_the_same_oracle_again_keeps_the_earlier_summary_and_another_gets_its_own_folder(
        tmp_path: Path) -> None:
    run_dir, corpus = scored_run(tmp_path)
    fixed = corrected_copy(corpus, tmp_path / "packs-fixed")
    first = scoring.score_run(run_dir, packs=[fixed])
    again = scoring.score_run(run_dir, packs=[fixed], seed=7)  # other numbers, same oracle
    assert first.rescored == again.rescored
    out = scoring.rescored_dir(run_dir, first.rescored)  # type: ignore[arg-type]
    assert (out / "summary.previous-1.json").is_file()

    data = json.loads((fixed / "CTL-M-002/oracle/labels.json").read_text())
    data["triage"]["triage_class"] = "fast_track"
    (fixed / "CTL-M-002/oracle/labels.json").write_text(json.dumps(data))
    other = scoring.score_run(run_dir, packs=[fixed])
    assert other.rescored is not None and first.rescored is not None
    assert other.rescored.oracle_hash != first.rescored.oracle_hash
    assert sorted(p.name for p in (run_dir / "rescored").iterdir()) == sorted(
        [first.rescored.oracle_hash[:12], other.rescored.oracle_hash[:12]])
