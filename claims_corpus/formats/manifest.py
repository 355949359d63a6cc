"""The corpus manifest (``<corpus>/manifest.json``): identity, version, pack hashes, changelog.

Each corpus folder has its own manifest. ``id_prefix`` is the corpus's identity: every pack id
of the corpus starts with it (``CTL-M-001`` in the public corpus, ``HLD-M-001`` in a team's
held-out corpus), and a run over several corpora reports each under its prefix.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field, StringConstraints, model_validator

from claims_records.terms import Line

from ._base import Strict
from .pack import ID_PREFIX_PATTERN, ClaimantSession, MessageStyle, pack_id_pattern
from .pack_input import FactKind, version_field


class ManifestPack(Strict):
    hash: str = Field(description="sha256 over the pack's files (path + bytes), sorted by path.")
    line: Line
    scenario: str
    scenario_kind: str | None = Field(None, description="The scenario kind (labels).")
    message_style: MessageStyle
    claimant_session: ClaimantSession
    review_required: bool
    innocent_control: bool
    has_later_material: bool = False
    has_not_checked: bool = False
    has_explanation: bool = Field(False, description="The customer's story explains a "
                                  "document check's hit (labels: customer_explanations).")
    has_later_fact: bool = Field(False, description="A fact the customer learns later.")
    has_unknown_fact: bool = Field(False, description="The oracle expects a fact not known.")
    has_time_window: bool = Field(False, description="A time known only as a window.")
    handed_over_unasked: bool = Field(False, description="The persona hands over a file unasked.")
    pressure: list[str] = Field(default_factory=list,
                                description="Pressure kinds of the pack (labels).")
    currencies: list[str] = Field(default_factory=list,
                                  description="Currencies of the pack's money facts.")
    files: dict[str, str] = Field(
        default_factory=dict,
        description="sha256 of each file, keyed by its path in the pack; names what changed.",
    )


class ChangelogEntry(Strict):
    version: str
    date: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    changes: list[str]


class StoryFact(Strict):
    """A story-fact key a corpus adds for its own packs (packs/STANDARD.md section 5)."""

    kind: FactKind = Field(description="The kind every pack's fact with this key has.")
    topic: str = Field(min_length=1, max_length=200,
                       description="Plain-language subject of the fact ('how the burglar got "
                       "in'), as the packs' facts name it. Never a system code.")


# A story-fact key: snake_case, as a fact's key is written.
STORY_FACT_KEY_PATTERN = r"^[a-z][a-z0-9_]*$"


class Manifest(Strict):
    """<corpus>/manifest.json — identity, version, frozen flag, per-pack hashes, changelog."""

    version: str = version_field()
    id_prefix: str = Field(
        pattern=ID_PREFIX_PATTERN,
        description="The corpus's id prefix: every pack id is <id_prefix>-<M|H|C>-<3 digits>. "
        "Corpora run together must have different prefixes.",
    )
    name: str | None = Field(None, description="A short name for reports ('held-out set').")
    corpus_version: str = Field(description="Version of the corpus content, e.g. '0.3.0'.")
    frozen: bool = Field(False, description="A frozen corpus never changes answers or files.")
    hashes_version: str | None = Field(
        None, description="corpus_version at which the pack hashes were last recorded."
    )
    story_facts: dict[Annotated[str, StringConstraints(pattern=STORY_FACT_KEY_PATTERN)],
                      StoryFact] = Field(
        default_factory=dict,
        description="Story-fact keys this corpus's packs may use beside the standard's list "
        "(packs/STANDARD.md section 5), with their kind and topic: accepted for this corpus "
        "only, so a held-out corpus need not show its keys to anyone by editing the project. "
        "A key of the claim's own facts or of the standard's list is refused.")
    packs: dict[str, ManifestPack] = Field(default_factory=dict)
    changelog: list[ChangelogEntry] = Field(default_factory=list)

    @model_validator(mode="after")
    def _pack_ids(self) -> Manifest:
        pattern = re.compile(pack_id_pattern(self.id_prefix))
        bad = [k for k in self.packs if not pattern.match(k)]
        if bad:
            raise ValueError(f"pack ids not of the form {self.id_prefix}-<M|H|C>-<3 digits>: "
                             f"{bad}")
        return self



__all__ = ["ChangelogEntry", "Manifest", "ManifestPack", "StoryFact"]
