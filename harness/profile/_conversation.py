"""How a product holds its conversations, and how a new one is started between trials.

Most products start a conversation per browser session: each trial's fresh browser context
is a new conversation. Some hold one conversation for the whole process (``scope =
"process"``); a trial would then see the previous one. For them a step starts a new
conversation before every trial (``[conversation.new]``): a URL opened in the customer's
browser, a control clicked on the start page, or the product restarted by a command.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator

from claims_corpus.formats._base import Strict

from ._selectors import Selector

RESTART_PLACEHOLDERS: tuple[str, ...] = ("lane", "base_url", "port")
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


class NewConversation(Strict):
    """The step that starts a new conversation before every trial."""

    by: Literal["url", "control", "restart"] = Field(
        description="url: open a URL in the customer's browser; control: click a control on "
        "the start page; restart: restart the product by a command.")
    url: str = Field("", description="by = 'url': a path under the lane's base URL, or a full "
                     "URL, that starts a new conversation when opened.")
    control: Selector = Field(default_factory=list, description="by = 'control': the control "
                              "starting a new conversation (any Playwright selector, or "
                              "alternatives); clicked on the start page, then the harness "
                              "waits until no customer message shows.")
    command: list[str] = Field(default_factory=list, description="by = 'restart': argv "
                               "restarting the product, returning once it is restarting; "
                               "placeholders " + ", ".join("{" + p + "}" for p in
                                                           RESTART_PLACEHOLDERS) + ".")
    ready_url: str = Field("", description="by = 'restart': a path under the lane's base URL, "
                           "or a full URL, answering 2xx once the product is up again "
                           "(default: the lane's base URL).")
    timeout_s: float = Field(30.0, gt=0, description="Longest the step may take (a restart: "
                             "the command, then readiness).")

    @model_validator(mode="after")
    def _complete(self) -> NewConversation:
        needs = {"url": "url", "control": "control", "restart": "command"}
        if not getattr(self, needs[self.by]):
            raise ValueError(f"by = '{self.by}' needs conversation.new.{needs[self.by]}")
        given = [key for key in ("url", "control", "command", "ready_url")
                 if getattr(self, key) and key != needs[self.by]
                 and not (key == "ready_url" and self.by == "restart")]
        if given:
            raise ValueError(f"conversation.new.{given[0]} is not used with by = '{self.by}'")
        for arg in self.command:
            for name in _PLACEHOLDER.findall(arg):
                if name not in RESTART_PLACEHOLDERS:
                    raise ValueError(f"unknown placeholder {{{name}}} in conversation.new."
                                     f"command; known: {RESTART_PLACEHOLDERS}")
        return self

    def describe(self) -> str:
        """What the step does, in a few words ('control role=button[name=New claim]')."""
        what = {"url": self.url, "control": " | ".join(self.control),
                "restart": " ".join(self.command)}[self.by]
        return f"{self.by} {what}"


class Conversation(Strict):
    """How the product holds conversations (``[conversation]``)."""

    scope: Literal["session", "process"] = Field(
        "session", description="session: a conversation per browser session (each trial's "
        "fresh browser context is a new one); process: one conversation for the whole "
        "product process, so [conversation.new] must start a new one before every trial and "
        "lanes must not share a process.")
    instance_per_lane: bool = Field(
        False, description="scope = 'process': each lane in [[lanes]] is a product process of "
        "its own, so the lanes may run side by side (run --dev starts one per lane anyway).")
    new: NewConversation | None = Field(
        None, description="The step starting a new conversation before every trial.")

    @model_validator(mode="after")
    def _consistent(self) -> Conversation:
        if self.scope == "process" and self.new is None:
            raise ValueError("conversation.scope = 'process' needs [conversation.new] (by = "
                             "'url', 'control' or 'restart'), so that a trial never sees the "
                             "previous one")
        if self.instance_per_lane and self.scope != "process":
            raise ValueError("conversation.instance_per_lane is for scope = 'process'")
        return self

    @property
    def one_per_process(self) -> bool:
        return self.scope == "process"
