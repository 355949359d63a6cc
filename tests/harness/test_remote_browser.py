"""Browsers running elsewhere: a Chromium started here with a remote-debugging port (reached
over the Chrome DevTools Protocol) and a Playwright browser server (a ws endpoint) drive the
reference app with the same evidence as a browser the harness launches itself."""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import harness
from claims_records import HarnessError, RunRecord, StaffReading, TrialResult

from ..conftest import chromium_env
from .conftest import PACKS, profile_for, run_packs
from .har_check import check_har

pytestmark = [pytest.mark.slow, pytest.mark.browser]
CHROMIUM = "/usr/bin/chromium"
SERVER_JS = """
const { chromium } = require(process.argv[2]);
(async () => {
  const server = await chromium.launchServer({ executablePath: process.argv[3],
    args: ['--no-sandbox', '--disable-gpu'], host: '127.0.0.1', port: 0 });
  console.log(server.wsEndpoint());
  process.on('SIGTERM', async () => { await server.close(); process.exit(0); });
})();
"""


def _first_match(proc: subprocess.Popen, stream, pattern: str, timeout: float = 60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = stream.readline()
        if not line:
            assert proc.poll() is None, "the browser process ended before it was ready"
            continue
        m = re.search(pattern, line)
        if m:
            return m.group(0)
    raise AssertionError(f"nothing matched {pattern!r} in time")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture
def remote_chromium(tmp_path) -> Iterator[str]:
    """A headless Chromium listening for DevTools on a loopback port; yields its ws URL."""
    with chromium_env() as env:
        proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--remote-debugging-address=127.0.0.1",
             "--remote-debugging-port=0", f"--user-data-dir={tmp_path / 'profile'}",
             "--no-sandbox", "--disable-gpu", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        try:
            yield _first_match(proc, proc.stderr,
                               r"ws://127\.0\.0\.1:\d+/devtools/browser/\S+")
        finally:
            _stop(proc)


@pytest.fixture
def playwright_server(tmp_path) -> Iterator[str]:
    """A Playwright browser server (launchServer) on loopback; yields its ws endpoint."""
    from playwright._impl._driver import compute_driver_executable

    node, cli = compute_driver_executable()
    script = tmp_path / "server.js"
    script.write_text(SERVER_JS, encoding="utf-8")
    with chromium_env() as env:
        proc = subprocess.Popen([str(node), str(script), str(Path(cli).parent), CHROMIUM],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env=env)
        try:
            yield _first_match(proc, proc.stdout, r"ws://127\.0\.0\.1:\d+/\S+")
        finally:
            _stop(proc)


def _check_full_evidence(run_dir: Path, kind: str, port: int) -> None:
    record = RunRecord.model_validate_json((run_dir / "run.json").read_text())
    assert [(b.kind, b.endpoint) for b in record.browsers] == [
        (kind, f"{'http' if kind == 'cdp' else 'ws'}://127.0.0.1:{port}")]
    assert record.browsers[0].version and record.browsers[0].executable is None
    trial = run_dir / "CTL-M-001" / "trial-1"
    result = TrialResult.model_validate_json((trial / "trial.json").read_text())
    assert result.status == "completed" and result.claim_number, result.detail
    har = check_har(trial / "network.har")
    assert any("/api/" in e["request"]["url"] for e in har["log"]["entries"])
    assert len(list((trial / "screens").glob("*.png"))) >= 8
    assert (trial / "trace.zip").stat().st_size > 10_000
    staff = StaffReading.model_validate_json((trial / "staff.json").read_text())
    assert staff.found and staff.claim_number == result.claim_number
    assert staff.screenshots and all((trial / s).is_file() for s in staff.screenshots)


def test_a_chromium_reached_over_cdp_records_full_evidence(dev_env, remote_chromium,
                                                           tmp_path):
    port = int(re.search(r":(\d+)/", remote_chromium).group(1))
    choice = harness.BrowserChoice.from_options(cdp_url=f"http://127.0.0.1:{port}")
    _, run_dir = run_packs(dev_env, profile_for(dev_env), PACKS, tmp_path / "runs",
                           packs=["CTL-M-001"], run_id="cdp", browser=choice, tracing="on")
    _check_full_evidence(run_dir, "cdp", port)
    assert "devtools/browser" not in (run_dir / "run.json").read_text()  # path never recorded


def test_a_playwright_browser_server_records_full_evidence(dev_env, playwright_server,
                                                           tmp_path, monkeypatch):
    port = int(re.search(r":(\d+)/", playwright_server).group(1))
    monkeypatch.setenv("CLAIMS_HARNESS_BROWSER_WS_ENDPOINT", playwright_server)
    choice = harness.BrowserChoice.from_options()  # taken from the environment
    assert choice.ws_endpoint == playwright_server
    _, run_dir = run_packs(dev_env, profile_for(dev_env), PACKS, tmp_path / "runs",
                           packs=["CTL-M-001"], run_id="ws", browser=choice, tracing="on")
    _check_full_evidence(run_dir, "ws", port)
    token = playwright_server.rsplit("/", 1)[1]
    assert token not in (run_dir / "run.json").read_text()


@pytest.mark.asyncio
async def test_an_unreachable_remote_browser_is_a_clear_error():
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        with pytest.raises(HarnessError, match="cannot reach the remote browser") as err:
            await harness.open_browser(pw, harness.BrowserChoice(
                cdp_url="http://127.0.0.1:9/?token=SECRET"))
    assert err.value.context["endpoint"] == "http://127.0.0.1:9"
    assert "SECRET" not in str(err.value)
