"""A product's SQL database as a direct reset writes it and a state dump reads it.

Documents <-> rows, one table per collection:

- each top-level field of a document (in the product's names, after the profile's mapping)
  goes into the column of the same name, so ``[mapping]`` renames a nested canonical path to
  a flat column (``"triage.class" = "triage_class"``);
- the document id (``_id``, or the field the mapping renames it to) goes into the column of
  that name, else into the table's primary key when it is one column;
- a field without a column of its own goes into the table's ``extra_column`` (a JSON column)
  when the profile names one, and is refused otherwise; a JSON object or list goes only into
  a JSON column;
- reading, a ``NULL`` column is an absent field, and the extra column's fields are merged back.

A reset deletes the rows of the tables in scope and inserts the new ones in one transaction,
in foreign-key order; a PostgreSQL sequence behind a written column is moved past the largest
value written. Then the rows are read back and compared with what was meant, value by value
in the columns' own types: a column the database filled by default is not a difference.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Integer, MetaData, Table, func, inspect, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql.elements import Null

from claims_records import ProfileError, SeedError, StateDump

from .._guard import _is_production
from .._jsonsafe import id_key, json_safe
from .._names import ENVIRONMENT_COLLECTION, REASON_PRODUCTION_MARKER, RESERVED_COLLECTIONS
from .._objects import ObjectStore
from .._plan import PlannedObject
from .._state import utc_now_iso
from ._target import SqlTarget
from ._values import NestedValueError, is_json, plain, to_column

Documents = dict[str, list[dict[str, Any]]]


@dataclass(frozen=True)
class TableSpec:
    """How one table holds a collection's documents."""

    key: str  # the profile key that puts documents here, named in errors ("mapping.claims")
    id_field: str = "_id"  # the document field holding its id
    extra_column: str = ""  # a JSON column for fields without a column ('' = refused)


class SqlStore:
    """One SQL database, reached through ``target``; ``tables`` says how tables hold
    documents (a table not named uses ``_id`` and no extra column)."""

    def __init__(self, target: SqlTarget, tables: Mapping[str, TableSpec]) -> None:
        self.target = target
        self.name = target.name
        self.tables = dict(tables)
        self.engine = target.engine()

    def spec(self, table: str) -> TableSpec:
        return self.tables.get(table) or TableSpec(key=f"mapping.{table}")

    # ------------------------------------------------------------------ guards
    def _check_not_production(self, conn: Connection) -> None:
        """Refuse a database holding a table ``_environment`` (any letter case) with a row
        whose ``kind`` is production (``production``, ``prod`` or ``live``, any case)."""
        for name in inspect(conn).get_table_names():
            if name.lower() != ENVIRONMENT_COLLECTION:
                continue
            table = Table(name, MetaData(), autoload_with=conn)
            kind = next((c for c in table.columns if c.name.lower() == "kind"), None)
            if kind is not None and any(_is_production({"kind": value})
                                        for value in conn.execute(select(kind)).scalars()):
                raise SeedError("database carries the production marker", database=self.name,
                                table=name, reason=REASON_PRODUCTION_MARKER)

    def _tables(self, conn: Connection, names: Iterable[str]) -> dict[str, Table]:
        """The tables ``names``, reflected; a missing or reserved one is refused."""
        wanted = sorted(set(names))
        reserved = [n for n in wanted if n.lower() in RESERVED_COLLECTIONS
                    or n.lower().startswith("sqlite_")]
        if reserved:
            raise SeedError("a direct reset may not write reserved tables", tables=reserved)
        existing = set(inspect(conn).get_table_names())
        for name in wanted:
            if name not in existing:
                spec = self.spec(name)
                raise ProfileError(
                    f"the database has no table {name!r}: name the product's table (or '' "
                    "when it has none) in the profile", database=self.name,
                    field=spec.key if spec.key == "stores.collections"
                    else f"{spec.key}.collection")
        meta = MetaData()
        meta.reflect(bind=conn, only=wanted)
        return {t.name: t for t in meta.sorted_tables if t.name in wanted}

    # ------------------------------------------------------------------ documents <-> rows
    def _id_column(self, table: Table) -> str | None:
        spec = self.spec(table.name)
        if spec.id_field in table.c:
            return spec.id_field
        keys = list(table.primary_key.columns)
        return keys[0].name if spec.id_field == "_id" and len(keys) == 1 else None

    def _rows(self, table: Table, docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        spec = self.spec(table.name)
        where = {"database": self.name, "table": table.name}
        id_column = self._id_column(table)
        if id_column is None:
            raise ProfileError(f"table {table.name!r} has no column {spec.id_field!r} and no "
                               "one-column primary key for the document id: map '_id' to a "
                               "column", field=f"{spec.key}.fields._id", **where)
        extra = spec.extra_column
        if extra and (extra not in table.c or not is_json(table.c[extra])):
            raise ProfileError(f"the extra column {extra!r} is not a JSON column of "
                               f"{table.name!r}", field=f"{spec.key}.extra_column", **where)
        rows = []
        for doc in docs:
            row: dict[str, Any] = {}
            rest: dict[str, Any] = {}
            for name, value in doc.items():
                column = id_column if name == spec.id_field else name
                if column in table.c and column != extra:
                    row[column] = value
                else:
                    rest[name] = value
            if rest and not extra:
                raise ProfileError(
                    f"table {table.name!r} has no column for {sorted(rest)}: map them to "
                    "columns, or name a JSON column for the rest (extra_column)",
                    field=f"{spec.key}.fields", **where)
            if extra:
                row[extra] = rest or None
            rows.append({c: self._value(table, c, v, spec) for c, v in row.items()})
        return rows

    def _value(self, table: Table, column: str, value: Any, spec: TableSpec) -> Any:
        try:
            return to_column(value, table.c[column])
        except NestedValueError as exc:
            raise ProfileError(f"{exc}: make it a JSON column, map the value's parts to "
                               "columns, or leave it to the extra column",
                               field=f"{spec.key}.fields", database=self.name,
                               table=table.name) from exc
        except ValueError as exc:
            raise SeedError(f"a value does not fit its column: {exc}", database=self.name,
                            table=table.name, column=column) from exc

    def _document(self, table: Table, row: Mapping[Any, Any]) -> dict[str, Any]:
        spec = self.spec(table.name)
        id_column = self._id_column(table)
        doc: dict[str, Any] = {}
        for column in table.columns:
            value = row.get(column.name)
            if column.name == spec.extra_column or value is None or isinstance(value, Null):
                continue
            doc[spec.id_field if column.name == id_column else column.name] = plain(value)
        extra = row.get(spec.extra_column) if spec.extra_column else None
        if isinstance(extra, dict):
            for name, value in extra.items():
                doc.setdefault(name, json_safe(value))
        return doc

    def _read(self, conn: Connection, table: Table) -> dict[str, dict[str, Any]]:
        id_field = self.spec(table.name).id_field
        docs = [self._document(table, row._mapping) for row in conn.execute(select(table))]
        keyed = {id_key(d[id_field]) if id_field in d else id_key(d): d for d in docs}
        return {k: keyed[k] for k in sorted(keyed)}

    # ------------------------------------------------------------------ reset
    def apply_scoped(self, collections: Documents, store: ObjectStore | None,
                     objects: list[PlannedObject], scope: list[str]) -> list[str]:
        """Empty the tables in ``scope`` (and the object store), insert ``collections``;
        return the differences found reading them back (empty: the database holds them)."""
        names = sorted(set(scope) | {n for n, docs in collections.items() if docs})
        try:
            with self.engine.begin() as conn:
                self._check_not_production(conn)
                if store is not None:
                    store.check()  # before anything is emptied
                tables = self._tables(conn, names)
                rows = {n: self._rows(t, collections.get(n, [])) for n, t in tables.items()}
                for table in reversed(tables.values()):
                    conn.execute(table.delete())
                for name, table in tables.items():
                    self._insert(conn, table, rows[name])
        except SQLAlchemyError as exc:
            raise self.target.error("the database failed during a direct reset", exc) from exc
        if store is not None:
            store.replace(objects)
        problems = self.problems(collections)
        return problems + (store.problems(objects) if store is not None else [])

    def _insert(self, conn: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
        groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for row in rows:  # rows with the same columns together: defaults fill the others
            groups.setdefault(tuple(row), []).append(row)
        for group in groups.values():
            conn.execute(table.insert(), group)
        if rows and conn.dialect.name == "postgresql":
            written = {c for row in rows for c in row}
            for column in table.columns:
                if column.name in written and isinstance(column.type, Integer):
                    self._advance_sequence(conn, table, column.name)

    @staticmethod
    def _advance_sequence(conn: Connection, table: Table, column: str) -> None:
        """Move a serial or identity column's sequence past the largest value written."""
        qualified = conn.dialect.identifier_preparer.format_table(table)
        sequence = conn.execute(text("SELECT pg_get_serial_sequence(:t, :c)"),
                                {"t": qualified, "c": column}).scalar()
        if sequence:
            top = conn.execute(select(func.max(table.c[column]))).scalar() or 0
            conn.execute(text("SELECT setval(:s, :v, false)"), {"s": sequence, "v": top + 1})

    # ------------------------------------------------------------------ reading
    def problems(self, collections: Documents) -> list[str]:
        """Differences between ``collections`` and the rows of their tables, compared in the
        columns' types; a column the database filled itself is not a difference."""
        names = sorted(n for n, docs in collections.items() if docs)
        problems: list[str] = []
        try:
            with self.engine.connect() as conn:
                tables = self._tables(conn, names)
                for name, table in tables.items():
                    id_field = self.spec(name).id_field
                    want = {id_key(d[id_field]): self._document(table, row) for d, row in
                            zip(collections[name], self._rows(table, collections[name]),
                                strict=True)}
                    have = self._read(conn, table)
                    problems += _compare(name, want, have)
        except SQLAlchemyError as exc:
            raise self.target.error("cannot read the database", exc) from exc
        return problems

    def read(self, names: Iterable[str]) -> dict[str, dict[str, dict[str, Any]]]:
        """The documents of the tables ``names`` (empty tables left out), keyed by id."""
        try:
            with self.engine.connect() as conn:
                tables = self._tables(conn, names)
                out = {name: self._read(conn, table) for name, table in tables.items()}
        except SQLAlchemyError as exc:
            raise self.target.error("cannot read the database", exc) from exc
        return {name: out[name] for name in sorted(out) if out[name]}

    def dump(self, names: Iterable[str], store: ObjectStore | None) -> StateDump:
        """The tables ``names`` and, when given, every object of ``store``."""
        return StateDump(taken_at=utc_now_iso(), database=self.name,
                         bucket=store.name if store is not None else "",
                         collections=self.read(names),
                         objects=store.dump() if store is not None else {})

    def close(self) -> None:
        self.engine.dispose()


def _compare(name: str, want: dict[str, dict[str, Any]],
             have: dict[str, dict[str, Any]]) -> list[str]:
    problems = []
    for doc_id in sorted(set(want) | set(have)):
        if doc_id not in have:
            problems.append(f"missing document {name}/{doc_id}")
        elif doc_id not in want:
            problems.append(f"unexpected document {name}/{doc_id}")
        elif any(have[doc_id].get(k, _ABSENT) != v for k, v in want[doc_id].items()):
            problems.append(f"document {name}/{doc_id} differs")
    return problems


_ABSENT = object()
