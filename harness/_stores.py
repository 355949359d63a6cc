"""The product's own stores, reached directly: its MongoDB or SQL database and its bucket or
uploads folder, by URIs from the environment, written and read through the profile's mapping.

Whatever the stores, the same rules hold: the database's name must match
``stores.allowed_database`` before anything is read or written, a database (or uploads folder)
carrying the production marker is never written, a reset empties only the mapped collections
and those ``stores.collections`` lists, and what a reset wrote is read back and compared. The
URI or URL itself is never stored: errors and dumps name the database only.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from claims_records import ProfileError, SeedError, StateDump

from ._mapping import product_collections, to_canonical, to_product, translate
from .profile import Lane, Profile

if TYPE_CHECKING:
    from pymongo import MongoClient
    from pymongo.database import Database

    from seed import FolderObjects, ObjectStore
    from seed.sql import SqlStore, SqlTarget

Documents = dict[str, list[dict[str, Any]]]


def from_env(name: str, what: str) -> str:
    """The value of the environment variable ``name``; ``SeedError`` when it is unset."""
    value = os.environ.get(name, "")
    if not value:
        raise SeedError(f"no {what}: set the environment variable {name}", field=name)
    return value


class StoresAccess:
    """The stores of one lane: write a reset, compare, dump in canonical terms."""

    database: str

    def __init__(self, profile: Profile, lane: Lane) -> None:
        st = profile.stores
        assert st is not None
        self.profile = profile
        self.lane = lane
        self.objects = _object_store(profile, lane)

    def scope(self, written: Documents) -> list[str]:
        """The product collections a reset empties: mapped, listed, and written."""
        st = self.profile.stores
        assert st is not None
        return sorted({*product_collections(self.profile.mapping), *st.collections, *written})

    def write(self, collections: Documents, objects: list[Any]) -> None:
        """Empty the scope and write ``collections`` (product terms) and ``objects``;
        ``SeedError`` when the stores do not read back as written."""
        problems = self._apply(collections, objects)
        if problems:
            raise SeedError(f"state after a direct reset differs: {'; '.join(problems[:5])}",
                            database=self.database)

    def differences(self, expected: Documents) -> list[str]:
        """Differences between canonical documents meant to be there and the stores."""
        raise NotImplementedError

    def dump(self) -> StateDump:
        """The stores' state in canonical terms (ignored collections left out)."""
        st = self.profile.state
        return to_canonical(self._dump(), self.profile.mapping, st.ignore_collections)

    def _apply(self, collections: Documents, objects: list[Any]) -> list[str]:
        raise NotImplementedError

    def _dump(self) -> StateDump:
        raise NotImplementedError

    def close(self) -> None:
        """Let go of every connection."""


class MongoAccess(StoresAccess):
    """A MongoDB database (the lane's ``database``) on the server ``mongo_uri_env`` names."""

    def __init__(self, profile: Profile, lane: Lane) -> None:
        from pymongo import MongoClient

        from seed import check_database_name

        super().__init__(profile, lane)
        st = profile.stores
        assert st is not None
        if not lane.database:
            raise ProfileError("direct stores need the lane's database", field="lanes.database",
                               lane=lane.name)
        check_database_name(lane.database, st.allowed_database)
        self.client: MongoClient[dict[str, Any]] = MongoClient(
            from_env(st.mongo_uri_env, "MongoDB URI"), tz_aware=False,
            serverSelectionTimeoutMS=5000)
        self.db: Database[dict[str, Any]] = self.client[lane.database]
        self.database = lane.database

    def _apply(self, collections: Documents, objects: list[Any]) -> list[str]:
        from seed import apply_scoped

        return apply_scoped(self.db, self.objects, collections, objects,
                            self.scope(collections))

    def differences(self, expected: Documents) -> list[str]:
        from seed import compare_documents

        return compare_documents(expected, self.dump().collections)

    def _dump(self) -> StateDump:
        from seed import dump_stores

        return dump_stores(self.db, self.objects)

    def close(self) -> None:
        self.client.close()


class SqlAccess(StoresAccess):
    """A SQL database by the SQLAlchemy URL ``sql_url_env`` names (the lane's ``database``,
    when given, replaces the URL's)."""

    def __init__(self, profile: Profile, lane: Lane) -> None:
        super().__init__(profile, lane)
        st = profile.stores
        assert st is not None
        target = _sql_target(profile, lane)
        target.check_name(st.allowed_database)
        self.database = target.name
        self.sql: SqlStore = _sql_store(profile, target)

    def _tables(self) -> list[str]:
        """The tables a dump reads: the mapped ones and those listed, less the ignored."""
        st = self.profile.stores
        assert st is not None
        ignored = set(self.profile.state.ignore_collections)
        return sorted({*product_collections(self.profile.mapping), *st.collections} - ignored)

    def _apply(self, collections: Documents, objects: list[Any]) -> list[str]:
        return self.sql.apply_scoped(collections, self.objects, objects,
                                     self.scope(collections))

    def differences(self, expected: Documents) -> list[str]:
        return self.sql.problems(to_product(expected, self.profile.mapping))

    def _dump(self) -> StateDump:
        return self.sql.dump(self._tables(), self.objects)

    def close(self) -> None:
        self.sql.close()


def _sql_store(profile: Profile, target: Any) -> SqlStore:
    from seed.sql import SqlStore, TableSpec

    st = profile.stores
    assert st is not None
    tables = {name: TableSpec(key="stores.collections") for name in st.collections}
    for canonical, cmap in profile.mapping.items():
        if cmap.collection:
            tables[cmap.collection] = TableSpec(
                key=f"mapping.{canonical}", id_field=translate("_id", cmap.fields),
                extra_column=cmap.extra_column)
    return SqlStore(target, tables)


def _sql_target(profile: Profile, lane: Lane) -> SqlTarget:
    """The lane's SQL database: ``stores.sql_url_env``'s URL, the lane's database applied."""
    from seed.sql import SqlTarget

    st = profile.stores
    assert st is not None
    return SqlTarget.from_text(from_env(st.sql_url_env, "SQL database URL"),
                               env=st.sql_url_env, database=lane.database)


def _folder(profile: Profile, lane: Lane) -> FolderObjects:
    """The lane's uploads folder: ``stores.files_dir_env``'s, the lane's bucket a sub-folder."""
    from seed import FolderObjects

    st = profile.stores
    assert st is not None
    return FolderObjects(from_env(st.files_dir_env, "uploads folder"), lane.bucket)


def lane_variables(profile: Profile, lane: Lane) -> dict[str, str]:
    """The store variables as one lane sees them, for a process that acts on the lane's
    stores (the reset command): ``stores.sql_url_env`` holding the lane's URL (its database
    applied, password included: an environment value, never printed) and
    ``stores.files_dir_env`` the lane's folder (its bucket a sub-folder). A lane without a
    database or a bucket (a product started by hand) changes nothing: left out."""
    st = profile.stores
    out: dict[str, str] = {}
    if st is None:
        return out
    if st.sql_url_env and lane.database:
        out[st.sql_url_env] = _sql_target(profile, lane).environment_value()
    if st.files_dir_env and lane.bucket:
        out[st.files_dir_env] = str(_folder(profile, lane).root)
    return out


def redact_lane_secrets(profile: Profile, lane: Lane, text: str) -> str:
    """``text`` (a line a process that saw ``lane_variables`` printed) with the SQL URL, as the
    harness and as the lane hold it, and its password replaced by ``***``."""
    st = profile.stores
    if st is None or not st.sql_url_env or not os.environ.get(st.sql_url_env):
        return text
    return _sql_target(profile, lane).redact(text)


def _object_store(profile: Profile, lane: Lane) -> ObjectStore | None:
    from seed import S3Config, S3Objects

    st = profile.stores
    assert st is not None
    if st.files_dir_env:
        return _folder(profile, lane)
    if st.s3_endpoint_env and lane.bucket:
        s3 = S3Config(endpoint=from_env(st.s3_endpoint_env, "S3 endpoint"),
                      access_key=os.environ.get(st.s3_access_key_env, ""),
                      secret_key=os.environ.get(st.s3_secret_key_env, ""), region=st.s3_region)
        return S3Objects(s3, lane.bucket)
    return None


def open_stores(profile: Profile, lane: Lane) -> StoresAccess:
    """The stores ``[stores]`` names, for one lane (names checked before anything is read)."""
    st = profile.stores
    if st is None:
        raise ProfileError("direct stores need [stores]", profile=profile.name, field="stores")
    return SqlAccess(profile, lane) if st.kind == "sql" else MongoAccess(profile, lane)
