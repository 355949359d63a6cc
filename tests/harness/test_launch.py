"""Which browser a run gets: an option, the environment, Playwright's own build, one found on
this kind of machine — or a clear refusal naming every way to give one."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from claims_records import HarnessError
from harness import BrowserChoice, system_browsers
from harness.browser._launch import CHROMIUM_ENV, endpoint_label, resolve_local


def _pw(path: str | None):
    return SimpleNamespace(chromium=SimpleNamespace(executable_path=path))


def _exe(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    return path


def test_one_way_only_and_known_channels():
    with pytest.raises(HarnessError, match="choose one way"):
        BrowserChoice.from_options(channel="chrome", cdp_url="http://h:1")
    with pytest.raises(HarnessError, match="unknown browser channel"):
        BrowserChoice.from_options(channel="firefox")
    assert BrowserChoice.from_options(channel="msedge").channel == "msedge"


def test_remote_endpoints_fall_back_to_the_environment():
    env = {"CLAIMS_HARNESS_BROWSER_CDP_URL": "http://grid:9222",
           "CLAIMS_HARNESS_BROWSER_WS_ENDPOINT": "ws://pw:3000/x"}
    assert BrowserChoice.from_options(env=env).cdp_url == "http://grid:9222"
    only_ws = BrowserChoice.from_options(env={"CLAIMS_HARNESS_BROWSER_WS_ENDPOINT": "ws://a:1"})
    assert only_ws.ws_endpoint == "ws://a:1" and only_ws.remote
    given = BrowserChoice.from_options(executable="/x", env=env)
    assert given.cdp_url is None and not given.remote  # an option given wins


def test_the_order_of_local_browsers(tmp_path):
    own = _exe(tmp_path, "ms-playwright/chrome")
    mine = _exe(tmp_path, "mine/chromium")
    assert resolve_local(BrowserChoice(channel="chrome"), _pw(str(own))).kind == "channel"
    info = resolve_local(BrowserChoice(executable=str(mine)), _pw(str(own)))
    assert (info.kind, info.executable) == ("executable", str(mine))
    info = resolve_local(BrowserChoice(), _pw(str(own)), env={CHROMIUM_ENV: str(mine)})
    assert info.executable == str(mine)
    info = resolve_local(BrowserChoice(), _pw(str(own)), env={})
    assert (info.kind, info.executable) == ("playwright", str(own))
    with pytest.raises(HarnessError, match="Chromium not found"):
        resolve_local(BrowserChoice(executable=str(tmp_path / "none")), _pw(None))
    with pytest.raises(HarnessError, match="Chromium not found"):
        resolve_local(BrowserChoice(), _pw(None), env={CHROMIUM_ENV: str(tmp_path / "none")})


def test_without_playwrights_build_a_browser_of_this_machine_is_found(monkeypatch):
    monkeypatch.setattr("harness.browser._launch.system_browsers",
                        lambda env=None, headless=False: ["/opt/chrome"])
    info = resolve_local(BrowserChoice(), _pw("/no/such/build"), env={})
    assert (info.kind, info.executable) == ("executable", "/opt/chrome")
    monkeypatch.setattr("harness.browser._launch.system_browsers",
                        lambda env=None, headless=False: [])
    with pytest.raises(HarnessError, match="no browser found") as err:
        resolve_local(BrowserChoice(), _pw(None), env={})
    for way in ("playwright install chromium", "--browser-channel", "--browser-cdp-url"):
        assert way in str(err.value)


def test_system_discovery_per_os(tmp_path):
    win = {"PROGRAMFILES": str(tmp_path / "pf"), "LOCALAPPDATA": str(tmp_path / "local")}
    edge = _exe(tmp_path, "pf/Microsoft/Edge/Application/msedge.exe")
    chrome = _exe(tmp_path, "local/Google/Chrome/Application/chrome.exe")
    found = system_browsers("win32", win)
    assert [Path(p) for p in found] == [edge, chrome]
    mac_home = tmp_path / "home"
    app = _exe(mac_home, "Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
    assert str(app) in system_browsers("darwin", {"HOME": str(mac_home)})
    linux = system_browsers("linux", {})
    assert all(Path(p).is_file() for p in linux)
    if Path("/usr/bin/chromium").is_file():
        assert "/usr/bin/chromium" in linux
    assert "/usr/bin/chromium-headless-shell" not in linux  # it cannot show a window


def test_a_headless_run_prefers_chromiums_headless_shell(monkeypatch, tmp_path):
    shell = _exe(tmp_path, "bin/chromium-headless-shell")
    full = _exe(tmp_path, "bin/chromium")
    monkeypatch.setattr("harness.browser._launch._LINUX_HEADLESS_PATHS", (str(shell),))
    monkeypatch.setattr("harness.browser._launch._LINUX_PATHS", (str(full),))
    monkeypatch.setattr("harness.browser._launch._LINUX", ())
    monkeypatch.setattr("harness.browser._launch._LINUX_HEADLESS", ())
    assert system_browsers("linux", {}, headless=True) == [str(shell), str(full)]
    assert system_browsers("linux", {}) == [str(full)]
    assert system_browsers("win32", {}, headless=True) == []  # Linux's package only
    monkeypatch.setattr("sys.platform", "linux")
    headless = resolve_local(BrowserChoice(), _pw(None), env={})
    headed = resolve_local(BrowserChoice(headed=True), _pw(None), env={})
    assert (headless.executable, headed.executable) == (str(shell), str(full))


def test_recorded_endpoints_never_hold_a_path_or_query():
    assert endpoint_label("wss://grid.example:443/chrome?token=abc") == "wss://grid.example:443"
    assert endpoint_label("http://127.0.0.1:9222") == "http://127.0.0.1:9222"
    assert endpoint_label("ws://127.0.0.1:5000/devtools/browser/1f2e") == "ws://127.0.0.1:5000"
