"""The customer's browser context for one trial: fresh, recorded, redacted.

Opening a browser context costs as much as several steps of a journey, and it touches
nothing in the product, so it is opened while the product is reset; the first request only
goes out when the journey opens the start page. The HAR (and a trace, when asked) is
recorded from the start; closing the context writes them, redaction turns them into
evidence, and the raw files never leave a temporary folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from pathlib import Path

from playwright.async_api import Browser, BrowserContext, Page, StorageState
from playwright.async_api import Error as PlaywrightError

from .._redact import redact_har_file, redact_trace_file
from ._browser import VIEWPORT


class CustomerTab:
    """One trial's customer context; ``evidence`` off records no HAR and no trace."""

    def __init__(self, browser: Browser, headers: dict[str, str], evidence: bool = True,
                 tracing: str = "off") -> None:
        self.browser = browser
        self.headers = headers
        self.evidence = evidence
        self.tracing = tracing != "off" and evidence
        self.trace_mode = tracing
        self.tmp = Path(tempfile.mkdtemp(prefix="claims-har-"))
        self._opening: asyncio.Task[tuple[BrowserContext, Page]] | None = None
        self.context: BrowserContext | None = None

    def open(self) -> None:
        """Start opening the context and its page in the background."""
        self._opening = asyncio.ensure_future(self._open())

    async def _open(self) -> tuple[BrowserContext, Page]:
        context = await self.browser.new_context(
            record_har_path=str(self.tmp / "network.har") if self.evidence else None,
            record_har_content="embed" if self.evidence else None, viewport=VIEWPORT,
            extra_http_headers=self.headers or None)
        self.context = context
        if self.tracing:
            await context.tracing.start(screenshots=True, snapshots=True)
        return context, await context.new_page()

    async def page(self) -> Page:
        if self._opening is None:
            self.open()
        assert self._opening is not None
        return (await self._opening)[1]

    async def storage_state(self) -> StorageState | None:
        """The context's cookies and local storage (the customer's session), or None."""
        if self.context is None:
            return None
        try:
            return await self.context.storage_state()
        except PlaywrightError:
            return None

    async def close(self, keep_trace: bool) -> None:
        """Stop the trace (kept into the temporary folder when ``keep_trace``) and close the
        context, which writes the HAR."""
        if self._opening is not None:
            if not self._opening.done():
                self._opening.cancel()
            with contextlib.suppress(BaseException):
                await self._opening  # its error, if any, was the journey's to report
        context, self.context = self.context, None
        if context is None:
            return
        if self.tracing:
            with contextlib.suppress(PlaywrightError):
                await context.tracing.stop(
                    path=str(self.tmp / "trace.zip") if keep_trace else None)
        with contextlib.suppress(PlaywrightError):
            await context.close()

    def redact(self, folder: Path, secrets: list[str]) -> None:
        """Write the redacted HAR (and trace) into the trial ``folder`` (blocking)."""
        if (self.tmp / "network.har").exists():
            redact_har_file(self.tmp / "network.har", folder / "network.har",
                            extra_secrets=secrets)
        if (self.tmp / "trace.zip").exists():
            redact_trace_file(self.tmp / "trace.zip", folder / "trace.zip",
                              extra_secrets=secrets)

    def discard(self) -> None:
        """Remove the raw (unredacted) files."""
        shutil.rmtree(self.tmp, ignore_errors=True)
