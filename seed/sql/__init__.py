"""SQL databases as a product's document store, through SQLAlchemy URLs (SQLite, PostgreSQL).

``SqlTarget`` is the database (its URL kept secret, its name guarded), ``SqlStore`` writes a
reset's documents into tables and reads them back, ``TableSpec`` says how one table holds a
collection's documents.
"""

from ._store import SqlStore, TableSpec
from ._target import SqlTarget

__all__ = ["SqlStore", "SqlTarget", "TableSpec"]
