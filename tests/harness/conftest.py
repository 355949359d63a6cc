"""Fixtures for journey tests: a dev environment (stores + reference app) on loopback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import pytest_asyncio

REPO = Path(__file__).resolve().parents[2]
PACKS = REPO / "packs"


def start_env(tmp_path_factory, lanes: int = 1, runtime: str = "reference"):
    """A dev environment of its own (stop it with ``close()``)."""
    from ..conftest import start_dev_env

    return start_dev_env(tmp_path_factory.mktemp("dev-logs"), lanes=lanes, runtime=runtime)


@pytest.fixture(scope="module")
def dev_env(reference_dev_env):
    """The reference app on one lane: this worker's shared one (tests/conftest.py)."""
    return reference_dev_env


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser():
    """A local Chromium for the tests of one module (their event loop is the module's)."""
    from playwright.async_api import async_playwright

    from harness.browser import launch_browser

    async with async_playwright() as pw:
        b = await launch_browser(pw)
        yield b
        await b.close()


def profile_for(env, **screen_overrides):
    """The reference profile pointed at ``env``'s lanes, with short timeouts for tests."""
    import harness

    prof = harness.load_profile("reference").with_lanes([
        harness.Lane(name=ln.name, base_url=ln.base_url, seed_url=ln.seed_url,
                     database=ln.database) for ln in env.lanes])
    completion = prof.completion.model_copy(update={"timeout_s": 20, "new_reply_timeout_s": 6})
    screen = prof.customer_screen.model_copy(update=screen_overrides)
    return prof.model_copy(update={"completion": completion, "customer_screen": screen})


def run_packs(env, profile, packs_root: Path, runs_dir: Path, *, run_id=None, browser=None,
              llm=None, **config):
    """Run ``packs_root`` on ``env`` with the run configuration ``config``."""
    import harness
    from claims_records import RunConfig

    ctx = harness.RunContext(profile=profile, runs_dir=runs_dir, run_id=run_id,
                             seed_token=env.seed_token, browser=browser, llm=llm)
    return harness.run(RunConfig(corpora=[str(packs_root)], **config), ctx)


def copy_corpus(dest: Path, pack_ids: list[str]) -> Path:
    """A private corpus folder with the manifest, the baseline and the named packs."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("manifest.json", "baseline.json"):
        shutil.copy(PACKS / name, dest / name)
    for pack in pack_ids:
        shutil.copytree(PACKS / pack, dest / pack)
    return dest


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
