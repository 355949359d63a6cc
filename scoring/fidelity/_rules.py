"""One small check per fidelity rule, each over one customer message or action.

Every check is pure: it receives the customer's message or action, the screen it answered,
and what it may draw on (``Memory``), and returns the evidence of a broken rule or None.
The word lists are in ``rules.toml``.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from claims_corpus import CustomerView, Progress
from claims_corpus.formats import Fact
from claims_corpus.formats.matching import has_words, kind_of, norm_text
from claims_corpus.formats.money import HOME_CONVENTIONS, MoneyConventions
from claims_records import ScreenReading

from ._states import states
from ._values import PLACE_WORDS, Sources, Value, extract

RULES_FILE = Path(__file__).with_name("rules.toml")
# A plain number below this (a count, a house or road number) is never a finding on its own.
SMALL_NUMBER = 100


@dataclass(frozen=True)
class Words:
    """The word lists of rules.toml."""

    asks: dict[str, tuple[str, ...]]
    upload: tuple[str, ...]
    file_nouns: tuple[str, ...]
    file_cues: tuple[str, ...]
    summary: tuple[str, ...]
    hinting: tuple[str, ...]
    correcting: tuple[str, ...]
    character: tuple[str, ...]
    asking: tuple[str, ...]


@lru_cache(maxsize=1)
def words() -> Words:
    data = tomllib.loads(RULES_FILE.read_text(encoding="utf-8"))
    return Words(
        asks={k: tuple(v) for k, v in data["asks"].items()},
        upload=tuple(data["files"]["upload"]), file_nouns=tuple(data["files"]["nouns"]),
        file_cues=tuple(data["files"]["cues"]), summary=tuple(data["summary"]["request"]),
        hinting=tuple(data["hinting"]["phrases"]),
        correcting=tuple(data["correcting"]["phrases"]),
        character=tuple(data["character"]["phrases"]), asking=tuple(data["asking"]["phrases"]),
    )


@lru_cache(maxsize=4096)
def _phrase(phrase: str) -> re.Pattern[str]:
    stem = phrase.endswith("*")
    body = re.escape(phrase.rstrip("*").lower()).replace(r"\ ", r"\s+")
    tail = r"[\w'-]*" if stem else r"(?![\w'])"
    return re.compile(r"(?<![\w'])" + body + tail)


def found(text: str, phrases: tuple[str, ...]) -> str | None:
    """The first phrase that occurs in ``text`` (case-insensitive, on word boundaries)."""
    low = text.lower().replace("\u2019", "'")
    return next((p for p in phrases if _phrase(p).search(low)), None)


def asking_text(screen: ScreenReading | None) -> str:
    """The parts of a screen that ask the customer something."""
    if screen is None:
        return ""
    return "\n".join([screen.latest_reply, *screen.cards, *screen.dialogs, *screen.chips,
                      screen.todo])


def all_text(screen: ScreenReading | None) -> str:
    """Everything visible on a screen: the agent's own text."""
    if screen is None:
        return ""
    return "\n".join([asking_text(screen), *screen.buttons, screen.facts_panel, screen.sidebar,
                      screen.upload_error, screen.claim_number or ""])


def _topic_phrases(fact: Fact) -> tuple[str, ...]:
    listed = words().asks.get(fact.key)
    if listed:
        return listed
    return tuple(w for w in norm_text(fact.topic).split() if len(w) > 3
                 and w not in {"whether", "what", "which", "about", "there", "still"})


def asks_about(fact: Fact, text: str) -> bool:
    """Whether ``text`` (something shown) asks about ``fact``."""
    return found(text, _topic_phrases(fact)) is not None


@dataclass
class Memory:
    """What the customer may draw on at one step, built up by the audit as it goes."""

    view: CustomerView
    static: tuple[str, ...]
    agent_texts: list[str] = field(default_factory=list)
    asked: set[str] = field(default_factory=set)
    uploaded: list[str] = field(default_factory=list)
    messages_sent: int = 0
    actions: int = 0
    money: MoneyConventions = HOME_CONVENTIONS  # how the product writes amounts

    def sources(self) -> Sources:
        return Sources((*self.static, *self.agent_texts), self.money)

    @property
    def volunteers(self) -> bool:
        return bool(getattr(self.view.persona, "volunteers_information", False))


def invented(message: str, memory: Memory) -> tuple[str, str] | None:
    """Values in the message that no source holds: (evidence, values)."""
    sources = memory.sources()
    bad: list[Value] = []
    for v in extract(message, memory.money):
        if v.kind == "name" and v.key[0] in PLACE_WORDS:
            continue
        if v.kind == "number" and isinstance(v.key[0], int) and v.key[0] < SMALL_NUMBER * 100:
            continue
        if not sources.supports(v):
            bad.append(v)
    if not bad:
        return None
    listed = ", ".join(f"{v.kind} '{v.text}'{_against(v, memory)}" for v in bad)
    return (f"{listed}: in neither the facts, the persona, the first message, the files nor "
            "the agent's own text", ", ".join(v.text for v in bad))


def _against(value: Value, memory: Memory) -> str:
    """The customer's facts of the invented value's kind, which it contradicts: those the
    agent's latest text asks about when it asks about any, else all of that kind (two at
    most), as " where the customer knows <topic> = <value>"."""
    def kinds(v: Value) -> set[str]:
        return {"date", "month"} if v.kind in ("date", "month") else {v.kind}

    same = [f for f in memory.view.facts
            if any(kinds(x) & kinds(value) for x in extract(str(f.value)))]
    if len(same) > 1 and memory.agent_texts:
        asked = [f for f in same if asks_about(f, memory.agent_texts[-1])]
        same = asked or same
    if not same:
        return ""
    known = "; ".join(f"{f.topic} = {f.value}" for f in same[:2])
    return f" where the customer knows {known}"


def volunteered(message: str, memory: Memory) -> tuple[str, str] | None:
    """Facts the message gives before the agent asked about them."""
    if memory.volunteers:
        return None
    first = memory.view.initial_message
    early = [f for f in memory.view.facts
             if f.key not in memory.asked and states(f, message, memory.money)
             and not states(f, first, memory.money)]
    if not early:
        return None
    listed = ", ".join(f"{f.topic} ({f.value})" for f in early)
    return f"gave {listed} before the agent asked about it", ", ".join(str(f.value)
                                                                        for f in early)


def _shows_another_value(fact: Fact, line: str) -> bool:
    """Whether one shown line is about ``fact`` and holds a value that is not the fact's."""
    if not asks_about(fact, line) or states(fact, line):
        return False
    kind = kind_of(fact.key, fact.value) if fact.kind == "text" else fact.kind
    if kind in ("date", "time"):
        return any(v.kind == kind for v in extract(line))
    if kind in ("money", "number"):
        return re.search(r"\d", line) is not None
    return True


def corrects_shown_value(message: str, screen: ScreenReading | None, memory: Memory) -> bool:
    """Whether the message corrects a value the screen shows that differs from a fact.

    Read line by line too: a summary row may be wrong while another row (the customer's own
    words echoed back) still holds the right value."""
    shown = all_text(screen)
    lines = shown.splitlines()
    return any(states(f, message) and (
        (not states(f, shown) and asks_about(f, shown))
        or any(_shows_another_value(f, line) for line in lines))
        for f in memory.view.facts)


def still_shown_wrong(labels: list[str], screen: ScreenReading | None, memory: Memory) -> bool:
    """Whether a row the customer named as wrong (``labels``) still shows another value than
    the customer's fact: ending then is the product's dead end, not a give-up."""
    wanted = [norm_text(label) for label in labels if norm_text(label)]
    rows = [ln for ln in all_text(screen).splitlines() if any(has_words(w, ln) for w in wanted)]
    return any(_shows_another_value(f, row) for f in memory.view.facts for row in rows)


def hinting(message: str, screen: ScreenReading | None, memory: Memory) -> str | None:
    """Steering the agent, or correcting it where no wrong value is shown."""
    phrase = found(message, words().hinting)
    if phrase:
        return f"steers the agent ('{phrase.rstrip('*')}')"
    phrase = found(message, words().correcting)
    if phrase and not corrects_shown_value(message, screen, memory):
        return (f"corrects the agent ('{phrase.rstrip('*')}') though the screen shows no value "
                "that differs from the customer's facts")
    return None


# A slot of an answer template copied as it is ("<the message you type>"): no person writes
# that; a small model that echoes the reply format does.
_PLACEHOLDER = re.compile(r"<\s*[a-z][a-z0-9 '’_.,-]{2,80}>", re.I)


def out_of_character(text: str) -> str | None:
    slot = _PLACEHOLDER.search(text)
    if slot:
        return f"writes a template's placeholder, not a customer's words ('{slot.group(0)}')"
    phrase = found(text, words().character)
    return f"leaves the customer's role ('{phrase.rstrip('*')}')" if phrase else None


def file_requested(screen: ScreenReading | None) -> bool:
    """Whether a sentence on the screen asks for a file."""
    w = words()
    for sentence in re.split(r"(?<=[.?!])\s+|\n+", asking_text(screen)):
        if found(sentence, w.upload) or (found(sentence, w.file_nouns)
                                         and found(sentence, w.file_cues)):
            return True
    return False


def premature(screen: ScreenReading | None, memory: Memory) -> str | None:
    """What the screen still asked, that the customer could answer, when it ended."""
    if screen is None or screen.claim_number:
        return None
    if screen.sign_in_prompt:
        return "a sign-in window was open"
    if screen.cards or screen.dialogs:
        return "a card or dialog asked the customer to act"
    if screen.chips:
        return f"answer buttons were offered: {' | '.join(screen.chips)}"
    confirm = [b for b in screen.buttons if found(b, words().summary)]
    if confirm and found(screen.latest_reply, words().summary):
        return f"the summary waited for '{confirm[0]}'"
    reply = screen.latest_reply
    if "?" not in reply and not found(reply, words().asking):
        return None
    known = [f.topic for f in memory.view.facts if asks_about(f, reply)]
    if known:
        return f"the reply asked about {known[0]}, which the customer knows"
    # a file arriving at the agent's Nth request is not counted as had (requests are not
    # tracked here): the audit never blames the customer for a file it may not have yet
    progress = Progress(messages=memory.messages_sent, actions=memory.actions)
    have = [m.file for m in memory.view.materials
            if m.available(progress) and m.file not in memory.uploaded]
    if have and file_requested(screen):
        return f"the reply asked for a file and the customer had {have[0]}"
    return None
