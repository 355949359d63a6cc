"""SeedClient against a real uvicorn server on loopback."""

from __future__ import annotations

import pytest

from claims_dev import BackgroundServer, free_port
from claims_records import SeedError
from seed import SeedClient, SeedSettings, create_seed_app

from .conftest import make_setup_a

TOKEN = "client-test-token"


@pytest.fixture
def server(stores, lane):
    settings = SeedSettings(enabled=True, token=TOKEN, mongo_uri=stores.mongo_uri,
                            database=lane.db.name, s3_endpoint=stores.s3.endpoint,
                            bucket=lane.bucket)
    with BackgroundServer(create_seed_app(settings)) as srv:
        yield srv


def test_health_reset_state(server, lane):
    setup, files = make_setup_a()
    setup = setup.model_copy(update={"overrides": []})  # the route has an empty baseline
    with SeedClient(server.url, TOKEN, timeout=10) as client:
        assert client.health() == {"ok": True, "database": lane.db.name, "bucket": lane.bucket}
        result = client.reset(setup.model_dump(mode="json"), files)
        assert result["verified"] is True and result["pack_id"] == "CTL-M-001"
        state = client.state()
    assert set(state.collections) == {"customers", "policies"}
    assert state.objects["policies/POL-1/quote.pdf"].size == len(files["input/materials/quote.pdf"])


def test_refusals_become_seed_errors_with_status_and_reason(server):
    with SeedClient(server.url + "/_harness/seed", "wrong", timeout=10) as client, \
            pytest.raises(SeedError) as err:
        client.health()
    assert err.value.context["status"] == 401
    assert err.value.context["reason"] == "unauthorized"

    with SeedClient(server.url, TOKEN, timeout=10) as client, pytest.raises(SeedError) as err:
        client.reset({"pack_id": "CTL-M-001"}, {})
    assert err.value.context["status"] == 422
    assert err.value.context["reason"] == "invalid_setup"
    assert "setup.claimant_session" in err.value.message


def test_unreachable_route_is_a_seed_error():
    with SeedClient(f"http://127.0.0.1:{free_port()}", TOKEN, timeout=2) as client, \
            pytest.raises(SeedError, match="unreachable"):
        client.health()
