"""The Kestrel assistant: a rules-following conversation engine.

It reads what it reliably can from every message, asks one question at a time for each
missing detail (in the order of the claim rules), never asks again for a detail it has (one
clarifying re-ask for an answer it cannot read, then the detail is noted as not known), asks
for the files the rules call for, puts a customer's own questions on the follow-up list and
goes on, and offers "Review details" when it has everything. Only "Create claim" on the
review card creates the claim (see ``_lodge``).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from claims_reference_app import rules

from . import _wording as W
from ._conversation import Conversation
from ._lodge import lodge
from ._schema import ANSWER_KEYS, LINES_BY_PRODUCT
from ._store import Store, utc_now

REVIEW, CREATE, EDIT = "review", "create", "edit"
_REFERENCE = re.compile(r"\b[A-Z]{1,6}[-/]?\d[A-Z0-9/-]{3,}\b|\b\d{2,}[-/]\d[A-Z0-9/-]{2,}\b", re.I)


def police_reference(text: str, after_lead: bool = False) -> str | None:
    """A crime reference in ``text``; with ``after_lead`` only one right after words like
    'crime reference' (so free text yields no false reference)."""
    if after_lead:
        for lead in W.text()["listen"]["police_lead"]:
            at = text.lower().find(lead)
            if at >= 0:
                tail = re.sub(r"^\W*(?:number|no\.?)?\W*(?:is|was|:)?\s*", "",
                              text[at + len(lead):], flags=re.I)
                m = _REFERENCE.match(tail)
                if m and any(c.isdigit() for c in m.group(0)):
                    return m.group(0).upper().rstrip(".-/")
        return None
    m = _REFERENCE.search(text)
    return m.group(0).upper().rstrip(".-/") if m else None


class Assistant:
    """Answers one conversation; every method leaves exactly one new bot turn."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ events
    def greet(self, c: Conversation) -> None:
        c.say(W.reply("greeting"))

    def on_text(self, c: Conversation, said: str) -> None:
        if c.lodged:
            c.say(W.reply("after_lodged", ref=c.doc["caseRef"]))
            return
        first = c.customer_turns() == 1
        kind = c.open.get("kind")
        if said.endswith("?") and not self._answers_open(c, said):
            self._harvest(c, said, first)
            c.follow_up(said)
            lead = W.reply("question_noted_first" if first else "question_noted")
            self._next(c, lead, repeat=True)
            return
        if kind in ("ready", "review"):
            self._take_correction(c, said)
            return
        if kind == "edit_pick":
            self._take_edit_pick(c, said)
            return
        self._harvest(c, said, first)
        if kind == "fact" and not self._take_answer(c, c.open["key"], said):
            return
        if kind == "line" and not self._take_line(c, said):
            return
        if kind == "file":
            self._take_file_reply(c, c.open["key"], said)
        self._next(c)

    def on_upload(self, c: Conversation, upload: dict[str, Any], kind: str) -> None:
        what = self._describe(upload, kind)
        if c.lodged:
            c.say(W.reply("got_file_after", file=upload["fileName"], ref=c.doc["caseRef"]))
            return
        self._next(c, what, repeat=c.open.get("kind") in ("fact", "line", "ready", "review"))

    def on_review(self, c: Conversation) -> bool:
        if c.lodged or c.open.get("kind") not in ("ready", "review"):
            return False
        c.doc["stage"] = "reviewing"
        c.open = {"kind": "review"}
        c.event("show_review")
        c.say(W.reply("review"), actions=[CREATE, EDIT])
        return True

    def on_edit(self, c: Conversation) -> bool:
        if c.lodged or c.open.get("kind") != "review":
            return False
        c.doc["stage"] = "collecting"
        c.open = {"kind": "edit_pick"}
        labels = [W.label(k) for k in c.answered_keys()]
        c.say(W.reply("edit_which"), quick=labels)
        return True

    def on_create(self, c: Conversation) -> bool:
        if c.lodged or c.open.get("kind") != "review":
            return False
        ref = lodge(self.store, c)
        c.say(W.reply("lodged", ref=ref))
        return True

    # ------------------------------------------------------------------ reading messages
    def _answers_open(self, c: Conversation, said: str) -> bool:
        if c.open.get("kind") != "fact" or rules.FACT_KINDS[c.open["key"]] == "text":
            return False
        return rules.parse_fact(c.open["key"], said, c.line, W.type_labels(c.line)) is not None

    def _harvest(self, c: Conversation, said: str, first: bool, overwrite: bool = False) -> bool:
        """Note what can be read reliably from free text; True when something changed."""
        found: dict[str, Any] = dict(rules.extract_facts(said))
        ref = police_reference(said, after_lead=True)
        if ref:
            found["police_reference"] = ref
        changed = False
        asked = c.open.get("key") if c.open.get("kind") == "fact" else None
        for key, value in found.items():
            if key == asked and not overwrite:
                continue  # the answer to the open question is read by _take_answer
            if c.line and key not in c.needed() and key != "police_reference":
                continue
            if c.has(key) and (not overwrite or c.value(key) == value):
                continue
            before = c.doc["answers"].get(ANSWER_KEYS[key])
            c.put(key, value, "story" if first else "message")
            if key == "policy_number" and not self._look_up(c, value):
                c.drop(key)  # a number that is not found replaces nothing
                if before:
                    c.doc["answers"][ANSWER_KEYS[key]] = before
                continue
            changed = True
        if first and not c.has("incident_description") and len(said) > 15:
            c.put("incident_description", said[:400], "story")
        return changed

    def _look_up(self, c: Conversation, policy: str) -> bool:
        c.doc["lookups"] += 1
        cover = self.store.find_cover(policy)
        c.event("look_up_cover", policy=policy, found=cover is not None)
        if cover is None:
            c.doc["coverStatus"] = "not_found"
            return False
        product = cover.get("product")
        line = LINES_BY_PRODUCT.get(product) if isinstance(product, str) else None
        c.doc["coverStatus"] = "found"
        c.doc["cover"] = {"id": cover["_id"], "holderId": cover.get("holderId"),
                          "inception": str(cover.get("inceptionDate") or "")[:10] or None,
                          "product": cover.get("product")}
        if line:
            c.doc["line"] = line
            c.notice = W.reply("cover_found", product=W.text()["product_names"][line])
        return True

    def _take_answer(self, c: Conversation, key: str, said: str) -> bool:
        """Note the answer to question ``key``; False when a re-ask was sent instead."""
        dont_know = W.hears("dont_know", said) or rules.says_dont_know(said)
        rest = W.without("dont_know", said) if dont_know else said
        kind = rules.FACT_KINDS[key]
        value: Any = None
        if key == "police_reference":
            value = police_reference(rest)
            if value is None and rules.parse_yes_no(rest) is False:
                dont_know = True
        elif kind == "text":
            if not dont_know or len(W.content_words(rest)) >= 3:
                value = rules.parse_fact(key, said, c.line)
        else:  # "No, ... I don't know who took it" still answers the question
            value = rules.parse_fact(key, rest, c.line, W.type_labels(c.line))
        if value is None and not dont_know and key not in c.doc["retried"]:
            c.doc["retried"].append(key)
            self._ask(c, key, W.clarify(key))
            return False
        editing = c.open.get("editing")
        looked_up = key == "policy_number" and value is not None
        if looked_up and not self._look_up(c, value) and c.doc["lookups"] < 2:
            c.say(W.reply("cover_not_found", policy=value))
            return False
        c.put(key, value, "answer")
        if editing:
            c.notice = W.reply("changed")
        elif value is None:
            c.notice = W.reply("noted_unknown")
        return True

    def _take_line(self, c: Conversation, said: str) -> bool:
        for line in ("motor", "home", "contents"):
            if said.strip().lower() == W.quick(f"line_{line}").lower() or W.hears(
                    f"lines.{line}", said):
                c.doc["line"] = line
                c.event("set_line", line=line)
                return True
        if "line" not in c.doc["retried"]:
            c.doc["retried"].append("line")
            c.say(W.reply("line_clarify"), quick=self._line_quick())
            return False
        c.doc["line"] = "motor"
        return True

    def _take_file_reply(self, c: Conversation, kind: str, said: str) -> None:
        if W.hears("later", said):
            c.set_file(kind, "to_follow")
            c.notice = W.reply("file_later")
        elif W.hears("not_have", said) or W.hears("dont_know", said):
            c.set_file(kind, "not_provided")
            c.notice = W.reply("file_not_provided")
        elif f"file:{kind}" not in c.doc["retried"]:
            c.doc["retried"].append(f"file:{kind}")
            c.doc["hold"] = kind
        else:
            c.set_file(kind, "not_provided")
            c.notice = W.reply("file_not_provided")

    def _take_correction(self, c: Conversation, said: str) -> None:
        """After "Review details" is offered: a correction (it must say so) or a note."""
        in_review = c.open["kind"] == "review"
        again = (W.reply("review") if in_review else W.reply("use_review"))
        buttons = [CREATE, EDIT] if in_review else [REVIEW]
        if not W.hears("correction", said):
            c.doc["notes"].append({"text": said, "at": utc_now()})
            c.event("add_note", text=said)
            c.say(W.reply("noted"), again, actions=buttons)
        elif self._harvest(c, said, False, overwrite=True):
            lead = W.reply("review_updated") if in_review else W.reply("changed")
            c.say(lead, again, actions=buttons)
        else:
            c.say(W.reply("not_changed"), again, actions=buttons)

    def _take_edit_pick(self, c: Conversation, said: str) -> None:
        wanted = said.strip().lower()
        for key in c.answered_keys():
            if W.label(key).lower() == wanted:
                c.doc["retried"] = [k for k in c.doc["retried"] if k != key]
                c.open = {"kind": "fact", "key": key, "editing": True}
                c.event("edit_answer", key=key)
                self._ask(c, key)
                return
        c.open = {"kind": "ready"}
        c.say(W.reply("edit_nothing"), W.reply("use_review"), actions=[REVIEW])

    def _describe(self, upload: dict[str, Any], kind: str) -> str:
        name = upload["fileName"]
        reading = upload.get("reading")
        if reading is None:
            return W.reply("got_photo", file=name)
        noun = W.document_text(f"kind_{kind}")
        if not reading.get("readable"):
            what = W.document_text("unreadable")
        elif reading.get("printedDate"):
            when = date.fromisoformat(reading["printedDate"]).strftime("%-d %B %Y")
            what = W.document_text("dated", kind=noun, date=when)
        else:
            what = W.document_text("undated", kind=noun)
        missing = reading.get("pagesMissing") or []
        if missing:
            what += "; " + W.document_text(
                "pages_missing", missing=", ".join(map(str, missing)),
                total=reading.get("pagesTotal"))
        return W.reply("got_document", file=name, what=what)

    # ------------------------------------------------------------------ what next
    def _line_quick(self) -> list[str]:
        return [W.quick("line_motor"), W.quick("line_home"), W.quick("line_contents")]

    def _ask(self, c: Conversation, key: str, wording: str | None = None,
             lead: str | None = None) -> None:
        editing = c.open.get("editing") and c.open.get("key") == key
        c.open = {"kind": "fact", "key": key, **({"editing": True} if editing else {})}
        kind = rules.FACT_KINDS[key]
        quick: list[str] = []
        if kind == "yes_no":
            quick = [W.quick("yes"), W.quick("no"), W.quick("dont_know")]
        elif kind == "choice":
            quick = list(W.type_labels(c.line).values())
        c.event("ask", key=key)
        c.say(lead, wording or W.question(key), quick=quick)

    def _ask_file(self, c: Conversation, kind: str, wording: str, lead: str | None,
                  status: str) -> None:
        c.set_file(kind, status)
        c.open = {"kind": "file", "key": kind}
        c.say(lead, wording)

    def _next(self, c: Conversation, lead: str | None = None, repeat: bool = False) -> None:
        doc = c.doc
        kind = c.open.get("kind")
        if repeat and kind == "fact":
            self._ask(c, c.open["key"], lead=lead)
            return
        if repeat and kind in ("ready", "review"):
            if kind == "review":
                c.say(lead, W.reply("review"), actions=[CREATE, EDIT])
            else:
                c.say(lead, W.reply("use_review"), actions=[REVIEW])
            return
        if repeat and kind == "line":
            c.say(lead, W.reply("line_clarify"), quick=self._line_quick())
            return
        hold = doc.pop("hold", None)
        if hold:
            name = W.file_text(hold, "name")
            c.say(lead, W.reply("file_clarify", name=name))
            return
        if doc["coverStatus"] == "not_found" and c.line is None and c.has("policy_number"):
            c.open = {"kind": "line"}
            c.say(lead, W.reply("line_question"), quick=self._line_quick())
            return
        for key in c.needed():
            if not c.has(key):
                self._ask(c, key, lead=lead)
                return
        files = rules.materials_needed(c.line, c.value("incident_type"))
        for kind_ in files:
            if c.file_status(kind_) in (None, "asked"):
                self._ask_file(c, kind_, W.file_text(kind_, "ask"), lead, "asked")
                return
        for kind_ in files:
            if c.file_status(kind_) == "to_follow" and kind_ not in doc["chased"]:
                doc["chased"].append(kind_)
                wording = W.reply("file_chase", name=W.file_text(kind_, "name"))
                self._ask_file(c, kind_, wording, lead, "to_follow")
                return
        c.open = {"kind": "ready"}
        c.say(lead, W.reply("ready"), actions=[REVIEW])
