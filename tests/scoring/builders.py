"""Builders for synthetic run records and oracles used by the scoring tests.

``build_trial`` produces the files a runner writes for one trial, shaped like a real journey
(one question per fact, a confirm step, a claim number), with switches that reproduce the
product faults the scorer must catch.
"""

from __future__ import annotations

import json
import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claims_corpus.formats import Labels

MOTOR_FACTS: dict[str, Any] = {
    "policy_number": "NWF-POL-100234",
    "incident_date": "2026-03-12",
    "incident_time": "17:40",
    "incident_type": "collision",
    "incident_location": "Hallam Road, Sheffield",
    "incident_description": "I was stopped at a red light when the car behind hit me.",
    "vehicle_registration": "LK19 XRD",
    "vehicle_driveable": "yes",
    "third_party_involved": "yes",
    "injuries": "no",
}
QUESTIONS: dict[str, str] = {
    "policy_number": "What is your policy number?",
    "incident_date": "On what date did it happen?",
    "incident_time": "At what time did it happen?",
    "incident_type": "What kind of incident was it?",
    "incident_location": "Where did it happen?",
    "incident_description": "Please describe what happened.",
    "vehicle_registration": "What is the car's registration?",
    "vehicle_driveable": "Can the car still be driven?",
    "third_party_involved": "Was another vehicle involved?",
    "injuries": "Was anyone hurt?",
}
SAYS: dict[str, str] = {
    "incident_date": "It was on 12 March 2026.",
    "incident_time": "About 5:40 pm.",
}


def make_labels(pack_id: str = "CTL-M-001", **changes: Any) -> Labels:
    data: dict[str, Any] = {
        "pack_id": pack_id,
        "line": "motor",
        "scenario": "rear_end_collision",
        "message_style": "plain",
        "triage": {"triage_class": "standard",
                   "required_reasons": ["third_party_involved", "vehicle_driveable"],
                   "allowed_reasons": ["police_report"]},
        "review": {"checks": {"receipt_after_incident": "not_applicable",
                              "quote_before_incident": "clear",
                              "prior_claims_12m": "clear", "policy_start_30d": "clear"},
                   "review_required": False},
        "innocent_control": False,
        "expected_facts": dict(MOTOR_FACTS),
        "assertions": [
            {"id": "claim-created", "judge": "state", "description": "A claim exists.",
             "state": {"collection": "claims", "match": {"policy_number": "NWF-POL-100234"},
                       "count": 1}},
            {"id": "claim-number-told", "judge": "text", "description": "Claim number told.",
             "text": {"pattern": r"NWF-\d{4}-\d{6}"}},
            {"id": "tone", "judge": "human", "description": "The agent is courteous."},
        ],
        "expected_end_state": {
            "documents": [{"collection": "claims", "match": {"policy_number": "NWF-POL-100234"},
                           "change": "added",
                           "fields": {"policy_number": "NWF-POL-100234", "status": "submitted"},
                           "vary": []}],
            "allow_other_changes_in": ["sessions", "messages", "waiting_list", "counters"],
        },
    }
    data.update(changes)
    return Labels.model_validate(data)


def tiny_png(width: int = 4, height: int = 3, rgb: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    """A valid PNG without any imaging library."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                                0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@dataclass
class Variant:
    """How a synthetic trial deviates from a perfect journey."""

    status: str = "completed"
    flag: bool = False            # review signal fired (flag_everything)
    ask_twice: bool = False       # every question asked again after the answer
    lose: tuple[str, ...] = ()    # facts missing on the staff side (lose_fact)
    no_claim: bool = False
    hidden: tuple[str, ...] = ()  # staff regions not shown
    customer_question: str | None = None
    question_on_list: bool = True
    opening: str = "Someone drove into the back of my car."  # the opening message
    waiting: tuple[tuple[str, str], ...] = ()  # more waiting-list items: (kind, text)
    extra_change: bool = False    # an unexpected change in a collection not allowed
    cost: float | None = 0.01
    turn_s: float = 1.0
    detail: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    actions: dict[int, dict[str, Any]] = field(default_factory=dict)  # event index -> action


def _ts(i: int) -> str:
    return f"2026-04-01T10:{i // 60:02d}:{i % 60:02d}Z"


def _events(labels: Labels, v: Variant) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []

    def add(reply: str, action: dict[str, Any] | None, **screen: Any) -> None:
        step = len(events)
        events.append({
            "step": step, "ts": _ts(step),
            "screen": {"latest_reply": reply, **screen},
            "action": action,
            "timings": {"reply_wait_s": v.turn_s + step * 0.1, "customer_s": 0.01},
            "screenshot": f"screens/{step:03d}-turn.png",
        })

    add("", {"kind": "say", "text": v.opening})
    for key, value in labels.expected_facts.items():
        answer = {"kind": "say", "text": SAYS.get(key, str(value))}
        add(QUESTIONS[key], answer)
        if v.ask_twice:
            add(QUESTIONS[key], answer)
    if v.customer_question:
        add("Thanks. Is there anything else?", {"kind": "say", "text": v.customer_question})
    add("Here is what we have so far. Please confirm these details.",
        {"kind": "click", "label": "Confirm these details"}, buttons=["Confirm these details"])
    if v.status == "stuck":
        add("One moment.", {"kind": "done", "reason": "same screen three times"})
    elif not v.no_claim:
        add("Thank you. Your claim number is NWF-2026-000123.",
            {"kind": "done", "reason": "claim number shown"}, claim_number="NWF-2026-000123")
    return events


def _staff(labels: Labels, v: Variant) -> dict[str, Any]:
    reasons = list(labels.triage.required_reasons)
    if v.flag:
        reasons.append("review_required")
    checks = {c: {"outcome": o, "rests_on": ""} for c, o in labels.review.checks.items()}
    facts = {k: {"value": str(val), "state": "confirmed"}
             for k, val in labels.expected_facts.items() if k not in v.lose}
    waiting = []
    if v.customer_question and v.question_on_list:
        waiting.append({"kind": "question", "text": v.customer_question})
    waiting += [{"kind": kind, "text": text} for kind, text in v.waiting]
    return {
        "claim_number": None if v.no_claim else "NWF-2026-000123",
        "found": not v.no_claim,
        "triage_class": labels.triage.triage_class,
        "reasons": reasons,
        "urgency": "normal",
        "review_required": True if v.flag else labels.review.review_required,
        "checks": checks, "facts": facts, "waiting_list": waiting,
        "not_shown": list(v.hidden),
        "screenshots": ["screens/staff-claim.png"],
    }


def _state(labels: Labels, v: Variant, after: bool) -> dict[str, Any]:
    colls: dict[str, dict[str, Any]] = {
        "policies": {"pol-1": {"_id": "pol-1", "policy_number": "NWF-POL-100234"}},
        "customers": {"cus-1": {"_id": "cus-1", "name": "Sam Carter"}},
    }
    if after:
        if not v.no_claim:
            colls["claims"] = {"clm-1": {"_id": "clm-1", "policy_number": "NWF-POL-100234",
                                         "status": "submitted", "created_at": "2026-04-01"}}
        colls["messages"] = {"m1": {"_id": "m1", "text": "hello"}}
        if v.extra_change:
            colls["policies"]["pol-1"] = {"_id": "pol-1", "policy_number": "CHANGED"}
    return {"taken_at": _ts(0), "database": "claims_dev_lane1", "bucket": "claims-dev-lane1",
            "collections": colls, "objects": {}}


def build_trial(run_dir: Path, labels: Labels, trial: int, v: Variant | None = None
                ) -> dict[str, Any]:
    """Write one trial folder; return its run.json entry."""
    v = v or Variant()
    rel = f"{labels.pack_id}/trial-{trial}"
    tdir = run_dir / rel
    (tdir / "screens").mkdir(parents=True, exist_ok=True)
    events = _events(labels, v)
    for index, action in v.actions.items():
        events[index]["action"] = action
    infra = v.status in ("product_error", "simulator_error", "harness_error")
    if infra:
        events = events[:2]
    for ev in events:
        (tdir / ev["screenshot"]).write_bytes(tiny_png())
    (tdir / "screens/staff-claim.png").write_bytes(tiny_png(rgb=(20, 120, 20)))
    (tdir / "journey.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    if not infra:
        (tdir / "staff.json").write_text(json.dumps(_staff(labels, v)))
    (tdir / "state-before.json").write_text(json.dumps(_state(labels, v, after=False)))
    (tdir / "state-after.json").write_text(json.dumps(_state(labels, v, after=True)))
    (tdir / "transcript.md").write_text(f"# {labels.pack_id} trial {trial}\n")
    (tdir / "network.har").write_text(json.dumps({"log": {"version": "1.2", "entries": []}}))
    says = sum(1 for e in events if e["action"] and e["action"]["kind"] == "say")
    times = [e["timings"]["reply_wait_s"] for e in events]
    result = {
        "pack_id": labels.pack_id, "trial": trial, "status": v.status,
        "stop_reason": {"completed": "claim_number", "stuck": "stuck",
                        "agent_stopped": "customer_done"}.get(v.status, v.status),
        "detail": v.detail, "claim_number": None if v.no_claim or infra or v.status == "stuck"
        else "NWF-2026-000123",
        "customer_messages": says, "steps": max(e["step"] for e in events),
        "started_at": _ts(0),
        "ended_at": _ts(len(events)), "duration_s": 10.0 + trial, "turn_times_s": times,
        "retries": 0, "cost_usd": v.cost, **v.extra,
    }
    (tdir / "trial.json").write_text(json.dumps(result))
    return {"pack_id": labels.pack_id, "trial": trial, "status": v.status, "path": rel,
            "detail": v.detail, "duration_s": 10.0 + trial}


def write_corpus(root: Path, labels_list: list[Labels], session: str = "anonymous",
                 customer_from: Path | None = None) -> Path:
    """Oracles and setups; with ``customer_from`` (a real pack), its customer files too, so
    the fidelity audit can read each pack's customer view."""
    import shutil

    for labels in labels_list:
        if customer_from is not None:
            shutil.copytree(customer_from / "input", root / labels.pack_id / "input",
                            dirs_exist_ok=True)
        oracle = root / labels.pack_id / "oracle"
        oracle.mkdir(parents=True, exist_ok=True)
        (oracle / "labels.json").write_text(labels.model_dump_json(indent=2))
        (root / labels.pack_id / "setup.json").write_text(json.dumps(
            {"pack_id": labels.pack_id, "claimant_session": session}))
    return root


def write_run(run_dir: Path, corpus_root: Path,
              trials: list[tuple[Labels, int, Variant | None]], *, run_id: str = "run-1",
              self_test: bool = False, corpus_version: str = "0.2.0",
              corpora: list[dict[str, Any]] | None = None) -> Path:
    """A run record; ``corpora`` lists every corpus (id_prefix, version, path) when the run
    held several."""
    run_dir.mkdir(parents=True, exist_ok=True)
    entries = [build_trial(run_dir, lab, n, v) for lab, n, v in trials]
    run = {
        "run_id": run_id, "created_at": _ts(0), "self_test": self_test,
        "harness": {"version": "0.2.0"},
        "corpus": {"version": corpus_version, "hash": "abc", "path": str(corpus_root)},
        "corpora": [{"hash": "abc", **c} for c in corpora or []],
        "product": {"profile": "reference", "base_urls": ["http://127.0.0.1:1"],
                    "runtime": "controlled" if self_test else "reference"},
        "customer": {"kind": "scripted"},
        "trials": entries,
    }
    (run_dir / "run.json").write_text(json.dumps(run, indent=2))
    return run_dir
