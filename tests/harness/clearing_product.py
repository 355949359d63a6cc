"""A product's own clearing step, as careless as the ones that lost data: it empties every
table, every collection and every upload it can find, and when the variable naming its
database is unset it falls back to the product's default database, as an app's settings do.

A composed reset (``command+stores``, ``endpoint+stores``) must never let it run when a guard
refuses the reset. It notes every run in a marker file before it touches anything, so a test
sees that it ran even when it then fails (an unreachable database). Run as a script by a
reset command (``{python} clearing_product.py CONFIG``), and called by the endpoint of
``guarded_product.ClearingEndpoint``. The uploads folder is emptied only inside the test's own
folder (``within``): whatever a test points it at, this never deletes anything else.

Only the standard library at the top: a reset command runs this file as a script.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MARKER = "_environment"  # the production marker: a careless product keeps it at least


def clear_product(config: dict[str, Any], environ: Mapping[str, str]) -> None:
    """Note the run in ``config["marker"]``, then empty what the configuration names."""
    with open(config["marker"], "a", encoding="utf-8") as noted:
        noted.write("ran\n")
    sql = environ.get(config.get("sql_env", "")) or config.get("sql_default")
    if sql:
        _empty_sql(sql)
    mongo = environ.get(config.get("mongo_env", "")) or config.get("mongo_default")
    if mongo:
        _empty_mongo(mongo, config["database"])
    folder = environ.get(config.get("files_env", "")) or config.get("files_default")
    if folder:
        _empty_folder(Path(folder), Path(config["within"]))


def _empty_sql(url: str) -> None:
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            meta = sa.MetaData()
            meta.reflect(bind=conn)
            for table in reversed(meta.sorted_tables):  # children before parents
                if table.name.lower() != MARKER:
                    conn.execute(table.delete())
    finally:
        engine.dispose()


def _empty_mongo(uri: str, database: str) -> None:
    import pymongo

    client: pymongo.MongoClient[dict[str, Any]] = pymongo.MongoClient(
        uri, serverSelectionTimeoutMS=3000)
    try:
        db = client[database]
        for name in db.list_collection_names():
            if name.lower() != MARKER:
                db[name].delete_many({})
    finally:
        client.close()


def _empty_folder(folder: Path, within: Path) -> None:
    if not folder.resolve().is_relative_to(within.resolve()) or not folder.is_dir():
        return
    for entry in folder.iterdir():
        if entry.name == MARKER:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


if __name__ == "__main__":
    clear_product(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")), os.environ)
