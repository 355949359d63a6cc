"""Settings of the seed route, from arguments or the environment (prefix ``CLAIMS_HARNESS_``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import Field, ValidationError

from claims_corpus import StrictJsonError, parse_strict_json
from claims_corpus.formats import Baseline
from claims_corpus.formats._base import Strict
from claims_records import SeedError

from ._guard import DEFAULT_ALLOWED_DB_PATTERN
from ._s3 import DEFAULT_S3_KEY, DEFAULT_S3_SECRET, S3Config

ENV_PREFIX = "CLAIMS_HARNESS_"

# setting name -> environment variable (without the prefix)
_ENV_NAMES: dict[str, str] = {
    "enabled": "SEED_ENABLED",
    "token": "SEED_TOKEN",
    "mongo_uri": "MONGO_URI",
    "database": "DATABASE",
    "s3_endpoint": "S3_ENDPOINT",
    "s3_access_key": "S3_ACCESS_KEY",
    "s3_secret_key": "S3_SECRET_KEY",
    "s3_region": "S3_REGION",
    "bucket": "BUCKET",
    "baseline_path": "BASELINE",
    "allowed_db_pattern": "ALLOWED_DB_PATTERN",
    "host": "SEED_HOST",
    "max_body_bytes": "SEED_MAX_BODY_BYTES",
}
TOKEN_VARIABLE = ENV_PREFIX + "SEED_TOKEN"
DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024


def token_problem(token: str | None) -> str | None:
    """Why ``token`` cannot be a bearer token, or None. A token goes in an HTTP header, so it
    is visible ASCII without spaces."""
    if token is None or not token.strip():
        return f"no token is set ({TOKEN_VARIABLE} is empty or unset)"
    if any(not 0x21 <= ord(c) <= 0x7E for c in token):
        return ("the token holds a space, a control or a non-ASCII character, which an HTTP "
                f"header cannot carry (check {TOKEN_VARIABLE})")
    return None


class SeedSettings(Strict):
    """Where the seed route writes and who may call it. Off unless ``enabled``."""

    enabled: bool = Field(
        False, description="Serve the routes at all (CLAIMS_HARNESS_SEED_ENABLED).")
    token: str | None = Field(None, description="Bearer token every call must carry.")
    mongo_uri: str = Field("mongodb://127.0.0.1:27017/", description="MongoDB URI.")
    database: str = Field("claims_dev", description="Database of this lane.")
    s3_endpoint: str = Field("http://127.0.0.1:9000", description="S3 endpoint URL.")
    s3_access_key: str = DEFAULT_S3_KEY
    s3_secret_key: str = DEFAULT_S3_SECRET
    s3_region: str = "us-east-1"
    bucket: str = Field("claims-dev", description="Bucket of this lane.")
    baseline_path: Path | None = Field(
        None, description="Baseline JSON (claims_corpus.formats.Baseline); none means an "
        "empty baseline.")
    allowed_db_pattern: str = Field(
        DEFAULT_ALLOWED_DB_PATTERN,
        description="Regular expression the whole database name must match.")
    host: str = Field("127.0.0.1", description="Interface the standalone server binds.")
    max_body_bytes: int = Field(
        DEFAULT_MAX_BODY_BYTES, gt=0,
        description="Largest reset request body (setup plus base64 files); larger is 413.")

    @property
    def s3(self) -> S3Config:
        return S3Config(endpoint=self.s3_endpoint, access_key=self.s3_access_key,
                        secret_key=self.s3_secret_key, region=self.s3_region)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None,
                 **overrides: object) -> SeedSettings:
        """Settings from ``CLAIMS_HARNESS_*`` variables; keyword overrides win when not None."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for name, var in _ENV_NAMES.items():
            raw = env.get(ENV_PREFIX + var)
            if raw is not None and raw != "":
                values[name] = raw
        if "enabled" in values:
            values["enabled"] = str(values["enabled"]).strip().lower() in ("1", "true", "yes", "on")
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"])
            raise SeedError(f"invalid seed settings: {err['msg']}",
                            field=field, variable=ENV_PREFIX + _ENV_NAMES.get(field, "")) from exc


def load_baseline_file(path: Path | None) -> Baseline:
    """The baseline stored at ``path`` (an empty baseline when ``path`` is None)."""
    if path is None:
        return Baseline()
    try:
        data = parse_strict_json(Path(path).read_bytes())
    except OSError as exc:
        raise SeedError(f"cannot read baseline: {exc.strerror}", file=str(path)) from exc
    except StrictJsonError as exc:
        raise SeedError(f"baseline is not JSON: {exc.message}", file=str(path),
                        field=exc.path or None) from exc
    try:
        return Baseline.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise SeedError(f"invalid baseline: {err['msg']}", file=str(path),
                        field=".".join(str(p) for p in err["loc"])) from exc
