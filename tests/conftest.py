"""Fixtures shared by every test package: the embedded stores, started once per session."""

from __future__ import annotations

from collections.abc import Iterator

import pymongo
import pytest

from seed import Stores, open_stores


@pytest.fixture(scope="session")
def stores() -> Iterator[Stores]:
    """Embedded MongoDB (SecantusDB) and S3 (moto) on free loopback ports."""
    with open_stores() as s:
        yield s


@pytest.fixture(scope="session")
def mongo(stores: Stores) -> Iterator[pymongo.MongoClient]:
    client = pymongo.MongoClient(stores.mongo_uri)
    yield client
    client.close()
