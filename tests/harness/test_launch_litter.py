"""A launched browser's own temporary files stay in a folder of its own, removed when the
browser ends, however it ends: a Chromium that is killed leaves its singleton socket folder
behind, and a run must not leave it in the machine's temporary folder."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from harness import BrowserChoice
from harness.browser import open_browser

pytestmark = [pytest.mark.browser]


@pytest.fixture
def short_tmp(monkeypatch) -> Iterator[Path]:
    """A temporary folder with a short path (a Unix socket path is at most 107 bytes, and
    Chromium's singleton socket lies two folders below it), made the process's own, and the
    temporary folder of the Playwright driver the test starts (its artifacts folder and the
    browser's profile are made there: what the driver leaves shows in the folder too)."""
    folder = Path(tempfile.mkdtemp(prefix="t-", dir="/tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setenv("TMPDIR", str(folder))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _pids_with(variable: str) -> list[int]:
    """Processes of this user whose environment holds ``variable`` (``NAME=value``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                environ = (entry / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            if variable.encode() in environ:
                found.append(int(entry.name))
    return found


# The full Chromium makes a singleton socket folder in its TMPDIR; the headless shell, which
# headless runs prefer, does not: both are killed here.
FULL_CHROMIUM = "/usr/bin/chromium"
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"


@pytest.mark.asyncio
@pytest.mark.parametrize("executable", [
    FULL_CHROMIUM,
    pytest.param(HEADLESS_SHELL, marks=pytest.mark.skipif(
        not os.path.isfile(HEADLESS_SHELL), reason="no chromium-headless-shell here"))])
async def test_a_killed_browser_leaves_no_temporary_folder(short_tmp, executable):
    tmp_path = short_tmp
    async with async_playwright() as pw:
        browser, _ = await open_browser(pw, BrowserChoice(executable=executable))
        ended = asyncio.Event()
        browser.on("disconnected", lambda _: ended.set())
        [scratch] = list(tmp_path.glob("ch-browser-*"))
        page = await browser.new_page()
        await page.set_content("<p>a page</p>")
        if executable == FULL_CHROMIUM:
            assert any(p.name.startswith("org.chromium.Chromium.") for p in scratch.iterdir())
        pids = _pids_with(f"TMPDIR={scratch}")
        assert pids  # the browser's processes hold the folder as their TMPDIR
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        await asyncio.wait_for(ended.wait(), 30)
        # the driver removes the killed browser's profile once it has seen the exit: a run
        # goes on with its driver, which has the time to; here it is stopped next
        for _ in range(200):
            if not list(tmp_path.glob("playwright*")):
                break
            await asyncio.sleep(0.05)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.asyncio
async def test_a_closed_browser_leaves_no_temporary_folder(short_tmp):
    tmp_path = short_tmp
    async with async_playwright() as pw:
        browser, _ = await open_browser(pw, BrowserChoice())
        assert len(list(tmp_path.glob("ch-browser-*"))) == 1
        await browser.close()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.asyncio
async def test_a_long_temporary_folder_still_starts_the_browser(tmp_path, monkeypatch):
    # pytest's own temporary folders are long enough that Chromium's singleton socket path
    # below them would pass the 107-byte limit of a Unix socket path
    long = tmp_path / ("deep-" * 12)
    long.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(long))
    made: list[Path] = []
    mkdtemp = tempfile.mkdtemp

    def recording_mkdtemp(*args, **kwargs):
        made.append(Path(mkdtemp(*args, **kwargs)))
        return str(made[-1])

    monkeypatch.setattr(tempfile, "mkdtemp", recording_mkdtemp)
    async with async_playwright() as pw:
        browser, _ = await open_browser(pw, BrowserChoice())
        page = await browser.new_page()
        await page.set_content("<p>a page</p>")
        assert await page.inner_text("p") == "a page"
        assert [p.parent for p in made] == [Path("/tmp")]
        await browser.close()
    assert list(long.iterdir()) == [] and not made[0].exists()


def test_the_folder_of_a_killed_process_is_removed_at_the_next_launch(short_tmp):
    from harness.browser._launch import scratch_folder

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a process that has ended: its folder is litter
    alive = os.getppid()  # a process that is running: its folder is in use
    left = short_tmp / f"ch-browser-{gone.pid}-abcd1234"
    in_use = short_tmp / f"ch-browser-{alive}-abcd1234"
    other = short_tmp / "ch-browser-notapid"
    for folder in (left, in_use, other):
        (folder / "org.chromium.Chromium.x").mkdir(parents=True)
    made = scratch_folder()
    assert made is not None and made.parent == short_tmp
    assert made.name.startswith(f"ch-browser-{os.getpid()}-")
    assert not left.exists() and in_use.exists() and other.exists()
