"""The corpus mix: scenario kinds with flagged packs, innocent controls and the edge cases the
scorer must see, verified from packs/manifest.json and cross-checked against every pack's own
files.

The review checks are re-derived by ``corpus.derive_review`` — the same derivation the corpus
checker uses — from the facts, the seeded policy and prior claims, and the dates printed in the
supplied PDFs, so a label that does not follow the rules fails, whatever the manifest says.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
from collections import Counter
from pathlib import Path

import pytest

import corpus
from corpus.formats import STRONG_CHECKS, WEAK_CHECKS, review_required_from

PACKS = Path(__file__).resolve().parents[2] / "packs"
STYLES = {"plain", "many_facts", "emotional", "typos", "non_native", "wrong_product_term"}
SESSIONS = {"anonymous", "account", "anonymous_then_sign_in"}
MONTHS = tuple(calendar.month_name)[1:]


@pytest.fixture(scope="module")
def manifest() -> corpus.formats.Manifest:
    return corpus.load_manifest(PACKS)


@pytest.fixture(scope="module")
def packs() -> dict[str, corpus.Pack]:
    return {p.name: corpus.load_pack(p) for p in corpus.list_packs(PACKS)}


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def _incident(pack: corpus.Pack) -> dt.date:
    return _day(str(next(f.value for f in pack.facts.facts if f.key == "incident_date")))


def test_every_line_covered_each_pack_its_own_scenario(manifest, packs) -> None:
    assert set(manifest.packs) == set(packs)
    lines = Counter(e.line for e in manifest.packs.values())
    assert lines["motor"] >= 5 and lines["home"] >= 3 and lines["contents"] >= 2, lines
    assert len({e.scenario for e in manifest.packs.values()}) == len(packs)
    for pack_id, entry in manifest.packs.items():
        assert pack_id.startswith(f"{manifest.id_prefix}-")
        assert pack_id[4] == {"motor": "M", "home": "H", "contents": "C"}[entry.line]


def test_every_v03_feature_has_a_pack(manifest, packs) -> None:
    """A later fact, an unknown time, a time window, a non-GBP amount, a receipt handed over
    on a home claim (one hit, one clear), an invoice, and arrival by requests and by actions."""
    entries = manifest.packs.values()
    assert any(e.has_later_fact for e in entries)
    assert any("incident_time" in p.labels.unknown_facts for p in packs.values())
    assert any(e.has_time_window for e in entries)
    assert any(set(e.currencies) - {"GBP"} for e in entries)
    home_receipts = [corpus.derive_review(p).checks["receipt_after_incident"]
                     for p in packs.values() if p.labels.line == "home" and p.persona.hands_over]
    assert {"hit", "clear"} <= set(home_receipts)
    kinds = {m.evidence_kind for p in packs.values() for m in p.materials.materials}
    assert {"invoice", "receipt"} <= kinds
    arrivals = [a for p in packs.values() for a in
                [m.later.arrives for m in p.materials.materials if m.later]
                + [f.later.arrives for f in p.facts.facts if f.later] if a is not None]
    assert any(a.after_requests for a in arrivals) and any(a.after_actions for a in arrivals)


def test_manifest_agrees_with_each_pack(manifest, packs) -> None:
    for pack_id, pack in packs.items():
        entry = manifest.packs[pack_id]
        labels = pack.labels
        assert entry.hash == corpus.pack_hash(corpus.pack_file_hashes(pack.path)), pack_id
        assert (entry.line, entry.scenario, entry.message_style) == (
            labels.line, labels.scenario, labels.message_style), pack_id
        assert entry.claimant_session == pack.setup.claimant_session, pack_id
        assert entry.review_required == labels.review.review_required, pack_id
        assert entry.innocent_control == labels.innocent_control, pack_id
        assert entry.has_later_material == any(
            m.availability == "later" for m in pack.materials.materials), pack_id
        assert entry.has_not_checked == ("not_checked" in labels.review.checks.values()), pack_id
        assert entry.has_unknown_fact == bool(labels.unknown_facts), pack_id
        assert entry.handed_over_unasked == bool(pack.persona.hands_over), pack_id


def test_every_check_outcome_follows_the_rules(packs) -> None:
    for pack_id, pack in packs.items():
        derived = corpus.derive_review(pack)
        assert dict(pack.labels.review.checks) == derived.checks, (pack_id, derived.notes)
        assert pack.labels.review.review_required == review_required_from(derived.checks)
        reasons = set(pack.labels.triage.required_reasons)
        assert ("review_required" in reasons) == derived.review_required, pack_id
        assert ("document_incomplete" in reasons) == derived.document_incomplete, pack_id


def test_at_least_three_flagged_one_per_kind_of_signal(manifest, packs) -> None:
    flagged = [p for p, e in manifest.packs.items() if e.review_required]
    assert len(flagged) >= 3
    checks = {p: packs[p].labels.review.checks for p in flagged}
    by_receipt = [p for p in flagged if checks[p]["receipt_after_incident"] == "hit"]
    by_quote = [p for p in flagged if checks[p]["quote_before_incident"] == "hit"]
    by_two_weak = [p for p in flagged
                   if all(checks[p][c] == "hit" for c in WEAK_CHECKS)
                   and not any(checks[p][c] == "hit" for c in STRONG_CHECKS)]
    assert by_receipt and by_quote and by_two_weak, (by_receipt, by_quote, by_two_weak)
    # the two weak signals: two or more other claims in the year and a fresh policy
    for pack_id in by_two_weak:
        incident = _incident(packs[pack_id])
        policy = packs[pack_id].setup.collections["policies"][0]
        assert 0 <= (incident - _day(policy["start_date"])).days < 30


def test_at_least_three_innocent_controls_that_look_suspicious(manifest, packs) -> None:
    innocent = [p for p, e in manifest.packs.items() if e.innocent_control]
    assert len(innocent) >= 3
    for pack_id in innocent:
        pack = packs[pack_id]
        assert not pack.labels.review.review_required, pack_id
        checks = pack.labels.review.checks
        weak_hits = sum(checks[c] == "hit" for c in WEAK_CHECKS)
        incident = _incident(pack)
        near_dates = [d.date for d in corpus.derive_review(pack).documents
                      if d.date is not None and abs((d.date - incident).days) <= 1]
        # suspicious-looking: exactly one weak signal, or a document dated at the boundary
        assert weak_hits == 1 or near_dates, pack_id


def test_a_missing_page_holds_the_date(packs) -> None:
    found = []
    for pack_id, pack in packs.items():
        derived = corpus.derive_review(pack)
        for d in derived.documents:
            if d.status == "missing_page":
                assert "document_incomplete" in pack.labels.triage.required_reasons, pack_id
                found.append(pack_id)
    assert found


def test_a_material_comes_later(packs) -> None:
    later = [(p, m) for p, pack in packs.items() for m in pack.materials.materials
             if m.availability == "later"]
    assert later
    for pack_id, m in later:
        assert m.later is not None and m.later.describe_before.strip(), pack_id
        arrives = m.later.arrives
        assert arrives is None or 1 <= (arrives.after_messages or arrives.after_actions
                                        or arrives.after_requests or 0) <= 12, pack_id


def test_all_styles_and_all_session_modes(manifest) -> None:
    assert {e.message_style for e in manifest.packs.values()} == STYLES
    assert {e.claimant_session for e in manifest.packs.values()} == SESSIONS


def test_signed_in_sessions_have_a_working_account(packs) -> None:
    for pack_id, pack in packs.items():
        setup = pack.setup
        accounts = setup.collections.get("accounts", [])
        customer_id = setup.collections["policies"][0]["customer_id"]
        own = [a for a in accounts if a["customer_id"] == customer_id]
        if setup.claimant_session == "anonymous":
            assert not own, f"{pack_id}: an anonymous customer would be asked to sign in"
            continue
        assert setup.customer_credentials is not None, pack_id
        (account,) = own
        assert account["email"] == setup.customer_credentials.username, pack_id
        scheme, iterations, salt, digest = account["password_hash"].split("$")
        assert (scheme, iterations) == ("pbkdf2_sha256", "1000"), pack_id
        got = hashlib.pbkdf2_hmac("sha256", setup.customer_credentials.password.encode(),
                                  bytes.fromhex(salt), 1000, dklen=32)
        assert got.hex() == digest, f"{pack_id}: password does not match its hash"


def test_messages_state_absolute_dates_matching_the_facts(packs) -> None:
    for pack_id, pack in packs.items():
        incident = _incident(pack)
        printed = f"{incident.day} {MONTHS[incident.month - 1]} {incident.year}"
        assert printed.lower() in pack.initial_message.lower(), pack_id
