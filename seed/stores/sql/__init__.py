"""SQL databases as a product's document store, through SQLAlchemy URLs (SQLite, PostgreSQL).

``SqlTarget`` is the database (its URL kept secret, its name guarded), ``SqlStore`` writes a
reset's documents into tables and reads them back, ``TableSpec`` says how one table holds a
collection's documents, ``open_store`` opens one from a profile's settings.
"""

from .._source import StoreSource, id_column
from ._store import SqlStore, TableSpec
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
