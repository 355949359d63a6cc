"""Helpers for pages opened from disk in Chromium (the report, the blind-review pack)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def local_targets(page) -> list[str]:
    """Every link and image of the page resolved by the browser to an absolute URL (an
    inline SVG chart's links too)."""
    return page.evaluate("""() => [
        ...Array.from(document.querySelectorAll('a[href]')).map(a =>
            a instanceof SVGElement ? new URL(a.getAttribute('href'), document.baseURI).href
                                    : a.href),
        ...Array.from(document.querySelectorAll('img')).map(i => i.src),
        ...Array.from(document.querySelectorAll('link[href], script[src]'))
             .map(e => e.href || e.src),
    ]""")


def assert_targets_exist(page, inside: Path | None = None) -> int:
    """Every target is a file that exists (and, with ``inside``, lies in that folder)."""
    count = 0
    for url in local_targets(page):
        parsed = urlparse(url)
        assert parsed.scheme == "file", url
        target = Path(unquote(parsed.path))
        assert target.exists(), f"broken link {url}"
        if inside is not None:
            assert target.resolve().is_relative_to(inside.resolve()), f"{url} leaves {inside}"
        count += 1
    return count
