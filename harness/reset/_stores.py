"""The product's own stores as a profile names them, for one lane, through the store layer
(``seed.stores``): its database (MongoDB, SQL or another registered kind) and its bucket or
uploads folder, by URIs from the environment, written and read through the profile's mapping.

Whatever the stores, the same rules hold, and every one of them is checked before the
product's own clearing step runs and before anything is written (``StoreSet.prepare``): the
database's name must match ``stores.allowed_database``, a database (or uploads folder) carrying
the production marker is never written, a folder that is a file-system root is refused, a
store that cannot be reached is refused, and so is a mapped table that is missing. A reset
empties only the mapped collections and those ``stores.collections`` lists, and what it wrote
is read back and compared. The URI or URL itself is never stored: errors and dumps name the
database only.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from claims_records import ProfileError, SeedError, StoreRefusal

from ..profile import Lane, Profile

if TYPE_CHECKING:
    from seed.stores import StoreSet, StoreSource
    from seed.stores.sql import SqlTarget


def from_env(name: str, what: str) -> str:
    """The value of the environment variable ``name``; ``SeedError`` when it is unset."""
    value = os.environ.get(name, "")
    if not value:
        raise SeedError(f"no {what}: set the environment variable {name}", field=name)
    return value


def _sources(profile: Profile, lane: Lane) -> list[StoreSource]:
    from seed.stores import NamePolicy, StoreSource

    st = profile.stores
    if st is None:
        raise ProfileError("direct stores need [stores]", profile=profile.name, field="stores")
    names = NamePolicy(st.allowed_database, "search", "stores.allowed_database")
    choices = [st.database_store(), st.files_store()]
    return [StoreSource(kind=c.kind, env=c.env, database=lane.database, bucket=lane.bucket,
                        names=names, mapping=dict(profile.mapping),
                        listed=tuple(st.collections), options=c.options, setting=c.setting)
            for c in choices if c is not None]


def open_stores(profile: Profile, lane: Lane) -> StoreSet:
    """The stores ``[stores]`` names, for one lane (opened, nothing read or written yet;
    ``StoreRefusal`` when one of them is not configured)."""
    from seed.stores import DocumentStore, ObjectStore, StoreSet, open_store

    opened = []
    try:
        for source in _sources(profile, lane):
            store = open_store(source)
            if store is not None:
                opened.append(store)
    except BaseException:
        for store in opened:
            store.close()
        raise
    documents = next((s for s in opened if isinstance(s, DocumentStore)), None)
    objects = next((s for s in opened if isinstance(s, ObjectStore)), None)
    return StoreSet(documents, objects, dict(profile.mapping),
                    ignore=profile.state.ignore_collections)


def _sql_target(profile: Profile, lane: Lane) -> SqlTarget:
    """The lane's SQL database: ``stores.sql_url_env``'s URL, the lane's database applied."""
    from seed.stores import SqlTarget

    st = profile.stores
    assert st is not None
    choice = st.database_store()
    return SqlTarget.from_text(from_env(choice.env, "SQL database URL"), env=choice.env,
                               database=lane.database)


def lane_variables(profile: Profile, lane: Lane) -> dict[str, str]:
    """The store variables as one lane sees them, for a process that acts on the lane's
    stores (the reset command): the SQL database's variable holding the lane's URL (its
    database applied, password included: an environment value, never printed) and the
    uploads folder's variable the lane's folder (its bucket a sub-folder). A lane without a
    database or a bucket (a product started by hand) changes nothing: left out."""
    from seed.stores import FolderStore

    st = profile.stores
    out: dict[str, str] = {}
    if st is None:
        return out
    database = st.database_store()
    if database.kind == "sql" and lane.database:
        out[database.env] = _sql_target(profile, lane).environment_value()
    files = st.files_store()
    if files is not None and files.kind == "folder" and lane.bucket:
        root = FolderStore(from_env(files.env, "uploads folder"), lane.bucket).root
        out[files.env] = str(root)
    return out


def redact_lane_secrets(profile: Profile, lane: Lane, text: str) -> str:
    """``text`` (a line a process that saw ``lane_variables`` printed) with the SQL URL, as the
    harness and as the lane hold it, and its password replaced by ``***``."""
    st = profile.stores
    if st is None:
        return text
    database = st.database_store()
    if database.kind != "sql" or not os.environ.get(database.env):
        return text
    try:
        return _sql_target(profile, lane).redact(text)
    except (SeedError, StoreRefusal):
        return text
