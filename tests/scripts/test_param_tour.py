"""scripts/param_tour.py: how often following one value through the calls comes back to a
module it had left. The trial's profile and the run's configuration stay under 16 (15 until
the staff side of a product without a staff screen was read from its stores, by a reader of
its own in harness/staff: one more module the trial's staff side goes to and back from)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LIMIT = 16


@pytest.fixture(scope="module")
def param_tour():
    spec = importlib.util.spec_from_file_location("param_tour", REPO / "scripts" / "param_tour.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["param_tour"] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("param_tour", None)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_value_sent_back_and_forth_counts_each_return(param_tour, tmp_path: Path) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": ("from pkg import b\n\n\ndef start(profile):\n    b.one(profile)\n"
                     "    b.two(profile)\n    done(profile)\n\n\ndef done(profile):\n"
                     "    return profile\n"),
        "pkg/b.py": ("from pkg import a\n\n\ndef one(profile):\n    a.done(profile)\n\n\n"
                     "def two(profile):\n    return profile\n"),
    })
    t = param_tour.tour("pkg.a:start", "profile", root=tmp_path)
    # a > b > a (re-entry) > b (re-entry) > a (re-entry) > b (re-entry) > a (re-entry)
    assert t.reentries == 5
    assert len(t.calls) == 4


def test_a_value_kept_in_one_module_never_returns(param_tour, tmp_path: Path) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "def start(profile):\n    inner(profile)\n\n\ndef inner(profile):\n"
                    "    return profile\n",
    })
    assert param_tour.tour("pkg.a:start", "profile", root=tmp_path).reentries == 0


def test_the_trial_profile_and_the_run_configuration_stay_near_home(param_tour) -> None:
    profile = param_tour.tour("harness.trial._run:run_trial", "rig.profile", root=REPO)
    config = param_tour.tour("harness.runner._execute:run", "config", root=REPO, leaves=True)
    assert len(profile.calls) > 5 and len(config.calls) > 3  # the walk finds the calls
    assert profile.reentries < LIMIT, profile.sequence
    assert config.reentries < LIMIT, config.sequence
