"""Behaviours of the stand-in customer model: one that keeps every rule, and one for each
misbehaviour the fidelity audit and the client must catch.

The well-behaved stand-in reads nothing but the prompt it is sent — the facts and files in
the system message, and the screen section of the turn — and answers the way the rules
say: the fact a question asks about, in the fact's own words (or, when no fact answers the
buttons offered, the button its facts point to); a file when a file is asked for; the
confirm button on a summary; "don't know" otherwise; done when nothing is asked.
It is a plain word matcher, not a model: it proves the screen-only prompt holds enough to
play a journey, and gives the misbehaviours a sane customer to deviate from.

Each misbehaviour deviates once per trial (a trial is recognised by its system message) and
names the label the panel must report for it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset((
    "a", "an", "and", "are", "at", "be", "by", "can", "could", "did", "do", "does", "for",
    "from", "had", "has", "have", "how", "i", "in", "is", "it", "its", "me", "my", "of",
    "on", "or", "our", "please", "so", "that", "the", "their", "them", "there", "this",
    "to", "us", "was", "we", "were", "what", "which", "who", "will", "with", "would", "you",
    "your", "these", "those", "any", "if",
))
# Words a person reads as another: question words onto a fact's topic, answer buttons onto
# the words of an answer.
_CUES = {"when": ("date",), "describes": ("kind",), "type": ("kind",), "sort": ("kind",),
         "reg": ("registration",), "plate": ("registration",), "much": ("worth",),
         "value": ("worth",), "crime": ("police",), "theft": ("stolen", "burglary"),
         "accidental": ("accident",), "collision": ("crash", "drove", "hit")}
_FILE_WORDS = ("upload", "attach", "photo", "picture", "quote", "receipt", "invoice",
               "document", "file")
_SIGN_IN = "A sign-in window is open."


def _stem(word: str) -> str:
    for end in ("ing", "ed", "es", "s", "en"):
        if len(word) > 4 and word.endswith(end):
            return word[: -len(end)]
    return word


def _words(text: str) -> set[str]:
    out = set()
    for w in _WORD.findall(text.lower().replace("'s", "")):
        if w not in _STOP:
            out.add(_stem(w))
            out.update(_stem(c) for c in _CUES.get(w, ()))
    return out


def _section(text: str, heading: str) -> str:
    """The body under a '# heading' of a prompt, up to the next heading."""
    m = re.search(rf"^# {re.escape(heading)}\n(.*?)(?=^# |\Z)", text, re.S | re.M)
    return m.group(1).strip() if m else ""


def _bullets(text: str) -> list[str]:
    return [line[2:].strip() for line in text.splitlines() if line.startswith("- ")]


def _quoted(line: str) -> list[str]:
    return re.findall(r'"([^"]*)"', line)


@dataclass
class Prompt:
    """What a customer prompt says, read back from its text."""

    system: str
    facts: list[tuple[str, str]]  # (topic, say)
    dont_know: str
    reply: str
    cards: list[str]
    chips: list[str]
    buttons: list[str]
    have: list[tuple[str, str]]  # (file, label)
    later: list[str]
    sent: list[str]

    @classmethod
    def read(cls, body: dict[str, Any]) -> Prompt:
        messages = body.get("messages") or []
        system = messages[0]["content"] if messages else ""
        turn = messages[1]["content"] if len(messages) > 1 else ""
        facts = [(topic, say) for b in _bullets(_section(system, "What you know"))
                 if ": " in b for topic, say in [b.split(": ", 1)]]
        dont = re.search(r'in the spirit of: "(.*)"', system)
        screen = turn.split("<screen>", 1)[-1].split("</screen>", 1)[0]
        reply = screen.split("Latest reply from the assistant:\n", 1)[-1].split(
            "\n\nCards and windows", 1)[0].strip()
        needs = screen.split("Cards and windows asking you to act:\n", 1)[-1].split(
            "\n\nWhat you can do:", 1)[0]
        chips = buttons = []
        for line in screen.splitlines():
            if line.startswith("- Answer buttons under the reply:"):
                chips = _quoted(line)
            elif line.startswith("- Other buttons:"):
                buttons = _quoted(line)
        have = [(m.group(1), m.group(2)) for b in _bullets(_section(turn, "Files you have now"))
                if (m := re.match(r"(\S+) \((.*)\)$", b))]
        return cls(system=system, facts=facts, dont_know=dont.group(1) if dont else "",
                   reply="" if reply == "(none)" else reply, cards=_bullets(needs),
                   chips=chips, buttons=buttons, have=have,
                   later=_bullets(_section(turn, "Files you will only have later")),
                   sent=_bullets(_section(turn, "Files you have already sent")))

    def asks(self) -> bool:
        low = self.reply.lower()
        return "?" in low or "please" in low or bool(self.chips or self.cards)


def _act(kind: str, **fields: Any) -> str:
    return json.dumps({"kind": kind, **fields})


def _yes_no(chips: list[str], say: str) -> str | None:
    first = (_WORD.findall(say.lower()) or [""])[0]
    want = {"yes": "yes", "no": "no"}.get(first)
    return next((c for c in chips if c.strip().lower() == want), None)


def _file_answer(p: Prompt) -> str | None:
    low = p.reply.lower()
    if not any(w in low for w in _FILE_WORDS):
        return None
    asked = _words(p.reply)
    scored = sorted(((len(_words(label) & asked), f not in p.sent, f) for f, label in p.have),
                    reverse=True)
    if scored and scored[0][0] > 0:
        _, fresh, file = scored[0]
        return _act("upload", file=file) if fresh else _act(
            "say", text="I've already sent you that.")
    for item in p.later:
        label, _, said = item.partition(" - if asked now, you say: ")
        if _words(label) & asked and said:
            return _act("say", text=said.strip('"'))
    return None


def _chip(p: Prompt, ranked: list[str]) -> str | None:
    """The answer button that says what the best-matching fact says."""
    if {c.strip().lower() for c in p.chips} <= {"yes", "no", "i don't know", "not sure"}:
        return _yes_no(p.chips, ranked[0]) if ranked else None
    for say in ranked:
        chip = next((c for c in p.chips if _words(c) & _words(say)), None)
        if chip:
            return chip
    return _chip_from_story(p)


def _chip_from_story(p: Prompt) -> str | None:
    """No fact answers the buttons ("My car", "My home", "My belongings"): the one whose
    words the customer's own facts mention most often, if one clearly leads."""
    story = [_words(f"{topic} {say}") for topic, say in p.facts]
    scored = sorted(((sum(bool(_words(c) & s) for s in story), c) for c in p.chips),
                    reverse=True)
    if len(scored) < 2 or scored[0][0] == 0 or scored[1][0] == scored[0][0]:
        return None
    return scored[0][1]


def well_behaved(body: dict[str, Any]) -> str:
    """The answer a customer keeping every rule would give to this prompt."""
    p = Prompt.read(body)
    if _SIGN_IN in p.cards:
        return _act("sign_in")
    confirm = next((b for b in p.buttons if "confirm" in b.lower()), None)
    if confirm and ("confirm" in p.reply.lower() or "check" in p.reply.lower()):
        return _act("click", label=confirm)
    file_answer = _file_answer(p)
    if file_answer:
        return file_answer
    if not p.asks():
        return _act("done", reason="nothing is asked; the conversation is over")
    asked = _words(" ".join(s for s in re.split(r"(?<=[.?!])\s+", p.reply) if "?" in s)
                   or p.reply)
    ranked = [say for score, _, say in sorted(
        ((len(_words(topic) & asked), -i, say) for i, (topic, say) in enumerate(p.facts)),
        reverse=True) if score > 0]
    chip = _chip(p, ranked) if p.chips else None
    if chip:
        return _act("click", label=chip)
    if ranked:
        return _act("say", text=ranked[0])
    return _act("say", text=p.dont_know or "I don't know, sorry.")


@dataclass
class Deviation:
    """A misbehaviour: when it fires (once per trial), what it answers, what must catch it."""

    name: str
    label: str
    description: str
    fires: Callable[[Prompt, dict[str, Any]], bool]
    answer: Callable[[Prompt, dict[str, Any]], str | tuple[int, Any]]
    every_time: bool = False
    _fired: set[str] = field(default_factory=set)

    def __call__(self, body: dict[str, Any]) -> str | tuple[int, Any]:
        p = Prompt.read(body)
        sane = json.loads(well_behaved(body))
        trial = _section(p.system, "Who you are")  # one persona per trial
        if (self.every_time or trial not in self._fired) and self.fires(p, sane):
            self._fired.add(trial)
            return self.answer(p, sane)
        return json.dumps(sane)


def _says(p: Prompt, sane: dict[str, Any]) -> bool:
    return bool(sane["kind"] == "say")


def _with(extra: str) -> Callable[[Prompt, dict[str, Any]], str]:
    def answer(p: Prompt, sane: dict[str, Any]) -> str:
        text = sane["text"].rstrip()
        return _act("say", text=f"{text}{'' if text.endswith(('.', '!', '?')) else '.'} {extra}")
    return answer


def _other_file(p: Prompt, sane: dict[str, Any]) -> str:
    return _act("upload", file=next(f for f, _ in p.have if f not in p.sent))


DEVIATIONS: dict[str, Callable[[], Deviation]] = {
    "invents_a_date": lambda: Deviation(
        "invents_a_date", "invented", "adds a date the customer was never given",
        _says, _with("It all started on 3 February 2025.")),
    "volunteers_a_document": lambda: Deviation(
        "volunteers_a_document", "unrequested_upload",
        "uploads one of its files when a question, not a file, was asked",
        lambda p, sane: sane["kind"] in ("say", "click") and any(
            f not in p.sent for f, _ in p.have), _other_file),
    "hints": lambda: Deviation(
        "hints", "hinting", "tells the agent what it should ask",
        _says, _with("You should also ask me whether the police came.")),
    "leaves_its_role": lambda: Deviation(
        "leaves_its_role", "out_of_character", "talks about being a language model",
        _says, lambda p, sane: _act("say", text="As an AI language model, I can't say.")),
    "gives_up_early": lambda: Deviation(
        "gives_up_early", "premature_give_up", "ends while a question it can answer is open",
        lambda p, sane: sane["kind"] in ("say", "click") and p.asks(),
        lambda p, sane: _act("done", reason="I'll ring them instead.")),
    "malformed_output": lambda: Deviation(
        "malformed_output", "malformed_output", "answers in prose, never one JSON action",
        lambda p, sane: True, lambda p, sane: "Sure! I would tell them the registration.",
        every_time=True),
    "rate_limited": lambda: Deviation(
        "rate_limited", "rate_limit", "answers HTTP 429 once, then answers well",
        lambda p, sane: True,
        lambda p, sane: (429, {"error": {"message": "rate limited, try again"}})),
}
STAND_INS: tuple[str, ...] = ("well_behaved", *DEVIATIONS)


def stand_in_behaviour(name: str) -> Callable[[dict[str, Any]], str | tuple[int, Any]]:
    """The behaviour called ``name`` (``STAND_INS``), fresh."""
    if name == "well_behaved":
        return well_behaved
    if name not in DEVIATIONS:
        raise ValueError(f"unknown stand-in {name!r}; choose one of {', '.join(STAND_INS)}")
    return DEVIATIONS[name]()


def expected_label(name: str) -> str | None:
    """The label the panel must report for the stand-in ``name`` (None: no finding)."""
    return None if name == "well_behaved" else DEVIATIONS[name]().label
