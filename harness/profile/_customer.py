"""The customer side of a profile: sign-in page, screen regions, words and upload handling."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import Field, field_validator

from claims_corpus.formats._base import Strict

from ._completion import Completion
from ._selectors import Selector

# Regions the screen reader reads, in the order ``profile check`` reports them.
READ_REGIONS: tuple[str, ...] = (
    "conversation", "agent_message", "customer_message", "chips", "composer_input",
    "composer_send", "attach_input", "upload_error", "upload_ack", "todo_bar", "sidebar",
    "facts_panel", "confirm_button", "claim_number", "sign_in_prompt", "dialogs", "cards",
    "buttons", "talk_to_person", "problem_message",
)


def _check_regex(value: str) -> str:
    try:
        re.compile(value)
    except re.error as exc:
        raise ValueError(f"not a regular expression {value!r}: {exc}") from exc
    return value


class SignIn(Strict):
    """A sign-in form: a page and three controls."""

    path: str = Field(description="Sign-in page path under the base URL.")
    username: Selector = Field(description="The user name / e-mail field.")
    password: Selector = Field(description="The password field.")
    submit: Selector = Field(description="The submit control.")


class CustomerScreen(Strict):
    """Every customer screen region (visible text only) and how to act on it."""

    start_path: str = Field("/", description="Where an anonymous journey starts (with "
                            "frame: the page embedding the chat).")
    frame: Selector = Field(
        default_factory=list, description="A chat widget inside an iframe: the selector of "
        "the iframe (on the start page) holding the chat. Every other region, the completion "
        "and ready selectors, the new-conversation control and the customer's decision "
        "status are then read and driven inside that frame; screenshots show the whole "
        "page. Empty: the chat is the page itself.")
    conversation: Selector = Field(description="The conversation pane (scrolled for "
                                   "screenshots; its text is what 'stable_ms' watches).")
    agent_message: Selector = Field(description="Each agent reply; the last is the latest.")
    customer_message: Selector = Field(default_factory=list,
                                       description="Each customer message.")
    chips: Selector = Field(default_factory=list, description="Chip buttons under the reply.")
    composer_input: Selector = Field(description="The message box.")
    composer_send: Selector = Field(description="The send control.")
    attach_input: Selector = Field(default_factory=list,
                                   description="input[type=file] for uploads.")
    send_after_attach: bool = Field(
        False, description="The product uploads an attached file only when 'send' is pressed.")
    upload_ack: Selector = Field(
        default_factory=list, description="Where the product shows an uploaded file; default: "
        "customer messages and the conversation. The file name must appear there.")
    upload_timeout_s: float = Field(10.0, gt=0, description="Longest wait for an upload to be "
                                    "acknowledged on screen (retried once).")
    upload_error: Selector = Field(default_factory=list, description="An upload error.")
    todo_bar: Selector = Field(default_factory=list, description="Next-step / to-do bar.")
    sidebar: Selector = Field(default_factory=list, description="History sidebar.")
    facts_panel: Selector = Field(default_factory=list,
                                  description="'What we have so far' panel.")
    confirm_button: Selector = Field(default_factory=list,
                                     description="The control confirming a summary.")
    confirm_labels: list[str] = Field(
        default_factory=list, description="The product's own wording of confirm / submit "
        "controls, in order (e.g. 'Review details', 'Create claim'); the scripted customer "
        "clicks them like a confirm control.")
    claim_number: Selector = Field(default_factory=list,
                                   description="Element showing the claim number; empty: the "
                                   "latest reply is searched with the pattern.")
    claim_number_pattern: str = Field(description="Regular expression of a claim number.")
    sign_in_prompt: Selector = Field(default_factory=list,
                                     description="In-conversation sign-in prompt.")
    sign_in_username: Selector = Field(
        default_factory=list, description="Sign-in prompt: user name / e-mail field.")
    sign_in_password: Selector = Field(
        default_factory=list, description="Sign-in prompt: password field.")
    sign_in_submit: Selector = Field(
        default_factory=list, description="Sign-in prompt: submit control.")
    dialogs: Selector = Field(default_factory=list, description="Dialogs.")
    cards: Selector = Field(default_factory=list, description="Cards needing action.")
    buttons: Selector = Field(default_factory=lambda: ["button"],
                              description="Other visible action buttons.")
    talk_to_person: Selector = Field(default_factory=list,
                                     description="Control asking for a person.")
    problem_message: Selector = Field(
        default_factory=list, description="A reply reporting a product problem; when it is the "
        "latest reply the harness checks whether the product is still up.")
    handoff_patterns: list[str] = Field(
        default_factory=list, description="Regexes on the latest reply meaning a hand-off.")

    @field_validator("claim_number_pattern")
    @classmethod
    def _regex(cls, v: str) -> str:
        return _check_regex(v)

    @field_validator("handoff_patterns")
    @classmethod
    def _regexes(cls, v: list[str]) -> list[str]:
        return [_check_regex(p) for p in v]

    def regions(self) -> dict[str, list[str]]:
        """Region name -> selector alternatives, for the screen reader."""
        return {name: list(getattr(self, name)) for name in READ_REGIONS}


@dataclass(frozen=True)
class CustomerSide:
    """The customer side of a profile in one piece: what the browser driver reads and drives
    (``Profile.customer_side``)."""

    screen: CustomerScreen
    completion: Completion
    sign_in: SignIn | None
    """The account sign-in page, when the product has customer accounts."""
    absent: frozenset[str]
    """Regions the product lacks (``Capabilities.absent_regions``): never read."""
    alive_path: str
    """What a liveness probe asks for: the runtime report, else the start page."""

    def regions(self) -> dict[str, list[str]]:
        """Region name -> selector alternatives, a region the product lacks having none."""
        return {name: ([] if name in self.absent else list(getattr(self.screen, name)))
                for name in READ_REGIONS}
