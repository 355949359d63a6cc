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
        "personality": f"{view.persona.personality} Expects the triage class "
                       f"{labels.triage.triage_class}; the quote check is {outcome}. {phrase}."})
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


# ------------------------------------------------ label values that are also ordinary words

HIT_PACK = "CTL-C-001"  # receipt_after_incident: hit; triage class standard

# The same words as ordinary language: never a leak.
ORDINARY = [
    "A car hit me from behind at the lights.",
    "A CAR HIT ME FROM BEHIND AT THE LIGHTS",
    "It was a hit and run, the other driver drove off.",
    "Hit-and-run, nobody stopped.",
    "I was hit. Then the road was clear and I pulled over.",
    "Clear skies, dry road, a standard Ford Focus.",
    "The laptop was a standard model; the screen is no longer clear.",
    "The check-out girl said the receipt is all clear to claim.",
    "I hit my head on the cupboard and the bill hits hard this month.",
    "It was a complex day, honestly.",
]

# The same words used as the labels they are: a leak.
LABELLED = [
    ("check: hit", "hit"),
    ("result=hit", "hit"),
    ("outcome -> hit", "hit"),
    ("The receipt check is hit.", "hit"),
    ("I know the receipt check came back hit", "hit"),
    ("The check said HIT on my receipt.", "hit"),
    ("they flagged it `hit`", "hit"),
    ('it was marked "hit" on the screen', "hit"),
    ("receipt_check_hit", "hit"),
    ("hit_receipt_after", "hit"),
    ("hit", "hit"),
    ("The quote check is clear.", "clear"),
    ("prior claims: clear", "clear"),
    ("Status: CLEAR", "clear"),
    ("triage class: standard", "standard"),
    ("I expect the triage standard", "standard"),
    ("it should be STANDARD, not complex", "standard"),
    ("band=standard", "standard"),
]


def _input_guard() -> claims_corpus.LeakGuard:
    return claims_corpus.LeakGuard.for_input_audit(PACKS / HIT_PACK)


@pytest.mark.parametrize("text", ORDINARY)
def test_an_ordinary_word_that_is_also_a_label_value_is_no_leak(text: str) -> None:
    guard = _input_guard()
    assert {"hit", "clear", "standard"} <= set(guard.terms)  # the guard does know them
    assert [leak.term for leak in guard.find(text, whole_text=True)] == []


@pytest.mark.parametrize(("text", "term"), LABELLED, ids=[t for t, _ in LABELLED])
def test_a_label_value_used_as_the_label_is_a_leak(text: str, term: str) -> None:
    found = {leak.term: leak.source for leak in _input_guard().find(text, whole_text=True)}
    assert term in found, found
    assert found[term].startswith("oracle/labels.json")


def test_distinctive_values_count_wherever_they_stand() -> None:
    """Amounts, dates, references, multiword and code-like labels are never ordinary words."""
    guard = claims_corpus.LeakGuard.for_input_audit(PACKS / PACK_ID)
    for text, term in (("the garage quote hrg-q-2291 was fine", "HRG-Q-2291"),
                       ("it cost 1050.60 in the end", "1050.60"),
                       ("my policy began on 2025-06-01.", "2025-06-01"),
                       ("hopefully a fast_track one", "fast_track"),
                       ("the claim is not_checked yet", "not_checked")):
        assert term in {leak.term for leak in guard.find(text, whole_text=True)}, text


def _hit_corpus(tmp_path: Path) -> Path:
    import shutil

    root = tmp_path / "packs"
    root.mkdir()
    for name in ("baseline.json", "manifest.json"):
        shutil.copy2(PACKS / name, root / name)
    shutil.copytree(PACKS / HIT_PACK, root / HIT_PACK)
    return root


def _personality(root: Path, text: str) -> list[str]:
    import json

    path = root / HIT_PACK / "input/persona.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["personality"] = text
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    claims_corpus.update_manifest(root)
    return [str(p) for p in claims_corpus.check_corpus(root).problems]


def test_corpus_check_passes_the_ordinary_word_and_names_the_planted_label(tmp_path) -> None:
    root = _hit_corpus(tmp_path)
    assert _personality(root, "Careful since a car hit her from behind in 2019; polite, "
                              "clear and to the point.") == []
    problems = _personality(root, "Careful and polite. Knows her receipt check: hit.")
    assert problems == [
        f"{HIT_PACK}/input/persona.json: personality: 'hit' comes from oracle/labels.json "
        "review.checks.receipt_after_incident, which the customer cannot know (if they do, "
        "list the value in oracle/labels.json customer_may_know)"]
