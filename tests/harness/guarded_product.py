"""A product with data in every store, and the ways a reset of it must be refused: what the
tests that prove every guard refuses before anything is touched share (test_guards_first.py
here, tests/claims_cli/test_run_preflight.py).

- ``ProductStores``: one product's database — a SQLite file, a PostgreSQL database (the
  schema of ``sql_product``) or a MongoDB database — holding rows in every table, and its
  uploads (a folder or an S3 bucket) holding files; ``snapshot()`` is every table's or
  collection's row count and every file's content, taken before and after a refused reset;
- ``GUARDS``: each guard, as the change to a healthy product that must make a reset refuse,
  and the words its one line must hold;
- ``Clearing``: the product's own clearing step (``clearing_product``), by a command that
  notes every run in a marker file or by an endpoint that counts its calls;
- ``profile_for``: the profile of one reset adapter on those stores.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pymongo
import pytest
import sqlalchemy as sa
from fastapi import FastAPI

from claims_dev import BackgroundServer, free_port
from harness.profile import Profile
from seed import S3Config
from seed import _s3 as s3_helpers

from .clearing_product import clear_product
from .profiles import stand_in
from .sql_product import MAPPING, create_schema

PACKS = Path(__file__).resolve().parents[2] / "packs"
CLEARING_SCRIPT = Path(__file__).resolve().parent / "clearing_product.py"
SQL_ENV, MONGO_ENV = "T_GUARD_SQL_URL", "T_GUARD_MONGO_URI"
UPLOADS_ENV, S3_ENV = "T_GUARD_UPLOADS", "T_GUARD_S3_ENDPOINT"
S3_KEY_ENV, S3_SECRET_ENV = "T_GUARD_S3_KEY", "T_GUARD_S3_SECRET"
BACKENDS = ("sqlite", "postgresql", "mongo")
_numbers = itertools.count(1)

SQL_ROWS = """
INSERT INTO holders (id, full_name) VALUES ('h-kept', 'Kept Holder');
INSERT INTO cover (id, policy_ref, holder_id) VALUES ('p-kept', 'POL-KEPT', 'h-kept');
INSERT INTO loss_history (id, holder_id) VALUES ('l-kept', 'h-kept');
INSERT INTO staff (id, username) VALUES ('s-kept', 'kept');
INSERT INTO claims (id, claim_number) VALUES ('c-kept', 'CLM-KEPT')
"""
MONGO_DOCS: dict[str, list[dict[str, Any]]] = {
    "customers": [{"_id": "h-kept", "name": "Kept Holder"}],
    "policies": [{"_id": "p-kept", "policy_number": "POL-KEPT", "customer_id": "h-kept"}],
    "prior_claims": [{"_id": "l-kept", "customer_id": "h-kept"}],
    "staff": [{"_id": "s-kept", "username": "kept"}],
    "claims": [{"_id": "c-kept", "claim_number": "CLM-KEPT"}],
    "messages": [{"_id": "m-kept", "body": "old"}],
    "sessions": [{"_id": "s-1", "data": "a conversation"}],  # the product's own, not listed
}
UPLOADS = {"claims/c-kept/photo.jpg": b"\xff\xd8\xff kept photo", "kept.pdf": b"%PDF kept"}


@dataclass
class ProductStores:
    """One product's stores, full of data, and the environment its profile reads them from."""

    backend: str  # sqlite | postgresql | mongo
    database: str  # the database's name (a SQLite file's stem)
    url: str  # its SQLAlchemy URL or MongoDB URI
    files: str  # folder | s3
    folder: Path  # the uploads folder (files == "folder")
    work: Path  # the test's own folder: nothing outside it is ever emptied by the product
    s3: S3Config | None = None
    bucket: str = ""
    environ: dict[str, str] = field(default_factory=dict)
    postgres: Any = None  # the PostgreSQL server holding the database

    @property
    def sql(self) -> bool:
        return self.backend != "mongo"

    def engine(self) -> sa.Engine:
        return sa.create_engine(self.url)

    def mongo(self) -> pymongo.MongoClient[dict[str, Any]]:
        return pymongo.MongoClient(self.url)

    # ------------------------------------------------------------------ what it holds
    def rows(self) -> dict[str, int]:
        """Every table's (collection's) row count."""
        if self.sql:
            engine = self.engine()
            try:
                with engine.connect() as conn:
                    return {t: int(conn.execute(sa.text(f'SELECT COUNT(*) FROM "{t}"')).scalar()
                                   or 0) for t in sa.inspect(conn).get_table_names()}
            finally:
                engine.dispose()
        with self.mongo() as client:
            db = client[self.database]
            return {n: db[n].count_documents({}) for n in db.list_collection_names()}

    def uploads(self) -> dict[str, str]:
        """Every uploaded file (every object of the bucket) and its content's hash."""
        if self.files == "s3":
            assert self.s3 is not None
            if not s3_helpers.bucket_exists(self.s3, self.bucket):
                return {}
            return {o.object_name: hashlib.sha256(s3_helpers.read(
                self.s3, self.bucket, o.object_name)).hexdigest() for o in
                s3_helpers.client(self.s3).list_objects(self.bucket, recursive=True)}
        return files_in(self.folder)

    def snapshot(self) -> dict[str, Any]:
        return {"rows": self.rows(), "uploads": self.uploads()}

    # ------------------------------------------------------------------ breaking it
    def mark_production(self) -> str:
        """The production marker in the database; the name of the table or collection."""
        if self.sql:
            engine = self.engine()
            try:
                with engine.begin() as conn:
                    conn.execute(sa.text("CREATE TABLE _environment (id TEXT PRIMARY KEY, "
                                         "kind TEXT)"))
                    conn.execute(sa.text("INSERT INTO _environment VALUES ('environment', "
                                         "'production')"))
            finally:
                engine.dispose()
        else:
            with self.mongo() as client:
                client[self.database]["_environment"].insert_one(
                    {"_id": "environment", "kind": "production"})
        return "_environment"

    def remove(self) -> None:
        """Remove what the test made outside its folder: the MongoDB or PostgreSQL database
        and the bucket (the session's servers go on serving other tests)."""
        if self.postgres is not None:
            self.postgres.drop_database(self.database)
        elif self.backend == "mongo":
            with self.mongo() as client:
                client.drop_database(self.database)
        if self.s3 is not None and s3_helpers.bucket_exists(self.s3, self.bucket):
            s3_helpers.empty_bucket(self.s3, self.bucket)
            s3_helpers.client(self.s3).remove_bucket(self.bucket)

    def drop_table(self, table: str) -> None:
        engine = self.engine()
        try:
            with engine.begin() as conn:
                conn.execute(sa.text(f"DROP TABLE {table}"))
        finally:
            engine.dispose()


def files_in(folder: Path) -> dict[str, str]:
    """Every file under ``folder`` (links not followed) and its content's hash."""
    if not folder.is_dir():
        return {}
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.is_symlink()}


def make_product(request: pytest.FixtureRequest, work: Path, backend: str, *,
                 database: str | None = None, files: str | None = None) -> ProductStores:
    """A product on ``backend`` with a row in every table and files in its uploads (``files``:
    folder or s3; by default a folder beside a SQL database, a bucket beside MongoDB), removed
    when the test ends. ``database``: its name (``claims_test_guard_<n>``, a name resets may
    touch, by default; apart from the names other tests give the session's servers)."""
    n = next(_numbers)
    name = database or f"claims_test_guard_{n}"
    files = files or ("s3" if backend == "mongo" else "folder")
    folder = work / "uploads"
    folder.mkdir(parents=True)
    if backend == "sqlite":
        path = work / f"{name}.sqlite3"
        path.touch()
        url = f"sqlite:///{path}"
    elif backend == "postgresql":
        server = request.getfixturevalue("postgres")
        url = server.create_database(name)
    else:
        url = request.getfixturevalue("stores").mongo_uri
    product = ProductStores(backend, name, url, files, folder, work)
    if backend == "postgresql":
        product.postgres = server
    request.addfinalizer(product.remove)
    if product.sql:
        engine = product.engine()
        try:
            create_schema(engine)
            with engine.begin() as conn:
                for statement in filter(str.strip, SQL_ROWS.split(";")):
                    conn.execute(sa.text(statement))
        finally:
            engine.dispose()
        product.environ[SQL_ENV] = url
    else:
        with product.mongo() as client:
            client.drop_database(name)
            for collection, docs in MONGO_DOCS.items():
                client[name][collection].insert_many(docs)
        product.environ[MONGO_ENV] = url
    if files == "s3":
        s3 = request.getfixturevalue("stores").s3
        product.s3, product.bucket = s3, f"claims-test-guard-{n}"
        s3_helpers.client(s3).make_bucket(product.bucket)
        for key, data in UPLOADS.items():
            s3_helpers.put(s3, product.bucket, key, data, "application/octet-stream")
        product.environ |= {S3_ENV: s3.endpoint, S3_KEY_ENV: s3.access_key,
                            S3_SECRET_ENV: s3.secret_key}
    else:
        for key, data in UPLOADS.items():
            (folder / key).parent.mkdir(parents=True, exist_ok=True)
            (folder / key).write_bytes(data)
        product.environ[UPLOADS_ENV] = str(folder)
    return product


# --------------------------------------------------------------------------- the guards


@dataclass(frozen=True)
class Guard:
    """One guard: ``breaks`` turns a healthy product into one a reset must refuse and gives
    the words the refusal's line must hold (what was refused, named)."""

    name: str
    what: str
    breaks: Callable[[ProductStores, pytest.MonkeyPatch], list[str]]
    database: str | None = None  # the database's name, when the guard is about the name
    files: str | None = None  # the uploads store the guard needs (folder, s3)


def _production_name(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    return [repr(product.database), "not allowed", "stores.allowed_database"]


def _marker_in_database(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    return ["database carries the production marker", product.mark_production()]


def _marker_in_folder(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    (product.folder / "_environment").write_text('{"kind": "production"}', encoding="utf-8")
    return ["uploads folder carries the production marker", str(product.folder.resolve())]


def _root_folder(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    mp.setenv(UPLOADS_ENV, "/")
    return ["uploads folder is a file-system root", "folder=/"]


def _home_folder(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    mp.setenv("HOME", str(product.folder))  # the uploads folder is the home folder
    return ["uploads folder is a file-system root, a home folder",
            f"folder={product.folder.resolve()}"]


def _unset_database_variable(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    variable = SQL_ENV if product.sql else MONGO_ENV
    mp.delenv(variable)
    return [f"set the environment variable {variable}"]


def _unset_uploads_variable(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    variable = S3_ENV if product.files == "s3" else UPLOADS_ENV
    mp.delenv(variable)
    return [f"set the environment variable {variable}"]


def _unreachable_database(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    port = free_port()  # nothing listens there: as a stopped server
    if product.backend == "sqlite":
        missing = product.work / "gone" / f"{product.database}.sqlite3"
        mp.setenv(SQL_ENV, f"sqlite:///{missing}")
        return ["no SQLite database file", str(missing)]
    if product.backend == "postgresql":
        mp.setenv(SQL_ENV, re.sub(r"@127\.0\.0\.1:\d+/", f"@127.0.0.1:{port}/", product.url))
        return ["database cannot be reached", f"port {port}", product.database]
    mp.setenv(MONGO_ENV, f"mongodb://127.0.0.1:{port}/")
    return ["MongoDB", "cannot be reached", f"127.0.0.1:{port}", product.database]


def _unreachable_bucket(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    port = free_port()
    mp.setenv(S3_ENV, f"http://127.0.0.1:{port}")
    return ["S3", "cannot be reached", f"127.0.0.1:{port}", product.bucket]


def _missing_table(product: ProductStores, mp: pytest.MonkeyPatch) -> list[str]:
    product.drop_table("loss_history")  # where mapping.prior_claims puts its rows
    return ["no table 'loss_history'", "mapping.prior_claims.collection"]


GUARDS: dict[str, Guard] = {g.name: g for g in [
    Guard("production-name", "a database whose name does not match stores.allowed_database",
          _production_name, database="heron_prod"),
    Guard("marker-database", "the production marker in the database (_environment)",
          _marker_in_database),
    Guard("marker-folder", "the production marker file in the uploads folder",
          _marker_in_folder, files="folder"),
    Guard("root-folder", "the uploads folder is /", _root_folder, files="folder"),
    Guard("home-folder", "the uploads folder is the home folder", _home_folder,
          files="folder"),
    Guard("unset-database-variable", "the database's URL variable is unset",
          _unset_database_variable),
    Guard("unset-uploads-variable", "the uploads' variable is unset",
          _unset_uploads_variable),
    Guard("unreachable-database", "the database cannot be reached (a closed port, a "
          "missing SQLite file)", _unreachable_database),
    Guard("unreachable-bucket", "the S3 store cannot be reached (a closed port)",
          _unreachable_bucket, files="s3"),
    Guard("missing-table", "a mapped table the database lacks", _missing_table),
]}


def assert_one_clear_line(text: str, words: list[str]) -> None:
    """``text`` is one line, no traceback, not a bare driver error, holding every word."""
    assert "\n" not in text and "Traceback" not in text, text
    message = text.split(" [", 1)[0]
    assert not re.fullmatch(r"(\w+\.)*\w+(Error|Exception|Timeout)\b.*", message), text
    for word in words:
        assert word in text, f"{word!r} not in: {text}"


# --------------------------------------------------------------------------- the clearing


class ClearingEndpoint:
    """The product's own reset endpoint: it empties what ``config`` names and counts its
    calls (one server for a module's tests; ``config`` set by each)."""

    def __init__(self) -> None:
        self.calls = 0
        self.config: dict[str, Any] = {}
        app = FastAPI()

        @app.post("/admin/reset")
        def reset() -> dict[str, bool]:
            self.calls += 1
            clear_product(self.config, os.environ)
            return {"cleared": True}

        self.server = BackgroundServer(app).start()


@dataclass
class Clearing:
    """How a test's product clears itself: the configuration both ways read, the marker file
    the command notes each run in, and the endpoint (its calls counted from zero)."""

    config_path: Path
    marker: Path
    endpoint: ClearingEndpoint

    @classmethod
    def prepare(cls, product: ProductStores, endpoint: ClearingEndpoint) -> Clearing:
        marker = product.work / "clearing-ran.txt"
        config = {"marker": str(marker), "within": str(product.work),
                  "database": product.database,
                  "sql_env": SQL_ENV, "mongo_env": MONGO_ENV,
                  "files_env": S3_ENV if product.files == "s3" else UPLOADS_ENV}
        # the product's defaults: where it goes when its variable is unset
        config |= ({"sql_default": product.url} if product.sql
                   else {"mongo_default": product.url})
        if product.files == "folder":
            config["files_default"] = str(product.folder)
        path = product.work / "clearing.json"
        path.write_text(json.dumps(config), encoding="utf-8")
        endpoint.config, endpoint.calls = config, 0
        return cls(path, marker, endpoint)

    def runs(self) -> int:
        """How often the product's clearing step ran, by either way (each run notes itself
        in the marker file before it touches anything)."""
        return (len(self.marker.read_text(encoding="utf-8").splitlines())
                if self.marker.exists() else 0)


# --------------------------------------------------------------------------- the profile


def profile_for(product: ProductStores, adapter: str, clearing: Clearing | None = None,
                lanes: list[dict[str, Any]] | None = None, **more: Any) -> Profile:
    """The profile of ``adapter`` on ``product``'s stores, through environment variables."""
    return Profile.model_validate(profile_data(product, adapter, clearing, lanes, **more))


def profile_data(product: ProductStores, adapter: str, clearing: Clearing | None = None,
                 lanes: list[dict[str, Any]] | None = None, **more: Any) -> dict[str, Any]:
    """``profile_for``'s profile as the data of its TOML file."""
    stores: dict[str, Any] = {"collections": ["messages"]}
    if product.sql:
        stores["sql_url_env"] = SQL_ENV
    else:
        stores["mongo_uri_env"] = MONGO_ENV
    if product.files == "s3":
        stores |= {"s3_endpoint_env": S3_ENV, "s3_access_key_env": S3_KEY_ENV,
                   "s3_secret_key_env": S3_SECRET_ENV}
    else:
        stores["files_dir_env"] = UPLOADS_ENV
    reset: dict[str, Any] = {"adapter": adapter}
    base_url = "http://127.0.0.1:9"
    if adapter == "command+stores":
        assert clearing is not None
        reset["command"] = {"argv": ["{python}", str(CLEARING_SCRIPT),
                                     str(clearing.config_path)], "timeout_s": 60}
    if adapter == "endpoint+stores":
        assert clearing is not None
        reset["endpoint"] = {"path": "/admin/reset", "timeout_s": 60}
        base_url = clearing.endpoint.server.url
    lane = {"name": "lane-1", "base_url": base_url,
            "database": None if product.sql else product.database,
            "bucket": product.bucket or None}
    data: dict[str, Any] = {
        **stand_in("guarded product"),
        "reset": reset, "stores": stores, "mapping": MAPPING if product.sql else {},
        "lanes": lanes or [lane], **more}
    return data


def toml_text(data: dict[str, Any]) -> str:
    """``data`` as a TOML file: one ``key = value`` line per key, tables inline (a value
    None is left out, as TOML has no null)."""
    return "".join(f"{json.dumps(k)} = {_inline(v)}\n" for k, v in data.items()
                   if v is not None)


def _inline(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    assert isinstance(value, dict), value
    return "{" + ", ".join(f"{json.dumps(k)} = {_inline(v)}" for k, v in value.items()
                           if v is not None) + "}"


def environment(product: ProductStores, mp: pytest.MonkeyPatch) -> None:
    """Set the variables the product's profile reads its stores from."""
    for name, value in product.environ.items():
        mp.setenv(name, value)


def guarded(product: ProductStores, guard: Guard, mp: pytest.MonkeyPatch) -> list[str]:
    """Break ``product`` as ``guard`` refuses; the words its refusal names."""
    environment(product, mp)
    return guard.breaks(product, mp)


@dataclass
class Safety:
    """Deletions the harness makes while a test points it at a folder outside the test's
    own: refused, so a broken guard fails the test instead of emptying the machine."""

    work: Path
    refused: list[str] = field(default_factory=list)


def no_deletion_outside(work: Path, mp: pytest.MonkeyPatch) -> Safety:
    """Make every deletion and write of the folder store outside ``work`` raise (a net under
    the root-folder guard: were it broken, the reset would be refused by the net instead of
    emptying ``/``)."""
    import shutil

    from seed.stores import _folder

    safety = Safety(work.resolve())
    real_rmtree, real_unlink = shutil.rmtree, Path.unlink
    real_mkdir, real_write = Path.mkdir, Path.write_bytes

    def inside(path: Any) -> None:
        if not Path(path).resolve().is_relative_to(safety.work):
            safety.refused.append(str(path))
            raise PermissionError(f"test safety net: not touching {path}")

    def rmtree(path: Any, *args: Any, **kwargs: Any) -> None:
        inside(path)
        real_rmtree(path, *args, **kwargs)

    def unlink(self: Path, missing_ok: bool = False) -> None:
        inside(self)
        real_unlink(self, missing_ok=missing_ok)

    def mkdir(self: Path, *args: Any, **kwargs: Any) -> None:
        inside(self)
        real_mkdir(self, *args, **kwargs)

    def write_bytes(self: Path, data: Any) -> int:
        inside(self)
        return real_write(self, data)

    mp.setattr(_folder.shutil, "rmtree", rmtree)
    mp.setattr(_folder.Path, "unlink", unlink)
    mp.setattr(_folder.Path, "mkdir", mkdir)
    mp.setattr(_folder.Path, "write_bytes", write_bytes)
    return safety
