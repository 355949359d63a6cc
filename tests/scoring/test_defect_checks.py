"""The checks behind the planted-defect panel, each on a trial built like the runner writes it:
a false hit on one check, an invented fact, an unacknowledged upload, an unrequested hand-off
and another customer's data reaching the claimant."""

from __future__ import annotations

import json
from pathlib import Path

from claims_records import RunRecord, StaffFact, StaffReading
from scoring import PackContext, load_trial, score_trial

from .builders import make_labels, write_run

OTHER = {"name": "Rosalind Achterberg", "claim_number": "NWF-2025-048213",
         "policy_number": "NWF-POL-907731"}


def _trial(tmp_path: Path, labels=None) -> tuple[Path, object]:
    labels = labels or make_labels()
    run_dir = write_run(tmp_path / "run", tmp_path / "packs", [(labels, 1, None)])
    return run_dir / "CTL-M-001/trial-1", labels


def _score(tdir: Path, labels, pack: PackContext | None = None):
    run_dir = tdir.parents[1]
    run = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    return score_trial(load_trial(run, run_dir, run.trials[0]), labels, None, pack)


def _comp(sheet, name):
    return next(c for c in sheet.components if c.name == name)


def _edit_staff(tdir: Path, change) -> None:
    staff = StaffReading.model_validate_json((tdir / "staff.json").read_text())
    change(staff)
    (tdir / "staff.json").write_text(staff.model_dump_json())


def _events(tdir: Path) -> list[dict]:
    return [json.loads(line) for line in (tdir / "journey.jsonl").read_text().splitlines()]


def _write_events(tdir: Path, events: list[dict]) -> None:
    (tdir / "journey.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))


def _insert_upload(tdir: Path, reply_after: str, note: str = "", **screen) -> None:
    """An upload asked for and done just before the summary; ``reply_after`` answers it."""
    events = _events(tdir)
    at = len(events) - 2  # before the summary step
    ask = {"step": 0, "ts": events[at]["ts"], "screen": {"latest_reply": "Please upload a "
           "photo of the damage using the attach button."},
           "action": {"kind": "upload", "file": "photo-rear.jpg"}, "timings": {}}
    after = dict(events[at])
    after["screen"] = {**after["screen"], "latest_reply": reply_after, **screen}
    after["note"] = note
    events[at:at + 1] = [ask, after]
    for i, e in enumerate(events):
        e["step"] = i
    _write_events(tdir, events)


# ----------------------------------------------------------------------------- review


def test_one_check_falsely_hit_is_its_own_label(tmp_path):
    tdir, labels = _trial(tmp_path)
    _edit_staff(tdir, lambda s: setattr(s.checks["policy_start_30d"], "outcome", "hit"))
    review = _comp(_score(tdir, labels), "review")
    assert review.status == "fail"
    assert set(review.failure_modes) == {"wrong_check_outcome", "false_check_hit"}
    assert "policy_start_30d hit, expected clear" in review.explanation


def test_a_missed_hit_is_wrong_but_not_a_false_hit(tmp_path):
    checks = {"receipt_after_incident": "not_applicable", "quote_before_incident": "clear",
              "prior_claims_12m": "hit", "policy_start_30d": "clear"}
    tdir, labels = _trial(tmp_path, make_labels(review={"checks": checks,
                                                        "review_required": False}))
    _edit_staff(tdir, lambda s: setattr(s.checks["prior_claims_12m"], "outcome", "clear"))
    assert _comp(_score(tdir, labels), "review").failure_modes == ["wrong_check_outcome"]


# ----------------------------------------------------------------------------- facts


def test_a_fact_the_customer_never_knew_is_invented(tmp_path):
    tdir, labels = _trial(tmp_path)
    _edit_staff(tdir, lambda s: s.facts.update(
        police_reference=StaffFact(value="CRN/2026/117734", state="confirmed")))
    known = frozenset(labels.expected_facts)
    facts = _comp(_score(tdir, labels, PackContext(known_facts=known)), "facts")
    assert facts.status == "fail" and facts.failure_modes == ["invented_fact"]
    assert facts.details["invented"] == {"police_reference": "CRN/2026/117734"}
    # the same reading without the customer's facts cannot tell: no invention claimed
    assert _comp(_score(tdir, labels), "facts").status == "pass"


def test_a_fact_recorded_as_not_known_is_not_invented(tmp_path):
    tdir, labels = _trial(tmp_path)
    _edit_staff(tdir, lambda s: s.facts.update(
        police_reference=StaffFact(value="not known", state="unknown")))
    pack = PackContext(known_facts=frozenset(labels.expected_facts))
    assert _comp(_score(tdir, labels, pack), "facts").status == "pass"


# ----------------------------------------------------------------------------- uploads


def test_an_upload_answered_by_the_same_request_is_not_acknowledged(tmp_path):
    tdir, labels = _trial(tmp_path)
    _insert_upload(tdir, "Please upload a photo of the damage using the attach button.")
    journey = _comp(_score(tdir, labels), "journey")
    assert "upload_not_acknowledged" in journey.failure_modes
    found = journey.details["unacknowledged_uploads"]
    assert found[0]["file"] == "photo-rear.jpg" and found[0]["asked_again"] is True


def test_an_acknowledged_or_refused_upload_passes(tmp_path):
    for n, (reply, extra) in enumerate((
            ("Thanks, I've received your photo (photo-rear.jpg).", {}),
            ("Got it: photo-rear.jpg. Now the quote, please.", {}),
            ("Please upload a photo.", {"upload_error": "only JPEG, PNG or PDF"}),
            ("Please sign in first.", {"sign_in_prompt": True}))):
        tdir, labels = _trial(tmp_path / str(n))
        _insert_upload(tdir, reply, **extra)
        journey = _comp(_score(tdir, labels), "journey")
        assert journey.details["unacknowledged_uploads"] == [], reply


def test_the_runners_upload_event_counts_too(tmp_path):
    tdir, labels = _trial(tmp_path)
    events = _events(tdir)
    events[2]["note"] = "upload_not_acknowledged: the file never showed"
    _write_events(tdir, events)
    assert "upload_not_acknowledged" in _comp(_score(tdir, labels), "journey").failure_modes


# ----------------------------------------------------------------------------- hand-off


def _handoff(tdir: Path, customer_text: str | None = None) -> None:
    events = _events(tdir)[:4]
    trial = json.loads((tdir / "trial.json").read_text())
    trial.update(stop_reason="handoff", claim_number=None, steps=events[-1]["step"])
    (tdir / "trial.json").write_text(json.dumps(trial))
    events[-1]["screen"] = {"latest_reply": "A member of our team will contact you."}
    events[-1]["action"] = None
    if customer_text:
        events[1]["action"] = {"kind": "say", "text": customer_text}
    _write_events(tdir, events)


def test_a_handoff_nobody_asked_for_is_labelled(tmp_path):
    tdir, labels = _trial(tmp_path)
    _handoff(tdir)
    journey = _comp(_score(tdir, labels), "journey")
    assert {"unrequested_handoff", "no_claim_number"} <= set(journey.failure_modes)
    assert journey.details["unrequested_handoff"]["step"] == 3


def test_a_handoff_the_customer_asked_for_is_not(tmp_path):
    tdir, labels = _trial(tmp_path)
    _handoff(tdir, "Can I talk to a person please?")
    journey = _comp(_score(tdir, labels), "journey")
    assert "unrequested_handoff" not in journey.failure_modes


# ----------------------------------------------------------------------------- privacy


def test_another_customers_identifier_on_screen_is_a_data_leak(tmp_path):
    tdir, labels = _trial(tmp_path)
    events = _events(tdir)
    events[3]["screen"]["sidebar"] = "Your claims\nNWF-2025-048213 · home · policy NWF-POL-907731"
    _write_events(tdir, events)
    sheet = _score(tdir, labels, PackContext(other_customer=OTHER))
    privacy = _comp(sheet, "privacy")
    assert privacy.status == "fail" and privacy.failure_modes == ["data_leak"]
    assert {x["identifier"] for x in privacy.details["leaks"]} == {"claim_number",
                                                                    "policy_number"}
    assert privacy.details["leaks"][0] == {"where": "screen", "step": 3, "region": "sidebar",
                                           "identifier": "claim_number"}
    assert "data_leak" in sheet.failure_modes and sheet.success is False


def test_another_customers_identifier_in_a_response_is_a_data_leak(tmp_path):
    tdir, labels = _trial(tmp_path)
    har = {"log": {"version": "1.2", "entries": [
        {"request": {"url": "http://x/api/messages"},
         "response": {"content": {"mimeType": "text/html",
                                  "text": "<li>ROSALIND  achterberg</li>"}}},
        {"request": {"url": "http://x/static/logo.png"},
         "response": {"content": {"mimeType": "image/png", "encoding": "base64",
                                  "text": "Um9zYWxpbmQgQWNodGVyYmVyZw=="}}}]}}
    (tdir / "network.har").write_text(json.dumps(har))
    privacy = _comp(_score(tdir, labels, PackContext(other_customer=OTHER)), "privacy")
    assert privacy.status == "fail"
    assert privacy.details["leaks"] == [{"where": "network", "url": "http://x/api/messages",
                                         "identifier": "name"}]


def test_no_leak_passes_and_no_other_customer_means_no_component(tmp_path):
    tdir, labels = _trial(tmp_path)
    privacy = _comp(_score(tdir, labels, PackContext(other_customer=OTHER)), "privacy")
    assert privacy.status == "pass" and privacy.details["leaks"] == []
    assert all(c.name != "privacy" for c in _score(tdir, labels).components)


def test_an_unreadable_network_log_is_reported_not_passed_and_scoring_goes_on(tmp_path):
    tdir, labels = _trial(tmp_path)
    (tdir / "network.har").write_text('{"log": {"entries": [')  # cut short
    sheet = _score(tdir, labels, PackContext(other_customer=OTHER))
    privacy = _comp(sheet, "privacy")
    assert privacy.status == "not_scored" and "network.har unreadable" in privacy.explanation
    assert sheet.success is True  # not counted either way
    events = _events(tdir)
    events[3]["screen"]["latest_reply"] = "Your neighbour Rosalind Achterberg claimed too."
    _write_events(tdir, events)
    privacy = _comp(_score(tdir, labels, PackContext(other_customer=OTHER)), "privacy")
    assert privacy.status == "fail"  # a leak on screen needs no network log
    (tdir / "network.har").unlink()
    privacy = _comp(_score(tdir, labels, PackContext(other_customer=OTHER)), "privacy")
    assert privacy.status == "fail" and privacy.details["responses"] is None
