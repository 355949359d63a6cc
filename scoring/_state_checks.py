"""State checks: the end state against ``expected_end_state``, and the assertions.

Dotted paths address nested fields (``triage.class``). A ``vary`` entry matches a field when
it equals the path, is a prefix of it (``triage`` covers ``triage.class``), or matches it as a
glob (``*.ts``, ``items.*.note``).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping

from claims_corpus.formats import Assertion, ExpectedDocument, ExpectedEndState
from claims_records import (
    ComponentResult,
    ComponentStatus,
    HumanVerdicts,
    JsonValue,
    StateDump,
)

from ._claim_checks import component
from ._journey_checks import customer_messages
from ._record import TrialRecord

_MISSING = object()  # what get_path returns for a path the document does not have
Documents = dict[str, dict[str, dict[str, JsonValue]]]  # collection -> id -> document
# In a text assertion's pattern: the product's claim-number pattern (from the profile).
CLAIM_NUMBER_PLACEHOLDER = "{claim_number}"

# Why state components are not_implemented for a product whose state is not read (one that
# stores nothing, or whose stores the harness cannot reach): shown in every sheet.
STATE_NOT_READ = ("the product's state is not read (profile state.source = 'none'): only what "
                  "its screens show is scored")


def flatten(doc: Mapping[str, JsonValue], prefix: str = "") -> dict[str, JsonValue]:
    out: dict[str, JsonValue] = {}
    for key, value in doc.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            out.update(flatten(value, path + "."))
        else:
            out[path] = value
    return out


def get_path(doc: Mapping[str, JsonValue], path: str) -> object:
    """The value at a dotted path (list items by index), or ``_MISSING``."""
    cur: object = doc
    for part in path.split("."):
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return _MISSING
    return cur


def varies(path: str, patterns: list[str]) -> bool:
    return any(path == p or path.startswith(p + ".") or fnmatch.fnmatchcase(path, p)
               for p in patterns)


def matches(doc: Mapping[str, JsonValue], selector: Mapping[str, JsonValue]) -> bool:
    return all(get_path(doc, k) == v for k, v in selector.items())


def changed_fields(before: Mapping[str, JsonValue], after: Mapping[str, JsonValue]
                   ) -> list[str]:
    fb, fa = flatten(before), flatten(after)
    return sorted(k for k in set(fb) | set(fa) if fb.get(k, _MISSING) != fa.get(k, _MISSING))


def _field_problems(doc: Mapping[str, JsonValue], fields: Mapping[str, JsonValue]
                    ) -> list[str]:
    out = []
    for path, want in fields.items():
        got = get_path(doc, path)
        if got != want:
            out.append(f"{path}={'missing' if got is _MISSING else repr(got)}, "
                       f"expected {want!r}")
    return out


def _covered(path: str, fields: Mapping[str, JsonValue]) -> bool:
    """``path`` is one of ``fields`` or lies inside one (``amount.currency`` in ``amount``)."""
    return any(path == k or path.startswith(k + ".") for k in fields)


def _document_problems(doc: Mapping[str, JsonValue], want: Mapping[str, JsonValue],
                       vary: list[str]) -> list[str]:
    """The whole document against the expected one: every non-varying field equal, and no
    non-varying field beyond it."""
    got, expected = flatten(doc), flatten(want)
    out = []
    for path in sorted(set(got) | set(expected)):
        if varies(path, vary):
            continue
        if path not in got:
            out.append(f"{path} missing, expected {expected[path]!r}")
        elif path not in expected:
            out.append(f"{path}={got[path]!r} not expected")
        elif got[path] != expected[path]:
            out.append(f"{path}={got[path]!r}, expected {expected[path]!r}")
    return out


def _check_document(ed: ExpectedDocument, before: Documents, after: Documents,
                    accounted: set[tuple[str, str]]) -> list[str]:
    b_coll, a_coll = before.get(ed.collection, {}), after.get(ed.collection, {})
    label = f"{ed.collection}/{ed.id}" if ed.id else f"{ed.collection} matching {ed.match}"
    if ed.id is not None:
        candidates = [ed.id] if ed.id in a_coll or ed.id in b_coll else []
    else:
        assert ed.match is not None
        pool = b_coll if ed.change == "removed" else a_coll
        candidates = sorted(i for i, d in pool.items() if matches(d, ed.match))
    if ed.change == "added":
        candidates = [i for i in candidates if i in a_coll and i not in b_coll]
    elif ed.change == "removed":
        candidates = [i for i in candidates if i in b_coll and i not in a_coll]
    else:
        candidates = [i for i in candidates if i in a_coll and i in b_coll]
    if not candidates:
        return [f"{label}: expected {ed.change}, no such document"]
    best: list[str] | None = None
    for doc_id in candidates:
        problems: list[str] = []
        if ed.change != "removed":
            problems += _field_problems(a_coll[doc_id], ed.fields)
        if ed.document is not None:
            problems += _document_problems(a_coll[doc_id], ed.document, ed.vary)
        if ed.change in ("changed", "unchanged"):
            diff = [f for f in changed_fields(b_coll[doc_id], a_coll[doc_id])
                    if not varies(f, ed.vary)]
            if ed.change == "unchanged" and diff:
                problems.append(f"changed {', '.join(diff)}, expected unchanged")
            if ed.change == "changed":
                extra = [f for f in diff if not _covered(f, ed.fields)
                         and (ed.document is None or f not in flatten(ed.document))]
                if not diff:
                    problems.append("unchanged, expected changed")
                elif extra:
                    problems.append(f"unexpected change of {', '.join(extra)}")
        if not problems:
            accounted.add((ed.collection, doc_id))
            return []
        if best is None:
            best = problems
    accounted.add((ed.collection, candidates[0]))
    return [f"{label}: {p}" for p in best or []]


def check_state(before: StateDump | None, after: StateDump | None,
                expected: ExpectedEndState, readable: bool = True) -> ComponentResult:
    if not readable:
        return component("state", "not_implemented", STATE_NOT_READ)
    if before is None or after is None:
        missing = "state-before.json" if before is None else "state-after.json"
        return component("state", "fail", f"no {missing} recorded", ["state_mismatch"])
    accounted: set[tuple[str, str]] = set()
    mismatches: list[str] = []
    for ed in expected.documents:
        mismatches += _check_document(ed, before.collections, after.collections, accounted)
    unexpected: list[str] = []
    for coll in sorted(set(before.collections) | set(after.collections)):
        if coll in expected.allow_other_changes_in:
            continue
        b, a = before.collections.get(coll, {}), after.collections.get(coll, {})
        for doc_id in sorted(set(b) | set(a)):
            if (coll, doc_id) in accounted or b.get(doc_id) == a.get(doc_id):
                continue
            what = "added" if doc_id not in b else "removed" if doc_id not in a else "changed"
            unexpected.append(f"{coll}/{doc_id} {what}")
    objects = sorted(k for k in set(before.objects) | set(after.objects)
                     if before.objects.get(k) != after.objects.get(k))
    details: dict[str, JsonValue] = {"mismatches": list(mismatches),
                                     "unexpected": list(unexpected),
                                     "object_changes": list(objects)}
    modes = (["state_mismatch"] if mismatches else []) + (
        ["unexpected_change"] if unexpected else [])
    if modes:
        parts = mismatches + [f"unexpected change outside allowed collections: {u}"
                              for u in unexpected[:5]]
        return component("state", "fail", "; ".join(parts), modes, **details)
    return component("state", "pass", f"{len(expected.documents)} expected document(s) as "
                     "expected; no change outside the allowed collections", **details)


def agent_replies(rec: TrialRecord) -> list[str]:
    out: list[str] = []
    for ev in rec.events:
        reply = ev.screen.latest_reply if ev.screen is not None else ""
        if reply.strip() and (not out or out[-1] != reply):
            out.append(reply)
    return out


def _state_assertion(a: Assertion, after: StateDump | None) -> tuple[bool, str]:
    assert a.state is not None
    if after is None:
        return False, "no state-after.json"
    docs = after.collections.get(a.state.collection, {})
    n = sum(1 for d in docs.values() if matches(d, a.state.match))
    ok = n == a.state.count if a.state.count is not None else n >= 1
    want = f"exactly {a.state.count}" if a.state.count is not None else "at least 1"
    return ok, f"{n} {a.state.collection} document(s) match, expected {want}"


def text_pattern(pattern: str, claim_number_pattern: str | None) -> str | None:
    """The assertion's regex with ``{claim_number}`` replaced by the product's own claim-number
    pattern (recorded in run.json from the profile); None when the run recorded none."""
    if CLAIM_NUMBER_PLACEHOLDER not in pattern:
        return pattern
    if not claim_number_pattern:
        return None
    return pattern.replace(CLAIM_NUMBER_PLACEHOLDER, f"(?:{claim_number_pattern})")


def _text_assertion(a: Assertion, rec: TrialRecord) -> tuple[bool, str]:
    assert a.text is not None
    pattern = text_pattern(a.text.pattern, rec.claim_number_pattern)
    if pattern is None:
        return False, (f"/{a.text.pattern}/ names the product's claim number, but run.json "
                       "records no claim-number pattern")
    texts = agent_replies(rec) if a.text.where == "agent_replies" else customer_messages(rec)
    found = any(re.search(pattern, t, re.IGNORECASE) for t in texts)
    ok = found if a.text.expect == "present" else not found
    return ok, (f"/{a.text.pattern}/ {'found' if found else 'not found'} in "
                f"{len(texts)} {a.text.where.replace('_', ' ')}, expected {a.text.expect}")


def check_assertions(rec: TrialRecord, kind: str, assertions: list[Assertion],
                     human: HumanVerdicts | None) -> ComponentResult:
    """The oracle's assertions judged by ``kind`` (state, text or human), as one component."""
    name = f"assertions_{kind}"
    if kind == "state" and not rec.state_readable:
        return component(name, "not_implemented", STATE_NOT_READ)
    items: list[dict[str, str]] = []
    for a in (a for a in assertions if a.judge == kind):
        if kind == "state":
            ok, why = _state_assertion(a, rec.state_after)
            status: ComponentStatus = "pass" if ok else "fail"
        elif kind == "text":
            ok, why = _text_assertion(a, rec)
            status = "pass" if ok else "fail"
        else:
            v = human.verdicts.get(a.id) if human is not None else None
            status = v.verdict if v is not None else "queued"
            why = (f"{v.verdict} by {v.reviewer}" + (f": {v.note}" if v.note else "")
                   if v is not None else "waiting for a reviewer")
        items.append({"id": a.id, "description": a.description, "status": status,
                      "why": why})
    failed = [i for i in items if i["status"] == "fail"]
    queued = [i for i in items if i["status"] == "queued"]
    listed: JsonValue = [dict(i) for i in items]
    if failed:
        mode = "human_rejected" if kind == "human" else "assertion_failed"
        text = "; ".join(f"{i['id']}: {i['why']}" for i in failed)
        return component(name, "fail", text, [mode], assertions=listed)
    if queued:
        return component(name, "queued", f"{len(queued)} of {len(items)} assertion(s) "
                         "waiting for a reviewer", assertions=listed)
    return component(name, "pass", f"{len(items)} assertion(s) hold: "
                     + ", ".join(i["id"] for i in items), assertions=listed)
