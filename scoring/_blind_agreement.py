"""``review import``: how far claims handlers agree with the product, the oracle and each other.

Each handler's file (``HandlerReview``) is checked against the export's key in the run folder,
kept beside it (``blind-review/handlers/``), and compared, per decision (triage class; review
needed or not), with the product's decision as the staff side showed it, the oracle's, and
every other handler's: Cohen's kappa with a cluster bootstrap interval over packs (seeded) and
a confusion matrix. The result is ``blind-review/agreement.json``, shown in the report under
"Are the rules right?".
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path

from claims_records import (
    AgreementStat,
    AgreementTarget,
    BlindReviewAgreement,
    BlindReviewKey,
    ConfusionMatrix,
    HandlerReview,
    RunRecordError,
    StaffReading,
    read_model,
    write_model_atomic,
)

from ._blind_export import BLIND_DIR
from ._claim_checks import shown_code
from ._record import load_labels, load_run_record
from ._stats import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    MIN_PACKS_FOR_CI,
    cluster_bootstrap_stat,
    cohen_kappa,
)
from ._summary import CorpusRoots, corpus_root_of

AGREEMENT_FILE = "agreement.json"
HANDLERS_DIR = "handlers"
LABELS: dict[str, list[str]] = {"triage_class": ["fast_track", "standard", "complex"],
                                "review_required": ["review", "no review"]}

# rater name -> neutral id -> target -> label
Ratings = dict[str, dict[str, dict[str, str]]]


def _review_label(value: bool | None) -> str | None:
    return None if value is None else ("review" if value else "no review")


def load_handler_files(files: list[Path]) -> list[HandlerReview]:
    reviews = [read_model(HandlerReview, Path(f)) for f in files]
    if not reviews:
        raise RunRecordError("no handler file given")
    exports = {r.export_id for r in reviews}
    if len(exports) > 1:
        raise RunRecordError(f"the files belong to different exports: {sorted(exports)}",
                             field="export_id")
    names = [r.handler.strip() for r in reviews]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RunRecordError(f"more than one file from the same handler: {twice}",
                             field="handler")
    return reviews


def _ratings(run_dir: Path, root: Callable[[str], Path], key: BlindReviewKey,
             reviews: list[HandlerReview]) -> tuple[Ratings, dict[str, str], list[str]]:
    ratings: Ratings = defaultdict(dict)
    notes = []
    unshown = 0
    for nid, item in key.items.items():
        labels = load_labels(root(item.pack_id), item.pack_id)
        ratings["oracle"][nid] = {
            "triage_class": labels.triage.triage_class,
            "review_required": "review" if labels.review.review_required else "no review"}
        staff_path = run_dir / item.path / "staff.json"
        staff = read_model(StaffReading, staff_path) if staff_path.is_file() else None
        product: dict[str, str] = {}
        if staff is not None and staff.triage_class:
            product["triage_class"] = shown_code(staff.triage_class)
        if staff is not None and staff.review_required is not None:
            product["review_required"] = "review" if staff.review_required else "no review"
        unshown += len(product) < 2
        ratings["product"][nid] = product
    if unshown:
        notes.append(f"the staff side did not show the product's decision for {unshown} "
                     "claim(s); they are left out of the product comparisons")
    for r in reviews:
        unknown = sorted(set(r.decisions) - set(key.items))
        if unknown:
            raise RunRecordError(f"decisions for claims not in export {key.export_id}: "
                                 f"{unknown}", handler=r.handler, field="decisions")
        mine = ratings[f"handler:{r.handler.strip()}"]
        for nid, d in r.decisions.items():
            given = {"triage_class": d.triage_class,
                     "review_required": _review_label(d.review_required)}
            mine[nid] = {k: v for k, v in given.items() if v}
        skipped = len(key.items) - len(mine)
        if skipped:
            notes.append(f"{r.handler.strip()} left {skipped} claim(s) undecided")
    packs = {nid: item.pack_id for nid, item in key.items.items()}
    return ratings, packs, notes


def _stat(a: str, b: str, target: AgreementTarget, ratings: Ratings, packs: dict[str, str],
          seed: int, resamples: int) -> AgreementStat:
    pairs_by_pack: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for nid in sorted(packs):
        x, y = ratings[a].get(nid, {}).get(target), ratings[b].get(nid, {}).get(target)
        if x and y:
            pairs_by_pack[packs[nid]].append((x, y))
    pairs = [p for ps in pairs_by_pack.values() for p in ps]
    labels = list(LABELS[target])
    labels += sorted({v for p in pairs for v in p} - set(labels))
    index = {label: i for i, label in enumerate(labels)}
    rows = [[0] * len(labels) for _ in labels]
    for x, y in pairs:
        rows[index[x]][index[y]] += 1
    too_thin = len(pairs_by_pack) < MIN_PACKS_FOR_CI
    interval = None
    if not too_thin:
        kappa: Callable[[list[tuple[str, str]]], float | None] = cohen_kappa
        interval = cluster_bootstrap_stat(list(pairs_by_pack.values()), kappa,
                                          random.Random(seed), resamples)
    return AgreementStat(
        rater_a=a, rater_b=b, target=target, n=len(pairs), packs=len(pairs_by_pack),
        observed_agreement=(sum(1 for x, y in pairs if x == y) / len(pairs)) if pairs else None,
        kappa=cohen_kappa(pairs), low=interval[0] if interval else None,
        high=interval[1] if interval else None, too_thin=too_thin,
        confusion=ConfusionMatrix(labels=labels, rows=rows))


def agreement(run_id: str, key: BlindReviewKey, ratings: Ratings, packs: dict[str, str],
              notes: list[str], *, seed: int, resamples: int) -> BlindReviewAgreement:
    """Every handler against the product and the oracle, and every pair of handlers (pure)."""
    handlers = sorted(r for r in ratings if r.startswith("handler:"))
    pairs = [(h, other) for h in handlers for other in ("product", "oracle")]
    pairs += list(combinations(handlers, 2))
    stats = [_stat(a, b, target, ratings, packs, seed, resamples)
             for a, b in pairs for target in ("triage_class", "review_required")]
    return BlindReviewAgreement(
        export_id=key.export_id, run_id=run_id,
        handlers=[h.removeprefix("handler:") for h in handlers], claims=len(key.items),
        seed=seed, resamples=resamples, comparisons=stats, notes=notes)


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "handler"


def import_blind_reviews(run_dir: Path | str, files: Sequence[Path | str],
                         corpus_root: CorpusRoots = None, *, seed: int = DEFAULT_SEED,
                         resamples: int = DEFAULT_RESAMPLES) -> BlindReviewAgreement:
    """Check the handlers' files, keep them in the run folder, write agreement.json."""
    run_dir = Path(run_dir)
    run = load_run_record(run_dir)
    reviews = load_handler_files([Path(f) for f in files])
    export_id = reviews[0].export_id
    key_path = run_dir / BLIND_DIR / f"key-{export_id}.json"
    if not key_path.is_file():
        raise RunRecordError(f"no key for export {export_id} in this run: was it exported "
                             "from another run?", run=run.run_id, file=str(key_path))
    key = read_model(BlindReviewKey, key_path)
    root = corpus_root_of(run, run_dir, corpus_root)
    ratings, packs, notes = _ratings(run_dir, root, key, reviews)
    result = agreement(run.run_id, key, ratings, packs, notes, seed=seed, resamples=resamples)
    kept = run_dir / BLIND_DIR / HANDLERS_DIR / export_id
    kept.mkdir(parents=True, exist_ok=True)
    for r in reviews:
        write_model_atomic(kept / f"{_slug(r.handler)}.json", r)
    write_model_atomic(run_dir / BLIND_DIR / AGREEMENT_FILE, result)
    return result


def load_agreement(run_dir: Path | str) -> BlindReviewAgreement | None:
    path = Path(run_dir) / BLIND_DIR / AGREEMENT_FILE
    return read_model(BlindReviewAgreement, path) if path.is_file() else None
