"""A reset's documents as the rows of a SQL database's tables, every check made on the way.

- each top-level field of a document (in the product's names, after the profile's mapping)
  goes into the column of the same name; ``_id``, when the table has no such column, into its
  one-column primary key;
- a table whose rows the product numbers itself (``key = "assigned"``), or whose rows other
  rows refer to without a key of their own, gets the next integer of the plan in that key,
  and the canonical id each number stands for is remembered;
- a reference (``Ref``) becomes the key of the row it refers to (an integer key, a foreign
  key), resolved once every row of the plan has its key;
- a field without a column goes into the table's ``extra_column`` (a JSON column) when the
  profile names one, and is refused otherwise; a value that does not fit its column's type
  (a JSON object outside a JSON column, text in an integer key) is refused; so is a NOT NULL
  column without a default that a row leaves empty, and a value for a column the database
  takes none for (GENERATED ALWAYS AS IDENTITY).

Every refusal names the profile key (``field``), the table and, where there is one, the
column; all of them come before anything is emptied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Integer, Table
from sqlalchemy.sql.elements import Null

from claims_records import ProfileError, SeedError

from .._base import Documents, ProductDocument, Ref
from ._values import NestedValueError, is_json, to_column

Row = dict[str, Any]


@dataclass(frozen=True)
class TableSpec:
    """How one table holds a collection's documents."""

    key: str  # the profile key that puts documents here, named in errors ("mapping.claims")
    extra_column: str = ""  # a JSON column for fields without a column ('' = refused)
    assigned: bool = False  # the product numbers the rows: the plan gives each a key
    id_column: str = ""  # the column holding the canonical id, when not the primary key


@dataclass
class SqlPlan:
    """Rows per table (already in the columns' types), the tables a reset empties, the
    canonical ids of the rows whose keys the plan assigned, and the tables as the plan
    reflected them, in foreign-key order (the reset writes and reads back through them)."""

    rows: dict[str, list[Row]]
    names: list[str]
    assigned: dict[tuple[str, str], str] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)


def key_column(table: Table) -> str | None:
    """The table's one-column primary key (None: none, or composite)."""
    keys = list(table.primary_key.columns)
    return keys[0].name if len(keys) == 1 else None


@dataclass
class RowPlanner:
    """Turns documents into the rows of reflected ``tables``; ``spec`` says how each table
    holds documents, ``database`` is named in errors."""

    tables: dict[str, Table]
    spec: Callable[[str], TableSpec]
    database: str

    def plan(self, documents: Documents, names: list[str]) -> SqlPlan:
        """The rows of every table in ``names`` (their documents in ``documents``)."""
        referred = {v.collection for docs in documents.values() for d in docs
                    for v in d.values.values() if isinstance(v, Ref)}
        keys: dict[tuple[str, str], Any] = {}
        assigned: dict[tuple[str, str], str] = {}
        staged: dict[str, list[tuple[Row, ProductDocument]]] = {}
        for name in names:
            docs = documents.get(name, [])
            staged[name] = [(self._row(self.tables[name], d.values, d.source), d) for d in docs]
            assigned |= self._number(name, staged[name], name in referred)
            column = key_column(self.tables[name])
            for row, doc in staged[name]:
                if doc.canonical_id is not None and column in row:
                    keys[(name, doc.canonical_id)] = row[column]
        rows = {name: [self._typed(self.tables[name], self._resolve(name, row, keys), doc.source)
                       for row, doc in pairs] for name, pairs in staged.items()}
        for name, table_rows in rows.items():
            self._check_written(self.tables[name], table_rows)
            self._check_required(self.tables[name], table_rows)
        return SqlPlan(rows, names, assigned, {n: t for n, t in self.tables.items()
                                               if n in names})

    def _where(self, table: str, **more: Any) -> dict[str, Any]:
        return {"database": self.database, "table": table, **more}

    def _row(self, table: Table, values: dict[str, Any], source: str) -> Row:
        """A document as a row: columns by field name, the rest in the extra column."""
        spec = self.spec(table.name)
        extra = spec.extra_column
        if extra and (extra not in table.c or not is_json(table.c[extra])):
            raise ProfileError(f"the extra column {extra!r} is not a JSON column of "
                               f"{table.name!r}", field=f"{spec.key}.extra_column",
                               **self._where(table.name, column=extra))
        key = key_column(table)
        row: Row = {}
        rest: dict[str, Any] = {}
        for name, value in values.items():
            column = key if name == "_id" and "_id" not in table.c else name
            if column is not None and column in table.c and column != extra:
                row[column] = value
            else:
                rest[name] = value
        if rest and not extra:
            raise ProfileError(
                f"table {table.name!r} has no column for {sorted(rest)}: map them to columns, "
                "drop them (drop = [...]), or name a JSON column for the rest (extra_column)",
                field=f"{source or spec.key}.fields", **self._where(table.name))
        if extra:
            row[extra] = rest or None
        return row

    def _number(self, name: str, pairs: list[tuple[Row, ProductDocument]], referred: bool
                ) -> dict[tuple[str, str], str]:
        """Give each row without a key the next integer; (table, number) -> canonical id of
        the rows of a table whose keys the product assigns."""
        spec = self.spec(name)
        table = self.tables[name]
        column = key_column(table)
        if not spec.assigned and not (referred and any(column not in row for row, _ in pairs)):
            return {}
        if column is None or not isinstance(table.c[column].type, Integer):
            raise ProfileError(f"table {name!r} has no one-column integer key for the harness "
                               "to number its rows (key = 'assigned', or rows other rows refer "
                               "to)", field=f"{spec.key}.key", **self._where(name))
        given = [row[column] for row, _ in pairs if isinstance(row.get(column), int)]
        number = max(given, default=0)
        out = {}
        for row, doc in pairs:
            if column in row:
                continue
            number += 1
            row[column] = number
            if spec.assigned and doc.canonical_id is not None:
                out[(name, str(number))] = doc.canonical_id
        return out

    def _resolve(self, name: str, row: Row, keys: dict[tuple[str, str], Any]) -> Row:
        """``row`` with every reference replaced by the key of the row it refers to."""
        out = {}
        for column, value in row.items():
            if isinstance(value, Ref):
                if (value.collection, value.canonical_id) not in keys:
                    raise ProfileError(
                        f"column {column!r} of {name!r} refers to {value.collection}/"
                        f"{value.canonical_id}, which this reset does not write",
                        field=value.field, **self._where(name, column=column,
                                                          refers_to=value.collection))
                value = keys[(value.collection, value.canonical_id)]
            out[column] = value
        return out

    def _typed(self, table: Table, row: Row, source: str) -> Row:
        spec = self.spec(table.name)
        where = source or spec.key
        out = {}
        for column, value in row.items():
            try:
                out[column] = to_column(value, table.c[column])
            except NestedValueError as exc:
                raise ProfileError(f"{exc}: make it a JSON column, map the value's parts to "
                                   "columns, or leave it to the extra column",
                                   field=f"{where}.fields",
                                   **self._where(table.name, column=column)) from exc
            except ValueError as exc:
                if column == key_column(table) and isinstance(value, str):
                    raise ProfileError(
                        f"the table's key does not fit the canonical id: {exc}: let the "
                        "harness number the rows (key = 'assigned') or map _id to a text "
                        "column (fields._id)", field=f"{spec.key}.key",
                        **self._where(table.name, column=column)) from exc
                if table.c[column].foreign_keys and isinstance(value, str):
                    raise ProfileError(
                        f"a foreign key does not fit the canonical id it holds: {exc}: "
                        "declare the reference (refs.<field> = '<canonical collection>') so "
                        "the referred row's key is written", field=f"{spec.key}.refs",
                        **self._where(table.name, column=column)) from exc
                raise SeedError(f"a value does not fit its column: {exc}", field=where,
                                **self._where(table.name, column=column)) from exc
        return out

    def _check_written(self, table: Table, rows: list[Row]) -> None:
        """Refuse a value for a column the database numbers itself and takes no value for
        (PostgreSQL's GENERATED ALWAYS AS IDENTITY): the write would fail once emptied."""
        written = {column for row in rows for column in row}
        for column in table.columns:
            identity = getattr(column, "identity", None)
            if column.name in written and identity is not None and identity.always:
                spec = self.spec(table.name)
                key = column.name == key_column(table)
                raise ProfileError(
                    f"column {column.name!r} of {table.name!r} is GENERATED ALWAYS AS IDENTITY: "
                    "the database takes no value for it, and the reset gives "
                    + ("each row its key (declare it GENERATED BY DEFAULT AS IDENTITY)" if key
                       else "it one (leave it out: drop the field, or map it elsewhere)"),
                    field=f"{spec.key}.key" if key else f"{spec.key}.fields",
                    **self._where(table.name, column=column.name))

    def _check_required(self, table: Table, rows: list[Row]) -> None:
        """Refuse a NOT NULL column without a default that a row leaves empty."""
        for column in table.columns:
            if column.nullable or column.server_default is not None or (
                    column.primary_key and isinstance(column.type, Integer)
                    and column.autoincrement in (True, "auto")):
                continue
            empty = sum(1 for row in rows if row.get(column.name) is None
                        or isinstance(row.get(column.name), Null))
            if empty:
                raise ProfileError(
                    f"column {column.name!r} of {table.name!r} may not be empty and {empty} "
                    "row(s) of the reset leave it so: give it a value in the profile (fixed or "
                    "derived) or map a field to it", field=f"{self.spec(table.name).key}.fixed",
                    **self._where(table.name, column=column.name))
