"""Replay: a recorded run's customer, answered from its recorded calls instead of a model.

Every call of the LLM customer records its ``prompt_hash`` (``prompt_key``): the sha256 of
the canonical JSON of what decides the answer — the request's messages, model name and
sampling parameters — without its structured-output fields, so a replay does not depend on
the dialect either run spoke. ``run --replay RUN`` gives each trial's LLM customer a
``Replay`` in place of its ``Endpoint``, with the same surface (``body``, ``complete``,
``aclose``, ``response_format``, ``scrub``): each request is answered with what RUN recorded
for the same pack, trial and key, in recorded order when a key repeats. The prompts are still
built by ``_llm`` alone, and nothing is ever sent. A key the recording does not hold (or
holds no more answers for) is an ``EndpointError`` of kind ``replay_miss``, which ends the
trial: never a new call in its place.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claims_records import (
    CustomerModelCall,
    RunConfig,
    RunRecord,
    RunRecordError,
    TokenUsage,
    is_run_folder,
    read_model_calls,
    read_run_record,
    run_record_path,
)

from . import _dialects
from ._endpoint import Completion, EndpointError, LlmSettings


def prompt_key(body: Mapping[str, Any]) -> str:
    """The replay key of a request body: sha256 (hex) of its canonical JSON (keys sorted,
    no spaces, UTF-8) without the structured-output fields (``_dialects.FIELDS``)."""
    kept = {k: v for k, v in body.items() if k not in _dialects.FIELDS}
    text = json.dumps(kept, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RecordedTrial:
    """One trial of the replayed run: its calls of the customer model, in order."""

    run_id: str
    pack_id: str
    trial: int
    calls: tuple[CustomerModelCall, ...]
    held: bool = True
    """False when the replayed run has no such trial (every prompt is then a miss)."""

    def where(self) -> str:
        return f"replay of run {self.run_id}: {self.pack_id} trial {self.trial}"


class Replay:
    """The recorded answers of one trial, behind the surface of ``Endpoint``."""

    def __init__(self, settings: LlmSettings, recorded: RecordedTrial) -> None:
        self.settings = settings
        self.recorded = recorded
        self.response_format = (settings.response_format if settings.response_format
                                in _dialects.ORDER else _dialects.ORDER[0])
        self._answers: dict[str, deque[CustomerModelCall]] = {}
        self._held: dict[str, int] = {}
        for call in recorded.calls:
            if call.reply is None and call.error_kind in (None, "replay_miss"):
                continue  # no answer to give (a miss of an earlier replay)
            key = call.prompt_hash or prompt_key(call.request)
            self._answers.setdefault(key, deque()).append(call)
            self._held[key] = self._held.get(key, 0) + 1

    async def aclose(self) -> None:
        return None

    def scrub(self, text: str | None) -> str | None:
        """``text`` without any form of the API key (none is ever sent from here)."""
        return self.settings.scrub(text)

    def body(self, messages: list[dict[str, Any]], schema: dict[str, Any]) -> dict[str, Any]:
        """The request body ``Endpoint.body`` would build (it is never sent)."""
        return self.settings.request_body(self.response_format, messages, schema)

    async def complete(self, body: dict[str, Any]) -> Completion:
        """The recorded answer to ``body``'s key (its next one when the key repeats); a
        recorded failure is raised again as it was. ``Completion.body`` carries the recorded
        request's structured-output fields. Raises ``EndpointError`` of kind ``replay_miss``
        when no recorded answer is left for the key."""
        started = time.monotonic()
        key = prompt_key(body)
        answers = self._answers.get(key)
        if not answers:
            raise EndpointError("replay_miss", self._miss(key), [])
        call = answers.popleft()
        if call.response_format in _dialects.ORDER:
            self.response_format = call.response_format
        if call.reply is None:
            assert call.error_kind is not None  # kept only with one (__init__)
            raise EndpointError(call.error_kind, f"as recorded: {call.error or ''}", [])
        sent = {k: v for k, v in body.items() if k not in _dialects.FIELDS}
        sent.update({k: v for k, v in call.request.items() if k in _dialects.FIELDS})
        return Completion(text=call.reply, usage=TokenUsage(), statuses=[],
                          latency_s=time.monotonic() - started, body=sent)

    def _miss(self, key: str) -> str:
        r = self.recorded
        if not r.held:
            return f"{r.where()}: the run has no such trial, so no recorded answer (key {key})"
        held = self._held.get(key, 0)
        if held:
            return (f"{r.where()}: the {held} answer(s) recorded for this prompt are used up "
                    f"(key {key})")
        return f"{r.where()}: no answer recorded for this prompt (key {key})"


class Recording:
    """A recorded run whose customer a run replays: its run.json, and each trial's calls."""

    def __init__(self, run_dir: Path, record: RunRecord) -> None:
        self.run_dir = run_dir
        self.record = record

    @classmethod
    def open(cls, run: str | Path, runs_dir: Path | str = "runs") -> Recording:
        """The run ``run`` names: a run id in ``runs_dir`` (found as ``--resume`` finds it)
        or the path of a run folder. Raises ``RunRecordError`` when neither holds a run or
        the run's customer was not the LLM customer."""
        candidates = [Path(runs_dir) / run, Path(run)]
        folder = next((c for c in candidates if is_run_folder(c)), None)
        if folder is None:
            raise RunRecordError("no run to replay: neither the runs folder nor the path holds "
                                 "a run.json", run=str(run),
                                 file=str(run_record_path(candidates[0])))
        record = read_run_record(folder, run=str(run))
        if record.customer.kind != "llm":
            raise RunRecordError(f"only an LLM customer can be replayed; this run's customer "
                                 f"is {record.customer.kind}", run=record.run_id,
                                 file=str(run_record_path(folder)))
        return cls(folder.resolve(), record)

    def defaults(self) -> dict[str, Any]:
        """The configuration a replaying run starts from, options given winning: the LLM
        customer with the recorded run's settings, its corpora, packs and trials, and this
        run's folder as ``replay``."""
        o = self.record.options
        return {"customer": "llm", "llm": o.llm.model_dump() if o.llm else None,
                "corpora": list(o.corpora), "packs": list(o.packs), "trials": o.trials,
                "replay": str(self.run_dir)}

    def applied(self, config: RunConfig) -> RunConfig:
        """``config`` replaying this run: the LLM customer, each customer setting it leaves
        out taken from the recorded run, ``replay`` naming this run's folder."""
        recorded, given = self.record.options.llm, config.llm
        llm = (recorded.model_copy(update=given.model_dump(exclude_none=True))
               if recorded is not None and given is not None else given or recorded)
        return config.model_copy(update={"customer": "llm", "llm": llm,
                                         "replay": str(self.run_dir)})

    def settled(self, settings: LlmSettings) -> LlmSettings:
        """``settings`` that leave no dialect to find: a replay sends nothing, so auto's probe
        must not run. auto takes the dialect the recorded run used (each replayed call then
        keeps its recorded request's own fields)."""
        if settings.response_format != "auto":
            return settings
        return settings.settled(self.record.customer.dialect or _dialects.ORDER[0], [])

    def trial(self, pack_id: str, trial: int) -> RecordedTrial:
        """The recorded calls of trial ``trial`` of ``pack_id`` (none when the run has no
        such trial); an unreadable record raises ``RunRecordError``."""
        entry = next((t for t in self.record.trials
                      if t.pack_id == pack_id and t.trial == trial), None)
        calls = (read_model_calls(self.run_dir / entry.path, run=self.record.run_id)
                 if entry is not None else [])
        return RecordedTrial(self.record.run_id, pack_id, trial, tuple(calls),
                             held=entry is not None)
