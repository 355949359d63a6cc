"""The vocabulary map: product words -> canonical codes; what it cannot map is recorded."""

from __future__ import annotations

from harness.profile import Vocabulary
from harness.staff._vocabulary import WordMap, leading_code, normalise


def test_without_a_table_the_leading_code_is_read():
    words = WordMap(Vocabulary())
    assert words.code("reasons", "third_party_involved — the other driver") == \
        "third_party_involved"
    assert words.code("triage_class", " standard ") == "standard"
    assert words.unmapped == {}


def test_words_map_exactly_or_as_a_prefix_and_the_rest_is_unmapped():
    words = WordMap(Vocabulary(triage_class={"Fast lane": "fast_track", "Routine": "standard"},
                               reasons={"Other party": "third_party_involved",
                                        "Other party unknown": "third_party_unidentified"}))
    assert words.code("triage_class", "  routine ") == "standard"
    assert words.code("triage_class", "Fast lane.") == "fast_track"
    assert words.code("reasons", "Other party unknown: drove off") == "third_party_unidentified"
    assert words.code("reasons", "Other party: named") == "third_party_involved"
    assert words.code("reasons", "Other partygoer") is None
    assert words.code("triage_class", "Urgent") is None
    assert words.unmapped == {"reasons": ["Other partygoer"], "triage_class": ["Urgent"]}


def test_normalise_and_leading_code():
    assert normalise("  Refer  to REVIEW team! ") == "refer to review team"
    assert leading_code("hit (receipt dated 2026-03-14)") == "hit"


def test_a_stored_word_is_canonical_as_it_is_else_mapped_else_unmapped():
    words = WordMap(Vocabulary(triage_class={"Routine": "standard"}))
    assert words.stored("triage_class", "complex") == "complex"  # canonical beside a table
    assert words.stored("triage_class", "Routine") == "standard"
    assert words.stored("reasons", "theft") == "theft"  # no table: canonical codes only
    assert words.stored("fact_keys", "colour_of_car") == "colour_of_car"  # any key shape
    assert words.stored("fact_states", "to_follow") == "to_follow"
    assert words.stored("reasons", "third_party_involved — the other driver") is None
    assert words.stored("triage_class", "Urgent") is None
    assert words.stored("fact_keys", "Colour of car") is None
    assert words.unmapped == {"reasons": ["third_party_involved — the other driver"],
                              "triage_class": ["Urgent"], "fact_keys": ["Colour of car"]}
