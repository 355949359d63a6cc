"""Heron's staff side read from its tables: a claim Heron stored (its row, its details in
claim_facts, its follow-ups) dumped through the shipped profile's [mapping] in canonical
terms, read where [staff_stores] says, and graded by the scorer's own checks against the
pack's oracle, as a staff screen's reading would be. No browser: the pack's customer plays
Heron's conversation in-process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from claims_corpus import load_pack
from claims_prototype_app import Conversation, Settings, Store
from claims_prototype_app import _schema as T
from claims_records import StaffFact, StaffWaitingItem, StateDump
from harness import load_profile
from harness.profile import Profile
from harness.reset._stores import open_stores
from harness.staff import read_stores
from scoring._claim_checks import (
    check_facts,
    check_incident_datetime,
    check_review,
    check_triage,
)

from ._packs import MONEY, PACKS, PackCustomer, load_setup


@pytest.fixture
def heron(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Store, Profile]]:
    """Heron on a SQLite file its profile's guard lets through, the harness pointed at it."""
    environ = {"HERON_DATABASE_URL": f"sqlite:///{tmp_path / 'heron_test.sqlite3'}",
               "HERON_UPLOADS_DIR": str(tmp_path / "uploads")}
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    store = Store(Settings.from_env(environ=environ))
    store.create_tables()
    yield store, load_profile("heron")
    store.close()


def _dump(profile: Profile) -> StateDump:
    stores = open_stores(profile, profile.resolved_lanes()[0])
    try:
        stores.guard()
        return stores.dump()
    finally:
        stores.close()


def _play(store: Store, pack_id: str) -> str:
    load_setup(store, PACKS / pack_id)
    return PackCustomer(PACKS / pack_id).play(Conversation(store))


@pytest.mark.parametrize("pack_id", ["CTL-C-001", "CTL-C-008", "CTL-H-004", "CTL-M-021"])
def test_herons_claim_read_from_its_tables_passes_the_staff_side_checks(
        heron: tuple[Store, Profile], pack_id: str) -> None:
    """A flagged claim (C-001, M-021), an innocent one with a time window and a question
    (C-008), and one whose incident date and time the customer does not know (H-004)."""
    store, profile = heron
    number = _play(store, pack_id)
    side = profile.staff_side()
    assert side.stores is not None
    reading = read_stores(_dump(profile), number, side.stores, side.vocabulary)
    assert (reading.source, reading.found, reading.unmapped) == ("stores", True, {})
    labels = load_pack(PACKS / pack_id).labels
    known = frozenset(f.key for f in load_pack(PACKS / pack_id).facts.facts)
    for result in (check_triage(reading, labels), check_review(reading, labels),
                   check_facts(reading, labels, known, MONEY),
                   check_incident_datetime(reading, labels)):
        assert result.status == "pass", (result.name, result.explanation)
    assert reading.review_required is labels.review.review_required


def test_money_windows_unknown_details_and_the_waiting_list_as_a_staff_screen_shows_them(
        heron: tuple[Store, Profile]) -> None:
    store, profile = heron
    number = _play(store, "CTL-C-008")  # a window, an amount in pounds, a question
    side = profile.staff_side()
    assert side.stores is not None
    dump = _dump(profile)
    claim = dump.collections["claims"][number]
    assert claim["facts"]["items_value"] == {"value": "1180.00 GBP", "state": "confirmed"}
    reading = read_stores(dump, number, side.stores, side.vocabulary)
    assert reading.facts["incident_time"] == StaffFact(value="14:00-17:00", state="confirmed")
    assert reading.facts["items_value"] == StaffFact(value="1180.00 GBP", state="confirmed")
    assert reading.waiting_list == [StaffWaitingItem(
        kind="question", text="Will you send someone round to look at the door?")]
    [item] = dump.collections["waiting_list"].values()
    assert (item["claim_number"], item["kind"]) == (number, "question")

    store.reset()
    load_setup(store, PACKS / "CTL-H-004")
    number = PackCustomer(PACKS / "CTL-H-004").play(Conversation(store))
    reading = read_stores(_dump(profile), number, side.stores, side.vocabulary)
    assert reading.facts["incident_date"] == StaffFact(value="not known", state="unknown")


def test_a_callback_and_a_second_incident_are_contact_requests_of_their_claim_only(
        heron: tuple[Store, Profile]) -> None:
    store, profile = heron
    load_setup(store, PACKS / "CTL-M-010")  # two incidents in the opening message
    c = Conversation(store)
    number = PackCustomer(PACKS / "CTL-M-010").play(c)
    left = store.add_follow_up("callback", "Can someone ring me about the bike?")  # no claim
    side = profile.staff_side()
    assert side.stores is not None
    dump = _dump(profile)
    assert dump.collections["waiting_list"][str(left)]["kind"] == "contact_request"
    reading = read_stores(dump, number, side.stores, side.vocabulary)
    assert [i.kind for i in reading.waiting_list] == ["contact_request"]  # second_incident
    assert reading.unmapped == {}
    unclaimed = read_stores(dump, None, side.stores, side.vocabulary)
    assert unclaimed.waiting_list == [StaffWaitingItem(
        kind="contact_request", text="Can someone ring me about the bike?")]
    bare = read_stores(dump, number, side.stores)  # without the profile's vocabulary
    assert bare.unmapped == {"waiting_kinds": ["second_incident"]}


@pytest.mark.parametrize(("column", "value", "check", "mode"), [
    ("review_required", False, "review", "missed_flag"),
    ("severity", "fast_track", "triage", "wrong_triage"),
], ids=["flag-cleared", "triage-changed"])
def test_what_heron_stored_wrongly_fails_the_checks(heron: tuple[Store, Profile], column: str,
                                                    value: object, check: str,
                                                    mode: str) -> None:
    """The same flagged claim with one stored field changed behind Heron's back: read from
    the stores, the component fails with its failure mode (the stores are what is graded)."""
    store, profile = heron
    number = _play(store, "CTL-C-001")
    with store.engine.begin() as conn:
        conn.execute(sa.update(T.claims).where(T.claims.c.claim_number == number)
                     .values({column: value}))
    side = profile.staff_side()
    assert side.stores is not None
    reading = read_stores(_dump(profile), number, side.stores, side.vocabulary)
    labels = load_pack(PACKS / "CTL-C-001").labels
    result = {"review": check_review, "triage": check_triage}[check](reading, labels)
    assert result.status == "fail" and mode in result.failure_modes, result.explanation
