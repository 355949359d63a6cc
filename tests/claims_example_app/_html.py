"""Reading Kestrel's server-rendered pages in tests: the text of elements by class."""

from __future__ import annotations

from html.parser import HTMLParser

_VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr", "area", "col"}


class _Collector(HTMLParser):
    """Every closed element as (attributes, text), in the order they close."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, dict[str, str | None], list[str]]] = []
        self.closed: list[tuple[dict[str, str | None], str]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in _VOID:
            self.open.append((tag, dict(attrs), []))

    def handle_endtag(self, tag):
        while self.open:
            name, attrs, parts = self.open.pop()
            text = " ".join(parts)
            self.closed.append((attrs, " ".join(text.split())))
            if self.open:
                self.open[-1][2].append(text)
            if name == tag:
                return

    def handle_data(self, data):
        if self.open:
            self.open[-1][2].append(data)


def elements(html: str, cls: str) -> list[tuple[dict[str, str | None], str]]:
    """(attributes, text) of the elements with class ``cls``; siblings keep document order."""
    p = _Collector()
    p.feed(html)
    p.close()
    return [(a, t) for a, t in p.closed if cls in (a.get("class") or "").split()]


def texts(html: str, cls: str) -> list[str]:
    return [t for _, t in elements(html, cls)]
