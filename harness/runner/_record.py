"""What run.json says about a run as a whole: its id, labels, product, lanes and corpora, whether
a resume fits it, and the one-line summary."""

from __future__ import annotations

import secrets
import subprocess
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as pkg_version
from pathlib import Path
from typing import Any

from claims_records import (
    LABEL_CORPUS_FAILS_CHECK,
    LABEL_NO_RESET,
    LABEL_RUNTIME_DECLARED,
    LABEL_RUNTIME_NOT_REPORTED,
    LABEL_SELF_TEST,
    CorpusInfo,
    LaneInfo,
    ProductInfo,
    RunRecord,
    RunRecordError,
    find_run_record,
)

from ..profile import Lane, Profile


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ") + "-" + secrets.token_hex(3)


def git_commit(cwd: Path | None = None) -> str | None:
    """The current git commit, or None outside a repository or without git."""
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=5, cwd=cwd or Path(__file__).parent)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() or None


def harness_version() -> str:
    try:
        return pkg_version("claims-journey-harness")
    except PackageNotFoundError:
        return "unknown"


def reported_faults(fields: object) -> list[str]:
    """The fault switches a runtime report lists as on (its stored 'faults'), sorted."""
    faults = fields.get("faults") if isinstance(fields, dict) else None
    return sorted({str(f) for f in faults}) if isinstance(faults, list) else []


def trial_path(pack_id: str, n: int) -> str:
    return f"{pack_id}/trial-{n}"


def run_labels(self_test: bool, no_reset: bool, runtime_reported: bool,
               runtime_declared: bool = False, corpus_fails_check: bool = False) -> list[str]:
    """What makes a run's numbers not plain product numbers; shown wherever they are."""
    labels = []
    if self_test:
        labels.append(LABEL_SELF_TEST)
    if no_reset:
        labels.append(LABEL_NO_RESET)
    if not runtime_reported:
        labels.append(LABEL_RUNTIME_DECLARED if runtime_declared else
                      LABEL_RUNTIME_NOT_REPORTED)
    if corpus_fails_check:
        labels.append(LABEL_CORPUS_FAILS_CHECK)
    return labels


def lane_info(ln: Lane) -> LaneInfo:
    return LaneInfo(name=ln.name, base_url=ln.base_url, staff_base_url=ln.staff_base_url,
                    database=ln.database)


def product_info(profile: Profile, lanes: list[Lane], runtime: Any) -> ProductInfo:
    return ProductInfo(
        profile=profile.name, base_urls=[ln.base_url for ln in lanes], runtime=runtime.runtime,
        runtime_report=runtime.fields, runtime_reported=runtime.reported,
        reset_adapter=profile.reset.adapter, state_source=profile.state_source(),
        capabilities=profile.capabilities.model_dump(),
        claim_number_pattern=profile.customer_screen.claim_number_pattern,
        faults=reported_faults(runtime.fields), locale=profile.locale,
        currency=profile.currency, runtime_source=runtime.source,
        declared_runtime=runtime.declared, conversation_scope=profile.conversation.scope,
        new_conversation=profile.conversation.new.by if profile.conversation.new else None,
        staff_side=profile.staff_source())


def check_resumable(record: RunRecord, run_id: str, corpora: Any, self_test: bool,
                     runtime: Any, labels: list[str]) -> None:
    """Refuse a resume that would mix two corpora, products or kinds of run in one record."""
    main = corpora.first
    now = {c.id_prefix: c.hash for c in corpora.corpora}
    before = {c.id_prefix: c.hash for c in record.corpora} or {main.id_prefix:
                                                               record.corpus.hash}
    if before != now:
        raise RunRecordError("a corpus changed since this run started; start a new run",
                             run=run_id, recorded=record.corpus.hash[:12],
                             now=main.hash[:12])
    if record.self_test != self_test:
        raise RunRecordError("resume with the same --self-test setting as the run",
                             run=run_id, self_test=record.self_test)
    if record.product.runtime != runtime.runtime:
        raise RunRecordError("the product now reports another runtime; resuming would mix "
                             "two products in one run", run=run_id,
                             recorded=record.product.runtime, now=runtime.runtime)
    if sorted(record.labels) != sorted(labels):
        raise RunRecordError("resume with the same --self-test / --no-reset / "
                             "--allow-unreported-runtime settings as the run (and a corpus "
                             "that passes or fails `corpus check` as it did)",
                             run=run_id, labels=record.labels)
    if record.product.faults != reported_faults(runtime.fields):
        raise RunRecordError("the product now reports other fault switches; resuming "
                             "would mix a clean and a defect product in one run",
                             run=run_id, recorded=record.product.faults,
                             now=reported_faults(runtime.fields))


def corpus_info(ref: Any) -> CorpusInfo:
    return CorpusInfo(version=ref.version, hash=ref.hash, path=str(ref.root),
                      id_prefix=ref.id_prefix, name=ref.name,
                      story_facts=list(ref.story_facts))


def recorded_corpora(run_dir: Path) -> list[Path]:
    """The corpus folders a run was started with (empty when run.json cannot tell)."""
    record = find_run_record(run_dir)
    if record is None:
        return []  # prepare_resume reports the problem
    return [Path(c.path) for c in record.corpora]


def summary_line(record: RunRecord, run_dir: Path) -> str:
    """One line: counts per status, self-test label, and where the record is."""
    counts: dict[str, int] = {}
    for t in record.trials:
        counts[t.status.value] = counts.get(t.status.value, 0) + 1
    parts = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
    label = "SELF-TEST " if record.self_test else ""
    if record.product.faults:
        label += f"FAULTS ({', '.join(record.product.faults)}) "
    others = [x for x in record.labels if x != LABEL_SELF_TEST]
    if record.product.runtime_source == "declared":
        others = [f"{x}: {record.product.runtime}" if x == LABEL_RUNTIME_DECLARED else x
                  for x in others]
    labelled = f" [labelled: {'; '.join(others)}]" if others else ""
    again = [t for t in record.trials if t.attempts > 1]
    retried = (f"; {len(again)} run again after an infrastructure error "
               f"({sum(t.attempts - 1 for t in again)} earlier attempt(s) kept)"
               if again else "")
    stopped = (f"; STOPPED EARLY on infrastructure errors, {record.stopped.not_run} "
               "trial(s) not run" if record.stopped is not None else "")
    return (f"{label}run {record.run_id}: {len(record.trials)} trial(s): {parts}{retried}"
            f"{stopped}{labelled} -> {run_dir}")
