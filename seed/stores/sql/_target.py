"""Which SQL database a direct reset may write: the URL, its database name, and the guards.

The URL comes from the environment and is a secret (it may carry a password): it is parsed
once, never rendered whole, and every error text that passes through here has the password
and the URL taken out. What is shown of a database is ``dialect://host:port/name`` and its
name. The name of a server database is the URL's database; a SQLite database's name is its
file name without the suffix (``/srv/app/claims_dev.sqlite3`` -> ``claims_dev``), so the same
``allowed_database`` pattern serves both, and a lane's database name replaces that stem (the
lane's file is beside the URL's, with its suffix).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from claims_records import SeedError, StoreRefusal

from ..._names import REASON_DATABASE_NOT_ALLOWED
from .._base import NamePolicy

# Driverless PostgreSQL URLs (as apps write them) use psycopg 3, the driver the harness ships.
_DEFAULT_DRIVERS = {"postgresql": "postgresql+psycopg", "postgres": "postgresql+psycopg"}
_MEMORY = {None, "", ":memory:"}


@dataclass(frozen=True)
class SqlTarget:
    """One SQL database, by URL (kept private) and by the name its guards read."""

    url: URL
    name: str  # the database's name, checked against the allowed pattern
    shown: str  # dialect://host:port/database, nothing secret
    _secrets: tuple[str, ...] = ()
    _given: URL | None = None  # as the product's environment writes it, the lane's applied
    file: Path | None = None
    """A SQLite database's file, absolute (a relative path resolved from ``resolved_from``)."""
    resolved_from: Path | None = None
    """The working folder a relative SQLite path was resolved from (None: it was absolute)."""
    env: str = ""  # the environment variable holding the URL, named in refusals

    @classmethod
    def from_text(cls, text: str, *, env: str, database: str | None = None) -> SqlTarget:
        """Parse the URL held by the environment variable ``env``; ``database`` (a lane's)
        replaces the URL's database: a server database's name; for SQLite, the file's stem
        (``sqlite:////srv/app/heron_dev.sqlite3`` and ``heron_dev_lane2`` give
        ``/srv/app/heron_dev_lane2.sqlite3``), or the whole file when it is a path."""
        try:
            given = make_url(text)
        except (ArgumentError, ValueError) as exc:  # its text quotes the URL: never shown
            raise SeedError("not a SQLAlchemy URL (dialect+driver://user:password@host/"
                            "database)", field=env) from exc
        if database:
            given = given.set(database=_lane_database(given, database))
        url = given.set(drivername=_DEFAULT_DRIVERS.get(given.drivername, given.drivername))
        secrets = tuple(s for s in (text, url.render_as_string(hide_password=False),
                                    given.render_as_string(hide_password=False),
                                    url.password and str(url.password)) if s)
        if url.get_backend_name() == "sqlite":
            if url.database in _MEMORY:
                raise SeedError("an in-memory SQLite database cannot be reset from outside the "
                                "product: give the database file", field=env)
            path = Path(str(url.database))
            name, shown = path.stem, f"sqlite:///{path}"
            # SQLite opens a relative path from the working folder: the same file, said whole
            here = None if path.is_absolute() else Path.cwd()
            file = Path(os.path.abspath(path))
            return cls(url=url, name=name, shown=shown, _secrets=secrets, _given=given,
                       file=file, resolved_from=here, env=env)
        name = url.database or ""
        port = f":{url.port}" if url.port else ""
        shown = f"{url.drivername}://{url.host or ''}{port}/{name}"
        return cls(url=url, name=name, shown=shown, _secrets=secrets, _given=given, env=env)

    def location(self) -> str:
        """Where the database is, for a reader: a SQLite file's absolute path (and the folder
        a relative one was resolved from); '' for a server database (its name says it)."""
        if self.file is None:
            return ""
        if self.resolved_from is None:
            return f"file {self.file}"
        return (f"file {self.file} (the URL's relative path {self.url.database!r} resolved "
                f"from the working folder {self.resolved_from})")

    def environment_value(self) -> str:
        """The URL, password included, as the product's own environment variable holds it
        (its own driver name, the lane's database applied): a secret for a child process's
        environment, never printed."""
        return (self._given or self.url).render_as_string(hide_password=False)

    def redact(self, text: str) -> str:
        """``text`` with the URL and its password replaced by ``***``."""
        for secret in sorted(self._secrets, key=len, reverse=True):
            text = text.replace(secret, "***")
        return text

    def error(self, what: str, exc: BaseException, **context: Any) -> SeedError:
        """A ``SeedError`` for a database failure, its text redacted and cut short."""
        orig = getattr(exc, "orig", None)
        detail = self.redact(str(orig if orig is not None else exc)).strip()
        detail = detail.splitlines()[0][:300] if detail else type(exc).__name__
        return SeedError(f"{what}: {detail}", database=self.name, **context)

    def check_name(self, pattern: str, setting: str = "stores.allowed_database") -> None:
        """Refuse a database whose name ``pattern`` (``setting``'s value) does not find, as a
        direct reset's guard does (``NamePolicy``)."""
        if not self.name:
            raise StoreRefusal("the SQL URL names no database", database=self.shown,
                               setting=setting, reason=REASON_DATABASE_NOT_ALLOWED)
        NamePolicy(pattern, "search", setting).check(self.name)

    def engine(self) -> Engine:
        """An engine for this database (SQLite: the file must exist; nothing is created)."""
        options: dict[str, Any] = {"hide_parameters": True}
        if self.url.get_backend_name() == "sqlite":
            if self.file is None or not self.file.is_file():  # cannot be reached: refused
                raise StoreRefusal(f"no SQLite database {self.location()}", database=self.name,
                                   setting=self.env or None)
            options |= {"poolclass": NullPool, "connect_args": {"timeout": 10}}
        elif self.url.get_backend_name() == "postgresql":
            options |= {"pool_pre_ping": True, "connect_args": {"connect_timeout": 5}}
        try:
            return create_engine(self.url, **options)
        except (SQLAlchemyError, ImportError) as exc:
            raise self.error("cannot use the SQL URL", exc) from exc


def _lane_database(url: URL, database: str) -> str:
    """The URL's database with a lane's ``database`` applied: a server database's name; for
    a SQLite file, a bare name replaces the file's stem (same folder, same suffix) and a path
    replaces the file. An in-memory SQLite URL stays in memory (and is refused)."""
    if url.get_backend_name() != "sqlite":
        return database
    if url.database in _MEMORY:
        return url.database or ""
    if "/" in database or "\\" in database:
        return database
    path = Path(str(url.database))
    return str(path.with_name(database + path.suffix))
