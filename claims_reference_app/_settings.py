"""Application settings: stores, runtime, faults, seed route and model endpoint."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Runtime = Literal["reference", "controlled", "model"]


@dataclass(frozen=True)
class Fault:
    """A defect the app can be switched into, and the failure mode the scorer must give it.
    ``needs_review``: it shows only on claims that need review (True), only on claims that
    don't (False), or on any claim (None). ``decisions``: it shows only after these staff
    decisions. ``needs_pressure``: it shows only on packs that put this pressure on the
    product (``labels.pressure``, e.g. a question asked mid-journey)."""

    effect: str
    failure_mode: str
    needs_review: bool | None = None
    decisions: tuple[str, ...] | None = None
    """Staff decisions it shows on (packs whose staff script takes one of them); None: it
    needs no staff decision."""
    needs_pressure: str | None = None
    needs_not_checked: bool = False
    """It shows only on packs with a check that cannot be made (the manifest's
    ``has_not_checked``)."""
    needs_explanation: bool = False
    """It shows only on packs whose customer explains a document check's hit (the manifest's
    ``has_explanation``)."""
    needs_expected_fact: str | None = None
    """It shows only on packs whose oracle expects this fact collected (it drops or changes
    it)."""
    needs_fact_unknown_to_customer: str | None = None
    """It shows only on packs whose customer does not know this fact (it records one nobody
    gave)."""
    needs_check_clear: str | None = None
    """It shows only on packs where this review check is ``clear`` under the rules (it turns
    that outcome)."""
    needs_upload: bool = False
    """It shows only on packs whose customer has a file to upload."""


# Fault switches (docs/reference-app.md). They exist so the scorer's discrimination can be
# shown: each must be caught with its own failure-mode label (``claims-harness selftest
# defects``). They come only from explicit options, never from the environment.
FAULTS: dict[str, Fault] = {
    "flag_everything": Fault("every claim is review_required", "false_flag",
                             needs_review=False),
    "ask_twice": Fault("each question is asked a second time after it was answered",
                       "repeated_question"),
    "lose_fact": Fault("incident_time is dropped just before the claim is created",
                       "missing_fact", needs_expected_fact="incident_time"),
    "flag_one_check": Fault("policy_start_30d is shown as hit where the rules say clear, the "
                            "other checks stay right", "false_check_hit",
                            needs_check_clear="policy_start_30d"),
    "miss_flag": Fault("the review signal never fires, whatever the checks say",
                       "missed_flag", needs_review=True),
    "wrong_triage": Fault("the severity class is one step off (fast_track -> standard -> "
                          "complex -> standard)", "wrong_triage"),
    "hide_claim_number": Fault("the claim is created but its number is never shown to the "
                               "customer", "no_claim_number"),
    "ignore_upload": Fault("an upload is dropped: nothing stored, the agent repeats its last "
                           "message as if no file came", "upload_not_acknowledged",
                           needs_upload=True),
    "handoff_unasked": Fault("after the customer's second message the agent hands the claim "
                             "to a person though nobody asked", "unrequested_handoff"),
    "invent_fact": Fault("the claim records a police reference the customer never gave",
                         "invented_fact", needs_fact_unknown_to_customer="police_reference"),
    "leak_other_customer": Fault("the 'Your claims' sidebar lists every customer's claims, "
                                 "with their policy numbers", "data_leak"),
    "drop_questions": Fault("a question the customer asks mid-journey is answered 'passed on "
                            "to our team' but never put on the staff waiting list",
                            "waiting_list_missing", needs_pressure="mid_question"),
    "guess_unchecked": Fault("a review check that cannot be made (an unreadable date, a date "
                             "on a missing page, a policy not found or without a start date, "
                             "an unknown incident date) is shown as clear instead of "
                             "not_checked", "not_checked_as_clear", needs_not_checked=True),
    "drop_explanation": Fault("the customer's explanation of a receipt or quote the checks "
                              "hit on is asked for but never shown to staff with the check",
                              "explanation_not_passed_on", needs_explanation=True),
    "ignore_corrections": Fault("a wrong value is planted in the summary (the incident date a "
                                "day later) and the agent keeps it whatever the customer says "
                                "is wrong", "correction_ignored",
                                needs_expected_fact="incident_date"),
    "decision_hidden": Fault("a staff decision is recorded but never shown to the customer "
                             "(no status, no note, no message)", "no_follow_through",
                             decisions=("approve", "amend_amount", "decline",
                                        "return_for_info")),
    "agent_decides": Fault("a staff decision is written to the audit log under the agent's "
                           "role", "wrong_authority",
                           decisions=("approve", "amend_amount", "decline", "return_for_info")),
    "audit_rewritten": Fault("when staff decide, the claim's creation row of the audit log is "
                             "rewritten (its args_hash changed)", "audit_mutated",
                             decisions=("approve", "amend_amount", "decline",
                                        "return_for_info")),
    "amount_not_applied": Fault("an amended amount is noted and announced but never set on "
                                "the claim", "state_mismatch", decisions=("amend_amount",)),
}
# Switches that exercise the customer rather than the scorer: the product goes wrong and a
# customer who checks the summary gets it put right, so no failure is expected. Accepted like
# FAULTS, listed in the runtime report, never part of the defect panel.
RECOVERABLE_FAULTS: dict[str, str] = {
    "wrong_summary": "a wrong value is planted in the summary (the incident date a day later, "
                     "or else the incident time an hour later); the correction path is intact",
}
ENV_PREFIX = "CLAIMS_APP_"
FAULTS_ENV = ENV_PREFIX + "FAULTS"


class FaultsFromEnvironment(ValueError):
    """CLAIMS_APP_FAULTS is set: faults come only from explicit options."""
SEED_TOKEN_ENV = "CLAIMS_HARNESS_SEED_TOKEN"
SEED_ENABLED_ENV = "CLAIMS_HARNESS_SEED_ENABLED"


class AppSettings(BaseModel):
    """Everything the reference app needs to start. Every field except ``faults`` can come
    from the environment as ``CLAIMS_APP_<FIELD>`` (upper case); the seed route's token and
    switch use ``CLAIMS_HARNESS_SEED_TOKEN`` / ``CLAIMS_HARNESS_SEED_ENABLED``. Faults come
    only from explicit options (``--fault``): a stray ``CLAIMS_APP_FAULTS`` is refused, so an
    inherited variable can never turn a clean run into a defect run."""

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True)  # secrets in inputs

    mongo_uri: str = Field("mongodb://127.0.0.1:27017/", description="MongoDB URI.")
    database: str = Field("claims", description="MongoDB database name.")
    s3_endpoint: str = Field("http://127.0.0.1:9000", description="S3/MinIO endpoint URL.")
    s3_access_key: str = Field("harness", description="S3 access key.")
    s3_secret_key: str = Field("harness-secret", description="S3 secret key.")
    s3_region: str = Field("us-east-1", description="S3 region.")
    bucket: str = Field("claims", description="Bucket for uploaded materials.")
    runtime: Runtime = Field("reference", description="Agent runtime that answers customers.")
    faults: list[str] = Field(default_factory=list, description="Active fault switches.")
    seed_enabled: bool = Field(False, description="Mount the seed route at /_harness/seed.")
    seed_token: str | None = Field(None, description="Bearer token of the seed route.")
    baseline_path: str | None = Field(None, description="packs/baseline.json for seed resets.")
    model_base_url: str | None = Field(None, description="OpenAI-compatible base URL (…/v1).")
    model_name: str | None = Field(None, description="Model name sent to the endpoint.")
    model_api_key: str | None = Field(None, description="API key for the model endpoint.")
    model_timeout_s: float = Field(60.0, gt=0, description="Timeout of one model request.")
    model_max_retries: int = Field(
        2, ge=0, description="Client retries of a model request (429, 5xx, timeouts).")
    max_upload_bytes: int = Field(5 * 1024 * 1024, gt=0, description="Largest accepted upload.")
    claim_prefix: str = Field("NWF", description="Claim number prefix, e.g. NWF-2026-000123.")

    @field_validator("model_base_url")
    @classmethod
    def _no_credentials_in_url(cls, v: str | None) -> str | None:
        from urllib.parse import urlsplit

        if v and (urlsplit(v).username is not None or urlsplit(v).password is not None):
            raise ValueError("the model base URL carries credentials (user:password@); remove "
                             "them and give the key as model_api_key")
        return v

    @field_validator("faults")
    @classmethod
    def _known_faults(cls, v: list[str]) -> list[str]:
        known = [*FAULTS, *RECOVERABLE_FAULTS]
        unknown = [f for f in v if f not in known]
        if unknown:
            raise ValueError(f"unknown faults {unknown}; known: {known}")
        return sorted(set(v))

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: object) -> AppSettings:
        """Settings from the environment, with explicit ``overrides`` (None means unset)."""
        env = os.environ if environ is None else environ
        if env.get(FAULTS_ENV, "").strip():
            raise FaultsFromEnvironment(
                f"{FAULTS_ENV} is set ({env[FAULTS_ENV]!r}); fault switches are taken only "
                "from --fault options (claims-harness run --dev --fault NAME), never from the "
                f"environment: unset {FAULTS_ENV}")
        values: dict[str, object] = {}
        for name in cls.model_fields:
            raw = env.get(ENV_PREFIX + name.upper())
            if name != "faults" and raw is not None and raw != "":
                values[name] = raw
        if env.get(SEED_TOKEN_ENV):
            values["seed_token"] = env[SEED_TOKEN_ENV]
        if env.get(SEED_ENABLED_ENV):
            values["seed_enabled"] = env[SEED_ENABLED_ENV].strip().lower() in (
                "1",
                "true",
                "yes",
                "on",
            )
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls.model_validate(values)
