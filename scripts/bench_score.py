"""Benchmark: score a synthetic run of many trial records and report the time.

    python scripts/bench_score.py [--packs 100] [--trials 10] [--keep DIR]

Builds a temporary corpus (oracles only) and a run folder shaped like the runner's output —
a full motor journey per trial with staff reading and state dumps; some trials ask twice,
flag wrongly, lose a fact or end in a product error — then times ``scoring.score_run``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from claims_corpus.formats import Labels
from claims_records import RunRecord, TrialResult, write_run_record, write_trial_result

FACTS = {
    "policy_number": ("What is your policy number?", "NWF-POL-100234"),
    "incident_date": ("On what date did it happen?", "12 March 2026"),
    "incident_time": ("At roughly what time did it happen?", "About 5:40 pm"),
    "incident_type": ("Which of these best describes what happened?", "collision"),
    "incident_location": ("Where did it happen?", "Hallam Road, Sheffield"),
    "incident_description": ("In a sentence or two, what happened?",
                             "I was stopped at a red light when the car behind hit me."),
    "vehicle_registration": ("What is the registration of your car?", "LK19 XRD"),
    "vehicle_driveable": ("Can the car still be driven safely?", "yes"),
    "third_party_involved": ("Was another vehicle or person involved?", "yes"),
    "injuries": ("Was anyone hurt?", "no"),
}
VALUES = {"incident_date": "2026-03-12", "incident_time": "17:40"}


def labels_for(pack_id: str) -> Labels:
    return Labels.model_validate({
        "pack_id": pack_id, "line": "motor", "scenario": "rear_end_collision",
        "message_style": "plain", "innocent_control": pack_id.endswith("7"),
        "triage": {"triage_class": "standard",
                   "required_reasons": ["third_party_involved", "vehicle_driveable"]},
        "review": {"checks": {"receipt_after_incident": "not_applicable",
                              "quote_before_incident": "clear", "prior_claims_12m": "clear",
                              "policy_start_30d": "clear"}, "review_required": False},
        "expected_facts": {k: VALUES.get(k, v[1]) for k, v in FACTS.items()},
        "assertions": [
            {"id": "claim", "judge": "state", "description": "claim exists",
             "state": {"collection": "claims", "match": {"policy_number": "NWF-POL-100234"}}},
            {"id": "number", "judge": "text", "description": "number told",
             "text": {"pattern": r"NWF-\d{4}-\d{6}"}},
            {"id": "tone", "judge": "human", "description": "courteous"},
        ],
        "expected_end_state": {
            "documents": [{"collection": "claims", "match": {"policy_number": "NWF-POL-100234"},
                           "change": "added", "fields": {"status": "submitted"}}],
            "allow_other_changes_in": ["messages", "sessions", "audit_events", "counters"]},
    })


def write_trial(tdir: Path, pack_id: str, n: int, fault: str) -> dict:
    tdir.mkdir(parents=True)
    events, step = [], 0

    def ev(reply: str, action: dict | None, **screen) -> None:
        nonlocal step
        events.append(json.dumps({"step": step, "ts": "2026-04-01T10:00:00Z",
                                  "screen": {"latest_reply": reply, **screen}, "action": action,
                                  "timings": {"reply_wait_s": 0.8 + step / 10},
                                  "screenshot": f"screens/{step:03d}.png"}))
        step += 1

    ev("", {"kind": "say", "text": "Someone drove into the back of my car."})
    for q, say in FACTS.values():
        ev(q, {"kind": "say", "text": say})
        if fault == "ask_twice":
            ev("Sorry, just to check again: " + q, {"kind": "say", "text": say})
    ev("Please confirm these details.", {"kind": "click", "label": "Confirm these details"})
    ev("Your claim number is NWF-2026-000123.", None, claim_number="NWF-2026-000123")
    (tdir / "journey.jsonl").write_text("\n".join(events) + "\n")
    facts = {k: {"value": v[1], "state": "confirmed"} for k, v in FACTS.items()
             if not (fault == "lose_fact" and k == "incident_time")}
    (tdir / "staff.json").write_text(json.dumps({
        "claim_number": "NWF-2026-000123", "found": True, "triage_class": "standard",
        "reasons": ["third_party_involved", "vehicle_driveable"], "urgency": "normal",
        "review_required": fault == "flag",
        "checks": {c: {"outcome": o} for c, o in labels_for(pack_id).review.checks.items()},
        "facts": facts, "waiting_list": []}))
    base = {"policies": {f"p{i}": {"_id": f"p{i}", "policy_number": f"NWF-POL-{i}"}
                         for i in range(20)}}
    after = json.loads(json.dumps(base))
    after["claims"] = {"c1": {"_id": "c1", "policy_number": "NWF-POL-100234",
                              "status": "submitted"}}
    after["messages"] = {f"m{i}": {"_id": f"m{i}", "text": "x" * 80} for i in range(30)}
    for name, colls in (("state-before.json", base), ("state-after.json", after)):
        (tdir / name).write_text(json.dumps({"taken_at": "t", "database": "d", "bucket": "b",
                                             "collections": colls, "objects": {}}))
    status = "product_error" if fault == "product_error" else "completed"
    write_trial_result(tdir, TrialResult.model_validate({
        "pack_id": pack_id, "trial": n, "status": status, "claim_number": "NWF-2026-000123",
        "customer_messages": len(FACTS) + 1, "steps": step, "started_at": "t", "ended_at": "t",
        "duration_s": 30.0, "turn_times_s": [0.8 + i / 10 for i in range(step)],
        "cost_usd": 0.002}))
    return {"pack_id": pack_id, "trial": n, "status": status,
            "path": str(tdir.relative_to(tdir.parents[1]))}


FAULTS = ("", "", "", "", "", "", "ask_twice", "flag", "lose_fact", "product_error")


def build(root: Path, packs: int, trials: int) -> Path:
    corpus, run_dir = root / "packs", root / "run"
    entries = []
    for p in range(1, packs + 1):
        pack_id = f"CTL-M-{p:03d}"
        oracle = corpus / pack_id / "oracle"
        oracle.mkdir(parents=True)
        (oracle / "labels.json").write_text(labels_for(pack_id).model_dump_json())
        for n in range(1, trials + 1):
            fault = FAULTS[(p + n) % len(FAULTS)]
            entries.append(write_trial(run_dir / pack_id / f"trial-{n}", pack_id, n, fault))
    write_run_record(run_dir, RunRecord.model_validate({
        "run_id": "bench", "created_at": "t", "harness": {"version": "bench"},
        "corpus": {"version": "bench", "hash": "0", "path": str(corpus)},
        "product": {"profile": "bench", "base_urls": [], "runtime": "reference"},
        "customer": {"kind": "scripted"}, "trials": entries}))
    return run_dir


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--packs", type=int, default=100)
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--keep", type=Path, help="Build here and keep the files.")
    args = ap.parse_args(argv)

    import scoring

    root = args.keep or Path(tempfile.mkdtemp(prefix="bench-score-"))
    try:
        t0 = time.perf_counter()
        run_dir = build(root, args.packs, args.trials)
        built = time.perf_counter() - t0
        t0, c0 = time.perf_counter(), time.process_time()
        summary = scoring.score_run(run_dir)
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    n = summary.trials
    print(f"built {n} trial records in {built:.2f} s")
    print(f"scored {n} trial records ({args.packs} packs) in {took:.2f} s "
          f"(CPU {cpu:.2f} s) = {1000 * took / n:.2f} ms per trial; {summary.successes} successes, "
          f"{len(summary.infrastructure_errors)} infrastructure errors")
    print("target: under 5 s for 1,000 trials:", "met" if took < 5 * n / 1000 else "MISSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
