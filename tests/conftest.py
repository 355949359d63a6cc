"""Fixtures shared by every test package: the embedded stores and a PostgreSQL server (started
once per session), a private copy of the corpus that a test may break, and a headless
Chromium; and the marks and grouping that make the fast tier and the parallel run
(``scripts/test.sh``) work."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import pymongo
import pytest

import claims_corpus
import claims_dev
from claims_dev import DevStores, start_stores

from .seed.postgres import PostgresServer, find_bin, running_postgres

PACKS = Path(__file__).resolve().parents[1] / "packs"
# The browser the tests launch: Chromium's headless shell where it is installed (what a headless
# run picks, harness.browser._launch), else the full Chromium.
CHROMIUM = os.environ.get("CLAIMS_HARNESS_CHROMIUM") or next(
    (p for p in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if os.path.isfile(p)),
    "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

# Every embedded model server the tests start (claims_dev.start_local_model, dev up --model local,
# model serve) reads one thread and one batch thread from llama-cpp-python's settings, which
# come from the environment where the command line sets none. The suite runs several workers per
# core, so a server's second thread found no free core and mostly spun: one thread gives the
# same answers for about half the CPU (a real customer's first answer: 32 -> 16 CPU-s).
os.environ.setdefault("N_THREADS", "1")
os.environ.setdefault("N_THREADS_BATCH", "1")

# A shell without job control starts a background command (`bash scripts/test.sh &`, a CI
# step run in the background) with Ctrl-C ignored, and every command the tests start would
# inherit that: the tests that stop `dev up` or `model serve` with Ctrl-C then waited out
# their whole bound (5 min each) on a command that never heard it. The commands a test
# starts get Ctrl-C's usual meaning back.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# Test modules that share a session fixture worth building once: they run on one worker.
XDIST_GROUPS = {
    # the real runs of tests/scoring/conftest.py ("reference" is used by all three)
    "tests/scoring/test_smoke.py": "scoring-real-runs",
    "tests/scoring/test_report.py": "scoring-real-runs",
    "tests/scoring/test_blind_review.py": "scoring-real-runs",
}

# The groups that take minutes (measured), longest first: started first, so that no long one is
# left to start when the other workers are running out of work. Worker seconds of the whole
# suite on two cores: fresh machine ~320, defect panel ~200, the real runs of scoring ~190,
# the reference corpus ~165, the real model ~160, the Kestrel corpus ~130; the rest under 100.
LONGEST_FIRST = [
    "tests/scripts/test_fresh_machine.py",
    "tests/claims_cli/test_selftest_cmd.py",
    "scoring-real-runs",
    "tests/test_reference_corpus.py",
    "tests/harness/test_real_model.py",
    "tests/test_example_corpus.py",
    "tests/claims_cli/test_run_faults.py",
    "tests/harness/test_journey_e2e.py",
    "tests/harness/test_remote_browser.py",
    "tests/harness/test_completion_framework.py",
    "tests/claims_prototype_app/test_harness_e2e.py",
    "tests/claims_dev/test_dev_model.py",
    "tests/claims_prototype_app/test_dev_e2e.py",
    "tests/claims_nightly/test_nightly_e2e.py",
    "tests/harness/test_shards_e2e.py",
    "tests/scoring/test_waiting_list_pressure.py",
]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test that drives a browser is ``browser`` and ``slow``. Under ``--dist loadgroup``
    (scripts/test.sh) the tests of one module stay on one worker, so module-scoped fixtures
    (a dev environment, a corpus run) are built once; the slow modules go first, so the long
    ones do not start last."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()) and not item.get_closest_marker(
                "browser"):
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("browser") and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)
    # on a worker, xdist sets ``dist`` to "no" and keeps the choice in ``loadgroup``
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            module = item.nodeid.split("::", 1)[0]
            item.add_marker(pytest.mark.xdist_group(XDIST_GROUPS.get(module, module)))
    def group(item: pytest.Item) -> str:
        return item.get_closest_marker("xdist_group").args[0]

    slow_groups = {group(item) for item in items if item.get_closest_marker("slow")}

    def order(item: pytest.Item) -> tuple[int, int]:
        g = group(item)
        if g in LONGEST_FIRST:
            return 0, LONGEST_FIRST.index(g)
        return (1 if g in slow_groups else 2), 0

    items.sort(key=order)  # stable: collection order within each rank


@pytest.fixture(scope="session")
def stores() -> Iterator[DevStores]:
    """Embedded MongoDB (SecantusDB) and S3 (moto) on free loopback ports."""
    with start_stores() as s:
        yield s


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of its own (initdb + pg_ctl in a temporary folder, on loopback),
    stopped and removed at the end of the session."""
    bin_dir = find_bin()
    if bin_dir is None:
        # A failure, as for a missing browser: a skipped SQL test would let a run without
        # PostgreSQL pass as if the SQL stores had been tested (scripts/test.sh installs it).
        pytest.fail("PostgreSQL's initdb is not installed (Debian: apt-get install postgresql; "
                    "scripts/test.sh installs it)")
    with running_postgres(bin_dir) as server:
        yield server


def start_dev_env(log_dir: Path, **options) -> claims_dev.DevEnvironment:
    """``claims_dev.start_dev`` (one reference lane on packs/baseline.json unless ``options`` say
    otherwise) with embedded stores of its own: the session's ``stores`` stay as the tests
    using them expect (other tests look into their lanes' databases)."""
    settings = {"lanes": 1, "app": True, "runtime": "reference",
                "baseline_path": PACKS / "baseline.json", **options}
    return claims_dev.start_dev(log_dir=log_dir, **settings)


def _answers(env: claims_dev.DevEnvironment) -> bool:
    """Whether every app of ``env`` still runs and answers."""
    import httpx

    try:
        with httpx.Client(timeout=5.0, trust_env=False) as client:
            return all(app.proc.poll() is None for app in env._apps) and all(
                client.get(f"{lane.base_url}/api/runtime").status_code == 200
                for lane in env.lanes)
    except httpx.HTTPError:
        return False


@pytest.fixture(scope="session")
def _shared_reference_env() -> Iterator[dict[str, claims_dev.DevEnvironment]]:
    """Where ``reference_dev_env`` keeps this worker's environment; stopped at the end."""
    held: dict[str, claims_dev.DevEnvironment] = {}
    try:
        yield held
    finally:
        for env in held.values():
            env.close()


@pytest.fixture(scope="module")
def reference_dev_env(_shared_reference_env: dict[str, claims_dev.DevEnvironment],
                      tmp_path_factory: pytest.TempPathFactory) -> claims_dev.DevEnvironment:
    """A dev environment (embedded stores and the reference app on one lane, reference
    runtime, packs/baseline.json) for the modules that need only a running one: one per
    worker, handed from module to module (every trial resets its lane through the seed route)
    and started again when a module left it stopped or not answering."""
    env = _shared_reference_env.get("env")
    if env is None or not _answers(env):
        _shared_reference_env.pop("env", None)
        if env is not None:
            env.close()
        env = start_dev_env(tmp_path_factory.mktemp("dev-logs"))
        _shared_reference_env["env"] = env
    return env


@pytest.fixture(scope="session")
def mongo(stores: DevStores) -> Iterator[pymongo.MongoClient]:
    client = pymongo.MongoClient(stores.mongo_uri)
    yield client
    client.close()


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    """packs/ with only CTL-M-001, its baseline and a manifest brought up to date."""
    root = tmp_path / "packs"
    root.mkdir()
    for name in ("baseline.json", "manifest.json"):
        shutil.copy2(PACKS / name, root / name)
    shutil.copytree(PACKS / "CTL-M-001", root / "CTL-M-001")
    claims_corpus.update_manifest(root)
    return root


def make_held_out(root: Path, packs: dict[str, str], prefix: str = "HLD",
                  name: str = "held-out set") -> Path:
    """A held-out corpus at ``root`` (outside the repository), as a team keeps one: its own
    manifest, id prefix and version, the public baseline, and packs copied from ``packs/``
    under new ids (``packs`` maps public id -> held-out id)."""
    import json

    root.mkdir(parents=True)
    shutil.copy2(PACKS / "baseline.json", root / "baseline.json")
    for source, target in packs.items():
        shutil.copytree(PACKS / source, root / target)
        for file in ("setup.json", "oracle/labels.json"):
            path = root / target / file
            data = json.loads(path.read_text(encoding="utf-8"))
            data["pack_id"] = target
            path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    manifest = {"version": "0.3", "id_prefix": prefix, "name": name, "corpus_version": "1.0.0",
                "frozen": False, "hashes_version": None, "packs": {},
                "changelog": [{"version": "1.0.0", "date": "2026-12-07",
                               "changes": [f"{t}: kept back from the public corpus."
                                           for t in packs.values()]}]}
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    claims_corpus.update_manifest(root)
    return root


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless system Chromium through Playwright's sync API (one per test module)."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM} (set CLAIMS_HARNESS_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with chromium_env() as env, sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                              env=env)
        try:
            yield b
        finally:
            b.close()


@contextlib.contextmanager
def chromium_env() -> Iterator[dict[str, str]]:
    """The environment of a Chromium a test starts itself: its own temporary files (the
    singleton socket folder a killed Chromium leaves) in a folder removed afterwards."""
    from harness.browser._launch import scratch_folder

    scratch = scratch_folder()
    try:
        yield {**os.environ, "TMPDIR": str(scratch)} if scratch else dict(os.environ)
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
