"""Acceptance criteria: the numbers the business asked of the claims product.

    <corpus>/acceptance.toml        AcceptanceConfig   thresholds (defaults from the standard)
    <run-id>/summary.json → .acceptance  AcceptanceReport  each criterion met / not met /
                                                        not measurable, with its interval

The defaults are the standard's: 80 % of claims needing no further contact, zero false
positives of the review signal on the test set, every report under 5 minutes and with fewer
than 10 questions, and 10 kinds of scenario (5 motor, 3 home, 2 contents).
``docs/scoring.md`` ("Acceptance") states how each one is measured.
"""

from __future__ import annotations

import re
import tomllib
from typing import Literal

from pydantic import Field

from ._base import Strict
from ._json import JsonField
from .trial import CustomerAction

ACCEPTANCE_FILE = "acceptance.toml"
ACCEPTANCE_FORMAT_VERSION = "1"

CriterionStatus = Literal["met", "not_met", "not_measurable"]
# Criterion names, in the order the summary and report list them.
CRITERIA: tuple[str, ...] = (
    "no_further_contact",
    "review_false_positives",
    "report_duration",
    "questions",
    "scenario_coverage",
)


class NoFurtherContactRule(Strict):
    min_share: float = Field(0.8, ge=0, le=1, description="Least share of claims that need "
                             "no further contact (mean over packs).")


class FalsePositiveRule(Strict):
    max_false_positives: int = Field(0, ge=0, description="Most trials whose review signal "
                                     "fired though the rules do not require review (ordinary "
                                     "packs and innocent controls together).")


_WORD = re.compile(r"\S+")


class CustomerWork(Strict):
    """What the customer's side of a report asks of a person: words read, characters typed,
    buttons pressed, files chosen and sent. Counted from the transcript (one step with
    ``of_step``, a trial as the sum of its steps); ``CustomerTimeModel`` turns it into
    seconds."""

    words_read: int = Field(0, ge=0, description="Words of the product's new replies read.")
    chars_typed: int = Field(0, ge=0, description="Characters of the customer's messages.")
    clicks: int = Field(0, ge=0, description="Buttons pressed.")
    uploads: int = Field(0, ge=0, description="Files chosen and sent.")
    sign_ins: int = Field(0, ge=0, description="Sign-ins (name and password typed).")
    actions: int = Field(0, ge=0, description="Actions taken (each one decided first).")

    @classmethod
    def of_step(cls, read: str, action: CustomerAction | None) -> CustomerWork:
        """One step: reading ``read`` (the reply the customer had not seen), then the
        action, if any (ending the conversation without last words takes no time)."""
        words = len(_WORD.findall(read))
        if action is None or (action.kind == "done" and not action.text):
            return cls(words_read=words)
        typed = len(action.text or "") if action.kind in ("say", "done") else 0
        return cls(words_read=words, chars_typed=typed, actions=1,
                   clicks=int(action.kind == "click"), uploads=int(action.kind == "upload"),
                   sign_ins=int(action.kind == "sign_in"))

    def __add__(self, other: CustomerWork) -> CustomerWork:
        return CustomerWork(**{k: getattr(self, k) + getattr(other, k)
                               for k in CustomerWork.model_fields})


class CustomerTimeModel(Strict):
    """How long a person takes for their side of a report. The defaults are published
    figures (docs/scoring.md, "The customer's time", cites them); a pack set with other
    customers (desktop users, slow readers) sets its own."""

    reading_wpm: float = Field(238.0, gt=0, description="Silent reading speed, words per "
                               "minute (adults reading non-fiction).")
    typing_wpm: float = Field(36.2, gt=0, description="Typing speed, words of 5 characters "
                              "per minute (typing on a phone).")
    think_s: float = Field(1.35, ge=0, description="Deciding what to do before each action "
                           "(the keystroke-level model's mental preparation).")
    click_s: float = Field(1.1, ge=0, description="Pointing at a button and pressing it.")
    upload_s: float = Field(20.0, ge=0, description="Finding a photo or document on the "
                            "device, choosing it and sending it.")
    sign_in_s: float = Field(15.0, ge=0, description="Typing a user name and password.")

    def seconds(self, work: CustomerWork) -> float:
        """The modelled time of ``work``, in seconds."""
        return round(work.words_read * 60.0 / self.reading_wpm
                     + work.chars_typed / 5.0 * 60.0 / self.typing_wpm
                     + work.actions * self.think_s + work.clicks * self.click_s
                     + work.uploads * self.upload_s + work.sign_ins * self.sign_in_s, 3)


class DurationRule(Strict):
    limit_s: float = Field(300.0, gt=0, description="A report must take less than this many "
                           "seconds: the product's time plus the customer's modelled time, "
                           "from the first customer message to the claim number.")
    min_share_under: float = Field(1.0, ge=0, le=1, description="Least share of trials under "
                                   "the limit (1.0: every report).")
    customer_time: CustomerTimeModel = Field(
        default_factory=CustomerTimeModel, description="How the customer's own time is "
        "modelled from the transcript (and waited by ``run --pace human``).")


class QuestionsRule(Strict):
    fewer_than: int = Field(10, ge=1, description="A report must take fewer than this many "
                            "agent questions.")
    min_share_under: float = Field(1.0, ge=0, le=1, description="Least share of trials under "
                                   "the limit (1.0: every report).")


class CoverageRule(Strict):
    motor: int = Field(5, ge=0, description="Distinct motor scenario kinds needed.")
    home: int = Field(3, ge=0, description="Distinct home scenario kinds needed.")
    contents: int = Field(2, ge=0, description="Distinct contents scenario kinds needed.")


class AcceptanceConfig(Strict):
    """acceptance.toml — thresholds per criterion. A missing file means these defaults."""

    version: str = Field(ACCEPTANCE_FORMAT_VERSION)
    decide_on: Literal["estimate", "interval"] = Field(
        "estimate", description="'estimate': a share criterion is met when its estimate "
        "clears the threshold; 'interval': only when the whole confidence interval does "
        "(a run too thin for an interval is then not measurable).")
    level: float = Field(0.95, gt=0, lt=1, description="Confidence level of the intervals.")
    no_further_contact: NoFurtherContactRule = Field(default_factory=NoFurtherContactRule)
    review_false_positives: FalsePositiveRule = Field(default_factory=FalsePositiveRule)
    report_duration: DurationRule = Field(default_factory=DurationRule)
    questions: QuestionsRule = Field(default_factory=QuestionsRule)
    scenario_coverage: CoverageRule = Field(default_factory=CoverageRule)

    @classmethod
    def from_toml(cls, text: str) -> AcceptanceConfig:
        """Parse acceptance.toml text (``tomllib.TOMLDecodeError`` / ``ValidationError``)."""
        return cls.model_validate(tomllib.loads(text))


class CriterionResult(Strict):
    """One acceptance criterion against one run."""

    name: str = Field(description="One of CRITERIA.")
    title: str = Field(description="The criterion in the business's words.")
    status: CriterionStatus
    threshold: str = Field(description="The threshold as configured, in words.")
    estimate: float | None = Field(None, description="The measured value the status rests on.")
    low: float | None = Field(None, description="Lower end of the confidence interval.")
    high: float | None = Field(None, description="Upper end of the confidence interval.")
    too_thin: bool = Field(False, description="Too few packs for an interval.")
    conclusive: bool | None = Field(
        None, description="The whole interval lies on one side of the threshold (None: no "
        "interval).")
    explanation: str = Field(description="One line: what was measured and why the status.")
    details: dict[str, JsonField] = Field(default_factory=dict,
                                          description="The numbers behind it.")


class AcceptanceReport(Strict):
    """The acceptance criteria of one run (part of summary.json)."""

    version: str = Field(ACCEPTANCE_FORMAT_VERSION)
    source: str = Field(description="The acceptance.toml used, or 'defaults from the standard'.")
    config: AcceptanceConfig
    met: bool = Field(description="Every criterion is met.")
    criteria: list[CriterionResult]
    level: float
    seed: int
    resamples: int
    method: str = "cluster bootstrap over packs, percentile interval"
