"""The comparison of two scored runs, made by the scorer (``scoring``) for ``compare``.

    comparison.json (wherever asked)          Comparison

A paired comparison over the packs both runs scored, pack by pack (PackDifference) and as a
whole. ``docs/scoring.md`` ("Comparing two runs") explains every rule behind these numbers.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ._base import Strict
from .sheet import SHEET_FORMAT_VERSION, ScorerInfo

ComparisonVerdict = Literal["better", "worse", "inconclusive"]


class PackDifference(Strict):
    pack_id: str
    run_rate: float
    baseline_rate: float
    difference: float = Field(description="run_rate - baseline_rate.")
    run_n: int
    baseline_n: int
    run_c: int | None = Field(None, description="Successful scorable trials in the run.")
    baseline_c: int | None = Field(None, description="Successful scorable trials in the "
                                   "baseline.")
    p_value: float | None = Field(None, description="Two-sided Fisher's exact test of this "
                                  "pack's successes in the run against the baseline.")
    adjusted_p_value: float | None = Field(None, description="p_value after Holm–Bonferroni "
                                           "over every paired pack of the comparison.")
    verdict: ComparisonVerdict | None = Field(None, description="This pack alone: better or "
                                              "worse when adjusted_p_value <= alpha, else "
                                              "inconclusive.")


class Comparison(Strict):
    """A paired comparison of two scored runs over the packs both scored."""

    version: str = Field(SHEET_FORMAT_VERSION)
    run_id: str
    baseline_run_id: str
    corpus_version: str
    baseline_corpus_version: str
    different_corpus_allowed: bool = False
    corpus_content_differs: list[str] = Field(
        default_factory=list, description="Where the two runs' corpora differ in content "
        "though compared anyway: the packs whose hashes differ, or why they cannot be named. "
        "Empty when the corpus hashes are the same.")
    different_corpus_content_allowed: bool = Field(
        False, description="Compared although the corpus hashes differ.")
    scorer: ScorerInfo | None = Field(None, description="Scorer of the run's summary.")
    baseline_scorer: ScorerInfo | None = Field(None, description="Scorer of the baseline's.")
    different_scorer_allowed: bool = False
    packs: list[PackDifference]
    only_in_run: list[str] = Field(default_factory=list)
    only_in_baseline: list[str] = Field(default_factory=list)
    mean_difference: float | None
    low: float | None = None
    high: float | None = None
    level: float = 0.95
    seed: int
    resamples: int
    verdict: ComparisonVerdict
    explanation: str
    too_thin: bool = Field(False, description="Too few paired packs or trials for any verdict "
                           "(docs/scoring.md, Comparing two runs); the verdict is then "
                           "inconclusive.")
    alpha: float = Field(0.05, description="Two-sided level of the per-pack tests (family-wise, "
                         "after the correction) and of the detectable difference.")
    power: float = Field(0.8, description="Power of the detectable difference.")
    correction: str | None = Field(None, description="The multiple-comparison correction over "
                                   "the per-pack tests.")
    spread: float | None = Field(None, description="Standard deviation of the per-pack "
                                 "differences used for the detectable difference: the observed "
                                 "one or the conservative bound, whichever is larger.")
    detectable_difference: float | None = Field(
        None, description="The smallest true mean difference this design detects with "
        "probability `power` at level `alpha`.")
