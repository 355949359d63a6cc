"""The kinds of store a profile can name.

A new kind is one module — a ``Store`` subclass and an ``open_store(source)`` that opens it
from what a profile and a lane say of it (``StoreSource``), or gives None when the lane has no
such store — and one line in ``KINDS``. A
profile then names it (``[stores] database_kind`` or ``files_kind``) with the environment
variable that says where it is and, if the kind takes any, its options.
"""

from __future__ import annotations

from collections.abc import Callable

from claims_records import ProfileError

from . import _bucket, _folder, _mongo, sql
from ._base import Store
from ._source import StoreSource

Opener = Callable[[StoreSource], Store | None]

KINDS: dict[str, Opener] = {
    "mongo": _mongo.open_store,
    "sql": sql.open_store,
    "s3": _bucket.open_store,
    "folder": _folder.open_store,
}
"""Every kind of store, by the name a profile gives it."""


def open_store(source: StoreSource) -> Store | None:
    """The store ``source`` names (nothing is read or written yet); None when the lane has
    none of that kind (an S3 store and a lane without a bucket)."""
    opener = KINDS.get(source.kind)
    if opener is None:
        raise ProfileError(f"unknown kind of store {source.kind!r}; known: {sorted(KINDS)}",
                           field=source.setting)
    return opener(source)
