"""The leak test: no oracle-, setup- or provenance-only value reaches a customer prompt."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import claims_corpus
from claims_records import LeakError, ScreenReading

from .conftest import PACK_ID, PACKS

REPRESENTATIVE_SCREEN = ScreenReading(
    latest_reply="Thanks, I've noted that. Could you send a photo of the damage, please?",
    chips=["Upload a photo", "I don't have one"],
    todo="Send a photo of the damage",
    sidebar="Your report\nStarted just now",
    facts_panel="Date of incident: needed\nRegistration: suggested",
    buttons=["Talk to a person"],
)


def _messages(view: claims_corpus.CustomerView,
              prompt_view: str = "screen") -> list[dict[str, str]]:
    now = [m.file for m in view.materials if m.availability == "at_start"]
    later = [m.file for m in view.materials if m.availability == "later"]
    history = [("customer", view.initial_message),
               ("agent", "I'm sorry to hear that. When did it happen?"),
               ("customer", view.facts[0].say)]
    return claims_corpus.build_customer_messages(view, REPRESENTATIVE_SCREEN, history, now, later,
                                          uploaded=now[:1], prompt_view=prompt_view)


@pytest.mark.parametrize("prompt_view", claims_corpus.PROMPT_VIEWS)
@pytest.mark.parametrize("pack_dir", claims_corpus.list_packs(PACKS), ids=lambda p: p.name)
def test_no_leak_in_any_pack_prompt(pack_dir: Path, prompt_view: str) -> None:
    view = claims_corpus.load_customer_view(pack_dir)
    messages = _messages(view, prompt_view)
    audit = claims_corpus.LeakGuard.for_audit(pack_dir)
    assert audit.find(messages) == []
    claims_corpus.LeakGuard.for_runtime(pack_dir).check(messages)
    # the guard is not empty: it knows this pack's oracle and setup values
    terms = audit.terms
    labels = claims_corpus.load_labels(pack_dir)
    assert labels.scenario in terms
    assert any(src.startswith("setup.json") for src in terms.values())


def test_planted_oracle_values_are_caught() -> None:
    pack_dir = PACKS / PACK_ID
    view = claims_corpus.load_customer_view(pack_dir)
    labels = claims_corpus.load_labels(pack_dir)
    provenance = claims_corpus.load_provenance(pack_dir)
    purpose = provenance.materials[1].purpose
    phrase = " ".join(purpose.split()[2:9])  # a phrase lifted from the middle
    outcome = labels.review.checks["quote_before_incident"]
    persona = view.persona.model_copy(update={
        "personality": f"{view.persona.personality} Expects a {labels.triage.triage_class} "
                       f"case; the quote check is {outcome}. {phrase}."})
    planted = dataclasses.replace(view, persona=persona)
    messages = _messages(planted)
    audit = claims_corpus.LeakGuard.for_audit(pack_dir)
    found = {leak.term: leak.source for leak in audit.find(messages)}
    assert found[labels.triage.triage_class] == "oracle/labels.json triage.triage_class"
    assert found[outcome].startswith("oracle/labels.json review.checks")
    assert "provenance.json materials.1.purpose" in found.values()
    with pytest.raises(LeakError) as exc:
        audit.check(messages)
    assert exc.value.context["pack"] == PACK_ID
    assert exc.value.context["term"] in found and exc.value.context["source"]


def test_runtime_guard_catches_setup_values_and_evidence_kinds() -> None:
    pack_dir = PACKS / PACK_ID
    view = claims_corpus.load_customer_view(pack_dir)
    setup = claims_corpus.load_setup(pack_dir)
    start = setup.collections["policies"][0]["start_date"]
    email = setup.collections["customers"][0]["email"]
    material = dataclasses.replace(view.materials[0], label="damage_photo")
    planted = dataclasses.replace(
        view, materials=(material, *view.materials[1:]),
        persona=view.persona.model_copy(update={
            "speaking_style": f"Mentions the policy began {start}; writes from {email}."}))
    runtime = claims_corpus.LeakGuard.for_runtime(pack_dir)
    found = {leak.term: leak.source for leak in runtime.find(_messages(planted))}
    assert found["damage_photo"] == "system vocabulary (evidence kind)"
    assert found[start] == "setup.json collections.policies.0.start_date"
    assert found[email].startswith("setup.json collections.customers.0")
    with pytest.raises(LeakError):
        runtime.check(_messages(planted))


def test_runtime_guard_ignores_screen_text_but_not_pack_text() -> None:
    pack_dir = PACKS / PACK_ID
    view = claims_corpus.load_customer_view(pack_dir)
    runtime = claims_corpus.LeakGuard.for_runtime(pack_dir)
    noisy = ScreenReading(latest_reply="Triage: fast_track, check quote_before_incident")
    messages = claims_corpus.build_customer_messages(view, noisy, [], [], [])
    assert runtime.find(messages) == []
    assert [leak.term for leak in runtime.find("the pack says fast_track")] == ["fast_track"]


def test_runtime_guard_reads_no_answer_files(pack_copy: Path) -> None:
    import shutil

    shutil.rmtree(pack_copy / "oracle")
    (pack_copy / "provenance.json").unlink()
    (pack_copy / "review.json").unlink()
    guard = claims_corpus.LeakGuard.for_runtime(pack_copy)
    assert "fast_track" in guard.terms
