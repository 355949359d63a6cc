"""SQL databases as a product's document store, through SQLAlchemy URLs (SQLite, PostgreSQL).

``SqlTarget`` (``_target``) is the database (its URL kept secret, its name guarded);
``SqlStore`` (``_store``) writes a reset's documents into tables and reads them back, through
its parts: ``_rows`` (documents as rows, every check of a plan), ``_compare`` (rows read back
and compared), ``_values`` (values in and out of typed columns) and ``_errors`` (the
database's errors naming table and column). ``TableSpec`` says how one table holds a
collection's documents, ``open_store`` opens a store from a profile's settings.
"""

from .._source import StoreSource, id_column
from ._rows import TableSpec
from ._store import SqlStore
from ._target import SqlTarget


def open_store(source: StoreSource) -> SqlStore:
    """The lane's database at the URL the source's variable holds, its tables as the
    profile's mapping says."""
    target = SqlTarget.from_text(source.value(), env=source.env, database=source.database)
    tables = {name: TableSpec(key="stores.collections") for name in source.listed}
    for canonical, cmap in source.mapping.items():
        if not cmap.collection:
            continue
        tables[cmap.collection] = TableSpec(
            key=f"mapping.{canonical}", extra_column=cmap.extra_column,
            assigned=cmap.key == "assigned", id_column=id_column(cmap))
        for name, child in cmap.children.items():
            tables[child.table] = TableSpec(key=f"mapping.{canonical}.children.{name}")
    return SqlStore(target, source.names, tables, source.scope())


__all__ = ["SqlStore", "SqlTarget", "TableSpec", "open_store"]
