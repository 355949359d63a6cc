"""A product's SQL database as a store: documents <-> rows, one table per collection.

- each top-level field of a document (in the product's names, after the profile's mapping)
  goes into the column of the same name; ``_id``, when the table has no such column, into its
  one-column primary key;
- a table whose rows the product numbers itself (``key = "assigned"`` in the mapping) gets
  the next integer of the plan in that key, and the canonical id it stands for is remembered;
- a reference (``Ref``) becomes the key of the row it refers to (an integer key, a foreign
  key), resolved once every row of the plan has its key;
- a field without a column goes into the table's ``extra_column`` (a JSON column) when the
  profile names one, and is refused otherwise; a JSON object or list goes only into a JSON
  column; a NOT NULL column without a default that no row fills is refused, naming it;
- reading, every column that is not ``NULL`` is a field (the extra column's fields merged
  back), and a document's key is its primary key.

Every check — a missing table or column, a value that does not fit its column's type — is
made by ``plan``, before anything is emptied. A reset deletes the rows of the tables in scope
and inserts the new ones in one transaction, in foreign-key order; a PostgreSQL sequence
behind a written column is moved past the largest value written. Then the rows are read back
and compared with what was meant, value by value in the columns' own types: a column the
database filled by default is not a difference. Every database error names its table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Integer, MetaData, Table, func, inspect, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.sql.elements import Null

from claims_records import ProfileError, SeedError

from ..._guard import _is_production
from ..._jsonsafe import id_key, json_safe
from ..._names import ENVIRONMENT_COLLECTION, REASON_PRODUCTION_MARKER, RESERVED_COLLECTIONS
from ..._plan import PlannedObject
from .._base import Documents, DocumentStore, DumpedCollections, NamePolicy, Ref, refuse
from ._target import SqlTarget
from ._values import NestedValueError, is_json, plain, to_column

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
    """Rows per table (already in the columns' types), the tables a reset empties, and the
    canonical ids of the rows whose keys the plan assigned."""

    rows: dict[str, list[Row]]
    names: list[str]
    assigned: dict[tuple[str, str], str] = field(default_factory=dict)


class SqlStore(DocumentStore):
    """One SQL database, reached through ``target``; ``tables`` says how tables hold
    documents (a table not named has no extra column and keeps its own keys)."""

    kind = "sql"

    def __init__(self, target: SqlTarget, names: NamePolicy,
                 tables: Mapping[str, TableSpec] | None = None,
                 scope: Iterable[str] = ()) -> None:
        self.target = target
        self.name = target.name
        self.names = names
        self.tables = dict(tables or {})
        self.scope = sorted(set(scope))
        self._engine: Any = None
        self._key_fields: dict[str, str | None] = {}

    @property
    def engine(self) -> Any:
        if self._engine is None:
            self._engine = self.target.engine()
        return self._engine

    def spec(self, table: str) -> TableSpec:
        return self.tables.get(table) or TableSpec(key=f"mapping.{table}")

    # ------------------------------------------------------------------ guard
    def guard(self) -> None:
        if not self.name:
            raise refuse("the SQL URL names no database", database=self.target.shown,
                         setting=self.names.setting)
        self.names.check(self.name)
        try:
            with self.engine.connect() as conn:
                self._check_not_production(conn)
                self._tables(conn, self.scope)
        except SQLAlchemyError as exc:
            raise self._refusal("the database cannot be reached", exc) from exc

    def _refusal(self, what: str, exc: BaseException, **context: Any) -> SeedError:
        error = self.target.error(what, exc, **context)
        return refuse(error.message, **error.context)

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
                raise refuse("database carries the production marker", database=self.name,
                             table=name, reason=REASON_PRODUCTION_MARKER)

    def _tables(self, conn: Connection, names: Iterable[str]) -> dict[str, Table]:
        """The tables ``names``, reflected, in foreign-key order; a missing or reserved one
        is refused."""
        wanted = sorted(set(names))
        reserved = [n for n in wanted if n.lower() in RESERVED_COLLECTIONS
                    or n.lower().startswith("sqlite_")]
        if reserved:
            raise refuse("a reset may not write reserved tables", database=self.name,
                         tables=reserved)
        existing = set(inspect(conn).get_table_names())
        for name in wanted:
            if name not in existing:
                spec = self.spec(name)
                where = (spec.key if spec.key == "stores.collections" or ".children." in
                         spec.key else f"{spec.key}.collection")
                raise refuse(f"the database has no table {name!r}: name the product's table "
                             "(or '' when it has none) in the profile", database=self.name,
                             table=name, field=where)
        meta = MetaData()
        meta.reflect(bind=conn, only=wanted)
        return {t.name: t for t in meta.sorted_tables if t.name in wanted}

    # ------------------------------------------------------------------ plan
    def plan(self, documents: Documents, objects: list[PlannedObject]) -> SqlPlan:
        written = [n for n, docs in documents.items() if docs]
        names = sorted({*self.scope, *written})
        try:
            with self.engine.connect() as conn:
                tables = self._tables(conn, names)
        except SQLAlchemyError as exc:
            raise self._refusal("the database cannot be read", exc) from exc
        referred = {v.collection for docs in documents.values() for d in docs
                    for v in d.values.values() if isinstance(v, Ref)}
        keys: dict[tuple[str, str], Any] = {}
        assigned: dict[tuple[str, str], str] = {}
        staged: dict[str, list[Row]] = {}
        for name in names:
            table = tables[name]
            docs = documents.get(name, [])
            staged[name] = rows = [self._row(table, doc.values, doc.source) for doc in docs]
            spec = self.spec(name)
            key_column = _key_column(table)
            numbered = spec.assigned or (name in referred and any(
                key_column not in row for row in rows))
            if numbered:
                if key_column is None or not isinstance(table.c[key_column].type, Integer):
                    raise ProfileError(f"table {name!r} has no one-column integer key for the "
                                       "harness to number its rows (key = 'assigned', or rows "
                                       "other rows refer to)", field=f"{spec.key}.key",
                                       database=self.name, table=name)
                given = [r[key_column] for r in rows if isinstance(r.get(key_column), int)]
                number = max(given, default=0)
                for row, doc in zip(rows, docs, strict=True):
                    if key_column in row:
                        continue
                    number += 1
                    row[key_column] = number
                    if spec.assigned and doc.canonical_id is not None:
                        assigned[(name, str(number))] = doc.canonical_id
            for row, doc in zip(rows, docs, strict=True):
                if doc.canonical_id is not None and key_column in row:
                    keys[(name, doc.canonical_id)] = row[key_column]
        out = {name: [self._typed(tables[name], _resolve(row, keys)) for row in rows]
               for name, rows in staged.items()}
        for name, rows in out.items():
            self._check_required(tables[name], rows)
        return SqlPlan(out, names, assigned)

    def _row(self, table: Table, values: dict[str, Any], source: str) -> Row:
        """A document as a row: columns by field name, the rest in the extra column."""
        spec = self.spec(table.name)
        where = {"database": self.name, "table": table.name}
        extra = spec.extra_column
        if extra and (extra not in table.c or not is_json(table.c[extra])):
            raise ProfileError(f"the extra column {extra!r} is not a JSON column of "
                               f"{table.name!r}", field=f"{spec.key}.extra_column", **where)
        key_column = _key_column(table)
        row: Row = {}
        rest: dict[str, Any] = {}
        for name, value in values.items():
            column = key_column if name == "_id" and "_id" not in table.c else name
            if column is not None and column in table.c and column != extra:
                row[column] = value
            else:
                rest[name] = value
        if rest and not extra:
            raise ProfileError(
                f"table {table.name!r} has no column for {sorted(rest)}: map them to columns, "
                "drop them (drop = [...]), or name a JSON column for the rest (extra_column)",
                field=f"{source or spec.key}.fields", **where)
        if extra:
            row[extra] = rest or None
        return row

    def _typed(self, table: Table, row: Row) -> Row:
        spec = self.spec(table.name)
        out = {}
        for column, value in row.items():
            try:
                out[column] = to_column(value, table.c[column])
            except NestedValueError as exc:
                raise ProfileError(f"{exc}: make it a JSON column, map the value's parts to "
                                   "columns, or leave it to the extra column",
                                   field=f"{spec.key}.fields", database=self.name,
                                   table=table.name, column=column) from exc
            except ValueError as exc:
                raise SeedError(f"a value does not fit its column: {exc}", database=self.name,
                                table=table.name, column=column) from exc
        return out

    def _check_required(self, table: Table, rows: list[Row]) -> None:
        """Refuse a NOT NULL column without a default that a row leaves empty."""
        for column in table.columns:
            if column.nullable or column.server_default is not None or (
                    column.primary_key and isinstance(column.type, Integer)
                    and column.autoincrement in (True, "auto")):
                continue
            empty = sum(1 for row in rows if row.get(column.name) is None)
            if empty:
                raise ProfileError(
                    f"column {column.name!r} of {table.name!r} may not be empty and {empty} "
                    "row(s) of the reset leave it so: give it a value in the profile (fixed or "
                    "derived) or map a field to it", field=f"{self.spec(table.name).key}.fixed",
                    database=self.name, table=table.name, column=column.name)

    # ------------------------------------------------------------------ writing
    def clear(self, plan: SqlPlan) -> None:
        self._write(plan, load=False)

    def load(self, plan: SqlPlan) -> None:
        self._write(plan, clear=False)

    def replace(self, plan: SqlPlan) -> None:
        """Empty the tables in scope and insert the plan, in one transaction."""
        self._write(plan)

    def assigned(self, plan: SqlPlan) -> dict[tuple[str, str], str]:
        return dict(plan.assigned)

    def _write(self, plan: SqlPlan, clear: bool = True, load: bool = True) -> None:
        table_name = ""
        try:
            with self.engine.begin() as conn:
                tables = self._tables(conn, plan.names)
                if clear:
                    for table in reversed(tables.values()):
                        table_name = table.name
                        conn.execute(table.delete())
                if load:
                    for name, table in tables.items():
                        table_name = name
                        self._insert(conn, table, plan.rows.get(name, []))
        except SQLAlchemyError as exc:
            raise self.target.error("the database failed during a reset", exc,
                                    table=table_name or None) from exc

    def _insert(self, conn: Connection, table: Table, rows: list[Row]) -> None:
        groups: dict[tuple[str, ...], list[Row]] = {}
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
    def verify(self, plan: SqlPlan) -> list[str]:
        problems: list[str] = []
        try:
            with self.engine.connect() as conn:
                tables = self._tables(conn, plan.names)
                for name, table in tables.items():
                    want = [self._document(table, row) for row in plan.rows.get(name, [])]
                    have = [self._document(table, row._mapping)
                            for row in conn.execute(select(table))]
                    problems += _compare(name, want, have, self._match_key(table, want))
        except SQLAlchemyError as exc:
            raise self.target.error("cannot read the database", exc) from exc
        return problems

    def _match_key(self, table: Table, want: list[dict[str, Any]]) -> list[str]:
        """The columns that tell which row is which document: the primary key when the plan
        gives it, else the column holding the canonical id; none (rows matched as a whole)
        for rows the database numbers itself, such as child rows."""
        keys = [c.name for c in table.primary_key.columns]
        if keys and all(all(k in doc for k in keys) for doc in want):
            return keys
        id_column = self.spec(table.name).id_column
        if id_column and all(id_column in doc for doc in want):
            return [id_column]
        return []

    def _document(self, table: Table, row: Mapping[Any, Any]) -> dict[str, Any]:
        extra = self.spec(table.name).extra_column
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

    def _read(self, conn: Connection, table: Table) -> dict[str, dict[str, Any]]:
        docs = [self._document(table, row._mapping) for row in conn.execute(select(table))]
        keyed = _keyed(table, docs)
        return {k: keyed[k] for k in sorted(keyed)}

    def dump(self, names: list[str] | None = None) -> DumpedCollections:
        wanted = names if names is not None else self.scope
        try:
            with self.engine.connect() as conn:
                tables = self._tables(conn, wanted)
                out = {name: self._read(conn, table) for name, table in tables.items()}
        except SQLAlchemyError as exc:
            raise self.target.error("cannot read the database", exc) from exc
        return {name: out[name] for name in sorted(out) if out[name]}

    def key_field(self, collection: str) -> str | None:
        """The column holding a row's key (its one-column primary key), None when there is
        none or it is composite."""
        if collection in self._key_fields:
            return self._key_fields[collection]
        try:
            with self.engine.connect() as conn:
                keys = inspect(conn).get_pk_constraint(collection).get("constrained_columns")
        except SQLAlchemyError as exc:
            raise self.target.error("cannot read the database", exc, table=collection) from exc
        self._key_fields[collection] = keys[0] if keys and len(keys) == 1 else None
        return self._key_fields[collection]

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


def _key_column(table: Table) -> str | None:
    keys = list(table.primary_key.columns)
    return keys[0].name if len(keys) == 1 else None


def _keyed(table: Table, docs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Documents keyed by their primary key (its columns joined by '|'), or by position."""
    columns = [c.name for c in table.primary_key.columns]
    out = {}
    for n, doc in enumerate(docs):
        parts = [doc.get(c) for c in columns]
        key = "|".join(id_key(p) for p in parts) if columns and None not in parts else f"#{n}"
        out[key] = doc
    return out


def _resolve(row: Row, keys: dict[tuple[str, str], Any]) -> Row:
    """``row`` with every reference replaced by the key of the row it refers to."""
    out = {}
    for column, value in row.items():
        if isinstance(value, Ref):
            if (value.collection, value.canonical_id) not in keys:
                raise ProfileError(f"column {column!r} refers to {value.collection}/"
                                   f"{value.canonical_id}, which this reset does not write",
                                   field=value.field, table=value.collection)
            value = keys[(value.collection, value.canonical_id)]
        out[column] = value
    return out


def _compare(name: str, want: list[dict[str, Any]], have: list[dict[str, Any]],
             key: list[str]) -> list[str]:
    """Differences between the documents meant and those read (a field the database filled
    itself is not one): matched by ``key``'s columns, or each meant document to a row that
    holds it, when there is no key."""
    def fits(meant: dict[str, Any], found: dict[str, Any]) -> bool:
        return all(found.get(k, _ABSENT) == v for k, v in meant.items())

    if not key:
        left = list(have)
        problems = []
        for doc in want:
            match = next((i for i, found in enumerate(left) if fits(doc, found)), None)
            if match is None:
                problems.append(f"missing or different row in {name}")
            else:
                left.pop(match)
        return problems + [f"unexpected row in {name}"] * len(left)
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


_ABSENT = object()
