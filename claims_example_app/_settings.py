"""Kestrel Claims settings: stores, ports, pacing of the assistant, ops reset, secrets.

Every non-secret field can come from the environment as ``KESTREL_<FIELD>``; the secrets
(ops key, staff token, S3 keys) come ONLY from the environment (or from Python), never from
the command line.
"""

from __future__ import annotations

import os

from pydantic import BaseModel, ConfigDict, Field

ENV_PREFIX = "KESTREL_"
# Secrets: read from these environment variables only.
OPS_KEY_ENV = "KESTREL_OPS_KEY"
STAFF_TOKEN_ENV = "KESTREL_STAFF_TOKEN"
S3_ACCESS_KEY_ENV = "KESTREL_S3_ACCESS_KEY"
S3_SECRET_KEY_ENV = "KESTREL_S3_SECRET_KEY"
SECRET_ENVS = {
    "ops_key": OPS_KEY_ENV,
    "staff_token": STAFF_TOKEN_ENV,
    "s3_access_key": S3_ACCESS_KEY_ENV,
    "s3_secret_key": S3_SECRET_KEY_ENV,
}
_TRUE = ("1", "true", "yes", "on")


class KestrelSettings(BaseModel):
    """Everything Kestrel Claims needs to start."""

    model_config = ConfigDict(extra="forbid")

    mongo_uri: str = Field("mongodb://127.0.0.1:27017/", description="MongoDB URI.")
    database: str = Field("kestrel", description="MongoDB database of this instance.")
    s3_endpoint: str = Field("http://127.0.0.1:9000", description="S3 / MinIO endpoint URL.")
    s3_region: str = Field("us-east-1", description="S3 region.")
    bucket: str = Field("kestrel-uploads", description="Bucket for customers' files.")
    s3_access_key: str | None = Field(None, description="S3 access key (environment only).")
    s3_secret_key: str | None = Field(None, description="S3 secret key (environment only).")
    ops_reset: bool = Field(False, description="Serve POST /ops/fixtures (off by default).")
    ops_key: str | None = Field(None, description="X-Ops-Key for /ops/fixtures and /ops/about.")
    staff_token: str | None = Field(None, description="Bearer token of the staff workbench.")
    agent_latency_ms: int = Field(250, ge=0, le=60_000, description="Assistant thinking time.")
    greeting_delay_ms: int = Field(
        1000, ge=0, le=60_000, description="Delay before a new conversation's greeting."
    )
    chunk_gap_ms: int = Field(
        300, ge=0, le=10_000, description="Gap between the two parts of a two-part reply."
    )
    max_upload_bytes: int = Field(5 * 1024 * 1024, gt=0, description="Largest accepted file.")

    @classmethod
    def from_env(
        cls, environ: dict[str, str] | None = None, **overrides: object
    ) -> KestrelSettings:
        """Settings from the environment, with explicit ``overrides`` (None means unset)."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for name in cls.model_fields:
            var = SECRET_ENVS.get(name, ENV_PREFIX + name.upper())
            raw = env.get(var)
            if raw is None or raw == "":
                continue
            values[name] = raw.strip().lower() in _TRUE if name == "ops_reset" else raw
        for name, value in overrides.items():
            if name in SECRET_ENVS:
                raise ValueError(f"{name} comes from the environment ({SECRET_ENVS[name]}) only")
            if value is not None:
                values[name] = value
        return cls.model_validate(values)
