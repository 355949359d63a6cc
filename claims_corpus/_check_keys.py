"""The fact-key vocabulary (packs/STANDARD.md section 5): every fact key of a pack is one the
standard names.

- ``CLAIM_FACT_KEYS``: the claim's facts, with their kinds, as ``docs/claim-rules.md`` lists
  them (products collect them, the oracle expects them). A fact of ``facts.json`` with one of
  these keys has that kind; the oracle's ``expected_facts``, ``optional_facts`` and
  ``unknown_facts`` name only these.
- ``STORY_FACT_KEYS``: facts of the customer's story that are no field of a claim (why a
  receipt carries a late date, who covered a roof in the meantime). They are text, only in
  ``facts.json``, and listed in the standard before a pack may use one.

A corpus may declare story-fact keys of its own in its ``manifest.json`` (``story_facts``: key
-> kind and topic): they are accepted in that corpus's packs only, with the declared kind, so
a held-out corpus extends the list without showing its keys to anyone by editing this module.
A declared key may not be a claim fact or a story fact of the list (``declared_problems``).

Any other key is refused by name, with the closest known key when one is near: a misspelt key
would otherwise only show up as the expected fact it fails to match.

The oracle's ``review.customer_explanations`` names, for a document check that hits, the story
fact that explains it innocently: a strong (document) check labelled ``hit``, and a story fact
the pack's ``facts.json`` holds.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path

from claims_records import STRONG_CHECKS, PackError

from . import _io
from ._check_pack import Problem
from .formats import Facts, Labels, StoryFact
from .formats.matching import FACT_KINDS

# docs/claim-rules.md "Fact keys": key -> kind (a registration or reference is text there; the
# matcher's own "code" kind is how it compares them, not a kind a pack writes).
CLAIM_FACT_KEYS: dict[str, str] = {
    key: "text" if kind == "code" else kind for key, kind in FACT_KINDS.items()}
STORY_FACT_KEYS: frozenset[str] = frozenset({"emergency_cover", "receipt_reprint",
                                             "roofer_visit"})
STORY_FACT_KIND = "text"
_ORACLE_GROUPS: tuple[str, ...] = ("expected_facts", "optional_facts", "unknown_facts")


def _unknown(key: str, known: list[str], where: str) -> str:
    near = difflib.get_close_matches(key, known, n=1, cutoff=0.8)
    hint = f" (did you mean {near[0]!r}?)" if near else ""
    return (f"unknown fact key {key!r}{hint}: {where} (packs/STANDARD.md section 5, "
            "docs/claim-rules.md)")


def declared_problems(declared: Mapping[str, StoryFact]) -> list[Problem]:
    """Story facts a corpus's manifest declares that the vocabulary already has."""
    out: list[Problem] = []
    for key in declared:
        what = ("a claim fact (docs/claim-rules.md)" if key in CLAIM_FACT_KEYS
                else "a story fact of the standard's list" if key in STORY_FACT_KEYS else None)
        if what:
            out.append(Problem(None, _io.MANIFEST, f"story_facts.{key}",
                               f"{key!r} is already {what}: a corpus declares only keys "
                               "the vocabulary lacks"))
    return out


def declared_note(declared: Mapping[str, StoryFact]) -> str | None:
    """The line a report gives a corpus's own story facts (None: it declares none)."""
    if not declared:
        return None
    listed = ", ".join(f"{k} ({s.kind}: {s.topic})" for k, s in sorted(declared.items()))
    return f"story facts declared by this corpus's manifest: {listed}"


def fact_key_problems(pack: str, pack_dir: Path,
                      declared: Mapping[str, StoryFact] | None = None) -> list[Problem]:
    """Every fact key of facts.json and of the oracle outside the vocabulary (the standard's
    and the story facts the corpus ``declared``), and every fact whose kind differs from the
    vocabulary's."""
    out: list[Problem] = []
    declared = {k: v for k, v in (declared or {}).items()
                if k not in CLAIM_FACT_KEYS and k not in STORY_FACT_KEYS}
    story_keys = STORY_FACT_KEYS | set(declared)
    claim_keys = sorted(CLAIM_FACT_KEYS)
    try:
        facts = _io.read_model(pack_dir / _io.FACTS, Facts, pack=pack, file=_io.FACTS)
    except PackError:
        facts = None  # check_pack reports the file
    for i, f in enumerate(facts.facts if facts else []):
        field = f"facts.{i}.key"
        if f.key in CLAIM_FACT_KEYS:
            if f.kind != CLAIM_FACT_KEYS[f.key]:
                out.append(Problem(pack, _io.FACTS, f"facts.{i}.kind",
                                   f"{f.kind!r} for {f.key!r}; the vocabulary gives "
                                   f"{CLAIM_FACT_KEYS[f.key]!r} (docs/claim-rules.md)"))
        elif f.key in STORY_FACT_KEYS:
            if f.kind != STORY_FACT_KIND:
                out.append(Problem(pack, _io.FACTS, f"facts.{i}.kind",
                                   f"{f.kind!r} for the story fact {f.key!r}; story facts "
                                   f"are {STORY_FACT_KIND!r}"))
        elif f.key in declared:
            if f.kind != declared[f.key].kind:
                out.append(Problem(pack, _io.FACTS, f"facts.{i}.kind",
                                   f"{f.kind!r} for the story fact {f.key!r}; the corpus's "
                                   f"{_io.MANIFEST} declares it {declared[f.key].kind!r}"))
        else:
            out.append(Problem(pack, _io.FACTS, field, _unknown(
                f.key, claim_keys + sorted(story_keys),
                "neither a claim fact nor a story fact the standard or the corpus's "
                f"{_io.MANIFEST} lists")))
    try:
        labels = _io.read_model(pack_dir / _io.LABELS, Labels, pack=pack, file=_io.LABELS)
    except PackError:
        return out
    out += _explanation_problems(pack, labels, facts, story_keys)
    for group in _ORACLE_GROUPS:
        for key in getattr(labels, group):
            if key in CLAIM_FACT_KEYS:
                continue
            field = f"{group}.{key if key.isprintable() else repr(key)}"
            if key in story_keys:
                out.append(Problem(pack, _io.LABELS, field,
                                   f"{key!r} is a story fact, no field of the claim: the "
                                   f"oracle's {group} name claim facts only"))
            else:
                out.append(Problem(pack, _io.LABELS, field, _unknown(
                    key, claim_keys, "not a claim fact of the vocabulary")))
    return out


def _explanation_problems(pack: str, labels: Labels, facts: Facts | None,
                          story_keys: frozenset[str]) -> list[Problem]:
    """Each customer explanation goes with a document check that hits and names a story
    fact of facts.json."""
    out: list[Problem] = []
    known = {f.key for f in facts.facts} if facts else None
    review = labels.review
    for check, key in review.customer_explanations.items():
        field = f"review.customer_explanations.{check}"
        if check not in STRONG_CHECKS:
            out.append(Problem(pack, _io.LABELS, field, f"{check} is no document check: only "
                               f"the hit of {' or '.join(STRONG_CHECKS)} is explained by the "
                               "customer"))
        elif review.checks[check] != "hit":
            out.append(Problem(pack, _io.LABELS, field, f"{check} is "
                               f"{review.checks[check]!r}, not 'hit': there is no alert for "
                               "the explanation to go with"))
        if key not in story_keys:
            out.append(Problem(pack, _io.LABELS, field, f"{key!r} is no story fact the "
                               "standard or the corpus's manifest lists (packs/STANDARD.md "
                               "section 5)"))
        elif known is not None and key not in known:
            out.append(Problem(pack, _io.LABELS, field, f"the story fact {key!r} is not in "
                               f"{_io.FACTS}: the customer cannot give the explanation"))
    return out
