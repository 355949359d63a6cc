"""Heron Mutual's profile says what Heron is, and its reset (Heron's own command, then the
harness's loading through the SQL mapping) lands every mapped collection in Heron's tables,
verified through SQL, and reads back in canonical terms; its [agent_decision] words read the
decision in Heron's own replies."""

from __future__ import annotations

import re
from decimal import Decimal
from importlib.metadata import version
from pathlib import Path

import pytest
import sqlalchemy as sa

from claims_prototype_app import CLAIM_NUMBER_PATTERN, Money, Settings, Store
from claims_prototype_app._rules import Decision
from claims_prototype_app._submit import decision_text
from claims_prototype_app._wording import button
from claims_prototype_app._wording import reply as reply_text
from claims_records import AgentAmount
from harness import load_profile
from harness.profile import StaffStores
from harness.reset import make_reset, setup_and_files
from harness.trial._agent_decision import read_agent_decision

from ._packs import PACKS


def test_the_profile_loads_and_matches_the_product() -> None:
    profile = load_profile("heron")
    assert (profile.name, profile.locale, profile.currency) == ("heron", "en_IE", "EUR")
    assert set(profile.capabilities.absent()) == {
        "customer_accounts", "staff_side", "todo_bar", "facts_panel", "talk_to_person",
        "runtime_report"}
    assert profile.staff_stores == StaffStores() and profile.staff_side().reads_stores
    assert (profile.reset.adapter, profile.state_source()) == ("command+stores", "stores")
    assert profile.reset.command is not None
    assert profile.reset.command.argv == ["{python}", "-m", "claims_prototype_app", "reset"]
    assert profile.stores is not None and profile.stores.kind == "sql"
    assert (profile.stores.sql_url_env, profile.stores.files_dir_env) == (
        "HERON_DATABASE_URL", "HERON_UPLOADS_DIR")
    assert re.search(profile.stores.allowed_database, "heron_dev")
    assert not re.search(profile.stores.allowed_database, "heron")  # Heron's default file
    declared = profile.runtime.declared
    assert declared is not None and declared.model == "rules (no model)"
    assert declared.version == version("claims-journey-harness")
    assert profile.conversation.scope == "process" and profile.conversation.new is not None
    assert profile.conversation.new.control == [
        f"role=button[name=\"{button('new_claim')}\"]"]
    pattern = profile.customer_screen.claim_number_pattern
    assert pattern == CLAIM_NUMBER_PATTERN and re.fullmatch(pattern, "HM-2026-000123")
    assert profile.customer_screen.confirm_labels == [button("confirm")]
    assert profile.dev is not None and "claims_prototype_app" in profile.dev.command
    # --dev: a SQLite file and an uploads folder per lane, named so the guard lets them pass
    assert profile.dev.env == {"HERON_DATABASE_URL": "{sql_url}",
                               "HERON_UPLOADS_DIR": "{files_dir}"}
    assert re.search(profile.stores.allowed_database, f"{profile.dev.database}_lane2")
    shown = Money.from_stored("1250.00 EUR").shown()
    assert shown == "€1,250.00"


def test_the_reset_loads_a_pack_into_herons_tables_verified_through_sql(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'heron_test.sqlite3'}"
    uploads = tmp_path / "uploads"
    environ = {"HERON_DATABASE_URL": url, "HERON_UPLOADS_DIR": str(uploads)}
    store = Store(Settings.from_env(environ=environ))
    store.create_tables()
    (uploads / "20260312").mkdir(parents=True)
    (uploads / "20260312" / "left-over.jpg").write_bytes(b"\xff\xd8")
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    profile = load_profile("heron")
    adapter = make_reset(profile, profile.resolved_lanes()[0], PACKS)
    try:
        adapter.reset(*setup_and_files(PACKS / "CTL-H-002"))  # a pack before: emptied
        outcome = adapter.reset(*setup_and_files(PACKS / "CTL-M-001"))
        dump = adapter.state()
    finally:
        adapter.close()
    assert (outcome.adapter, outcome.verified) == ("command+stores", True)
    assert any("cleared by the product's command" in note for note in outcome.notes)
    assert not any(uploads.iterdir())

    engine = sa.create_engine(url)
    with engine.connect() as conn:
        policies = conn.execute(sa.text(
            "SELECT id, holder_id, policy_number, start_date, excess FROM policies "
            "ORDER BY id")).all()
        history = conn.execute(sa.text("SELECT id, holder_id, claim_date FROM claim_history"))
        claims = conn.execute(sa.text("SELECT id, claim_number, status, holder_id, severity "
                                      "FROM claims")).all()
        facts = conn.execute(sa.text("SELECT claim_id, fact_key, value, status FROM "
                                     "claim_facts ORDER BY fact_key")).all()
        holders = conn.execute(sa.text("SELECT id FROM policyholders ORDER BY id")).scalars()
        assert list(holders) == ["cust-m001", "cust-other-01"]
        assert [tuple(r) for r in history] == [("prior-m001-1", "cust-m001", "2025-09-18")]
    engine.dispose()
    assert [(r.id, r.holder_id, r.policy_number, r.start_date, float(r.excess))
            for r in policies] == [("pol-m001", "cust-m001", "NWF-POL-100234", "2025-06-01", 250),
                                   ("pol-other-01", "cust-other-01", "NWF-POL-907731",
                                    "2024-11-01", 350)]
    assert [tuple(r) for r in claims] == [
        (1, "NWF-2025-048213", "open", "cust-other-01", "standard")]
    assert [tuple(r) for r in facts] == [  # the claim's facts in the child table
        (1, "incident_date", "2025-12-02", "confirmed"),
        (1, "incident_location", "14 Wendover Close, Aylesbury", "confirmed"),
        (1, "incident_type", "escape_of_water", "confirmed")]
    policy = store.find_policy("NWF-POL-100234")  # Heron reads what the harness wrote
    assert policy is not None and policy.line == "motor"
    store.close()

    assert dump is not None
    canonical = dump.collections
    assert set(canonical) == {"customers", "policies", "prior_claims", "claims"}
    assert canonical["policies"]["pol-m001"]["customer_id"] == "cust-m001"
    claim = canonical["claims"]["NWF-2025-048213"]
    assert claim["status"] == "submitted" and claim["customer_id"] == "cust-other-01"
    assert claim["triage"] == {"class": "standard", "reasons": ["escape_of_water"],
                               "urgency": "normal"}
    assert claim["facts"] == {  # read back from claim_facts
        "incident_date": {"value": "2025-12-02", "state": "confirmed"},
        "incident_location": {"value": "14 Wendover Close, Aylesbury", "state": "confirmed"},
        "incident_type": {"value": "escape_of_water", "state": "confirmed"}}


@pytest.mark.parametrize(("decision", "payable"), [
    (Decision("approved", claimed=Money(Decimal("543.53"), "EUR"),
              excess=Money(Decimal("250"), "EUR"), payable=Money(Decimal("293.53"), "EUR")),
     293.53),
    (Decision("approved", claimed=Money(Decimal("462.00"), "GBP"),
              excess=Money(Decimal("250"), "EUR"), payable=Money(Decimal("293.53"), "EUR")),
     293.53),
    (Decision("approved", claimed=Money(Decimal("180"), "EUR"),
              excess=Money(Decimal("250"), "EUR"), payable=Money(Decimal("0"), "EUR")), 0.0),
    (Decision("referred", referral_reasons=["triage_standard"]), None),
])
def test_the_profiles_agent_decision_words_read_herons_own_replies(
        decision: Decision, payable: float | None) -> None:
    """Heron's reply after a claim (its claim number, then what it decided), read through
    the profile's [agent_decision] words: a settlement is approved with its amount payable in
    euros, a referral is no decision."""
    profile = load_profile("heron")
    assert profile.agent_decision is not None
    reply = reply_text("submitted", claim_number="HM-2026-000123") + "\n\n" + decision_text(
        decision)
    seen = read_agent_decision([("agent", reply_text("greeting")), ("agent", reply)],
                               profile.agent_decision, profile.money())
    if payable is None:
        assert (seen.messages, seen.outcome, seen.amount) == (2, None, None)
    else:
        assert (seen.outcome, seen.turn) == ("approved", 2)
        assert seen.amount == AgentAmount(amount=payable, currency="EUR")
