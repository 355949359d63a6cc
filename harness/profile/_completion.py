"""How the harness tells that the product's reply has finished — never network idle.

Strategies combine: every configured condition must hold at the same time.

- ``selector`` + ``attribute`` + ``value``: the first match carries attribute = value;
- ``busy``: no visible element matches (a busy placeholder or spinner is gone); elements
  matching it are never read as replies, nor a reply while a match inside it shows;
- ``enabled``: the first match (e.g. the composer) is enabled again;
- ``stable_ms``: the conversation's visible text has not changed, and every other condition
  has held, for this long (the settle time of the others: a busy indicator that goes for a
  moment between two runs of the product does not end the wait).

``ready`` must match before the first read of a page (a client-rendered greeting).
"""

from __future__ import annotations

from pydantic import Field, model_validator

from claims_corpus.formats._base import Strict

from ._selectors import Selector


class Completion(Strict):
    """Reply completion strategies (combinable)."""

    selector: Selector = Field(default_factory=list,
                               description="Attribute strategy: element carrying the state.")
    attribute: str = Field("", description="Attribute strategy: attribute name (data-state).")
    value: str = Field("", description="Attribute strategy: value meaning 'complete' (idle).")
    busy: Selector = Field(default_factory=list,
                           description="Busy strategy: visible only while the product works.")
    enabled: Selector = Field(default_factory=list,
                              description="Enabled strategy: element enabled when complete.")
    stable_ms: int = Field(0, ge=0, le=60000,
                           description="Stable strategy: conversation text unchanged (and "
                                       "the other conditions holding) this long.")
    ready: Selector = Field(default_factory=list,
                            description="Must match before the first read of a page.")
    timeout_s: float = Field(60.0, gt=0, description="Longest wait for a reply to complete.")
    new_reply_timeout_s: float = Field(
        20.0, gt=0, description="Longest wait for a new agent reply to appear after an action.")

    @model_validator(mode="after")
    def _some_strategy(self) -> Completion:
        parts = [bool(self.selector), bool(self.attribute), bool(self.value)]
        if any(parts) and not all(parts):
            raise ValueError("the attribute strategy needs selector, attribute and value")
        if not (all(parts) or self.busy or self.enabled or self.stable_ms):
            raise ValueError("give at least one completion strategy: selector/attribute/value, "
                             "busy, enabled or stable_ms")
        return self

    def strategies(self) -> list[str]:
        """Names of the configured strategies, for records and ``profile check``."""
        out = []
        if self.attribute:
            out.append("attribute")
        if self.busy:
            out.append("busy")
        if self.enabled:
            out.append("enabled")
        if self.stable_ms:
            out.append(f"stable_ms={self.stable_ms}")
        return out
