"""Getting a browser: launched here (an executable, a channel, Playwright's own build, or one
found on this machine) or reached where it already runs (Chrome DevTools Protocol, a
Playwright browser server).

Every way gives a ``playwright`` ``Browser``; trials open their own contexts on it, so HAR,
trace and screenshots are recorded the same way wherever the browser runs (Playwright's
driver records them on this machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from claims_dev import process_running
from claims_records import BrowserInfo, HarnessError

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

CHROMIUM_ENV = "CLAIMS_HARNESS_CHROMIUM"
CDP_URL_ENV = "CLAIMS_HARNESS_BROWSER_CDP_URL"
WS_ENDPOINT_ENV = "CLAIMS_HARNESS_BROWSER_WS_ENDPOINT"
# The channels Playwright (and pytest-playwright's --browser-channel) knows for Chromium.
CHANNELS = ("chromium", "chrome", "chrome-beta", "chrome-dev", "chrome-canary", "msedge",
            "msedge-beta", "msedge-dev", "msedge-canary")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
CONNECT_TIMEOUT_MS = 30000

_LINUX = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
          "microsoft-edge", "microsoft-edge-stable")
_LINUX_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium",
                "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
                "/opt/google/chrome/chrome", "/usr/bin/microsoft-edge",
                "/usr/bin/microsoft-edge-stable")
# Chromium's headless shell (Debian's chromium-headless-shell): the same engine without the
# full browser's windowing layers, a quarter less CPU and wall time per journey here; headless
# only, so a headed run takes a full browser.
_LINUX_HEADLESS = ("chromium-headless-shell",)
_LINUX_HEADLESS_PATHS = ("/usr/bin/chromium-headless-shell",
                         "/usr/lib/chromium/chromium-headless-shell")
_MAC_APPS = ("Google Chrome.app/Contents/MacOS/Google Chrome",
             "Chromium.app/Contents/MacOS/Chromium",
             "Microsoft Edge.app/Contents/MacOS/Microsoft Edge")
_WINDOWS = (("Google", "Chrome", "Application", "chrome.exe"),
            ("Chromium", "Application", "chrome.exe"),
            ("Microsoft", "Edge", "Application", "msedge.exe"))


@dataclass(frozen=True)
class BrowserChoice:
    """How the run gets its browser; at most one of the four ways is given.

    Nothing given: ``$CLAIMS_HARNESS_CHROMIUM``, else Playwright's own Chromium when it is
    installed, else a Chromium, Chrome or Edge found on this machine. Remote endpoints may
    also come from ``$CLAIMS_HARNESS_BROWSER_CDP_URL`` / ``$CLAIMS_HARNESS_BROWSER_WS_ENDPOINT``
    (an endpoint holding a token belongs there, not on a command line).
    """

    executable: str | None = None
    channel: str | None = None
    cdp_url: str | None = None
    ws_endpoint: str | None = None
    headed: bool = False

    @classmethod
    def from_options(cls, executable: str | None = None, channel: str | None = None,
                     cdp_url: str | None = None, ws_endpoint: str | None = None,
                     headed: bool = False, env: Mapping[str, str] | None = None
                     ) -> BrowserChoice:
        """Options given win; remote endpoints fall back to their environment variables."""
        env = os.environ if env is None else env
        given = [name for name, v in (("--browser-executable", executable),
                                      ("--browser-channel", channel),
                                      ("--browser-cdp-url", cdp_url),
                                      ("--browser-ws-endpoint", ws_endpoint)) if v]
        if len(given) > 1:
            raise HarnessError("choose one way to get the browser", options=", ".join(given))
        if channel and channel not in CHANNELS:
            raise HarnessError(f"unknown browser channel; choose one of {', '.join(CHANNELS)}",
                               field="browser_channel", channel=channel)
        if not given:
            cdp_url = env.get(CDP_URL_ENV) or None
            ws_endpoint = None if cdp_url else (env.get(WS_ENDPOINT_ENV) or None)
        return cls(executable=executable, channel=channel, cdp_url=cdp_url,
                   ws_endpoint=ws_endpoint, headed=headed)

    @property
    def remote(self) -> bool:
        return bool(self.cdp_url or self.ws_endpoint)


def endpoint_label(url: str) -> str:
    """scheme://host:port of an endpoint: paths and queries may hold tokens, never recorded."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}" if parts.scheme else "(unparsable endpoint)"


def system_browsers(platform: str | None = None, env: Mapping[str, str] | None = None,
                    headless: bool = False) -> list[str]:
    """Where a Chromium, Chrome or Edge usually lives on this kind of machine, in the order
    they are tried (the ones that exist are returned); for a headless run, a Chromium
    headless shell first."""
    platform = platform or sys.platform
    env = os.environ if env is None else env
    candidates: list[str] = []
    if headless and platform.startswith("linux"):
        candidates += [found for name in _LINUX_HEADLESS if (found := shutil.which(name))]
        candidates += list(_LINUX_HEADLESS_PATHS)
    if platform.startswith("win"):
        for base in (env.get("PROGRAMFILES"), env.get("PROGRAMFILES(X86)"),
                     env.get("LOCALAPPDATA")):
            if base:
                candidates += [str(Path(base).joinpath(*rel)) for rel in _WINDOWS]
    elif platform == "darwin":
        roots = ["/Applications", str(Path(env.get("HOME", "~")) / "Applications")]
        candidates += [str(Path(root) / app) for root in roots for app in _MAC_APPS]
    else:
        candidates += [found for name in _LINUX if (found := shutil.which(name))]
        candidates += list(_LINUX_PATHS)
    seen: list[str] = []
    for c in candidates:
        if c not in seen and Path(c).is_file():
            seen.append(c)
    return seen


def playwright_chromium(playwright: Playwright) -> str | None:
    """Playwright's own Chromium when it has been installed (``playwright install chromium``)."""
    try:
        path = playwright.chromium.executable_path
    except Exception:  # an unknown build for this platform
        return None
    return path if path and Path(path).is_file() else None


def resolve_local(choice: BrowserChoice, playwright: Playwright,
                  env: Mapping[str, str] | None = None) -> BrowserInfo:
    """Which local browser to launch, without launching it; refuses with what was tried."""
    env = os.environ if env is None else env
    if choice.channel:
        return BrowserInfo(kind="channel", channel=choice.channel)
    if choice.executable:
        if not Path(choice.executable).is_file():
            raise HarnessError("Chromium not found", field="browser_executable",
                               path=choice.executable)
        return BrowserInfo(kind="executable", executable=choice.executable)
    if env.get(CHROMIUM_ENV):
        path = env[CHROMIUM_ENV]
        if not Path(path).is_file():
            raise HarnessError("Chromium not found", variable=CHROMIUM_ENV, path=path)
        return BrowserInfo(kind="executable", executable=path)
    own = playwright_chromium(playwright)
    if own:
        return BrowserInfo(kind="playwright", executable=own)
    found = system_browsers(env=env, headless=not choice.headed)
    if found:
        return BrowserInfo(kind="executable", executable=found[0])
    raise HarnessError(
        "no browser found: install Playwright's Chromium (python -m playwright install "
        "chromium) or a Chromium/Chrome/Edge, or pass --browser-executable PATH, "
        "--browser-channel chrome|msedge, --browser-cdp-url URL or --browser-ws-endpoint URL",
        platform=sys.platform)


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:200] if text else type(exc).__name__


# A Unix socket's path holds at most 107 bytes, and Chromium puts its singleton socket two
# folders below its TMPDIR: a longer folder makes the launch fail.
_SOCKET_PATH_MAX = 107
_SCRATCH_PREFIX = "ch-browser-"
_SINGLETON_TAIL = len(f"/{_SCRATCH_PREFIX}4194304-xxxxxxxx/org.chromium.Chromium.xxxxxx/"
                      "SingletonSocket")


def _sweep_scratch(base: str) -> None:
    """Remove the scratch folders of processes that ended without removing them (killed)."""
    for folder in Path(base).glob(f"{_SCRATCH_PREFIX}*-*"):
        pid = folder.name[len(_SCRATCH_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not process_running(int(pid)) and _owned(folder):
            shutil.rmtree(folder, ignore_errors=True)


def _owned(folder: Path) -> bool:
    try:
        return folder.stat().st_uid == os.getuid()
    except (OSError, AttributeError):
        return False


def scratch_folder() -> Path | None:
    """A new folder for a launched browser's own temporary files (its TMPDIR), named after
    this process, in the process's temporary folder or, when that path is too long for
    Chromium's singleton socket, in ``/tmp``; None (the browser keeps its usual temporary
    folder) when neither fits. Folders left by processes that were killed are removed."""
    for base in (tempfile.gettempdir(), "/tmp"):
        if os.path.isdir(base) and len(os.path.abspath(base)) + _SINGLETON_TAIL <= _SOCKET_PATH_MAX:
            _sweep_scratch(base)
            return Path(tempfile.mkdtemp(prefix=f"{_SCRATCH_PREFIX}{os.getpid()}-", dir=base))
    return None


async def open_browser(playwright: Playwright, choice: BrowserChoice
                       ) -> tuple[Browser, BrowserInfo]:
    """The browser for a run and what it is; ``browser.close()`` ends it (or, for a remote
    browser, only this connection: the browser keeps running for whoever started it)."""
    from playwright.async_api import Error as PlaywrightError

    if choice.cdp_url or choice.ws_endpoint:
        kind: Literal["cdp", "ws"] = "cdp" if choice.cdp_url else "ws"
        url = choice.cdp_url or choice.ws_endpoint or ""
        try:
            if kind == "cdp":
                browser = await playwright.chromium.connect_over_cdp(
                    url, timeout=CONNECT_TIMEOUT_MS)
            else:
                browser = await playwright.chromium.connect(url, timeout=CONNECT_TIMEOUT_MS)
        except PlaywrightError as exc:
            raise HarnessError("cannot reach the remote browser", endpoint=endpoint_label(url),
                               protocol=kind, error=_first_line(exc)) from exc
        return browser, BrowserInfo(kind=kind, endpoint=endpoint_label(url),
                                    version=browser.version)
    info = resolve_local(choice, playwright)
    # None is Playwright's default for both: its own Chromium
    channel = info.channel or None
    executable = info.executable if not channel and info.kind == "executable" else None
    # Chromium's own temporary files (its singleton socket folder, which a browser that is
    # killed or crashes leaves behind) go into a folder of this browser's, removed when the
    # browser ends, however it ends.
    scratch = scratch_folder()
    try:
        browser = await playwright.chromium.launch(
            headless=not choice.headed, args=CHROMIUM_ARGS, channel=channel,
            executable_path=executable,
            env={**os.environ, "TMPDIR": str(scratch)} if scratch else None)
    except BaseException as exc:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
        if isinstance(exc, PlaywrightError):
            raise HarnessError("the browser did not start", kind=info.kind,
                               channel=info.channel, path=info.executable,
                               error=_first_line(exc)) from exc
        raise
    if scratch:
        browser.on("disconnected", lambda _: shutil.rmtree(scratch, ignore_errors=True))
    return browser, info.model_copy(update={"version": browser.version})


BROWSER_CRASH = "browser crash"
"""The detail a trial's harness error starts with when the browser ended under it."""


class BrowserKeeper:
    """The run's browser, launched (or reached) again when it has ended: a crashed Chromium
    costs the trial it was driving, never the trials after it. Shared by the lanes; the
    first lane that finds it gone relaunches it for all."""

    def __init__(self, playwright: Playwright, choice: BrowserChoice) -> None:
        self.playwright = playwright
        self.choice = choice
        self.browser: Browser | None = None
        self.launches = 0
        self._lock = asyncio.Lock()

    async def get(self) -> tuple[Browser, BrowserInfo | None]:
        """A connected browser, and its description when it was (re)started by this call."""
        async with self._lock:
            if self.browser is not None and self.browser.is_connected():
                return self.browser, None
            if self.browser is not None:
                await self._close_quietly()
            browser, info = await open_browser(self.playwright, self.choice)
            self.browser = browser
            self.launches += 1
            return browser, info

    async def close(self) -> None:
        async with self._lock:
            await self._close_quietly()

    async def _close_quietly(self) -> None:
        browser, self.browser = self.browser, None
        if browser is not None:
            with contextlib.suppress(Exception):
                await browser.close()
