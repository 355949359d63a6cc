"""Agreement of claims handlers with the product, the oracle and each other (pure parts), and
the import's refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claims_records import BlindReviewKey, RunRecordError
from scoring import agreement
from scoring._blind_agreement import load_handler_files

PACKS = ["P1", "P2", "P3", "P4"]


def _key(n: int = 8) -> BlindReviewKey:
    items = {f"claim-{i:02d}": {"pack_id": PACKS[i % 4], "trial": 1 + i // 4,
                                "path": f"{PACKS[i % 4]}/trial-{1 + i // 4}"}
             for i in range(n)}
    return BlindReviewKey(export_id="br-1", run_id="r", created_at="t", seed=1, out="x",
                          items=items)


def _stat(result, a, b, target):
    return next(s for s in result.comparisons
                if (s.rater_a, s.rater_b, s.target) == (a, b, target))


def test_agreement_kappa_confusion_and_intervals():
    key = _key()
    ids = sorted(key.items)
    classes = ["fast_track", "standard", "complex", "standard"] * 2
    oracle = {i: {"triage_class": c, "review_required": "no review"}
              for i, c in zip(ids, classes, strict=True)}
    oracle[ids[0]]["review_required"] = "review"
    ann = {i: dict(v) for i, v in oracle.items()}  # agrees with the oracle on everything
    bo = {i: dict(v) for i, v in oracle.items()}
    bo[ids[1]]["triage_class"] = "complex"  # one class differs
    ratings = {"oracle": oracle, "product": {i: dict(v) for i, v in oracle.items()},
               "handler:Ann": ann, "handler:Bo": bo}
    packs = {i: item.pack_id for i, item in key.items.items()}
    result = agreement("r", key, ratings, packs, [], seed=5, resamples=300)
    assert result.handlers == ["Ann", "Bo"] and result.claims == 8
    names = {(s.rater_a, s.rater_b) for s in result.comparisons}
    assert names == {("handler:Ann", "product"), ("handler:Ann", "oracle"),
                     ("handler:Bo", "product"), ("handler:Bo", "oracle"),
                     ("handler:Ann", "handler:Bo")}
    perfect = _stat(result, "handler:Ann", "oracle", "triage_class")
    assert perfect.kappa == pytest.approx(1.0) and perfect.observed_agreement == 1.0
    assert (perfect.low, perfect.high) == (pytest.approx(1.0), pytest.approx(1.0))
    assert perfect.confusion.labels == ["fast_track", "standard", "complex"]
    assert perfect.confusion.rows == [[2, 0, 0], [0, 4, 0], [0, 0, 2]]
    pair = _stat(result, "handler:Ann", "handler:Bo", "triage_class")
    assert pair.n == 8 and pair.packs == 4 and not pair.too_thin
    assert pair.confusion.rows[1] == [0, 3, 1]  # Ann standard, Bo complex once
    # p_o = 7/8; Ann: f2 s4 c2; Bo: f2 s3 c3; p_e = (4 + 12 + 6) / 64
    assert pair.kappa == pytest.approx((7 / 8 - 22 / 64) / (1 - 22 / 64))
    assert pair.low is not None and pair.low <= pair.kappa <= pair.high
    review = _stat(result, "handler:Bo", "oracle", "review_required")
    assert review.confusion.labels == ["review", "no review"]
    assert review.confusion.rows == [[1, 0], [0, 7]]


def test_undecided_claims_are_left_out_and_thin_data_says_so():
    key = _key(2)
    ids = sorted(key.items)
    oracle = {i: {"triage_class": "standard", "review_required": "no review"} for i in ids}
    ratings = {"oracle": oracle, "product": {}, "handler:Ann": {ids[0]: {"triage_class":
                                                                         "standard"}}}
    result = agreement("r", key, ratings, {i: key.items[i].pack_id for i in ids}, [],
                       seed=1, resamples=50)
    stat = _stat(result, "handler:Ann", "oracle", "triage_class")
    assert stat.n == 1 and stat.too_thin and stat.low is None
    assert stat.kappa is None  # one label on both sides: undefined, not 1
    assert _stat(result, "handler:Ann", "product", "triage_class").n == 0


def _handler_file(path: Path, handler: str, export_id: str = "br-1", **decisions) -> Path:
    path.write_text(json.dumps({"version": "1", "export_id": export_id, "handler": handler,
                                "saved_at": "2026-04-01T10:00:00Z",
                                "decisions": decisions}))
    return path


def test_handler_files_are_checked(tmp_path):
    ok = _handler_file(tmp_path / "a.json", "Ann", **{"claim-01": {
        "triage_class": "standard", "reasons": ["theft"], "review_required": False}})
    assert load_handler_files([ok])[0].handler == "Ann"
    with pytest.raises(RunRecordError, match="same handler"):
        load_handler_files([ok, _handler_file(tmp_path / "b.json", "Ann")])
    with pytest.raises(RunRecordError, match="different exports"):
        load_handler_files([ok, _handler_file(tmp_path / "c.json", "Bo", "br-2")])
    bad = _handler_file(tmp_path / "d.json", "Cy", **{"claim-01": {"triage_class": "urgent"}})
    with pytest.raises(RunRecordError, match="d.json") as err:
        load_handler_files([bad])
    assert "decisions.claim-01.triage_class" in str(err.value)
    with pytest.raises(RunRecordError, match="no handler file"):
        load_handler_files([])
