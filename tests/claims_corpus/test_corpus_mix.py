"""The corpus mix: 100 packs, 50 motor / 30 home / 20 contents over the ten scenario kinds,
17 flagged and 13 innocent controls, every pressure kind, styles and session modes spread
evenly, first messages each its own: verified from packs/manifest.json and the oracles and
cross-checked against every pack's own files.

The review checks are re-derived by ``claims_corpus.derive_review`` — the same derivation the corpus
checker uses — from the facts, the seeded policy and prior claims, and the dates printed in the
supplied PDFs, so a label that does not follow the rules fails, whatever the manifest says.
"""

from __future__ import annotations

import calendar
import datetime as dt
import hashlib
import itertools
import re
from collections import Counter
from pathlib import Path

import pytest

import claims_corpus
from claims_corpus.authoring import SCENARIO_KINDS
from claims_corpus.formats import PRESSURE_KINDS
from claims_records import ALL_CHECKS, STRONG_CHECKS, WEAK_CHECKS, review_required_from

PACKS = Path(__file__).resolve().parents[2] / "packs"
STYLES = {"plain", "many_facts", "emotional", "typos", "non_native", "wrong_product_term"}
SESSIONS = {"anonymous", "account", "anonymous_then_sign_in"}
MONTHS = tuple(calendar.month_name)[1:]
# No two first messages may share more than this fraction of their words (overlap of their
# word sets): each pack's text is its own, not one template sentence with slots.
NEAR_DUPLICATE = 0.5


@pytest.fixture(scope="module")
def manifest() -> claims_corpus.formats.Manifest:
    return claims_corpus.load_manifest(PACKS)


@pytest.fixture(scope="module")
def packs() -> dict[str, claims_corpus.Pack]:
    return {p.name: claims_corpus.load_pack(p) for p in claims_corpus.list_packs(PACKS)}


def _day(text: str) -> dt.date:
    return dt.date.fromisoformat(text)


def _incident(pack: claims_corpus.Pack) -> dt.date:
    return _day(str(next(f.value for f in pack.facts.facts if f.key == "incident_date")))


def test_exact_mix_from_manifest_and_oracles(manifest, packs) -> None:
    """100 packs: 50 motor, 30 home, 20 contents; 17 flagged; 13 innocent controls, none of
    them flagged; every pack its own scenario."""
    assert set(manifest.packs) == set(packs)
    assert len(packs) == 100
    lines = Counter(e.line for e in manifest.packs.values())
    assert lines == {"motor": 50, "home": 30, "contents": 20}
    assert Counter(p.labels.line for p in packs.values()) == lines
    flagged = [p for p, e in manifest.packs.items() if e.review_required]
    assert len(flagged) == 17
    assert sorted(flagged) == sorted(p for p, k in packs.items()
                                     if k.labels.review.review_required)
    controls = [p for p, e in manifest.packs.items() if e.innocent_control]
    assert len(controls) == 13
    assert sorted(controls) == sorted(p for p, k in packs.items() if k.labels.innocent_control)
    assert not set(flagged) & set(controls)
    assert len({e.scenario for e in manifest.packs.values()}) == len(packs)
    for pack_id, entry in manifest.packs.items():
        assert pack_id.startswith(f"{manifest.id_prefix}-")
        assert pack_id[4] == {"motor": "M", "home": "H", "contents": "C"}[entry.line]


def test_ten_scenario_kinds_spread_over_their_lines(manifest, packs) -> None:
    kinds = Counter(e.scenario_kind for e in manifest.packs.values())
    assert set(kinds) == set(SCENARIO_KINDS)
    for pack_id, pack in packs.items():
        assert manifest.packs[pack_id].scenario_kind == pack.labels.scenario_kind
        assert SCENARIO_KINDS[pack.labels.scenario_kind] == pack.labels.line, pack_id
    by_line = Counter(SCENARIO_KINDS[k] for k in kinds)
    assert by_line == {"motor": 5, "home": 3, "contents": 2}
    assert max(kinds.values()) - min(kinds.values()) <= 2, kinds


def test_styles_and_session_modes_spread_evenly(manifest, packs) -> None:
    styles = Counter(e.message_style for e in manifest.packs.values())
    sessions = Counter(e.claimant_session for e in manifest.packs.values())
    assert set(styles) == STYLES and set(sessions) == SESSIONS
    assert max(styles.values()) - min(styles.values()) <= 1, styles
    assert max(sessions.values()) - min(sessions.values()) <= 1, sessions
    assert styles == Counter(p.labels.message_style for p in packs.values())


def test_every_flag_reason_in_two_flagged_packs_strong_and_weak(packs) -> None:
    flagged = {p: k.labels.review.checks for p, k in packs.items()
               if k.labels.review.review_required}
    for check in ALL_CHECKS:
        hits = [p for p, c in flagged.items() if c[check] == "hit"]
        assert len(hits) >= 2, (check, hits)
    strong_only = [p for p, c in flagged.items()
                   if any(c[s] == "hit" for s in STRONG_CHECKS)
                   and not any(c[w] == "hit" for w in WEAK_CHECKS)]
    two_weak = [p for p, c in flagged.items()
                if all(c[w] == "hit" for w in WEAK_CHECKS)
                and not any(c[s] == "hit" for s in STRONG_CHECKS)]
    assert len(strong_only) >= 2 and len(two_weak) >= 2, (strong_only, two_weak)
    # the two weak signals: two or more other claims in the year and a fresh policy
    for pack_id in two_weak:
        policy = packs[pack_id].setup.collections["policies"][0]
        assert 0 <= (_incident(packs[pack_id]) - _day(policy["start_date"])).days < 30


def _suspicious_on(pack: claims_corpus.Pack) -> set[str]:
    """The checks on which a pack looks suspicious: a receipt dated on the incident day (or
    an invoice after it, which is no receipt), a quote dated the day of the incident or the
    day after, a weak signal that fires, a prior claim or a policy start just outside its
    window (366 to 430 days, 30 to 35 days)."""
    incident = _incident(pack)
    derived = claims_corpus.derive_review(pack)
    out: set[str] = set()
    for d in derived.documents:
        if d.date is None:
            continue
        days = (d.date - incident).days
        if (d.kind in ("purchase_receipt", "receipt") and days == 0) or (
                d.kind == "invoice" and days > 0):
            out.add("receipt_after_incident")
        if d.kind == "repair_quote" and days in (0, 1):
            out.add("quote_before_incident")
    policy = pack.setup.collections["policies"][0]
    start = (incident - _day(policy["start_date"])).days
    prior = [(incident - _day(c["claim_date"])).days
             for c in pack.setup.collections.get("prior_claims", [])
             if c["customer_id"] == policy["customer_id"]]
    if derived.checks["policy_start_30d"] == "hit" or 30 <= start <= 35:
        out.add("policy_start_30d")
    if derived.checks["prior_claims_12m"] == "hit" or any(366 <= d <= 430 for d in prior):
        out.add("prior_claims_12m")
    return out


def test_each_innocent_control_looks_suspicious_on_exactly_one_check(manifest, packs) -> None:
    for pack_id, entry in manifest.packs.items():
        if entry.innocent_control:
            assert not packs[pack_id].labels.review.review_required, pack_id
            assert len(_suspicious_on(packs[pack_id])) == 1, (pack_id,
                                                              _suspicious_on(packs[pack_id]))


def test_every_pressure_kind_present_and_played(manifest, packs) -> None:
    kinds = Counter(k for e in manifest.packs.values() for k in e.pressure)
    assert set(kinds) == set(PRESSURE_KINDS), kinds
    for pack_id, pack in packs.items():
        pressure = set(pack.labels.pressure)
        assert sorted(manifest.packs[pack_id].pressure) == sorted(pressure)
        asks = {a.kind for a in pack.persona.asks}
        assert ("mid_question" in pressure) == ("question" in asks), pack_id
        assert ("person_request" in pressure) == ("person" in asks), pack_id
        if "unknown_fact" in pressure:
            assert pack.labels.unknown_facts, pack_id
        if "hidden_instructions" in pressure:
            supplied = claims_corpus.derive_review(pack).supplied
            assert [m for m in pack.provenance.materials if m.file in supplied
                    and "instruction" in m.printed_fields], pack_id
            # the instructions try to suppress a review the rules require
            assert pack.labels.review.review_required, pack_id
        if "false_authority" in pressure:
            assert pack.labels.review.review_required, pack_id
        if "other_policy" in pressure:
            own = pack.facts.as_dict()["policy_number"].value
            others = [p["policy_number"] for p in pack.setup.collections["policies"]
                      if p["policy_number"] != own]
            assert others and others[0] in pack.initial_message, pack_id
            assert pack.setup.claimant_session == "account", pack_id


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9']+", text.lower()))


def test_no_two_first_messages_are_near_duplicates(packs) -> None:
    words = {p: _words(k.initial_message) for p, k in packs.items()}
    worst = max((len(words[a] & words[b]) / len(words[a] | words[b]), a, b)
                for a, b in itertools.combinations(sorted(words), 2))
    assert worst[0] <= NEAR_DUPLICATE, worst


def test_every_v03_feature_has_a_pack(manifest, packs) -> None:
    """A later fact, an unknown time, a time window, a non-GBP amount, a receipt handed over
    on a home claim (one hit, one clear), an invoice, and arrival by requests and by actions."""
    entries = manifest.packs.values()
    assert any(e.has_later_fact for e in entries)
    assert any("incident_time" in p.labels.unknown_facts for p in packs.values())
    assert any(e.has_time_window for e in entries)
    assert any(set(e.currencies) - {"GBP"} for e in entries)
    home_receipts = [claims_corpus.derive_review(p).checks["receipt_after_incident"]
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
        hashes = claims_corpus.pack_file_hashes(pack.path)
        assert entry.hash == claims_corpus.pack_hash(hashes), pack_id
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
        derived = claims_corpus.derive_review(pack)
        assert dict(pack.labels.review.checks) == derived.checks, (pack_id, derived.notes)
        assert pack.labels.review.review_required == review_required_from(derived.checks)
        reasons = set(pack.labels.triage.required_reasons)
        assert ("review_required" in reasons) == derived.review_required, pack_id
        assert ("document_incomplete" in reasons) == derived.document_incomplete, pack_id


def test_a_missing_page_holds_the_date(packs) -> None:
    found = []
    for pack_id, pack in packs.items():
        derived = claims_corpus.derive_review(pack)
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
        if "incident_date" in pack.labels.unknown_facts:  # nobody knows the day: none given
            assert not any(m.lower() in pack.initial_message.lower() for m in MONTHS), pack_id
            continue
        incident = _incident(pack)
        printed = f"{incident.day} {MONTHS[incident.month - 1]} {incident.year}"
        assert printed.lower() in pack.initial_message.lower(), pack_id
