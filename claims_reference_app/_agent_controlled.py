"""The ``controlled`` runtime: a keyword-replying stand-in. It collects nothing, asks
nothing and never creates a claim; harnesses must refuse to evaluate it."""

from __future__ import annotations

from typing import Any

from ._journey import Journey
from ._text import wording


class ControlledAgent:
    name = "controlled"

    def on_message(self, j: Journey, text: str) -> None:
        table = wording()["controlled"]
        low = text.lower()
        answer = next((r for k, r in table["keywords"] if k in low), table["default"])
        j.audit("keyword_reply")
        j.say(answer)

    def on_upload(self, j: Journey, evidence: dict[str, Any]) -> None:
        j.say(wording()["controlled"]["upload"])

    def on_signed_in(self, j: Journey) -> None:
        return None

    def on_confirm(self, j: Journey) -> None:
        return None

    def on_talk_to_person(self, j: Journey) -> None:
        j.say(wording()["controlled"]["default"])
