"""The conversation with one customer, apart from any screen: driven by text turns and
uploads, it asks for what the claim rules require (per line, one question at a time), shows a
summary to confirm, stores the claim, gives its number and tells the customer the decision.

Heron Mutual keeps one conversation per process (see ``_shared``); this class is the whole
of it, so it is tested without a browser.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from dataclasses import dataclass, field

from . import _parsing as P
from . import _wording as W
from ._answers import Detail, read_answer, read_story
from ._documents import Reading, read_pdf
from ._money import Money
from ._rules import materials_needed, needed_facts
from ._store import PolicyRecord, Store, StoredFile
from ._submit import submit
from ._summary import corrections, summary_lines, summary_text

_DATES = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?[A-Za-z]+\.?,?\s+\d{4}\b")
# Details that may be read from any later message (never the incident type or an amount).
_ALWAYS_READ = ("policy_number", "incident_date", "incident_time", "vehicle_registration",
                "police_reference")


@dataclass
class Message:
    """One message on screen."""

    role: str  # "assistant" | "customer"
    text: str
    file: str | None = None
    buttons: list[str] = field(default_factory=list)


@dataclass
class Upload:
    stored: StoredFile
    kind: str  # photo | repair_quote | receipt | invoice | police_report | other_document
    reading: Reading | None


class Conversation:
    """One claim conversation. Every customer turn gets exactly one reply."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.lock = threading.RLock()
        self.messages: list[Message] = [Message("assistant", W.reply("greeting"))]
        self.open: tuple[str, str] = ("story", "")
        self.line: str | None = None
        self.story = ""  # the opening message, when it tells one incident
        self.story_read = ""  # the part of the opening message read for details
        self.pending_money: Money | None = None  # an amount the opening message named
        self.policy: PolicyRecord | None = None
        self.policy_tries = 0
        self.details: dict[str, Detail] = {}
        self.files: dict[str, str] = {}  # kind -> asked | uploaded | not_provided | to_follow
        self.retried: set[str] = set()
        self.chased: set[str] = set()
        self.uploads: list[Upload] = []
        self.follow_ups: list[int] = []
        self.concerns: list[str] = []
        self.claim_number: str | None = None
        self._lead: list[str] = []

    # ------------------------------------------------------------------ turns
    def say(self, text: str) -> Message:
        """The customer sends ``text``; the assistant's reply."""
        with self.lock:
            text = text.strip()
            self.messages.append(Message("customer", text))
            self._on_text(text)
            return self.messages[-1]

    def upload(self, file_name: str, data: bytes, content_type: str) -> Message:
        """The customer uploads a file; the assistant's reply."""
        with self.lock:
            self.messages.append(Message("customer", f"Uploaded {file_name}", file=file_name))
            if self.claim_number:
                self.reply(W.reply("file_after_submitted", claim_number=self.claim_number))
                return self.messages[-1]
            pdf = content_type == "application/pdf" or file_name.lower().endswith(".pdf")
            reading = read_pdf(data) if pdf else None
            kind = reading.kind if reading else "photo"
            stored = self.store.save_upload(file_name, data, content_type, _columns(kind, reading))
            self.uploads.append(Upload(stored, kind, reading))
            if self.files.get(kind) != "uploaded":
                self.files[kind] = "uploaded"
            self._lead.append(_acknowledge(file_name, reading))
            if reading is not None and reading.instructions:
                self.concerns.append("instructions_in_document")
                self._lead.append(W.reply("instructions_ignored"))
            self._next(repeat=self.open[0] in ("fact", "line", "summary"))
            return self.messages[-1]

    @property
    def latest(self) -> Message:
        return self.messages[-1]

    # ------------------------------------------------------------------ reading a turn
    def _on_text(self, text: str) -> None:
        kind, key = self.open
        if kind == "done":
            self.reply(W.reply("after_submitted", claim_number=self.claim_number))
            return
        if kind == "story":
            self._on_story(text)
            self._next()
            return
        if W.hears("authority", text):
            self.concerns.append("authority_claimed")
            self._lead.append(W.reply("authority_noted"))
        if W.hears("person", text):
            self.follow_ups.append(self.store.add_follow_up("callback", text))
            self._lead.append(W.reply("person_noted"))
            self._next(repeat=True)
            return
        if text.endswith("?"):
            self.follow_ups.append(self.store.add_follow_up("question", text))
            self._lead.append(W.reply("question_noted"))
            self._next(repeat=True)
            return
        if kind == "summary":
            self._on_summary(text)
            return
        self._read_along(text, skip=key if kind == "fact" else "")
        if kind == "line" and not self._take_line(text):
            return
        if kind == "fact" and not self._take_fact(key, text):
            return
        if kind == "file":
            self._take_file_reply(key, text)
        self._next()

    def _on_story(self, text: str) -> None:
        """The opening message: what it says reliably, and the story itself."""
        dates = {P.parse_date(d) for d in _DATES.findall(text)} - {None}
        first = text
        if len(dates) >= 2:  # two incidents: one claim now, the other noted for a handler
            second = max(m.start() for m in _DATES.finditer(text)
                         if P.parse_date(m.group(0)) != P.parse_date(text))
            cut = max(text.rfind(". ", 0, second), text.rfind("; ", 0, second))
            first = text[:cut] if cut > 0 else text
            self.follow_ups.append(self.store.add_follow_up("second_incident", text))
            self._lead.append(W.reply("two_incidents"))
        else:
            self.story = text
        if W.hears("authority", text):
            self.concerns.append("authority_claimed")
            self._lead.append(W.reply("authority_noted"))
        self.story_read = first
        found = read_story(first, None)
        found.pop("items_value", None)
        if "policy_number" in found and W.hears("others_policy", first):
            del found["policy_number"]
            self._lead.append(W.reply("other_policy"))
        for key, value in found.items():
            if key != "incident_type":
                self.details[key] = Detail(value, "suggested")
        money = read_story(first, None).get("items_value")
        self.pending_money = money if isinstance(money, Money) else None
        if "policy_number" in self.details and not self._look_up(str(self._value("policy_number"))):
            del self.details["policy_number"]
        if self.story and len(re.findall(r"\w+", self.story)) >= 8:
            self.details["incident_description"] = Detail(self.story, "suggested")

    def _read_along(self, text: str, skip: str) -> None:
        """Details given along the way, never overwriting one already noted."""
        for key, value in read_story(text, self.line).items():
            if key in _ALWAYS_READ and key != skip and key not in self.details:
                if key == "police_reference" and not P.parse_reference(text):
                    continue
                if key == "policy_number":
                    continue  # a policy number is only taken when asked for
                self.details[key] = Detail(value, "suggested")

    def _look_up(self, number: str | None) -> bool:
        policy = self.store.find_policy(number) if number else None
        if policy is None:
            self.policy_tries += 1
            return False
        self.policy = policy
        self.line = policy.line
        self._lead.append(W.reply("policy_found", line=W.load("replies")["lines"][policy.line]))
        self._line_known()
        return True

    def _line_known(self) -> None:
        """Now that the line is known: the incident type (and value) the story gave."""
        incident = P.parse_incident_type(self.story_read, self.line)
        if incident and "incident_type" not in self.details:
            self.details["incident_type"] = Detail(incident, "suggested")
        money = self.pending_money
        if self.line == "contents" and money is not None and "items_value" not in self.details:
            self.details["items_value"] = Detail(money, "suggested")

    def _take_line(self, text: str) -> bool:
        chosen = next((line for line in ("motor", "home", "contents")
                       if text.lower() == W.button(line).lower()), None) or P.guess_line(text)
        if chosen is None and "line" not in self.retried:
            self.retried.add("line")
            self.reply(W.reply("line_clarify"), buttons=self._line_buttons())
            return False
        self.line = chosen or "motor"
        self._line_known()
        return True

    def _take_fact(self, key: str, text: str) -> bool:
        """Note the answer to ``key``; False when the reply was already sent."""
        value = read_answer(key, text, self.line)
        if value is None:
            if P.says_later(text):
                self.details[key] = Detail(None, "to_follow")
                self._lead.append(W.reply("noted_later"))
            elif P.says_dont_know(text) or key in self.retried or (
                    key == "police_reference" and P.parse_yes_no(text) == "no"):
                self.details[key] = Detail(None, "not_known")
                self._lead.append(W.reply("noted_unknown"))
            else:
                self.retried.add(key)
                self._ask(key, clarify=True)
                return False
            return True
        if key == "policy_number" and W.hears("others_policy", text):
            self.reply(W.reply("other_policy") + " " + W.question("policy_number"))
            return False
        if key == "policy_number" and not self._look_up(str(value)):
            if self.policy_tries < 2:
                self.reply(W.reply("policy_not_found", policy=value))
                return False
            self._lead.append(W.reply("policy_not_found_again"))
        self.details[key] = Detail(value, "suggested")
        return True

    def _take_file_reply(self, kind: str, text: str) -> None:
        if P.says_later(text):
            self.files[kind] = "to_follow"
            self._lead.append(W.reply("file_later"))
        elif W.hears("not_have", text) or P.says_dont_know(text) or kind in self.retried:
            self.files[kind] = "not_provided"
            self._lead.append(W.reply("file_not_provided"))
        else:
            self.retried.add(kind)
            self.reply(W.reply("file_clarify", name=W.material(kind, "name")))
            self.open = ("file", kind)

    def _on_summary(self, text: str) -> None:
        keys = self.summary_keys()
        changed = corrections(text, keys, self.details, self.line)
        if changed:
            self.details.update(changed)
            if "policy_number" in changed and changed["policy_number"].value is not None:
                self._look_up(str(changed["policy_number"].value))
            self._lead.append(W.reply("changed"))
            self.open = ("edited", "")
            self._next()
        elif W.hears("wrong", text):
            self.reply(W.reply("which_detail"), buttons=[W.button("confirm")])
        elif W.hears("confirm", text):
            self.claim_number = submit(self)
            self.open = ("done", "")
        else:
            self._lead.append(W.reply("not_understood"))
            self._show_summary(again=True)

    # ------------------------------------------------------------------ what next
    def _next(self, repeat: bool = False) -> None:
        kind, key = self.open
        if repeat and kind == "fact":
            self._ask(key)
            return
        if repeat and kind == "line":
            self.reply(W.reply("line_question"), buttons=self._line_buttons())
            return
        if repeat and kind == "summary":
            self._show_summary(again=True)
            return
        if "policy_number" not in self.details:
            self._ask("policy_number")
            return
        if self.line is None:
            self.open = ("line", "")
            self.reply(W.reply("line_question"), buttons=self._line_buttons())
            return
        for fact in self.needed():
            if fact not in self.details:
                self._ask(fact)
                return
        for material in self.materials():
            if self.files.get(material) in (None, "asked"):
                self.files[material] = "asked"
                self.open = ("file", material)
                self.reply(W.material(material, "ask"))
                return
        for fact in self.needed():
            if self.details[fact].state == "to_follow" and fact not in self.chased:
                self.chased.add(fact)
                self.open = ("fact", fact)
                self.reply(W.reply("fact_chase", question=self._question(fact)))
                return
        for material in self.materials():
            if self.files.get(material) == "to_follow" and material not in self.chased:
                self.chased.add(material)
                self.open = ("file", material)
                self.reply(W.reply("file_chase", name=W.material(material, "name")))
                return
        self._show_summary(again=kind == "edited")

    def needed(self) -> list[str]:
        incident = self._value("incident_type")
        return needed_facts(self.line, incident if isinstance(incident, str) else None)

    def materials(self) -> list[str]:
        incident = self._value("incident_type")
        return materials_needed(self.line, incident if isinstance(incident, str) else None)

    def summary_keys(self) -> list[str]:
        keys = self.needed()
        if "police_reference" in self.details and "police_reference" not in keys:
            keys.append("police_reference")
        return keys

    def _show_summary(self, again: bool = False) -> None:
        self.open = ("summary", "")
        files = [u.stored.file_name for u in self.uploads]
        lines = summary_lines(self.summary_keys(), self.details, self.line, files)
        intro = W.reply("summary_again" if again else "summary")
        self.reply(summary_text(intro, lines), buttons=[W.button("confirm")])

    def _question(self, key: str, clarify: bool = False) -> str:
        table = W.load("replies")["clarify" if clarify else "questions"]
        text = str(table.get(key) or W.question(key))
        if key == "incident_type" and self.line:
            names = [W.choice(self.line, c).lower() for c in
                     W.load("replies")["incident_types"][self.line]]
            text = text.format(choices=", ".join(names[:-1]) + " or " + names[-1])
        return text

    def _ask(self, key: str, clarify: bool = False) -> None:
        self.open = ("fact", key)
        buttons: list[str] = []
        if key in ("vehicle_driveable", "third_party_involved", "injuries",
                   "property_habitable"):
            buttons = [W.button("yes"), W.button("no"), W.button("dont_know")]
        elif key == "incident_type" and self.line:
            buttons = list(W.load("replies")["incident_types"][self.line].values())
        self.reply(self._question(key, clarify), buttons=buttons)

    def _line_buttons(self) -> list[str]:
        return [W.button("motor"), W.button("home"), W.button("contents")]

    def _value(self, key: str) -> object:
        detail = self.details.get(key)
        return detail.value if detail else None

    def reply(self, text: str, buttons: list[str] | None = None) -> None:
        """One assistant message: what was noted along the way, then ``text``."""
        parts = [*self._lead, text]
        self._lead = []
        self.messages.append(Message("assistant", " ".join(p for p in parts if p),
                                     buttons=buttons or []))


def _acknowledge(file_name: str, reading: Reading | None) -> str:
    if reading is None:
        return W.reply("got_photo", file=file_name)
    docs = W.load("replies")["documents"]
    if not reading.readable:
        return W.reply("got_document", file=file_name, what=docs["unreadable"])
    kind = docs.get(reading.kind, docs["other_document"])
    if reading.date:
        when = dt.date.fromisoformat(reading.date)
        what = str(docs["dated"]).format(kind=kind, date=f"{when.day} {when:%B %Y}")
    else:
        what = str(docs["undated"]).format(kind=kind)
    if reading.total is not None:
        what += ", " + str(docs["total"]).format(total=reading.total.shown())
    if reading.missing_pages:
        what += "; " + str(docs["pages_missing"]).format(
            missing=", ".join(map(str, reading.missing_pages)), total=reading.pages_total)
    return W.reply("got_document", file=file_name, what=what)


def _columns(kind: str, reading: Reading | None) -> dict[str, object]:
    """The ``uploads`` columns a reading fills."""
    if reading is None:
        return {"kind": kind}
    return {"kind": kind, "document_date": reading.date, "pages_total": reading.pages_total,
            "pages_missing": ",".join(map(str, reading.missing_pages)) or None,
            "total_amount": reading.total.amount if reading.total else None,
            "total_currency": reading.total.currency if reading.total else None,
            "instructions_found": reading.instructions}
