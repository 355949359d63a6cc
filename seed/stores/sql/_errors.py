"""A database's own errors, as the store's: each names the table it came from and, when the
database says or it can be told, the column.

The column comes from what the database reports: SQLite's "NOT NULL constraint failed:
t.c" and "UNIQUE constraint failed: t.c", PostgreSQL's diagnostics (the column of a NOT NULL
violation, "Key (c)=(…)" of a foreign or unique key, else a column its message names); a
SQLite "datatype mismatch" can only come from a table's integer key (an alias of its row id),
so it names that. The text is redacted by the target (no URL, no password) and cut to one
line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Integer, Table
from sqlalchemy.exc import SQLAlchemyError

from claims_records import SeedError

from ._target import SqlTarget

_SQLITE_COLUMN = re.compile(r"(?:constraint failed|column): (?:[\w\"`]+)\.([\w\"`]+)")
_PG_KEY = re.compile(r"Key \(([^),]+)")
_PG_COLUMN = re.compile(r'column "([^"]+)"')


@dataclass
class Where:
    """The table (and the profile key that fills it) an operation is at, for its errors."""

    table: Table | str | None = None
    field: str | None = None

    @property
    def name(self) -> str | None:
        return self.table.name if isinstance(self.table, Table) else self.table


def failed_column(exc: BaseException, table: Table | str | None) -> str | None:
    """The column a database error is about, when the database says or it can be told."""
    orig = getattr(exc, "orig", None)
    diag = getattr(orig, "diag", None)
    if diag is not None:  # PostgreSQL (psycopg)
        if getattr(diag, "column_name", None):
            return str(diag.column_name)
        found = (_PG_KEY.search(getattr(diag, "message_detail", None) or "")
                 or _PG_COLUMN.search(getattr(diag, "message_primary", None) or ""))
        return found[1].strip().strip('"') if found else None
    text = str(orig if orig is not None else exc)
    found = _SQLITE_COLUMN.search(text)
    if found:
        return found[1].strip('"`')
    if "datatype mismatch" in text and isinstance(table, Table):
        keys = list(table.primary_key.columns)
        if len(keys) == 1 and isinstance(keys[0].type, Integer):
            return keys[0].name
    return None


@contextmanager
def named(target: SqlTarget, what: str, where: Where,
          wrap: Callable[[SeedError], SeedError] | None = None) -> Iterator[Where]:
    """Turn a SQLAlchemy error raised inside into a ``SeedError`` (``what: detail``) naming
    the database, ``where``'s table and field, and the column when it can be told; ``wrap``
    makes another kind of error of it (a refusal)."""
    try:
        yield where
    except SQLAlchemyError as exc:
        context: dict[str, Any] = {"table": where.name, "field": where.field,
                                   "column": failed_column(exc, where.table)}
        error = target.error(what, exc, **context)
        raise (wrap(error) if wrap is not None else error) from exc
