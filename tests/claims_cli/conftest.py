"""What the command-line tests share: a bare run record, ``harness.run`` replaced by one
that records what the command line asked for, and a page server for product pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import harness
from claims_records import (
    CorpusInfo,
    CustomerInfo,
    HarnessInfo,
    ProductInfo,
    RunConfig,
    RunRecord,
    TrialEntry,
    TrialStatus,
)
from tests.harness.pages import PageServer


def bare_record(run_id: str, options: RunConfig | None = None, kind: str | None = None,
                trials: int = 1) -> RunRecord:
    """A run record of CTL-M-001 on the reference app with ``trials`` trials; the customer's
    kind is the options' unless ``kind`` says otherwise."""
    options = options or RunConfig()
    return RunRecord(
        run_id=run_id, created_at="2026-03-12T00:00:00+00:00",
        harness=HarnessInfo(version="0"), corpus=CorpusInfo(version="0", hash="h", path="p"),
        product=ProductInfo(profile="reference", base_urls=["http://127.0.0.1:1"],
                            runtime="reference"),
        customer=CustomerInfo(kind=kind or options.customer), options=options,
        trials=[TrialEntry(pack_id="CTL-M-001", trial=n, path=f"CTL-M-001/trial-{n}")
                for n in range(1, trials + 1)])


def ran(record: RunRecord) -> RunRecord:
    """``record`` as a run that reached an outcome on every trial leaves it (``run`` exits
    0 only then)."""
    trials = [t.model_copy(update={"status": TrialStatus.COMPLETED,
                                   "stop_reason": "claim_number"}) for t in record.trials]
    return record.model_copy(update={"trials": trials})


@pytest.fixture
def captured(monkeypatch):
    """``harness.run`` replaced by one that records what the command line asked for."""
    calls: list[tuple[RunConfig, harness.RunContext]] = []

    def fake_run(config, ctx):
        calls.append((config, ctx))
        run_dir = Path(ctx.runs_dir) / (ctx.resume or ctx.run_id)
        return ran(bare_record(run_dir.name, config)), run_dir

    monkeypatch.setattr(harness, "run", fake_run)
    return calls


@pytest.fixture(scope="module")
def server() -> Iterator[PageServer]:
    """The test product pages (``tests/harness/pages.py``), one server per module."""
    srv = PageServer()
    yield srv
    srv.close()
