"""start_dev: stores, lanes, the product per lane or the standalone seed route."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import httpx
import pytest

from claims_dev import DevEnvironment, ProductCommand, lane_names, start_dev
from claims_dev import _app as app_module
from claims_records import SeedError
from seed import S3Config, SeedClient
from tests.seed.conftest import make_setup_a

from ._procs import alive

FAKE_PRODUCT = Path(__file__).with_name("fake_product.py")
ENV_PRODUCT = Path(__file__).with_name("env_product.py")


@pytest.fixture
def fake_product(monkeypatch):
    real = app_module.app_command

    def command(*args, **kwargs):
        argv = real(*args, **kwargs)
        assert argv[1:3] == ["-m", "claims_reference_app"]
        return [sys.executable, str(FAKE_PRODUCT), *argv[3:]]

    monkeypatch.setattr(app_module, "app_command", command)


def test_seed_route_lanes_without_app(stores, tmp_path):
    setup, files = make_setup_a()
    setup = setup.model_copy(update={"overrides": []})
    with start_dev(lanes=2, app=False, mongo_uri=stores.mongo_uri, s3=stores.s3,
                   baseline_path=None, log_dir=tmp_path / "logs") as env:
        assert [lane.database for lane in env.lanes] == ["claims_dev_lane1", "claims_dev_lane2"]
        assert [lane.bucket for lane in env.lanes] == ["claims-dev-lane1", "claims-dev-lane2"]
        assert all(lane.base_url is None for lane in env.lanes)
        with SeedClient(env.lanes[0].seed_url, env.seed_token) as c1, \
                SeedClient(env.lanes[1].seed_url, env.seed_token) as c2:
            c1.reset(setup.model_dump(mode="json"), files)
            assert c2.health()["database"] == "claims_dev_lane2"
            assert "policies" in c1.state().collections
            assert c2.state().collections == {}
        path = env.write_env_file(tmp_path / "dev.env")
        text = path.read_text()
        assert f"CLAIMS_HARNESS_SEED_TOKEN={env.seed_token}\n" in text
        assert f"CLAIMS_HARNESS_LANE2_SEED_URL={env.lanes[1].seed_url}\n" in text
        assert f"CLAIMS_HARNESS_MONGO_URI={stores.mongo_uri}\n" in text
        assert "CLAIMS_HARNESS_LANE1_BASE_URL" not in text
        assert oct(path.stat().st_mode & 0o777) == "0o600"
        urls = [lane.seed_url for lane in env.lanes]
    for url in urls:  # servers are stopped
        with pytest.raises(httpx.HTTPError):
            httpx.get(url + "/health", timeout=1)


@pytest.mark.slow
def test_product_per_lane_is_started_and_stopped(stores, tmp_path, fake_product):
    env = start_dev(lanes=2, app=True, runtime="controlled", faults=["slow_reply"],
                    mongo_uri=stores.mongo_uri, s3=stores.s3, baseline_path=None,
                    log_dir=tmp_path)
    try:
        pids = [a.proc.pid for a in env._apps]
        assert len(pids) == 2 and all(alive(p) for p in pids)
        for lane in env.lanes:
            report = httpx.get(lane.base_url + "/api/runtime", trust_env=False).json()
            assert report["runtime"] == "controlled" and report["faults"] == ["slow_reply"]
            assert lane.seed_url == lane.base_url + "/_harness/seed"
            with SeedClient(lane.base_url, env.seed_token) as client:
                assert client.health()["database"] == lane.database
        assert "CLAIMS_HARNESS_LANE1_BASE_URL" in env.env_vars()
    finally:
        env.close()
    assert not any(alive(p) for p in pids)


@pytest.mark.slow
def test_product_that_fails_to_start_names_its_log(stores, tmp_path, fake_product):
    with pytest.raises(SeedError) as err:
        start_dev(lanes=1, app=True, faults=["crash_on_start"], mongo_uri=stores.mongo_uri,
                  s3=stores.s3, baseline_path=None, log_dir=tmp_path, app_start_timeout=30)
    log = Path(err.value.context["log"])
    assert log.parent == tmp_path
    assert "crashing as asked" in log.read_text()


def test_missing_product_module_is_a_clear_error(stores, tmp_path, monkeypatch):
    monkeypatch.setattr(app_module, "app_command", lambda *a, **k: [
        sys.executable, "-m", "no_such_product_module_here"])
    with pytest.raises(SeedError, match="exited during start-up") as err:
        start_dev(lanes=1, app=True, mongo_uri=stores.mongo_uri, s3=stores.s3,
                  baseline_path=None, log_dir=tmp_path, app_start_timeout=30)
    assert "No module named" in Path(err.value.context["log"]).read_text()


def test_a_temporary_log_folder_goes_on_stop_and_stays_after_a_failed_start(
        stores, tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    with start_dev(lanes=1, app=False, mongo_uri=stores.mongo_uri, s3=stores.s3,
                   baseline_path=None) as env:
        assert env.log_dir.parent == tmp_path / "tmp" and env.log_dir.is_dir()
    assert list((tmp_path / "tmp").iterdir()) == []  # removed on stop
    with start_dev(lanes=1, app=False, mongo_uri=stores.mongo_uri, s3=stores.s3,
                   baseline_path=None, log_dir=tmp_path / "mine"):
        pass
    assert (tmp_path / "mine").is_dir()  # a folder given is the user's: kept
    monkeypatch.setattr(app_module, "app_command", lambda *a, **k: [
        sys.executable, "-m", "no_such_product_module_here"])
    with pytest.raises(SeedError) as err:
        start_dev(lanes=1, app=True, mongo_uri=stores.mongo_uri, s3=stores.s3,
                  baseline_path=None, app_start_timeout=30)
    assert "No module named" in Path(err.value.context["log"]).read_text()  # kept: says why


def test_faults_in_the_environment_are_refused_before_anything_starts(monkeypatch, tmp_path):
    monkeypatch.setenv("CLAIMS_APP_FAULTS", "flag_everything")
    with pytest.raises(SeedError, match="CLAIMS_APP_FAULTS is set.*--fault"):
        start_dev(lanes=1, app=True, log_dir=tmp_path)
    assert not any(tmp_path.iterdir())  # no store, no app, no log was started


def test_bad_arguments():
    with pytest.raises(SeedError, match="runtime"):
        start_dev(runtime="magic")
    with pytest.raises(SeedError, match="lane"):
        start_dev(lanes=0)
    for stem in ("", "heron-dev", "../heron", "x" * 51):
        with pytest.raises(SeedError, match="database name") as err:
            start_dev(app=False, database=stem)
        assert err.value.context["database"] == stem


def test_lane_names_carry_the_database_stem_given():
    assert lane_names(2) == [("lane1", "claims_dev_lane1", "claims-dev-lane1"),
                             ("lane2", "claims_dev_lane2", "claims-dev-lane2")]
    assert lane_names(2, "heron_dev") == [
        ("lane1", "heron_dev_lane1", "claims-dev-lane1"),
        ("lane2", "heron_dev_lane2", "claims-dev-lane2")]


def test_app_command_carries_every_flag_and_no_secret(stores, tmp_path):
    s3 = S3Config(endpoint=stores.s3.endpoint, access_key="ak",
                  secret_key="CANARY-S3-SECRET")
    mongo_uri = "mongodb://user:CANARY-MONGO-PW@127.0.0.1:27017/"
    env = DevEnvironment(lanes=[], seed_token="-CANARY-TOKEN", mongo_uri=mongo_uri,
                         s3=s3, runtime="model", log_dir=tmp_path)
    argv = app_module.app_command(("lane1", "claims_dev_lane1", "claims-dev-lane1"), 8123, env,
                                  Path("/b.json"), ["f1", "f2"])
    assert argv[:3] == [sys.executable, "-m", "claims_reference_app"]
    assert not any("CANARY" in a for a in argv), "a secret is on the command line"
    rest = [a for a in argv[3:] if a != "--enable-seed-route"]
    pairs = dict(zip(rest[0::2], rest[1::2], strict=False))
    assert pairs["--port"] == "8123" and pairs["--database"] == "claims_dev_lane1"
    assert pairs["--runtime"] == "model" and pairs["--s3-access-key"] == "ak"
    assert "--enable-seed-route" in argv
    assert argv[-4:] == ["--fault", "f1", "--fault", "f2"]
    assert os.path.basename(argv[argv.index("--baseline") + 1]) == "b.json"
    child = app_module.app_environment(env)
    # a token starting with "-" is a value in the environment, never mistaken for a flag
    assert child["CLAIMS_HARNESS_SEED_TOKEN"] == "-CANARY-TOKEN"
    assert child["CLAIMS_APP_S3_SECRET_KEY"] == "CANARY-S3-SECRET"
    assert child["CLAIMS_APP_MONGO_URI"] == mongo_uri


def test_the_real_app_reads_what_start_dev_gives_it(stores, tmp_path, monkeypatch):
    from claims_reference_app.__main__ import parse_args

    env = DevEnvironment(lanes=[], seed_token="tok-1", mongo_uri=stores.mongo_uri,
                         s3=stores.s3, runtime="reference", log_dir=tmp_path)
    argv = app_module.app_command(("lane1", "claims_dev_lane1", "claims-dev-lane1"), 8123, env,
                                  None, [])
    for name, value in app_module.app_environment(env).items():
        monkeypatch.setenv(name, value)
    _, settings = parse_args(argv[3:])
    assert (settings.seed_token, settings.s3_secret_key, settings.mongo_uri) == (
        "tok-1", stores.s3.secret_key, stores.mongo_uri)
    assert settings.seed_enabled and settings.database == "claims_dev_lane1"


@pytest.mark.slow
def test_reference_app_lane_resets_a_real_pack(stores, tmp_path):
    """The real reference app, started by start_dev with the packs' baseline, seeds CTL-M-001."""
    from claims_corpus import load_setup, setup_files

    root = Path(__file__).resolve().parents[2]
    pack = root / "packs" / "CTL-M-001"
    setup = load_setup(pack)
    env = start_dev(lanes=1, app=True, mongo_uri=stores.mongo_uri, s3=stores.s3,
                    baseline_path=root / "packs" / "baseline.json", log_dir=tmp_path,
                    app_start_timeout=120)
    try:
        lane = env.lanes[0]
        assert httpx.get(lane.base_url + "/api/runtime", trust_env=False).json()["runtime"] == (
            "reference")
        with SeedClient(lane.base_url, env.seed_token) as client:
            result = client.reset(setup.model_dump(mode="json"), setup_files(pack, setup))
            state = client.state()
        pid = env._apps[0].proc.pid
        if Path(f"/proc/{pid}/cmdline").exists():  # what `ps` shows every user of the machine
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode()
            assert "reference_app" in cmdline
            assert env.seed_token not in cmdline and stores.s3.secret_key not in cmdline
    finally:
        env.close()
    assert result["verified"] is True
    assert result["staff_credentials"] is not None  # from the baseline
    from claims_corpus import load_baseline

    baseline = load_baseline(root / "packs")
    assert set(state.collections["policies"]) == {
        d["_id"] for d in setup.collections["policies"] + baseline.collections["policies"]}
    assert "staff" in state.collections
    assert not alive(pid)


def test_a_product_gets_a_sqlite_file_and_an_uploads_folder_per_lane(stores, tmp_path):
    """{sql_url} and {files_dir}: a SQLite file named by the lane's database and the lane's
    uploads folder, both in a data folder start_dev makes and removes on close."""
    product = ProductCommand(
        argv=("{python}", str(ENV_PRODUCT), "{port}", str(tmp_path / "{lane}.json")),
        env=(("T_SQL_URL", "{sql_url}"), ("T_UPLOADS", "{files_dir}"), ("T_DB", "{database}")),
        name="env-product")
    with start_dev(lanes=2, app=False, product=product, mongo_uri=stores.mongo_uri,
                   s3=stores.s3, baseline_path=None, log_dir=tmp_path / "logs",
                   database="heron_dev") as env:
        data = env.data_dir
        assert data is not None and (data / "uploads").is_dir()
        assert f"data      {data}" in env.describe()
        seen = {lane.name: json.loads((tmp_path / f"{lane.name}.json").read_text("utf-8"))
                for lane in env.lanes}
        for lane in env.lanes:
            got = seen[lane.name]
            assert got["T_DB"] == lane.database == f"heron_dev_{lane.name}"
            assert got["T_SQL_URL"] == f"sqlite:///{data}/heron_dev_{lane.name}.sqlite3"
            assert got["T_UPLOADS"] == str(data / "uploads" / f"claims-dev-{lane.name}")
        assert env.sql_url("heron_dev") == f"sqlite:///{data}/heron_dev.sqlite3"
        assert env.files_dir() == data / "uploads"
    assert not data.exists()  # removed on close
    with start_dev(lanes=1, app=False, mongo_uri=stores.mongo_uri, s3=stores.s3,
                   baseline_path=None, log_dir=tmp_path / "logs") as env:
        assert env.data_dir is None  # the seed route alone needs none
        with pytest.raises(SeedError, match="no data folder"):
            env.sql_url("claims_dev")
