"""Every guard refuses a reset before anything is touched, on every reset path.

The matrix: each guard (``guarded_product.GUARDS``: a database not named for tests, the
production marker in the database or in the uploads folder, an uploads folder that is ``/`` or
the home folder, an unset variable, a store that cannot be reached, a mapped table the database
lacks) x each reset adapter (``stores``, ``command+stores``, ``endpoint+stores``, the seed
route) x each backend (SQLite, a real PostgreSQL, the embedded MongoDB and S3). In every cell
that applies, the pre-flight, the health check and the reset itself are refused with one line
naming what was refused; every table's rows and every uploaded file are the same after as
before; and the product's own clearing step — a command and an endpoint that would empty the
database and the uploads, falling back to the product's default database when its variable is
unset, as the ones that lost data did — never ran. A cell that cannot apply is listed in
``NOT_APPLICABLE`` with the reason. The same products reset when nothing is wrong (the other
direction), and a refused reset ends a trial as ``harness_error`` with the refusal's line,
never as the product's ``reset_failed``.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from claims_dev import BackgroundServer, free_port
from claims_records import RunConfig, SeedError, StoreRefusal, TrialStatus
from harness import RunContext, TrialRig, make_reset, run, run_trial
from harness.customers import ScriptedCustomer
from harness.profile import Profile
from harness.reset import ProductResetError, setup_and_files
from seed import SeedSettings, create_seed_app

from .guarded_product import (
    GUARDS,
    PACKS,
    Clearing,
    ClearingEndpoint,
    Guard,
    ProductStores,
    assert_one_clear_line,
    guarded,
    make_product,
    no_deletion_outside,
    profile_for,
)
from .profiles import stand_in

PACK = PACKS / "CTL-M-001"
TOKEN = "guards-first-token"
DIRECT = ("stores", "command+stores", "endpoint+stores")
ADAPTERS = (*DIRECT, "seed_route")
BACKENDS = ("sqlite", "postgresql", "mongo")
FOLDER_GUARDS = ("marker-folder", "root-folder", "home-folder")

# (guards, adapters, backends, why the cells cannot apply): every cell of the matrix that is
# not tested is here, with its reason.
NOT_APPLICABLE_RULES: list[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], str]] = [
    (tuple(GUARDS), ("seed_route",), ("sqlite", "postgresql"),
     "the seed route writes MongoDB and S3 only"),
    (("missing-table",), ADAPTERS, ("mongo",),
     "MongoDB has no schema: a collection is made by its first write, so none can be missing"),
    (FOLDER_GUARDS, ("seed_route",), ("mongo",),
     "the seed route keeps uploads in S3, never in a folder"),
    (("unset-database-variable", "unset-uploads-variable"), ("seed_route",), ("mongo",),
     "the seed route's stores are its own settings (SeedSettings, each with a default), "
     "not a variable the harness reads"),
]
NOT_APPLICABLE: dict[tuple[str, str, str], str] = {
    cell: why for guards, adapters, backends, why in NOT_APPLICABLE_RULES
    for cell in itertools.product(guards, adapters, backends)}
CELLS = [cell for cell in itertools.product(GUARDS, ADAPTERS, BACKENDS)
         if cell not in NOT_APPLICABLE]


@pytest.fixture(scope="module")
def endpoint():
    e = ClearingEndpoint()
    yield e
    e.server.stop()


def test_every_cell_is_tested_or_not_applicable_with_its_reason():
    everything = set(itertools.product(GUARDS, ADAPTERS, BACKENDS))
    assert set(CELLS) | set(NOT_APPLICABLE) == everything
    assert not set(CELLS) & set(NOT_APPLICABLE)
    assert all(why.strip() for why in NOT_APPLICABLE.values())
    # every guard is tested on some backend through every direct adapter, and the seed route
    # is tested wherever it can be
    for guard, adapter in itertools.product(GUARDS, DIRECT):
        assert any((guard, adapter, b) in CELLS for b in BACKENDS), (guard, adapter)
    assert {g for g, a, _ in CELLS if a == "seed_route"} == {
        "production-name", "marker-database", "unreachable-database", "unreachable-bucket"}


def _product(request: pytest.FixtureRequest, tmp_path: Path, backend: str, guard: Guard
             ) -> ProductStores:
    return make_product(request, tmp_path / "product", backend, database=guard.database,
                        files=guard.files)


def _refused_everywhere(reset, words: list[str], strict: bool = True) -> list[SeedError]:
    """Pre-flight, health and the reset itself: each refused with one line naming ``words``;
    a store's refusal (``StoreRefusal``) when ``strict``, never the product's failure."""
    setup, files = setup_and_files(PACK)
    refusals = []
    for step in (lambda: reset.preflight(setup, files), reset.health,
                 lambda: reset.reset(setup, files)):
        with pytest.raises(SeedError) as caught:
            step()
        assert not isinstance(caught.value, ProductResetError), caught.value
        if strict:
            assert isinstance(caught.value, StoreRefusal), repr(caught.value)
        assert_one_clear_line(str(caught.value), words)
        refusals.append(caught.value)
    return refusals


def _cells(cells: list[tuple[str, ...]]) -> list[object]:
    """The cells as parameters; those that wait out MongoDB's server selection (5 s at each
    of the three checks) are slow."""
    return [pytest.param(*cell, marks=pytest.mark.slow) if "unreachable-database" in cell
            and cell[-1] == "mongo" else cell for cell in cells]


@pytest.mark.parametrize(("guard", "adapter", "backend"),
                         _cells([c for c in CELLS if c[1] != "seed_route"]))
def test_a_guard_refuses_a_direct_reset_before_anything_is_touched(
        guard, adapter, backend, request, tmp_path, monkeypatch, endpoint):
    product = _product(request, tmp_path, backend, GUARDS[guard])
    clearing = Clearing.prepare(product, endpoint)
    words = guarded(product, GUARDS[guard], monkeypatch)
    safety = no_deletion_outside(tmp_path, monkeypatch)
    root = sorted(os.listdir("/"))
    before = product.snapshot()
    prof = profile_for(product, adapter, clearing)
    reset = make_reset(prof, prof.resolved_lanes()[0], PACKS)
    try:
        _refused_everywhere(reset, words)
    finally:
        reset.close()
    assert product.snapshot() == before  # 0 rows, 0 files changed
    assert clearing.runs() == 0 and endpoint.calls == 0  # the product's clearing never ran
    assert safety.refused == [] and sorted(os.listdir("/")) == root


def _seed_route(product: ProductStores, guard: str) -> tuple[SeedSettings, list[str]]:
    """The seed route's settings for ``product`` as ``guard`` breaks it, and the words its
    refusal names."""
    assert product.s3 is not None
    values = {"mongo_uri": product.url, "s3_endpoint": product.s3.endpoint}
    port = free_port()
    if guard == "production-name":
        words = [repr(product.database), "not allowed", "CLAIMS_HARNESS_ALLOWED_DB_PATTERN"]
    elif guard == "marker-database":
        words = ["database carries the production marker", product.mark_production()]
    elif guard == "unreachable-database":
        values["mongo_uri"] = f"mongodb://127.0.0.1:{port}/"
        words = ["MongoDB", "cannot be reached", f"127.0.0.1:{port}"]
    else:
        assert guard == "unreachable-bucket"
        values["s3_endpoint"] = f"http://127.0.0.1:{port}"
        words = ["S3", "cannot be reached", f"127.0.0.1:{port}"]
    settings = SeedSettings(enabled=True, token=TOKEN, database=product.database,
                            s3_access_key=product.s3.access_key,
                            s3_secret_key=product.s3.secret_key, bucket=product.bucket,
                            baseline_path=PACKS / "baseline.json", **values)
    return settings, words


def _seed_profile(url: str) -> Profile:
    return Profile.model_validate(stand_in(
        "seeded product", base_url=url, reset={"adapter": "seed_route"},
        seed={"timeout_s": 60}))


@pytest.mark.parametrize(("guard", "backend"),
                         _cells([(c[0], c[2]) for c in CELLS if c[1] == "seed_route"]))
def test_a_guard_refuses_a_seed_route_reset_before_anything_is_touched(guard, backend,
                                                                       request, tmp_path):
    product = _product(request, tmp_path, backend, GUARDS[guard])
    settings, words = _seed_route(product, guard)
    before = product.snapshot()
    with BackgroundServer(create_seed_app(settings)) as server:
        prof = _seed_profile(server.url)
        reset = make_reset(prof, prof.resolved_lanes()[0], PACKS, seed_token=TOKEN)
        try:
            refusals = _refused_everywhere(reset, words, strict=False)
        finally:
            reset.close()
    status = 503 if guard.startswith("unreachable") else 403
    assert [r.context.get("status") for r in refusals] == [status] * 3
    assert product.snapshot() == before  # nothing written, not even the route's own marks


@pytest.mark.parametrize(("adapter", "backend"), [
    *itertools.product(DIRECT, BACKENDS), ("seed_route", "mongo")])
def test_a_healthy_product_is_reset(adapter, backend, request, tmp_path, monkeypatch,
                                    endpoint):
    """The other direction: nothing wrong, every check passes and the reset loads the pack
    (the product's own clearing step ran once, before the stores loaded)."""
    product = make_product(request, tmp_path / "product", backend)
    before = product.snapshot()
    setup, files = setup_and_files(PACK)
    server = None
    clearing = Clearing.prepare(product, endpoint)
    if adapter == "seed_route":
        assert product.s3 is not None
        settings = SeedSettings(enabled=True, token=TOKEN, database=product.database,
                                mongo_uri=product.url, s3_endpoint=product.s3.endpoint,
                                s3_access_key=product.s3.access_key,
                                s3_secret_key=product.s3.secret_key, bucket=product.bucket,
                                baseline_path=PACKS / "baseline.json")
        server = BackgroundServer(create_seed_app(settings)).start()
        prof = _seed_profile(server.url)
        reset = make_reset(prof, prof.resolved_lanes()[0], PACKS, seed_token=TOKEN)
    else:
        for name, value in product.environ.items():
            monkeypatch.setenv(name, value)
        prof = profile_for(product, adapter, clearing)
        reset = make_reset(prof, prof.resolved_lanes()[0], PACKS)
    try:
        assert reset.preflight(setup, files)
        assert reset.health()
        outcome = reset.reset(setup, files)
    finally:
        reset.close()
        if server is not None:
            server.stop()
    assert outcome.verified is True
    assert clearing.runs() == (1 if "+" in adapter else 0)
    assert endpoint.calls == (1 if adapter == "endpoint+stores" else 0)
    after = product.snapshot()
    assert after["rows"] != before["rows"]
    assert after["uploads"] == {}  # CTL-M-001 uploads nothing: the old files are gone


# --------------------------------------------------------------------------- runs and trials


@pytest.mark.parametrize("adapter", ["command+stores", "endpoint+stores", "seed_route"])
def test_run_checks_the_lanes_and_stops_before_recording_anything(adapter, request, tmp_path,
                                                                  monkeypatch, endpoint):
    """``run`` pre-flights every lane: a database named for production stops it with the
    store's own refusal (its kind kept), naming pack and lane, before a run folder exists."""
    product = make_product(request, tmp_path / "product", "mongo", database="heron_prod")
    clearing = Clearing.prepare(product, endpoint)
    if adapter == "seed_route":
        settings, words = _seed_route(product, "production-name")
        server = BackgroundServer(create_seed_app(settings)).start()
        prof = _seed_profile(server.url)
    else:
        server = None
        words = guarded(product, GUARDS["production-name"], monkeypatch)
        prof = profile_for(product, adapter, clearing)
    before = product.snapshot()
    config = RunConfig(corpora=[str(PACKS)], packs=["CTL-M-001"], allow_unreported_runtime=True)
    try:
        with pytest.raises(SeedError) as caught:
            run(config, RunContext(profile=prof, runs_dir=tmp_path / "runs", seed_token=TOKEN))
    finally:
        if server is not None:
            server.stop()
    assert isinstance(caught.value, StoreRefusal) == (adapter != "seed_route")
    assert caught.value.context["lane"] == "lane-1"
    assert str(caught.value).startswith("refusing to run: the reset of CTL-M-001 on lane-1 "
                                        "would fail: ")
    assert_one_clear_line(str(caught.value), words)
    assert not (tmp_path / "runs").exists()
    assert product.snapshot() == before
    assert clearing.runs() == 0 and endpoint.calls == 0


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(("guard", "adapter"), [
    ("production-name", "command+stores"), ("marker-database", "endpoint+stores"),
    ("unreachable-database", "command+stores"), ("unreachable-database", "endpoint+stores")])
async def test_a_refused_reset_ends_the_trial_as_a_harness_error(
        guard, adapter, browser, postgres, request, tmp_path, monkeypatch, endpoint):
    """At a trial's start (the store changed after the run's pre-flight): ``harness_error``
    with the refusal's line — an unreachable database too, never the product's
    ``reset_failed`` — and nothing touched."""
    product = make_product(request, tmp_path / "product", "postgresql",
                           database=GUARDS[guard].database)
    clearing = Clearing.prepare(product, endpoint)
    words = guarded(product, GUARDS[guard], monkeypatch)
    before = product.snapshot()
    prof = profile_for(product, adapter, clearing)
    lane = prof.resolved_lanes()[0]
    reset = make_reset(prof, lane, PACKS)
    try:
        rig = TrialRig(browser, prof, lane, reset, lambda view, _dir: ScriptedCustomer(view))
        result = await run_trial(rig, PACK, 1, tmp_path / "trial-1")
    finally:
        reset.close()
    assert result.status == TrialStatus.HARNESS_ERROR and result.stop_reason == "harness_error"
    assert result.detail.startswith(f"reset ({adapter}): ")
    assert_one_clear_line(result.detail, words)
    assert product.snapshot() == before
    assert clearing.runs() == 0 and endpoint.calls == 0
