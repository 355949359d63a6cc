"""What decides when a later file or fact reaches the customer: the customer's own messages and
actions so far, and how many times the agent has asked for each file and fact.

Requests are read off the screen by meaning, with the same phrase tables the scripted customer
uses (``synonyms.toml``): a reply asks for a file when it uses a request word and names the
file's kind (an acknowledgement such as "I've received your photo" asks for nothing), and for
a fact when a question in it is about that fact. Each new reply counts at most once per file
and once per fact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from claims_corpus import CustomerView, Progress
from claims_records import CustomerAction

from ._base import material_availability
from ._match import Synonyms, default_synonyms, phrase_score, questions

MESSAGE_ACTIONS = ("say",)


class JourneyTracker:
    """Counts messages, actions and the agent's requests during one journey."""

    def __init__(self, view: CustomerView, synonyms: Synonyms | None = None) -> None:
        self.view = view
        self.syn = synonyms or default_synonyms()
        self.messages = 0
        self.actions = 0
        self.requests: Counter[str] = Counter()
        self.arrived: set[str] = set()
        """Later files and facts that reached the customer outside the journey's own
        progress (a staff request for information after the journey)."""

    def arrive(self, name: str) -> None:
        """A later file (by name) or fact (by key) reaches the customer now."""
        self.arrived.add(name)

    def acted(self, action: CustomerAction) -> None:
        """The customer took ``action`` (the opening message included)."""
        if action.kind == "done" and not action.text:
            return
        self.actions += 1
        if action.kind in MESSAGE_ACTIONS or action.kind == "done":
            self.messages += 1

    def agent_replied(self, texts: Sequence[str], todo: str = "",
                      uploaded: Sequence[str] = ()) -> None:
        """Count the requests in new agent replies (``todo``: the to-do bar now, which names
        the file when a reply only says "please upload it")."""
        for text in texts:
            reply = self.syn.without_acknowledgements(text)
            if phrase_score(reply, self.syn.requests) > 0:
                words = reply if self.syn.material_groups(reply) else f"{reply} {todo}"
                ranked = self.syn.ranked_materials(words, self.view.materials, uploaded)
                if ranked:
                    self.requests[ranked[0][2].file] += 1
            asked = " ".join(q for q in questions(reply) if q.endswith("?"))
            ranked_facts = self.syn.ranked_facts(asked, self.view.facts)
            if ranked_facts:
                self.requests[ranked_facts[0][0].key] += 1

    @property
    def progress(self) -> Progress:
        return Progress(messages=self.messages, actions=self.actions,
                        requests=dict(self.requests))

    def learned_facts(self) -> list[str]:
        """Keys of the later facts the customer knows by now."""
        progress = self.progress
        return [f.key for f in self.view.facts if f.later is not None
                and (self.view.knows(f, progress) or f.key in self.arrived)]

    def materials(self) -> tuple[list[str], list[str]]:
        """(files the customer has now, 'comes later' files not yet available)."""
        available, later = material_availability(self.view, self.progress)
        came = [f for f in later if f in self.arrived]
        return available + came, [f for f in later if f not in came]
