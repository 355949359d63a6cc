"""The scripted customer: deterministic, answers from facts by meaning, never volunteers."""

from __future__ import annotations

from typing import Any

from corpus.formats import CustomerAction, ScreenReading
from corpus.formats.run import CustomerInfo

from ._base import CustomerContext
from ._match import Synonyms, content_words, default_synonyms, normalise, phrase_score, questions


class ScriptedCustomer:
    """Answers a question with the matching fact's ``say``; otherwise says it does not know.

    Decision order on each screen: claim number shown -> done; sign-in prompt -> sign in;
    a summary to confirm -> click the confirm control; a file asked for -> upload it (or, for
    a 'comes later' file not yet available, describe it as coming later); a fact asked about ->
    click the chip that matches it or say it; nothing asked at all -> done; else "don't know".
    """

    def __init__(self, view: Any, synonyms: Synonyms | None = None,
                 confirm_labels: list[str] | None = None) -> None:
        self.view = view
        self.syn = synonyms or default_synonyms()
        self.confirm_labels = [normalise(label) for label in confirm_labels or []]
        self.info = CustomerInfo(kind="scripted")
        self._materials = {m.file: m for m in view.materials}

    async def aclose(self) -> None:
        return None

    async def next_action(self, screen: ScreenReading, ctx: CustomerContext) -> CustomerAction:
        return self.decide(screen, ctx)

    # ----------------------------------------------------------------- the decision
    def decide(self, screen: ScreenReading, ctx: CustomerContext) -> CustomerAction:
        if screen.claim_number:
            return CustomerAction(kind="done", reason=f"claim number {screen.claim_number} shown")
        if screen.sign_in_prompt and not ctx.signed_in:
            return CustomerAction(kind="sign_in")
        reply = screen.latest_reply
        asked = " ".join(questions(reply))

        confirm = self._confirm_control(screen)
        if confirm and phrase_score(reply, self.syn.confirm_request) > 0:
            return CustomerAction(kind="click", label=confirm)

        ranked = self._ranked_facts(asked)
        fact, fact_score = ranked[0] if ranked else (None, 0.0)
        if phrase_score(asked, self.syn.requests) > 0:
            action = self._file_action(self._file_words(asked, screen), ctx)
            if action is not None:
                return action
        if screen.chips:
            for candidate, _ in ranked:
                chip = self._chip_for(candidate, screen.chips)
                if chip is not None:
                    return CustomerAction(kind="click", label=chip)
        if fact is not None and fact_score > 0:
            return CustomerAction(kind="say", text=fact.say)
        # an imperative request ("please upload it ...") outside the question sentences
        wants_file = phrase_score(reply, self.syn.requests) > 0
        if wants_file:
            action = self._file_action(self._file_words(reply, screen), ctx)
            if action is not None:
                return action
        todo_wants_file = screen.todo and phrase_score(screen.todo, self.syn.requests) > 0
        if todo_wants_file and "?" not in reply and not screen.chips:
            action = self._file_action(screen.todo, ctx)
            if action is not None:
                return action
        if not self._anything_asked(screen, asked, wants_file):
            if confirm:
                return CustomerAction(kind="click", label=confirm)
            return CustomerAction(kind="done", reason="nothing left to answer on screen")
        return CustomerAction(kind="say", text=self.view.persona.dont_know_phrase)

    # ----------------------------------------------------------------- facts
    def _ranked_facts(self, text: str) -> list[tuple[Any, float]]:
        """Facts the text asks about, best match first (ties keep the pack's order)."""
        if not text:
            return []
        asked_words = content_words(text)
        scored = []
        for i, fact in enumerate(self.view.facts):
            score = phrase_score(text, self.syn.facts.get(fact.key, []))
            score += 0.5 * len(content_words(fact.topic) & asked_words)
            if score > 0:
                scored.append((-score, i, fact))
        scored.sort(key=lambda s: (s[0], s[1]))
        return [(fact, -neg) for neg, _, fact in scored]

    def _chip_for(self, fact: Any, chips: list[str]) -> str | None:
        if fact.kind == "yes_no":
            value = fact.value
            if isinstance(value, str):
                value = normalise(value) in {"yes", "true", "y"}
            table = self.syn.yes if value else self.syn.no
            scored = [(phrase_score(c, table) - phrase_score(c, self.syn.no if value else
                                                                self.syn.yes), c) for c in chips]
            scored = [s for s in scored if s[0] > 0]
            return max(scored, key=lambda s: s[0])[1] if scored else None
        target = content_words(str(fact.value).replace("_", " ")) | content_words(fact.say)
        scored = []
        for chip in chips:
            overlap = len(content_words(chip) & target)
            if overlap:
                scored.append((overlap, chip))
        if fact.kind == "choice" and scored:
            return max(scored, key=lambda s: s[0])[1]
        return None

    # ----------------------------------------------------------------- files
    def _file_words(self, text: str, screen: ScreenReading) -> str:
        """The request text, plus the to-do bar when the request names no kind of file."""
        return text if self.syn.material_groups(text) else f"{text} {screen.todo}"

    def _file_action(self, text: str, ctx: CustomerContext) -> CustomerAction | None:
        wanted = self.syn.material_groups(text)
        asked_words = content_words(text)
        if not wanted:
            return None
        scored = []
        for m in self.view.materials:
            groups = self.syn.material_groups(m.label)
            score = 2 * len(groups & wanted) + 0.5 * len(content_words(m.label) & asked_words)
            if groups & wanted:
                scored.append((score, m.file not in ctx.uploaded, m))
        if not scored:
            return CustomerAction(kind="say", text=self.syn.phrases["no_such_file"])
        scored.sort(key=lambda s: (s[1], s[0]), reverse=True)
        _, fresh, material = scored[0]
        if not fresh:
            return CustomerAction(kind="say", text=self.syn.phrases["already_sent"])
        if material.file in ctx.available_files:
            return CustomerAction(kind="upload", file=material.file)
        return CustomerAction(kind="say", text=material.describe_before)

    # ----------------------------------------------------------------- confirm / nothing asked
    def _confirm_control(self, screen: ScreenReading) -> str | None:
        """The control confirming a summary: the product's own confirm / submit wording from
        the profile first (a later step of a multi-step confirmation wins), else by meaning."""
        shown = [*screen.buttons, *screen.chips]
        own = [(self.confirm_labels.index(normalise(label)), label) for label in shown
               if normalise(label) in self.confirm_labels]
        if own:
            return max(own)[1]
        for label in shown:
            if phrase_score(label, self.syn.confirm_control) > 0:
                return label
        return None

    @staticmethod
    def _anything_asked(screen: ScreenReading, asked: str, wants_file: bool) -> bool:
        return "?" in asked or bool(screen.chips) or wants_file or bool(screen.dialogs)
