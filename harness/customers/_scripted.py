"""The scripted customer: deterministic, answers from facts by meaning, never volunteers."""

from __future__ import annotations

from collections import Counter

from claims_corpus import CustomerView
from claims_corpus.formats import HOME_CONVENTIONS, Fact, MoneyConventions
from claims_records import CustomerAction, CustomerInfo, ScreenReading

from ._base import CustomerContext
from ._match import (
    Synonyms,
    content_words,
    default_synonyms,
    normalise,
    phrase_score,
    questions,
)
from ._summary import corrections

# How often the customer tells the product the same detail is wrong before giving up.
MAX_CORRECTIONS = 2


class ScriptedCustomer:
    """Answers a question with the matching fact's ``say``; otherwise says it does not know.

    Decision order on each screen: claim number shown -> done; sign-in prompt -> sign in;
    a file the persona hands over unasked, when its moment has come -> upload it; a question
    or a request for a person the persona asks along the way, once they have typed enough
    messages (or a summary is shown first) -> type it, once; a summary
    to confirm -> say what is wrong in it, or click the confirm control; a file asked for ->
    upload it (or, for a 'comes later' file not yet available, describe it as coming later);
    a fact asked about -> click the chip that matches it or say it (a later fact not known
    yet: say when it comes); chips naming what the claim could be about ("My car", "My home",
    "My belongings") that no fact answers -> click the one its own story points to;
    nothing asked at all -> done; else "don't know".

    A question that matches no fact but points back at what the reply said before it ("I
    couldn't find that policy number. Could you check it and type it again?") is read with
    the rest of the reply.

    "Asked" never counts a sentence that only acknowledges a file ("Thanks, I've received your
    photo."). Decisions use only the screen and the customer's own view.
    """

    def __init__(self, view: CustomerView, synonyms: Synonyms | None = None,
                 confirm_labels: list[str] | None = None,
                 money: MoneyConventions = HOME_CONVENTIONS) -> None:
        self.view = view
        self.money = money
        self.syn = synonyms or default_synonyms()
        self.confirm_labels = [normalise(label) for label in confirm_labels or []]
        self.info = CustomerInfo(kind="scripted")
        self._corrected: Counter[str] = Counter()
        self._asked: set[int] = set()

    async def aclose(self) -> None:
        return None

    async def next_action(self, screen: ScreenReading, ctx: CustomerContext) -> CustomerAction:
        return self.decide(screen, ctx)

    # ----------------------------------------------------------------- the decision
    def decide(self, screen: ScreenReading, ctx: CustomerContext) -> CustomerAction:
        if screen.claim_number and not ctx.returned:
            return CustomerAction(kind="done", reason=f"claim number {screen.claim_number} shown")
        if screen.sign_in_prompt and not ctx.signed_in:
            return CustomerAction(kind="sign_in")
        reply = self.syn.without_acknowledgements(screen.latest_reply)
        asked = " ".join(questions(reply))

        confirm = self._confirm_control(screen)
        summary = confirm is not None and phrase_score(reply, self.syn.confirm_request) > 0
        handed = self._hand_over(ctx, summary)
        if handed is not None:
            return handed
        ask = self._ask(ctx, summary)
        if ask is not None:
            return ask
        if summary:
            assert confirm is not None  # a summary is asked for by a confirm control
            return self._check_summary(screen, ctx, confirm)

        ranked = self._ranked_facts(reply, asked)
        fact, fact_score = ranked[0] if ranked else (None, 0.0)
        if phrase_score(asked, self.syn.requests) > 0:
            action = self._file_action(self._file_words(asked, screen), ctx)
            if action is not None:
                return action
        if screen.chips:
            for candidate, _ in ranked:
                if not self._knows(candidate, ctx):
                    break
                chip = self._chip_for(candidate, screen.chips)
                if chip is not None:
                    return CustomerAction(kind="click", label=chip)
            chip = self._chip_from_story(screen.chips)
            if chip is not None:
                return CustomerAction(kind="click", label=chip)
        if fact is not None and fact_score > 0:
            return CustomerAction(kind="say", text=self._answer(fact, ctx))
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
                return self._check_summary(screen, ctx, confirm)
            return CustomerAction(kind="done", reason="nothing left to answer on screen")
        return CustomerAction(kind="say", text=self.view.persona.dont_know_phrase)

    # ----------------------------------------------------------------- facts
    def _ranked_facts(self, reply: str, asked: str) -> list[tuple[Fact, float]]:
        """Facts the question asks about; a question naming none that points back ("could you
        check it and type it again?") is read with the sentences before it."""
        ranked = self.syn.ranked_facts(asked, self.view.facts)
        if ranked or asked.strip() == reply.strip() or phrase_score(asked,
                                                                    self.syn.references) == 0:
            return ranked
        return self.syn.ranked_facts(reply, self.view.facts)

    def _story_subjects(self) -> Counter[str]:
        """How many parts of the customer's own story (the first message, each fact they know
        from the start, each file's label) mention each thing a claim can be about."""
        parts = [self.view.initial_message,
                 *(f"{f.say} {f.topic}" if f.later is None else f.topic
                   for f in self.view.facts),
                 *(m.label for m in self.view.materials)]
        return Counter(g for part in parts for g in self.syn.subject_groups(part))

    def _chip_from_story(self, chips: list[str]) -> str | None:
        """Of chips naming what the claim could be about ("My car", "My home", "My
        belongings"), the one the customer's story mentions most — only when it clearly leads
        every other subject, offered or not; None when fewer than two chips name one."""
        offered: dict[str, str] = {}
        for chip in chips:
            groups = self.syn.subject_groups(chip)
            if len(groups) == 1:
                offered.setdefault(next(iter(groups)), chip)
        if len(offered) < 2:
            return None
        counts = self._story_subjects().most_common()
        if not counts or (len(counts) > 1 and counts[1][1] == counts[0][1]):
            return None
        return offered.get(counts[0][0])

    @staticmethod
    def _knows(fact: Fact, ctx: CustomerContext) -> bool:
        return fact.later is None or fact.key in ctx.learned_facts

    def _answer(self, fact: Fact, ctx: CustomerContext) -> str:
        """The fact in the customer's words, or, before they know it, when it comes."""
        if self._knows(fact, ctx) or fact.later is None:
            return fact.say
        return fact.later.describe_before

    def _chip_for(self, fact: Fact, chips: list[str]) -> str | None:
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
        if not self.syn.material_groups(text):
            return None
        scored = self.syn.ranked_materials(text, self.view.materials, ctx.uploaded)
        if not scored:
            return CustomerAction(kind="say", text=self.syn.phrases["no_such_file"])
        _, fresh, material = scored[0]
        if not fresh:
            return CustomerAction(kind="say", text=self.syn.phrases["already_sent"])
        if material.file in ctx.available_files:
            return CustomerAction(kind="upload", file=material.file)
        return CustomerAction(kind="say", text=material.describe_before)

    def _hand_over(self, ctx: CustomerContext, summary: bool) -> CustomerAction | None:
        """A file the persona hands over unasked, once its moment has come and they have it."""
        for h in self.view.persona.hands_over:
            if h.file in ctx.uploaded or h.file not in ctx.available_files:
                continue
            due = ((h.when == "with_first_upload" and bool(ctx.uploaded))
                   or (h.when == "before_confirming" and summary)
                   or (h.when == "after_actions" and ctx.actions_taken >= (h.after_actions or 0)))
            if due:
                return CustomerAction(kind="upload", file=h.file)
        return None

    def _ask(self, ctx: CustomerContext, summary: bool) -> CustomerAction | None:
        """A question or request for a person from the persona, once its moment has come."""
        for i, a in enumerate(self.view.persona.asks):
            if i not in self._asked and (ctx.messages_sent >= a.after_messages or summary):
                self._asked.add(i)
                return CustomerAction(kind="say", text=a.text)
        return None

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

    def _check_summary(self, screen: ScreenReading, ctx: CustomerContext,
                       confirm: str) -> CustomerAction:
        """Confirm only details that match; otherwise say what is wrong (or give up when the
        product keeps a detail it was told twice is wrong)."""
        wrong = corrections(self.view, ctx.learned_facts, screen, self.syn, self.money)
        if not wrong:
            return CustomerAction(kind="click", label=confirm)
        labels = [c.label for c in wrong]
        if any(self._corrected[c.key] >= MAX_CORRECTIONS for c in wrong):
            return CustomerAction(kind="done", text=self.syn.phrases["gave_up"], corrects=labels,
                                  reason="the summary still shows details I said were wrong: "
                                  + ", ".join(labels))
        self._corrected.update(c.key for c in wrong)
        text = " ".join([self.view.persona.correction_phrase, *(c.text for c in wrong)])
        return CustomerAction(kind="say", text=text, corrects=labels)

    @staticmethod
    def _anything_asked(screen: ScreenReading, asked: str, wants_file: bool) -> bool:
        return "?" in asked or bool(screen.chips) or wants_file or bool(screen.dialogs)
