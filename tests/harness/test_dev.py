"""``dev_product`` for a product whose stores are SQL: the harness's view of each lane's
database and uploads folder (the URL's stem replaced by the lane's database, the lane's bucket
added to the folder) is exactly what the product of that lane was given ({sql_url},
{files_dir}), and the lanes' names carry the profile's ``[dev] database``."""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

import pytest

import claims_dev
from harness import dev_product
from harness.profile import load_profile
from harness.reset._stores import _sql_target, lane_variables

from .profiles import bare_profile

PACKS = Path(__file__).resolve().parents[2] / "packs"
ENV_PRODUCT = Path(__file__).resolve().parents[1] / "claims_dev" / "env_product.py"


@pytest.fixture(autouse=True)
def _shared_stores(stores, monkeypatch):
    """The session's embedded stores instead of a pair per test."""
    monkeypatch.setattr(claims_dev, "start_dev", functools.partial(
        claims_dev.start_dev, mongo_uri=stores.mongo_uri, s3=stores.s3))


def _profile(tmp_path: Path, env: str) -> Path:
    path = tmp_path / "sql-product.toml"
    argv = json.dumps([sys.executable, str(ENV_PRODUCT), "{port}",
                       str(tmp_path / "{lane}.json")])
    path.write_text(bare_profile("sql-product") + f'''
[reset]
adapter = "command+stores"

[reset.command]
argv = ["{{python}}", "-c", "pass"]

[stores]
sql_url_env = "T_SQL_URL"
files_dir_env = "T_UPLOADS"
allowed_database = "^heron_(dev|test)(_\\\\w+)?$"

[dev]
command = {argv}
env = {env}
database = "heron_dev"
''', encoding="utf-8")
    return path


def test_each_lane_of_the_harness_sees_what_its_product_was_given(tmp_path, monkeypatch):
    monkeypatch.delenv("T_SQL_URL", raising=False)
    monkeypatch.delenv("T_UPLOADS", raising=False)
    profile = load_profile(_profile(
        tmp_path, '{ T_SQL_URL = "{sql_url}", T_UPLOADS = "{files_dir}" }'))
    with dev_product(profile, 2, PACKS) as (pointed, env):
        assert env.data_dir is not None
        assert os.environ["T_SQL_URL"] == f"sqlite:///{env.data_dir}/heron_dev.sqlite3"
        assert os.environ["T_UPLOADS"] == str(env.data_dir / "uploads")
        lanes = pointed.resolved_lanes()
        assert [lane.database for lane in lanes] == ["heron_dev_lane1", "heron_dev_lane2"]
        for lane in lanes:
            product = json.loads((tmp_path / f"{lane.name}.json").read_text("utf-8"))
            harness_view = lane_variables(pointed, lane)
            assert harness_view == {"T_SQL_URL": product["T_SQL_URL"],
                                    "T_UPLOADS": product["T_UPLOADS"]}
            target = _sql_target(pointed, lane)
            assert target.url.database == f"{env.data_dir}/{lane.database}.sqlite3"
            target.check_name(profile.stores.allowed_database)  # Heron's guard lets it pass
        data = env.data_dir
    assert "T_SQL_URL" not in os.environ and not data.exists()


def test_a_product_not_given_the_data_folder_keeps_the_harness_variables(tmp_path,
                                                                          monkeypatch):
    """A [dev] that points the product at a database of the user's own (not {sql_url}) leaves
    the harness on that database too."""
    monkeypatch.setenv("T_SQL_URL", "postgresql://me@db.example/heron_dev")
    monkeypatch.delenv("T_UPLOADS", raising=False)
    profile = load_profile(_profile(tmp_path, '{ T_UPLOADS = "{files_dir}" }'))
    with dev_product(profile, 1, PACKS) as (_pointed, env):
        assert os.environ["T_SQL_URL"] == "postgresql://me@db.example/heron_dev"
        assert os.environ["T_UPLOADS"] == str(env.files_dir())
