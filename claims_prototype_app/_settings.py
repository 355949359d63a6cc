"""Where Heron Mutual keeps its data: a SQL database (SQLite file by default, any SQLAlchemy
URL such as PostgreSQL) and a folder of uploaded files. Options win over the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DATABASE_URL_ENV = "HERON_DATABASE_URL"
DB_FILE_ENV = "HERON_DB_FILE"
UPLOADS_DIR_ENV = "HERON_UPLOADS_DIR"
DEFAULT_DB_FILE = Path("heron-data") / "heron.sqlite3"
DEFAULT_UPLOADS_DIR = Path("heron-data") / "uploads"


@dataclass(frozen=True)
class Settings:
    """A database URL and an uploads folder."""

    database_url: str
    uploads_dir: Path

    @classmethod
    def from_env(cls, database_url: str | None = None, db_file: str | None = None,
                 uploads_dir: str | None = None,
                 environ: dict[str, str] | None = None) -> Settings:
        """``--database-url`` / ``HERON_DATABASE_URL`` wins; else a SQLite file from
        ``--db-file`` / ``HERON_DB_FILE`` (default heron-data/heron.sqlite3)."""
        env = dict(os.environ) if environ is None else environ
        url = database_url or env.get(DATABASE_URL_ENV) or ""
        if not url:
            path = Path(db_file or env.get(DB_FILE_ENV) or DEFAULT_DB_FILE).resolve()
            url = f"sqlite:///{path}"
        uploads = Path(uploads_dir or env.get(UPLOADS_DIR_ENV) or DEFAULT_UPLOADS_DIR)
        return cls(database_url=url, uploads_dir=uploads.resolve())

    def environ(self) -> dict[str, str]:
        """The same settings as environment variables (for the UI's own process)."""
        return {DATABASE_URL_ENV: self.database_url, UPLOADS_DIR_ENV: str(self.uploads_dir)}
