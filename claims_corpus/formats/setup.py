"""Pack format v0.3, the state the product starts from: a pack's ``setup.json`` (``Setup``)
and the corpus's ``packs/baseline.json`` (``Baseline``), restored before every pack.

Neither is ever shown to the customer.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import Field, field_validator, model_validator

from ._base import Strict
from .decision import StaffScript
from .pack import PACK_ID_PATTERN, ClaimantSession
from .pack_input import version_field


class SetupObject(Strict):
    key: str = Field(description="Object key in the bucket.")
    file: str = Field(description="Source file, relative to the pack directory.")
    content_type: str = Field(description="MIME type stored with the object.")


class Override(Strict):
    collection: str
    id: str = Field(description="Document id the override applies to.")
    set: dict[str, Any] = Field(default_factory=dict, description="Fields to set (dotted paths).")
    unset: list[str] = Field(default_factory=list, description="Fields to remove.")
    delete: bool = Field(
        False, description="Remove the document entirely (e.g. a staff role absent)."
    )


class Credentials(Strict):
    username: str = Field(description="Sign-in name or e-mail.")
    password: str = Field(description="Test-only password (never a real secret).")


class Setup(Strict):
    """setup.json — the state to seed before the journey. Never shown to the customer."""

    version: str = version_field()
    pack_id: str = Field(pattern=PACK_ID_PATTERN)
    claimant_session: ClaimantSession
    collections: dict[str, list[dict[str, Any]]] = Field(
        default_factory=dict,
        description="Documents per MongoDB collection; every document has an explicit '_id'.",
    )
    objects: list[SetupObject] = Field(default_factory=list)
    overrides: list[Override] = Field(default_factory=list)
    customer_credentials: Credentials | None = Field(
        None, description="The customer's account, for 'account' and 'anonymous_then_sign_in'."
    )
    staff_credentials: Credentials | None = Field(
        None, description="Staff sign-in for reading the workbench (default: the baseline's)."
    )
    known_ids: dict[str, str] = Field(
        default_factory=dict,
        description="Seeded ids the customer knows (also in facts.json), e.g. policy_number.",
    )
    staff_script: StaffScript | None = Field(
        None, description="What staff do after the journey (a decision, its note, an amount); "
        "the environment, never shown to the customer. Without it no decision is taken.")

    @field_validator("collections")
    @classmethod
    def _explicit_ids(cls, v: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
        for name, docs in v.items():
            for i, doc in enumerate(docs):
                if "_id" not in doc:
                    raise ValueError(f"collections.{name}[{i}] has no '_id'")
        return v

    @model_validator(mode="after")
    def _credentials_for_session(self) -> Setup:
        if self.claimant_session != "anonymous" and self.customer_credentials is None:
            raise ValueError(
                f"claimant_session '{self.claimant_session}' needs customer_credentials"
            )
        return self


class OtherCustomer(Strict):
    """Another customer whose claim and policy are seeded beside every pack (in the baseline's
    collections). None of their identifiers may ever reach the claimant: one on the
    customer's screen or in a response their page received is a ``data_leak``."""

    customer_id: str = Field(description="The other customer's '_id' in the collections.")
    identifiers: dict[str, str] = Field(
        description="What identifies them, by name (name, claim_number, policy_number, "
        "email, …); each value at least 6 characters and seeded in the collections.")

    @field_validator("identifiers")
    @classmethod
    def _distinctive(cls, v: dict[str, str]) -> dict[str, str]:
        if not v:
            raise ValueError("give at least one identifier")
        short = [k for k, value in v.items() if len(value.strip()) < 6]
        if short:
            raise ValueError(f"identifiers too short to be told apart from ordinary text: "
                             f"{short}")
        return v


class Baseline(Strict):
    """packs/baseline.json — the product's baseline state, restored before every pack."""

    version: str = version_field()
    collections: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    staff_credentials: Credentials | None = Field(None, description="Default staff sign-in.")
    senior_staff_credentials: Credentials | None = Field(
        None, description="Sign-in of a senior staff member, for staff scripts with "
        "staff = 'senior' (amounts above the product's senior limit).")
    other_customer: OtherCustomer | None = Field(
        None, description="Another customer seeded with every pack, for the data-leak check.")

    @model_validator(mode="after")
    def _other_customer_seeded(self) -> Baseline:
        if self.other_customer is None:
            return self
        seeded = json.dumps(self.collections, ensure_ascii=False)
        missing = [k for k, v in self.other_customer.identifiers.items() if v not in seeded]
        if missing:
            raise ValueError(f"other_customer identifiers not in the baseline's collections: "
                             f"{missing}")
        return self


__all__ = [
    "Baseline",
    "Credentials",
    "OtherCustomer",
    "Override",
    "Setup",
    "SetupObject",
]
