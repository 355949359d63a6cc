"""The expected end state of a pack: documents by collection and id (or a selector), with
the fields allowed to vary between trials (ids, timestamps, hashes)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ._base import Strict


class ExpectedDocument(Strict):
    collection: str = Field(description="MongoDB collection.")
    id: str | None = Field(None, description="The document id, for documents seeded by setup.")
    match: dict[str, Any] | None = Field(
        None, description="Selector for documents the journey creates (their id is unknown)."
    )
    change: Literal["added", "changed", "unchanged", "removed"] = Field(
        description="What the journey must have done to this document."
    )
    fields: dict[str, Any] = Field(
        default_factory=dict, description="Expected field values (dotted paths) after the journey."
    )
    document: dict[str, Any] | None = Field(
        None, description="The whole document expected after the journey ('added' or "
        "'changed'): every field of it not matched by 'vary' must be equal, and the document "
        "may hold no other field that 'vary' does not match. The values of varying fields "
        "here are examples from one trial.")
    vary: list[str] = Field(
        default_factory=list, description="Fields allowed to differ between trials (ids, "
        "timestamps, hashes), as dotted paths, path prefixes or globs ('*.ts'). For 'changed' "
        "and 'unchanged' they may change; against 'document' they may hold any value."
    )

    @model_validator(mode="after")
    def _id_or_match(self) -> ExpectedDocument:
        if (self.id is None) == (self.match is None):
            raise ValueError("give exactly one of 'id' or 'match'")
        if self.document is not None and self.change not in ("added", "changed"):
            raise ValueError("'document' is for documents 'added' or 'changed'")
        return self


class ExpectedEndState(Strict):
    documents: list[ExpectedDocument] = Field(default_factory=list)
    allow_other_changes_in: list[str] = Field(
        default_factory=list,
        description="Collections where changes not listed above are allowed (messages, audit).",
    )
