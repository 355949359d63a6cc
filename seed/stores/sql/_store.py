"""A product's SQL database as a store: documents <-> rows, one table per collection.

The store is the façade over its parts: which tables there are and whether the database may
be written (here), documents as rows with every check a plan makes (``_rows``), rows read
back and compared (``_compare``), values in and out of typed columns (``_values``) and the
database's own errors naming table and column (``_errors``).

Every check — a missing table or column, a value that does not fit its column's type, a NOT
NULL column no row fills, a reference to a row the reset does not write — is made by
``plan``, before anything is emptied. A reset deletes the rows of the tables in scope and
inserts the new ones in one transaction, in foreign-key order; the numbering of the product's
next row (a PostgreSQL sequence, a SQLite AUTOINCREMENT) restarts after the largest key the
table holds, so it never collides and is the same after every reset of a pack. Then the rows
are read back and compared with what was meant (``_compare``). Every database error names
its table, and its column when it can be told.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, Integer, MetaData, Table, func, inspect, select, text

from claims_records import SeedError

from ..._guard import _is_production
from ..._names import ENVIRONMENT_COLLECTION, REASON_PRODUCTION_MARKER, RESERVED_COLLECTIONS
from ..._plan import PlannedObject
from .._base import Documents, DocumentStore, DumpedCollections, NamePolicy, refuse
from ._compare import as_document, compare, keyed, match_key, read_rows
from ._errors import Where, named
from ._rows import Row, RowPlanner, SqlPlan, TableSpec
from ._target import SqlTarget


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
        # the tables last reflected, by the SQLite schema cookie they were read at
        self._reflected: dict[tuple[int, tuple[str, ...]], dict[str, Table]] = {}

    @property
    def engine(self) -> Any:
        if self._engine is None:
            self._engine = self.target.engine()
        return self._engine

    def spec(self, table: str) -> TableSpec:
        return self.tables.get(table) or TableSpec(key=f"mapping.{table}")

    def _where(self, table: Table | str | None = None) -> Where:
        name = table.name if isinstance(table, Table) else table
        return Where(table, self.spec(name).key if name else None)

    def location(self) -> str:
        return self.target.location()

    # ------------------------------------------------------------------ guard
    def guard(self) -> None:
        if not self.name:
            raise refuse("the SQL URL names no database", database=self.target.shown,
                         setting=self.names.setting)
        self.names.check(self.name)
        with named(self.target, "the database cannot be reached", Where(),
                   wrap=_refusal), self.engine.connect() as conn:
            self._check_not_production(conn)
            self._check_tables(conn, self.scope)

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
        wanted = self._check_tables(conn, names)
        version = _schema_cookie(conn)
        cookie = (version, tuple(wanted)) if version is not None else None
        if cookie is not None and cookie in self._reflected:
            return self._reflected[cookie]
        meta = MetaData()
        meta.reflect(bind=conn, only=wanted)
        tables = {t.name: t for t in meta.sorted_tables if t.name in wanted}
        if cookie is not None:
            self._reflected = {cookie: tables}
        return tables

    def _check_tables(self, conn: Connection, names: Iterable[str]) -> list[str]:
        """``names``, sorted; a missing or reserved one is refused (nothing reflected: a
        reflection is most of what a reset spends on a small database)."""
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
        return wanted

    # ------------------------------------------------------------------ plan
    def plan(self, documents: Documents, objects: list[PlannedObject]) -> SqlPlan:
        written = [n for n, docs in documents.items() if docs]
        names = sorted({*self.scope, *written})
        with named(self.target, "the database cannot be read", Where(),
                   wrap=_refusal), self.engine.connect() as conn:
            tables = self._tables(conn, names)
        return RowPlanner(tables, self.spec, self.name).plan(documents, names)

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
        with named(self.target, "the database failed during a reset", Where()) as where, \
                self.engine.begin() as conn:
            tables = plan.tables or self._tables(conn, plan.names)
            if clear:
                for table in reversed(tables.values()):
                    where.table, where.field = table, self.spec(table.name).key
                    conn.execute(table.delete())
                    _restart_numbering(conn, table)  # the rows the database numbers: from 1
            if load:
                for name, table in tables.items():
                    where.table, where.field = table, self.spec(name).key
                    _insert(conn, table, plan.rows.get(name, []))
                    _restart_numbering(conn, table)  # past the keys written

    # ------------------------------------------------------------------ reading
    def verify(self, plan: SqlPlan) -> list[str]:
        problems: list[str] = []
        with named(self.target, "cannot read the database", Where()) as where, \
                self.engine.connect() as conn:
            tables = plan.tables or self._tables(conn, plan.names)
            for name, table in tables.items():
                where.table, where.field = table, self.spec(name).key
                extra = self.spec(name).extra_column
                want = [as_document(table, row, extra) for row in plan.rows.get(name, [])]
                have = [as_document(table, row, extra) for row in read_rows(conn, table)]
                key = match_key(table, want, self.spec(name).id_column)
                problems += compare(name, want, have, key)
        return problems

    def dump(self, names: list[str] | None = None) -> DumpedCollections:
        wanted = names if names is not None else self.scope
        out = {}
        with named(self.target, "cannot read the database", Where()) as where, \
                self.engine.connect() as conn:
            for name, table in self._tables(conn, wanted).items():
                where.table, where.field = table, self.spec(name).key
                extra = self.spec(name).extra_column
                out[name] = keyed(table, [as_document(table, row, extra)
                                          for row in read_rows(conn, table)])
        return {name: out[name] for name in sorted(out) if out[name]}

    def key_field(self, collection: str) -> str | None:
        """The column holding a row's key (its one-column primary key), None when there is
        none or it is composite."""
        if collection in self._key_fields:
            return self._key_fields[collection]
        with named(self.target, "cannot read the database", self._where(collection)), \
                self.engine.connect() as conn:
            keys = inspect(conn).get_pk_constraint(collection).get("constrained_columns")
        self._key_fields[collection] = keys[0] if keys and len(keys) == 1 else None
        return self._key_fields[collection]

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None


def _refusal(error: SeedError) -> SeedError:
    """A database error met by a guard or a plan, as a refusal (nothing was written)."""
    return refuse(error.message, **error.context)


def _schema_cookie(conn: Connection) -> int | None:
    """SQLite's schema cookie, which every change of the schema moves on (None elsewhere):
    tables reflected at one cookie are the tables while it stays."""
    if conn.dialect.name != "sqlite":
        return None
    return int(conn.execute(text("PRAGMA schema_version")).scalar() or 0)


def _insert(conn: Connection, table: Table, rows: list[Row]) -> None:
    groups: dict[tuple[str, ...], list[Row]] = {}
    for row in rows:  # rows with the same columns together: defaults fill the others
        groups.setdefault(tuple(row), []).append(row)
    for group in groups.values():
        conn.execute(table.insert(), group)


def _restart_numbering(conn: Connection, table: Table) -> None:
    """Make the product's next row number the one after the largest in ``table``, whatever
    the table held before the reset: a PostgreSQL serial or identity column's sequence, a
    SQLite AUTOINCREMENT table's high-water mark. So a key the harness wrote never collides
    with the product's next row, and the product numbers its rows alike after every reset of
    the same pack (without this, rows the database numbers, such as child rows, went on
    counting from the rows of every earlier reset)."""
    if conn.dialect.name == "postgresql":
        qualified = conn.dialect.identifier_preparer.format_table(table)
        for column in table.columns:
            default = column.server_default
            numbered = getattr(column, "identity", None) is not None or (
                default is not None and "nextval(" in str(getattr(default, "arg", "")))
            if not numbered or not isinstance(column.type, Integer):
                continue  # only a serial or identity column has a sequence
            sequence = conn.execute(text("SELECT pg_get_serial_sequence(:t, :c)"),
                                    {"t": qualified, "c": column.name}).scalar()
            if sequence:
                top = conn.execute(select(func.max(column))).scalar() or 0
                conn.execute(text("SELECT setval(:s, :v, false)"),
                             {"s": sequence, "v": top + 1})
    elif conn.dialect.name == "sqlite" and conn.execute(text(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'")
            ).first():
        top = conn.execute(select(func.max(text("rowid"))).select_from(table)).scalar() or 0
        conn.execute(text("UPDATE sqlite_sequence SET seq = :v WHERE name = :t"),
                     {"v": top, "t": table.name})
