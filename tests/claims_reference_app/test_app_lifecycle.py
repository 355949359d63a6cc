"""A stopped app leaves no connection behind: its MongoDB client and its seed route's are
closed with it (a server stopping, or a test's app at the end of the test)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from claims_reference_app import AppSettings, create_app

from ..pymongo_threads import pymongo_threads, still_running

TOKEN = "lifecycle-test-token"


def test_a_stopped_app_closes_its_connections(stores):
    settings = AppSettings(mongo_uri=stores.mongo_uri, database="test_refapp_lifecycle",
                           s3_endpoint=stores.s3.endpoint, s3_access_key=stores.s3.access_key,
                           s3_secret_key=stores.s3.secret_key, bucket="test-refapp-lifecycle",
                           seed_enabled=True, seed_token=TOKEN)
    before = pymongo_threads()
    with TestClient(create_app(settings)) as client:
        assert client.get("/_harness/seed/health",
                          headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
        assert client.post("/api/messages", json={"text": "hello"}).status_code == 200
        opened = pymongo_threads() - before
        assert len(opened) >= 4  # two clients: the app's and the seed route's
    assert still_running(opened) == []
