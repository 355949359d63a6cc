"""Every pack in packs/ is solvable in Kestrel Claims: its setup loaded through Kestrel's own
reset endpoint (via the documented canonical mapping), played through the JSON API by a
customer answering each open question from facts.json, "Review details" then "Create claim";
the case is then read back twice and compared with the pack's labels: from MongoDB through
the inverse mapping, and from the staff workbench through its vocabulary."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from claims_corpus.formats.matching import kind_of, values_match
from claims_example_app import REF_PATTERN
from claims_example_app._wording import load, quick
from scoring._state_checks import get_path, matches

from ._html import elements, texts
from ._mapping import Mapping
from .conftest import kestrel_packs

PACK_DIRS = kestrel_packs()
FILE_KINDS = {"damage_photo": ("damage_photo", "scene_photo", "item_photo"),
              "repair_quote": ("repair_quote",), "purchase_receipt": ("purchase_receipt",)}
# Oracles name the product's own claim number as {claim_number}: Kestrel's pattern here.
CLAIM_NUMBER = "{claim_number}"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def play(k, pack: Path) -> tuple[dict, list[str]]:
    """Play ``pack`` to a lodged case; (the case document, the customer's messages)."""
    c = k.client
    facts = {f["key"]: f for f in _load(pack / "input" / "facts.json")["facts"]}
    persona = _load(pack / "input" / "persona.json")
    materials = _load(pack / "input" / "materials.json")["materials"]
    said: list[str] = []

    def say(text: str) -> dict:
        said.append(text)
        r = c.post("/api/turns", data={"text": text})
        assert r.status_code == 200, r.text
        return r.json()

    assert c.get("/api/thread").json()["turns"][0]["who"] == "bot"
    say((pack / "input" / "initial_message.txt").read_text(encoding="utf-8").strip())
    for _ in range(60):
        conv = k.conversation()
        if conv["caseRef"]:
            return k.db.fnol_cases.find_one({"ref": conv["caseRef"]}), said
        step = conv["open"]
        if step["kind"] == "fact":
            fact = facts.get(step["key"])
            say(fact["say"] if fact else persona["dont_know_phrase"])
        elif step["kind"] == "file":
            m = next((m for m in materials if m["evidence_kind"] in FILE_KINDS[step["key"]]),
                     None)
            arrives = (m or {}).get("later", {}).get("arrives") or {}
            ready = m is not None and (m["availability"] == "at_start"
                                       or len(said) >= arrives.get("after_messages", 10**6))
            if ready:
                f = pack / "input" / "materials" / m["file"]
                mime = "application/pdf" if f.suffix == ".pdf" else "image/jpeg"
                r = c.post("/api/turns", data={"text": ""},
                           files={"file": (f.name, f.read_bytes(), mime)})
                assert r.status_code == 200, r.text
                assert r.json()["turns"][-2]["file"] == f.name
            else:
                say(m["later"]["describe_before"] if m else "Sorry, I don't have that.")
        elif step["kind"] == "line":  # the policy was not found twice: what the claim is about
            say(quick("line_" + _load(pack / "oracle" / "labels.json")["line"]))
        elif step["kind"] == "ready":
            shown = c.get("/api/thread").json()
            assert [a["label"] for a in shown["actions"]] == ["Review details"]
            r = c.post("/api/review")
            assert r.status_code == 200, r.text
            assert r.json()["review"]["rows"], "the review card lists the collected details"
        elif step["kind"] == "review":
            r = c.post("/api/create")
            assert r.status_code == 200, r.text
            assert re.fullmatch(REF_PATTERN, r.json()["claimRef"])
        else:
            pytest.fail(f"{pack.name}: the assistant left nothing to answer: {step}")
    pytest.fail(f"{pack.name}: no claim after 60 steps")


def check_stored_case(k, case: dict, labels: dict) -> None:
    """The case as MongoDB holds it, read back to canonical terms through the mapping."""
    claim = Mapping().to_canonical("claims", case)
    checks = {cid: v["outcome"] for cid, v in claim["review"]["checks"].items()}
    assert checks == labels["review"]["checks"]
    assert claim["review"]["review_required"] is labels["review"]["review_required"]
    assert claim["triage"]["class"] == labels["triage"]["triage_class"]
    reasons = set(claim["triage"]["reasons"])
    required = set(labels["triage"]["required_reasons"])
    assert required <= reasons <= required | set(labels["triage"]["allowed_reasons"])
    for key, value in labels["expected_facts"].items():
        assert claim["facts"][key]["state"] == "confirmed", key
        assert values_match(kind_of(key, value), value, claim["facts"][key]["value"]), key
    mapping = Mapping()
    for a in labels["assertions"]:
        if a["judge"] != "state":
            continue
        rule = a["state"]
        coll = mapping.collection(rule["collection"])
        match = mapping.to_product(rule["collection"], rule["match"])
        n = k.db[coll].count_documents(match)
        assert n == rule["count"] if rule.get("count") is not None else n >= 1, a["id"]
    for doc in labels["expected_end_state"]["documents"]:
        coll = mapping.collection(doc["collection"])
        found = [mapping.to_canonical(doc["collection"], d) for d in k.db[coll].find()]
        hits = [d for d in found if matches(d, doc["match"] or {})]
        assert len(hits) == 1, doc
        for path, want in doc["fields"].items():
            assert get_path(hits[0], path) == want, (path, want)


def check_replies(k, labels: dict) -> None:
    replies = "\n".join(t["text"] for t in k.conversation()["turns"] if t["who"] == "bot")
    for a in labels["assertions"]:
        rule = a.get("text")
        if a["judge"] != "text" or rule["where"] != "agent_replies":
            continue
        pattern = rule["pattern"].replace(CLAIM_NUMBER, f"(?:{REF_PATTERN})")
        assert (re.search(pattern, replies, re.I) is not None) is (
            rule["expect"] == "present"), a["id"]


def _inverse(table: dict[str, str]) -> dict[str, str]:
    return {word: code for code, word in table.items()}


def check_workbench(k, case: dict, labels: dict, said: list[str]) -> None:
    """What a handler sees, turned back into canonical codes with the documented words."""
    w = load("workbench")
    queue = k.staff.get("/").text
    rows = {text.split()[0]: attrs["data-case"] for attrs, text in elements(queue, "queue__row")}
    page = k.staff.get(rows[case["ref"]]).text
    assert _inverse(w["bands"])[texts(page, "band")[0]] == labels["triage"]["triage_class"]
    reasons = {_inverse(w["reasons"])[r] for r in texts(page, "reason")}
    required = set(labels["triage"]["required_reasons"])
    assert required <= reasons <= required | set(labels["triage"]["allowed_reasons"])
    refer = texts(page, "referral")[0] == w["referral"]["refer"]
    assert refer is labels["review"]["review_required"]
    shown = {_inverse(w["checks"])[n]: _inverse(w["outcomes"])[o]
             for n, o in zip(texts(page, "check__name"), texts(page, "check__outcome"),
                             strict=True)}
    assert shown == labels["review"]["checks"]
    facts = {_inverse(w["facts"])[lbl]: (v, s) for lbl, v, s in zip(
        texts(page, "fact__label"), texts(page, "fact__value"), texts(page, "fact__state"),
        strict=True)}
    for key, value in labels["expected_facts"].items():
        shown_value, state = facts[key]
        assert state == w["fact_states"]["confirmed"], key
        assert values_match(kind_of(key, value), value, shown_value), (key, shown_value)
    followups = k.staff.get("/followups").text
    listed = texts(followups, "followup__text")
    assert all(_inverse(w["followup_kinds"])[kind] == "question"
               for kind in texts(followups, "followup__kind"))
    for question in [s for s in said[1:] if s.endswith("?")]:
        assert question in listed


@pytest.mark.slow
@pytest.mark.parametrize("pack", PACK_DIRS, ids=[p.name for p in PACK_DIRS])
def test_pack_is_solvable_in_kestrel(make_kestrel, pack: Path) -> None:
    k = make_kestrel()
    k.load_pack(pack)
    case, said = play(k, pack)
    labels = _load(pack / "oracle" / "labels.json")
    check_stored_case(k, case, labels)
    check_replies(k, labels)
    check_workbench(k, case, labels, said)
    bot = [t["text"] for t in k.conversation()["turns"] if t["who"] == "bot"]
    assert len(bot) == len(set(bot)), "a reply was repeated word for word"
    assert all(t["text"].endswith(("?", ".")) for t in k.conversation()["turns"]
               if t["who"] == "bot")
