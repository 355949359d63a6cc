"""The customer's explanation of a document check's hit reaches staff with the check.

A pack whose story explains why a receipt or quote carries the date it does (the oracle's
``review.customer_explanations``: check -> story fact) asks this of the product: the check still
hits, and what the customer said about it is shown to staff on that check's row (what it rests
on). Words are compared, not sentences: the customer's words that tell the story fact (the
message that tells most of it), and how many of them staff see on the row, compared as English
word stems (Snowball).
"""

from __future__ import annotations

import math
import re
from functools import cache

import snowballstemmer

from claims_corpus import CustomerView
from claims_corpus.formats import Labels
from claims_corpus.formats.matching import norm_text
from claims_records import ComponentResult, JsonValue, StaffReading

from ._claim_checks import component, unread
from ._journey_checks import customer_messages
from ._record import TrialRecord

NAME = "explanation"
MODE = "explanation_not_passed_on"
# The customer's message must tell at least MIN_WORDS of the story fact's words and at least
# SHARE_TOLD of them (a message that shares a word or two with the story by chance, a month or
# the item, tells nothing), and staff must see at least SHARE_SHOWN of the words it told (never
# fewer than MIN_WORDS) on the check's row.
MIN_WORDS = 3
SHARE_TOLD = 0.4
SHARE_SHOWN = 0.6
_STOP = frozenset((
    "the", "and", "for", "that", "this", "with", "was", "were", "had", "has", "have", "his",
    "her", "him", "its", "our", "your", "you", "they", "them", "then", "than", "there", "from",
    "but", "not", "are", "all", "any", "one", "out", "about", "because", "when", "what", "who",
    "which", "would", "could", "did", "got", "get", "just", "also", "some", "very", "really",
))


@cache
def _stemmer() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("english")


def words(text: str) -> set[str]:
    """Content words of ``text``, lower case, without numbers, as English stems ('reprinted'
    and 'reprint', 'quote' and 'quoted' are one word)."""
    found = [w for w in re.findall(r"[a-z]+", norm_text(text)) if len(w) >= 3 and w not in _STOP]
    return set(_stemmer().stemWords(found))


def check_explanation(rec: TrialRecord, staff: StaffReading | None, labels: Labels,
                      view: CustomerView | None) -> ComponentResult:
    """Each explained check's story reached staff on its row (a pack whose story explains a
    check: ``review.customer_explanations``)."""
    wanted = labels.review.customer_explanations
    not_read = unread(NAME, staff, "review_checks", "the review checks")
    if not_read:
        return not_read
    assert staff is not None
    if view is None:
        return component(NAME, "not_scored", "the pack's customer view could not be read: "
                         "the story fact behind the explanation is not known")
    said = customer_messages(rec)
    problems: list[str] = []
    checks: dict[str, JsonValue] = {}
    for check, key in sorted(wanted.items()):
        fact = next((f for f in view.facts if f.key == key), None)
        story = words(f"{fact.value} {fact.say}") if fact is not None else set()
        told = max((words(m) & story for m in said), key=len, default=set())
        row = staff.checks.get(check)
        shown = told & words(row.rests_on) if row is not None else set()
        enough = max(MIN_WORDS, math.ceil(SHARE_TOLD * len(story)))
        need = max(MIN_WORDS, math.ceil(SHARE_SHOWN * len(told)))
        ok = len(told) >= enough and len(shown) >= need
        told_list: list[JsonValue] = [w for w in sorted(told)]
        shown_list: list[JsonValue] = [w for w in sorted(shown)]
        checks[check] = {"story_fact": key, "told": told_list, "shown": shown_list,
                         "needed": need, "ok": ok}
        if len(told) < enough:
            problems.append(f"{check}: the customer's explanation ({key}) never came up in "
                            "the conversation")
        elif row is None:
            problems.append(f"{check}: staff see no row for the check")
        elif not ok:
            problems.append(f"{check}: staff see {len(shown)} of the {len(told)} words the "
                            f"customer used to explain it ({key}), {need} needed")
    if problems:
        return component(NAME, "fail", "; ".join(problems), [MODE], checks=checks)
    return component(NAME, "pass", "the customer's explanation reached staff with "
                     f"{', '.join(sorted(wanted))}", checks=checks)
