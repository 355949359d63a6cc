"""``python -m claims_prototype_app``: start Heron Mutual's chat page, or empty its data.

    python -m claims_prototype_app [serve] [--host 127.0.0.1] [--port 8501]
    python -m claims_prototype_app reset

Storage comes from the environment or the options: HERON_DATABASE_URL (any SQLAlchemy URL,
e.g. postgresql://user:password@127.0.0.1:5432/heron_dev; prefer the variable to the option,
which every user can read in the process list), else a SQLite file from HERON_DB_FILE
(default heron-data/heron.sqlite3); uploads in the folder HERON_UPLOADS_DIR (default
heron-data/uploads). ``reset`` empties every Heron Mutual table and the uploads folder (a
running chat page keeps its current conversation: press "Start a new claim").
"""

from __future__ import annotations

import argparse
import sys

from sqlalchemy.exc import SQLAlchemyError

from ._serve import serve
from ._settings import Settings
from ._store import Store

COMMANDS = ("serve", "reset")


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m claims_prototype_app", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command")
    for name, text in (("serve", "start the chat page (the default)"),
                       ("reset", "empty every table and the uploads folder")):
        s = sub.add_parser(name, help=text)
        s.add_argument("--database-url", help="SQLAlchemy URL (HERON_DATABASE_URL)")
        s.add_argument("--db-file", help="SQLite file when no URL is given (HERON_DB_FILE)")
        s.add_argument("--uploads-dir", help="folder of uploaded files (HERON_UPLOADS_DIR)")
        if name == "serve":
            s.add_argument("--host", default="127.0.0.1", help="address (127.0.0.1)")
            s.add_argument("--port", type=int, default=8501, help="port (8501)")
    if not argv or argv[0] not in (*COMMANDS, "-h", "--help"):
        argv = ["serve", *argv]
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    settings = Settings.from_env(database_url=args.database_url, db_file=args.db_file,
                                 uploads_dir=args.uploads_dir)
    if args.command == "reset":
        store = Store(settings)
        try:
            deleted = store.reset()
        except SQLAlchemyError as exc:
            print(f"error: reset failed: {type(exc).__name__}", file=sys.stderr)
            return 1
        finally:
            store.close()
        rows = sum(deleted.values())
        print(f"Heron Mutual reset: {rows} row(s) deleted from {len(deleted)} tables; "
              f"uploads folder emptied ({settings.uploads_dir})")
        return 0
    store = Store(settings)
    try:
        store.create_tables()
    except SQLAlchemyError as exc:
        print(f"error: cannot open the database: {type(exc).__name__}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return serve(settings, args.host, args.port)


if __name__ == "__main__":
    raise SystemExit(main())
