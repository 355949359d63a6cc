"""A protocol shot that never answers: the camera falls back to Playwright's screenshot after
``CDP_SHOT_TIMEOUT_S`` and, for every later page of that browser, asks Playwright at once
(harness/browser/_camera.py)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import pytest

from harness.browser import Camera, _camera

pytestmark = pytest.mark.asyncio


class _Silent:
    """A DevTools session whose screenshot never answers."""

    def __init__(self, calls: list[str]) -> None:
        self.calls = calls

    async def send(self, method: str, params: dict) -> dict:
        self.calls.append(method)
        await asyncio.sleep(3600)
        return {}


@dataclass
class _Kind:
    name: str = "chromium"


@dataclass(eq=False)
class _Browser:
    browser_type: _Kind = field(default_factory=_Kind)


@dataclass
class _Context:
    browser: _Browser
    calls: list[str]

    async def new_cdp_session(self, page: object) -> _Silent:
        return _Silent(self.calls)


@dataclass
class _Page:
    context: _Context
    shots: int = 0

    async def screenshot(self, **kwargs: object) -> bytes:
        self.shots += 1
        return b"playwright-png"


async def test_an_unanswered_protocol_shot_falls_back_for_the_whole_browser(monkeypatch):
    monkeypatch.setattr(_camera, "CDP_SHOT_TIMEOUT_S", 0.2)
    calls: list[str] = []
    browser = _Browser()
    first = _Page(_Context(browser, calls))
    started = time.monotonic()
    assert await Camera(first).viewport() == b"playwright-png"  # type: ignore[arg-type]
    assert time.monotonic() - started < 2 and calls == ["Page.captureScreenshot"]
    assert await Camera(first).viewport() == b"playwright-png"  # type: ignore[arg-type]
    later = _Page(_Context(browser, calls))  # another page of the same browser
    assert await Camera(later).viewport() == b"playwright-png"  # type: ignore[arg-type]
    assert calls == ["Page.captureScreenshot"] and first.shots == 2 and later.shots == 1
    other = _Page(_Context(_Browser(), calls))  # another browser still tries the protocol
    assert await Camera(other).viewport() == b"playwright-png"  # type: ignore[arg-type]
    assert calls == ["Page.captureScreenshot"] * 2
