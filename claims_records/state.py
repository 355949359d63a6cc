"""State dump and diff formats (written by the seed route, read by the scorer)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ._base import Strict
from ._json import JsonField

STATE_FORMAT_VERSION = "1"


class ObjectInfo(Strict):
    sha256: str
    size: int


class StateDump(Strict):
    """state-before.json / state-after.json — every collection and object of one lane."""

    version: str = Field(STATE_FORMAT_VERSION)
    taken_at: str = Field(description="UTC timestamp, ISO 8601.")
    database: str
    bucket: str
    collections: dict[str, dict[str, dict[str, JsonField]]] = Field(
        description="collection -> document id (as string) -> document (JSON-safe)."
    )
    objects: dict[str, ObjectInfo] = Field(description="object key -> content hash and size.")


class FieldChange(Strict):
    field: str = Field(description="Dotted path.")
    before: JsonField = None
    after: JsonField = None


class DocumentChange(Strict):
    collection: str
    id: str
    change: Literal["added", "removed", "changed"]
    fields: list[FieldChange] = Field(default_factory=list)
    document: dict[str, JsonField] | None = Field(
        None, description="The full document after (added) or before (removed)."
    )


class ObjectChange(Strict):
    key: str
    change: Literal["added", "removed", "changed"]
    before: ObjectInfo | None = None
    after: ObjectInfo | None = None


class StateDiff(Strict):
    version: str = Field(STATE_FORMAT_VERSION)
    documents: list[DocumentChange] = Field(default_factory=list)
    objects: list[ObjectChange] = Field(default_factory=list)
    ignored_fields: list[str] = Field(default_factory=list)
