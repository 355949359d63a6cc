"""Rows read back as documents, keyed, and compared with the rows a reset meant to write.

Reading, every column that is not ``NULL`` is a field (the extra column's fields merged back)
and a document's key is its primary key; a value the column's type cannot read (text that is
no date in a SQLite ``DATE`` column, broken JSON) is read as the text the database holds.

Comparing, each meant row is matched with the row read by its key (its primary key when the
plan gives it, else the column holding its canonical id) and compared value by value in the
columns' own types; rows without either (child rows the database numbers) are compared as a
multiset: each meant row to a row of its own that holds it. A column the database filled
itself is not a difference.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Column, Connection, String, Table, select, type_coerce
from sqlalchemy.sql.elements import Null

from ..._jsonsafe import id_key, json_safe
from ._values import plain

_ABSENT = object()


def read_rows(conn: Connection, table: Table) -> list[Mapping[Any, Any]]:
    """Every row of ``table``; a column whose values its type cannot read is read as text."""
    try:
        return [row._mapping for row in conn.execute(select(table))]
    except ValueError:  # the type's own reading (dates, JSON) of what the product wrote
        columns = [type_coerce(c, String).label(c.name) if not _readable(conn, c) else c
                   for c in table.columns]
        return [row._mapping for row in conn.execute(select(*columns))]


def _readable(conn: Connection, column: Column[Any]) -> bool:
    try:
        conn.execute(select(column)).all()
    except ValueError:
        return False
    return True


def as_document(table: Table, row: Mapping[Any, Any], extra: str) -> dict[str, Any]:
    """A row as a JSON document: its non-NULL columns, the extra column's fields merged in."""
    doc: dict[str, Any] = {}
    for column in table.columns:
        value = row.get(column.name)
        if column.name == extra or value is None or isinstance(value, Null):
            continue
        doc[column.name] = plain(value)
    extra_value = row.get(extra) if extra else None
    if isinstance(extra_value, dict):
        for name, value in extra_value.items():
            doc.setdefault(name, json_safe(value))
    return doc


def keyed(table: Table, docs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Documents keyed by their primary key (its columns joined by '|'), or by position, in
    key order."""
    columns = [c.name for c in table.primary_key.columns]
    out = {}
    for n, doc in enumerate(docs):
        parts = [doc.get(c) for c in columns]
        key = "|".join(id_key(p) for p in parts) if columns and None not in parts else f"#{n}"
        out[key] = doc
    return {k: out[k] for k in sorted(out)}


def match_key(table: Table, want: list[dict[str, Any]], id_column: str) -> list[str]:
    """The columns that tell which row is which document: the primary key when the plan
    gives it, else the column holding the canonical id; none (rows matched as a whole)
    for rows the database numbers itself, such as child rows."""
    keys = [c.name for c in table.primary_key.columns]
    if keys and all(all(k in doc for k in keys) for doc in want):
        return keys
    if id_column and all(id_column in doc for doc in want):
        return [id_column]
    return []


def compare(name: str, want: list[dict[str, Any]], have: list[dict[str, Any]],
            key: list[str]) -> list[str]:
    """Differences between the documents meant and those read (a field the database filled
    itself is not one): matched by ``key``'s columns, or each meant document to a row that
    holds it, when there is no key."""
    def fits(meant: dict[str, Any], found: dict[str, Any]) -> bool:
        return all(found.get(k, _ABSENT) == v for k, v in meant.items())

    if not key:
        matched = _matching([[j for j, found in enumerate(have) if fits(doc, found)]
                             for doc in want])
        missing = len(want) - matched
        return ([f"missing or different row in {name}"] * missing
                + [f"unexpected row in {name}"] * (len(have) - matched))

    def ident(doc: dict[str, Any]) -> str:
        return "|".join(id_key(doc.get(k)) for k in key)

    wanted = {ident(d): d for d in want}
    found = {ident(d): d for d in have}
    problems = []
    for doc_id in sorted(set(wanted) | set(found)):
        if doc_id not in found:
            problems.append(f"missing document {name}/{doc_id}")
        elif doc_id not in wanted:
            problems.append(f"unexpected document {name}/{doc_id}")
        elif not fits(wanted[doc_id], found[doc_id]):
            problems.append(f"document {name}/{doc_id} differs")
    return problems


def _matching(fits: list[list[int]]) -> int:
    """How many meant rows can each have a row of their own: ``fits[i]`` lists the rows read
    that hold meant row ``i``. A maximum bipartite matching (augmenting paths, searched
    breadth first), so a row that holds two meant rows goes to the one no other row holds."""
    owner: dict[int, int] = {}  # row read -> the meant row it is given to
    held: dict[int, int] = {}  # meant row -> the row read it holds
    for start in range(len(fits)):
        reached: dict[int, int] = {}  # row read -> the meant row that reached it
        queue, seen, free = deque([start]), {start}, None
        while queue and free is None:
            i = queue.popleft()
            for j in fits[i]:
                if j in reached:
                    continue
                reached[j] = i
                if j not in owner:
                    free = j
                    break
                if owner[j] not in seen:
                    seen.add(owner[j])
                    queue.append(owner[j])
        while free is not None:  # hand each row along the path to the meant row reaching it
            i = reached[free]
            before = held.get(i)
            owner[free], held[i] = i, free
            free = before if i != start else None
    return len(held)
