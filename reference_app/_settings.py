"""Application settings: stores, runtime, faults, seed route and model endpoint."""

from __future__ import annotations

import os
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Runtime = Literal["reference", "controlled", "model"]
FAULTS: tuple[str, ...] = ("flag_everything", "ask_twice", "lose_fact")
ENV_PREFIX = "CLAIMS_APP_"
SEED_TOKEN_ENV = "CLAIMS_HARNESS_SEED_TOKEN"
SEED_ENABLED_ENV = "CLAIMS_HARNESS_SEED_ENABLED"


class AppSettings(BaseModel):
    """Everything the reference app needs to start. Every field can come from the
    environment as ``CLAIMS_APP_<FIELD>`` (upper case), except the seed route's token and
    switch, which use ``CLAIMS_HARNESS_SEED_TOKEN`` / ``CLAIMS_HARNESS_SEED_ENABLED``."""

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
        unknown = [f for f in v if f not in FAULTS]
        if unknown:
            raise ValueError(f"unknown faults {unknown}; known: {list(FAULTS)}")
        return sorted(set(v))

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: object) -> AppSettings:
        """Settings from the environment, with explicit ``overrides`` (None means unset)."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for name in cls.model_fields:
            raw = env.get(ENV_PREFIX + name.upper())
            if raw is not None and raw != "":
                values[name] = (
                    [f for f in raw.replace(",", " ").split() if f] if name == "faults" else raw
                )
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
        return cls(**values)
