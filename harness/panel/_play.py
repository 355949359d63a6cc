"""Playing a customer through recorded screens, and recording those screens from a run.

The panel shows a customer the screens a real product showed for a pack, in order, and
records what it does as journey events — the same record a run writes, so the scorer's
fidelity audit reads both alike. The screens do not react to the customer's answers (they
were recorded with the scripted customer); every answer is judged against the screen it
was given. ``claims-harness run --dev --customer llm`` followed by ``score`` is the
closed-loop check against the reference app.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import claims_corpus
from claims_corpus import CustomerView
from claims_records import (
    CustomerAction,
    CustomerModelCall,
    FidelityAudit,
    JourneyEvent,
    PanelScreens,
    RunRecordError,
    SimulatorError,
    Timings,
    read_journey,
    read_run_record,
)

from ..customers import Customer, CustomerContext, JourneyTracker, material_availability

SCREENS_DIR = Path(__file__).with_name("screens")
INITIAL_NOTE = "initial message"


@dataclass
class PanelTrial:
    """One pack played through its recorded screens."""

    pack_id: str
    events: list[JourneyEvent] = field(default_factory=list)
    calls: list[CustomerModelCall] = field(default_factory=list)
    ended: str = "screens_exhausted"  # customer_done | simulator_error | screens_exhausted
    error_kind: str | None = None
    detail: str = ""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def load_screens(folder: Path | str = SCREENS_DIR) -> dict[str, PanelScreens]:
    """Every recorded pack in ``folder``, by pack id."""
    out: dict[str, PanelScreens] = {}
    for path in sorted(Path(folder).glob("*.json")):
        try:
            screens = PanelScreens.model_validate_json(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise RunRecordError(f"unreadable recorded screens: {exc}".splitlines()[0],
                                 file=str(path)) from exc
        out[screens.pack_id] = screens
    if not out:
        raise RunRecordError("no recorded screens", file=str(folder))
    return out


def record_screens(run_dir: Path | str, out_dir: Path | str) -> list[Path]:
    """Write the screens of each pack's first completed trial of a run record."""
    from claims_records import write_model_atomic

    run_dir, out_dir = Path(run_dir), Path(out_dir)
    record = read_run_record(run_dir)
    written: list[Path] = []
    done: set[str] = set()
    for entry in record.trials:
        if entry.pack_id in done or entry.status.value != "completed":
            continue
        events = read_journey(run_dir / entry.path, pack=entry.pack_id)
        acted = [e for e in events if e.screen is not None and e.action is not None]
        if not acted or acted[0].note != INITIAL_NOTE:
            continue
        shown = [e.screen for e in acted if e.screen is not None]
        screens = PanelScreens(
            pack_id=entry.pack_id, corpus_version=record.corpus.version,
            source=f"run {record.run_id}, product {record.product.profile} (runtime "
                   f"{record.product.runtime}), {record.customer.kind} customer",
            start=shown[0], screens=shown[1:])
        path = out_dir / f"{entry.pack_id}.json"
        write_model_atomic(path, screens)
        written.append(path)
        done.add(entry.pack_id)
    return written


async def play(customer: Customer, view: CustomerView, screens: PanelScreens) -> PanelTrial:
    """Play ``customer`` (with the pack's customer ``view``) through the recorded screens."""
    trial = PanelTrial(pack_id=screens.pack_id)
    history: list[tuple[str, str]] = [("customer", view.initial_message)]
    uploaded: list[str] = []
    sent, signed_in = 1, False
    opening = CustomerAction(kind="say", text=view.initial_message)
    tracker = JourneyTracker(view)  # when later files and facts arrive, as in a journey
    tracker.acted(opening)
    trial.events.append(JourneyEvent(step=0, ts=_now(), screen=screens.start, note=INITIAL_NOTE,
                                     action=opening))
    for step, screen in enumerate(screens.screens, start=1):
        if screen.latest_reply:
            history.append(("agent", screen.latest_reply))
            tracker.agent_replied([screen.latest_reply], screen.todo, uploaded)
        available, later = material_availability(view, tracker.progress)
        ctx = CustomerContext(step=step, messages_sent=sent, history=list(history),
                              available_files=available, later_files=later,
                              uploaded=list(uploaded), signed_in=signed_in,
                              record_call=trial.calls.append,
                              actions_taken=tracker.actions,
                              learned_facts=tracker.learned_facts())
        started = time.monotonic()
        try:
            action = await customer.next_action(screen, ctx)
        except SimulatorError as exc:
            trial.events.append(JourneyEvent(step=step, ts=_now(), screen=screen,
                                             note=f"the customer could not decide: {exc}"))
            trial.ended, trial.detail = "simulator_error", str(exc)
            kind = exc.kind
            trial.error_kind = kind
            return trial
        trial.events.append(JourneyEvent(
            step=step, ts=_now(), screen=screen, action=action,
            timings=Timings(customer_s=round(time.monotonic() - started, 3))))
        history.append(("customer", action.describe()))
        tracker.acted(action)
        if action.kind in ("say", "done") and action.text:
            sent += 1
        if action.kind == "upload" and action.file:
            uploaded.append(action.file)
        signed_in = signed_in or action.kind == "sign_in"
        if action.kind == "done":
            trial.ended, trial.detail = "customer_done", action.reason or ""
            return trial
    return trial


def labels_seen(trial: PanelTrial) -> set[str]:
    """What went wrong between the customer and its endpoint: error kinds of the calls,
    and the rate limits and server errors the client recovered from."""
    seen: set[str] = {c.error_kind for c in trial.calls if c.error_kind}
    for c in trial.calls:
        if 429 in c.http_statuses:
            seen.add("rate_limit")
        if any(s is not None and s >= 500 for s in c.http_statuses):
            seen.add("server")
    if trial.error_kind:
        seen.add(trial.error_kind)
    return {s for s in seen if s}


@dataclass
class PanelOutcome:
    """One pack of the panel: how the customer played it, and the fidelity audit of it."""

    trial: PanelTrial
    audit: FidelityAudit

    @property
    def labels(self) -> set[str]:
        """Every rule broken and every endpoint fault seen."""
        return {f.rule for f in self.audit.findings} | labels_seen(self.trial)


def run_panel(customer_factory: Any, packs_root: Path, screens: dict[str, PanelScreens],
              audit: Callable[[list[JourneyEvent], Any], FidelityAudit],
              pack_ids: list[str] | None = None) -> list[PanelOutcome]:
    """Play every recorded pack (or ``pack_ids``), each with a fresh customer from
    ``customer_factory(view, pack_dir)``, and audit each with ``audit(events, view)`` (the
    scorer's ``scoring.fidelity.audit_trial``). Synchronous."""
    import asyncio

    async def go() -> list[PanelOutcome]:
        out = []
        for pid in pack_ids or sorted(screens):
            if pid not in screens:
                raise RunRecordError("no recorded screens for this pack", pack=pid)
            pack_dir = Path(packs_root) / pid
            view = claims_corpus.load_customer_view(pack_dir)
            customer = customer_factory(view, pack_dir)
            try:
                trial = await play(customer, view, screens[pid])
            finally:
                await customer.aclose()
            out.append(PanelOutcome(trial=trial, audit=audit(trial.events, view)))
        return out

    return asyncio.run(go())
