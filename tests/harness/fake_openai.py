"""The local OpenAI-compatible stand-in used by the tests: ``harness.panel.StandIn``.

``FakeOpenAI(default=...)`` answers queued replies first, then ``default(body)`` (the reply
text, or a whole completion body such as ``completion(...)``), else HTTP 500.
"""

from __future__ import annotations

from harness.panel import StandIn, completion


class FakeOpenAI(StandIn):
    """The stand-in, with the tests' names: ``default`` is the behaviour."""

    def __init__(self, default=None) -> None:
        super().__init__(default)

    @property
    def default(self):
        return self.behaviour

    @default.setter
    def default(self, behaviour) -> None:
        self.behaviour = behaviour


__all__ = ["FakeOpenAI", "completion"]
