"""The browser options every command that drives a browser takes (run, profile check)."""

from __future__ import annotations

from typing import Annotated

import typer

Executable = Annotated[str | None, typer.Option(
    "--browser-executable", help="Chromium/Chrome/Edge file to launch (default: "
    "$CLAIMS_HARNESS_CHROMIUM, else Playwright's own Chromium when installed, else one found "
    "on this machine).")]
Channel = Annotated[str | None, typer.Option(
    "--browser-channel", help="Launch an installed browser by channel: chrome, msedge, "
    "chrome-beta, msedge-dev, … (as pytest-playwright's --browser-channel).")]
CdpUrl = Annotated[str | None, typer.Option(
    "--browser-cdp-url", help="Use a Chromium already running elsewhere through the Chrome "
    "DevTools Protocol (http://host:9222 or its ws:// URL). An URL holding a token belongs in "
    "$CLAIMS_HARNESS_BROWSER_CDP_URL instead.")]
WsEndpoint = Annotated[str | None, typer.Option(
    "--browser-ws-endpoint", help="Use a Playwright browser server (launchServer, a grid) at "
    "this ws:// endpoint; or $CLAIMS_HARNESS_BROWSER_WS_ENDPOINT.")]


def browser_choice(executable: str | None, channel: str | None, cdp_url: str | None,
                   ws_endpoint: str | None, headed: bool = False):
    """The ``harness.BrowserChoice`` of these options (refusing more than one way)."""
    import harness

    return harness.BrowserChoice.from_options(executable=executable, channel=channel,
                                              cdp_url=cdp_url, ws_endpoint=ws_endpoint,
                                              headed=headed)
