"""Checks of a whole pack against the claim rules (format v0.3): the oracle's review outcomes
as ``_derive`` gives them, facts the customer cannot know, later facts, hand-overs, and the
documents the rules read.

Each problem is ``(file, field, message)``; the caller adds the pack.
"""

from __future__ import annotations

from collections import Counter

from . import _io
from ._check_decision import decision_problems
from ._check_rules import pdf_texts, relative_date_words
from ._derive import PHOTO_KINDS, RECEIPT_KINDS, derive_review, requested_kinds
from ._loading import Pack

# Words the title of a document of each evidence kind must contain: the product knows what a
# document is from its title ("a receipt is a receipt whoever asked for it").
TITLE_WORDS: dict[str, str] = {
    **{k: "RECEIPT" for k in RECEIPT_KINDS},
    "repair_quote": "QUOTE",
    "invoice": "INVOICE",
    "police_report": "POLICE REPORT",
}

Found = list[tuple[str, str, str]]


def oracle_problems(pack: Pack) -> Found:
    """Every rule problem of a fully parsed pack."""
    out: Found = []
    out += _review_problems(pack)
    out += _fact_problems(pack)
    out += _material_problems(pack)
    out += decision_problems(pack)
    return out


def _review_problems(pack: Pack) -> Found:
    out: Found = []
    derived = derive_review(pack)
    review, reasons = pack.labels.review, set(pack.labels.triage.required_reasons)
    basis = ", ".join(f"{k} {v}" for k, v in derived.notes.items())
    for check, outcome in derived.checks.items():
        if review.checks.get(check) != outcome:
            out.append((_io.LABELS, f"review.checks.{check}",
                        f"is {review.checks.get(check)} but the rules give {outcome} "
                        f"(from {basis})"))
    if ("review_required" in reasons) != derived.review_required:
        out.append((_io.LABELS, "triage.required_reasons",
                    f"'review_required' must be required exactly when the review signal "
                    f"fires (the rules give review_required={derived.review_required})"))
    if ("document_incomplete" in reasons) != derived.document_incomplete:
        out.append((_io.LABELS, "triage.required_reasons",
                    "'document_incomplete' must be required exactly when a supplied document "
                    f"lacks pages (the rules give {derived.document_incomplete})"))
    for d in derived.documents:
        if d.spelled is not None:
            out.append((f"{_io.MATERIALS_DIR}/{d.file}", "<date>",
                        f"document date printed as {d.spelled!r}; the standard prints "
                        "'<Something> date: D Month YYYY' (e.g. 14 March 2026)"))
    return out


def _fact_problems(pack: Pack) -> Found:
    out: Found = []
    facts = pack.facts.as_dict()
    index = {f.key: i for i, f in enumerate(pack.facts.facts)}
    labels = pack.labels
    for key in labels.unknown_facts:
        f = facts.get(key)
        if f is not None and (f.later is None or f.later.arrives is not None):
            out.append((_io.LABELS, f"unknown_facts.{key}",
                        f"the customer knows {key!r} ({_io.FACTS}); a fact expected as not "
                        "known must be absent from it, or come later and not arrive"))
    for group in ("expected_facts", "optional_facts"):
        for key in getattr(labels, group):
            f = facts.get(key)
            if f is not None and f.later is not None and f.later.arrives is None:
                out.append((_io.LABELS, f"{group}.{key}",
                            f"{key!r} only comes after the journey (later.arrives is null); "
                            "list it under unknown_facts"))
    for key, f in facts.items():
        if f.later is not None:
            for word in relative_date_words(f.later.describe_before):
                out.append((_io.FACTS, f"facts.{index[key]}.later.describe_before",
                            f"relative date {word!r} in fact {key!r}: use an absolute date"))
    return out


def _material_problems(pack: Pack) -> Found:
    out: Found = []
    materials = {m.file: m for m in pack.materials.materials}
    handed = [h.file for h in pack.persona.hands_over]
    for i, h in enumerate(pack.persona.hands_over):
        if h.file not in materials:
            out.append((_io.PERSONA, f"hands_over.{i}.file",
                        f"{h.file!r} is not listed in {_io.MATERIALS}"))
    for file, n in Counter(handed).items():
        if n > 1:
            out.append((_io.PERSONA, "hands_over", f"{file!r} is handed over {n} times"))
    facts = pack.facts.as_dict()
    incident_type = facts["incident_type"].value if "incident_type" in facts else None
    for request, kinds in requested_kinds(pack.labels.line, incident_type).items():
        if set(kinds) & set(PHOTO_KINDS):
            continue  # extra photos change no outcome the rules derive
        answering = [m.file for m in pack.materials.materials
                     if m.evidence_kind in kinds and m.file not in handed]
        if len(answering) > 1:
            out.append((_io.MATERIALS, "materials",
                        f"{len(answering)} files answer the request for a {request} "
                        f"({', '.join(answering)}); one is uploaded per request, so hand the "
                        "others over in the persona or leave them out"))
    for i, m in enumerate(pack.materials.materials):
        word = TITLE_WORDS.get(m.evidence_kind)
        if word is None or not m.file.lower().endswith(".pdf"):
            continue
        texts = pdf_texts((pack.path / _io.MATERIALS_DIR / m.file).read_bytes())[0] or []
        lines = [ln.strip() for ln in (texts[0] if texts else "").splitlines() if ln.strip()]
        title = lines[0] if lines else ""
        if word not in title.upper():
            out.append((_io.MATERIALS, f"materials.{i}.evidence_kind",
                        f"{m.evidence_kind} but the document's title is {title!r}; a "
                        f"product reads what a document is from its title ({word})"))
    return out
