"""What a product has. A capability declared absent is never waited for, never read, and the
scores that depend on it are ``not_implemented`` (shown, not counted)."""

from __future__ import annotations

from pydantic import Field

from claims_corpus.formats._base import Strict

# Customer screen region -> the capability without which it is never read.
REGION_CAPABILITY = {"chips": "chips", "todo_bar": "todo_bar", "facts_panel": "facts_panel",
                     "confirm_button": "confirm_step", "talk_to_person": "talk_to_person",
                     "sign_in_prompt": "customer_accounts"}


class Capabilities(Strict):
    """Optional product capabilities (all present by default)."""

    customer_accounts: bool = Field(
        True, description="Customers can sign in to an account. Without it, packs whose session "
        "mode is 'account' are not_implemented trials; 'anonymous_then_sign_in' packs run "
        "anonymously (the product never asks to sign in).")
    staff_side: bool = Field(
        True, description="A staff workbench the harness can read. Without it triage, review, "
        "facts, incident date/time and the waiting list are not_implemented.")
    chips: bool = Field(True, description="Quick-reply chips under the latest reply.")
    todo_bar: bool = Field(True, description="A next-step / to-do bar.")
    facts_panel: bool = Field(True, description="A 'what we have so far' panel.")
    confirm_step: bool = Field(True, description="A step where the customer confirms a summary.")
    talk_to_person: bool = Field(True, description="A control asking for a person.")
    waiting_list: bool = Field(
        True, description="The staff side lists customer questions and contact requests.")
    runtime_report: bool = Field(
        True, description="The product reports which agent runtime is live. Without it a run "
        "needs --allow-unreported-runtime and is labelled 'runtime not reported'.")

    def absent(self) -> list[str]:
        """Names of the capabilities declared absent."""
        return [name for name, present in self.model_dump().items() if not present]

    def absent_regions(self) -> frozenset[str]:
        """Customer screen regions the product lacks (never read)."""
        return frozenset(region for region, cap in REGION_CAPABILITY.items()
                         if not getattr(self, cap))
