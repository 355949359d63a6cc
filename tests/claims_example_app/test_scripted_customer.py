"""Kestrel's wording against the harness's scripted customer: every pack played through the
JSON API with ``harness.customers.ScriptedCustomer`` deciding from what the screen would
show (latest reply, quick replies, buttons), counting messages the way a trial does.

The confirmation step ("Review details", then "Create claim") is pressed for the customer, as
a profile's confirmation wording is meant to make it do, in one of two orders: "confirm first"
presses it whenever one of its buttons is visible and the latest reply asks nothing (no "?");
"customer first" asks the scripted customer first and presses it only when the customer has
nothing left to say. In the second order the customer volunteers a fact or two whose topic
overlaps the last acknowledgement (a receipt's date, the roofer's visit); Kestrel keeps those
as notes and the claim must come out the same. Every pack must reach a claim reference with
the labelled triage, checks and confirmed facts, and the customer must never answer "I don't
know" to a question whose answer is in its facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import claims_corpus
from claims_corpus.formats.matching import kind_of, values_match
from claims_records import ScreenReading
from harness.customers import CustomerContext, ScriptedCustomer, material_availability

from ._mapping import Mapping
from .conftest import kestrel_packs

PACK_DIRS = kestrel_packs()
CONFIRM_STEPS = ("Review details", "Create claim")


def _screen(state: dict, error: str = "") -> ScreenReading:
    bot = [t["text"] for t in state["turns"] if t["who"] == "bot"]
    return ScreenReading(
        latest_reply=bot[-1] if bot else "",
        chips=list(state["quick"]),
        buttons=[a["label"] for a in state["actions"]],
        claim_number=state["claimRef"],
        upload_error=error,
    )


def journey(k, pack: Path, confirm_first: bool = True) -> tuple[dict, list[tuple[str, str]]]:
    """(the final screen state, the customer's actions as (kind, what)) for ``pack``."""
    view = claims_corpus.load_customer_view(pack)
    customer = ScriptedCustomer(view)
    c = k.client
    state = c.get("/api/thread").json()
    state = c.post("/api/turns", data={"text": view.initial_message}).json()
    sent, uploaded, actions = 1, [], []
    for step in range(1, 60):
        screen = _screen(state)
        if screen.claim_number:
            return state, actions
        confirm = [b for b in screen.buttons if b in CONFIRM_STEPS]
        action = None
        if not confirm_first or not confirm or "?" in screen.latest_reply:
            available, later = material_availability(
                view, claims_corpus.Progress(messages=sent, actions=len(actions) + 1))
            ctx = CustomerContext(step=step, messages_sent=sent, available_files=available,
                                  later_files=later, uploaded=list(uploaded))
            action = customer.decide(screen, ctx)
        if confirm and (action is None or action.kind == "done"):
            path = {"Review details": "/api/review", "Create claim": "/api/create"}[confirm[0]]
            actions.append(("confirm", confirm[0]))
            state = c.post(path).json()
            continue
        assert action.kind in ("say", "click", "upload"), (pack.name, action, screen)
        actions.append((action.kind, action.text or action.label or action.file or ""))
        if action.kind == "say":
            sent += 1
            r = c.post("/api/turns", data={"text": action.text})
        elif action.kind == "click":
            assert action.label in screen.chips, (action, screen)
            r = c.post("/api/turns", data={"text": action.label})
        else:
            m = view.material(action.file)
            mime = "application/pdf" if m.path.suffix == ".pdf" else "image/jpeg"
            uploaded.append(m.file)
            r = c.post("/api/turns", data={"text": ""},
                       files={"file": (m.file, m.path.read_bytes(), mime)})
        assert r.status_code == 200, r.text
        state = r.json()
    pytest.fail(f"{pack.name}: no claim reference after 60 steps")


@pytest.mark.slow
@pytest.mark.parametrize("confirm_first", [True, False], ids=["confirm-first", "customer-first"])
@pytest.mark.parametrize("pack", PACK_DIRS, ids=[p.name for p in PACK_DIRS])
def test_scripted_customer_reaches_a_claim_reference(make_kestrel, pack: Path,
                                                     confirm_first: bool) -> None:
    k = make_kestrel()
    k.load_pack(pack)
    state, actions = journey(k, pack, confirm_first)
    view = claims_corpus.load_customer_view(pack)
    dont_know = view.persona.dont_know_phrase
    assert ("say", dont_know) not in actions, actions
    labels = json.loads((pack / "oracle" / "labels.json").read_text(encoding="utf-8"))
    case = Mapping().to_canonical("claims", k.db.fnol_cases.find_one({"ref": state["claimRef"]}))
    assert case["triage"]["class"] == labels["triage"]["triage_class"]
    assert {c: v["outcome"] for c, v in case["review"]["checks"].items()} == (
        labels["review"]["checks"])
    for key, value in labels["expected_facts"].items():
        assert case["facts"][key]["state"] == "confirmed", key
        assert values_match(kind_of(key, value), value, case["facts"][key]["value"]), key
    assert [a for a in actions if a[0] == "confirm"] == [("confirm", s) for s in CONFIRM_STEPS]
