"""How ``run --dev`` / ``dev up`` start the product next to the embedded stores."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, model_validator

from claims_corpus.formats._base import Strict

PLACEHOLDERS: tuple[str, ...] = (
    "python", "lane", "port", "staff_port", "mongo_uri", "database", "bucket", "s3_endpoint",
    "s3_region", "s3_access_key", "s3_secret_key", "reset_token", "staff_token", "seed_token",
    "sql_url", "files_dir",
)
# Values that must never appear on a command line (visible to every user in `ps`); a MongoDB
# URI or a SQL URL may carry a password.
SECRET_PLACEHOLDERS: tuple[str, ...] = (
    "mongo_uri", "s3_access_key", "s3_secret_key", "reset_token", "staff_token", "seed_token",
    "sql_url",
)
_PLACEHOLDER = re.compile(r"\{([a-z0-9_]+)\}")


class DevStart(Strict):
    """Start command of the product for a local dev environment (one process per lane)."""

    builtin: Literal["reference_app"] | None = Field(
        None, description="A product this project ships and knows how to start.")
    command: list[str] = Field(
        default_factory=list, description="argv with placeholders: " + ", ".join(
            "{" + p + "}" for p in PLACEHOLDERS) + "; secrets only in env.")
    env: dict[str, str] = Field(default_factory=dict,
                                description="Environment of the product process (placeholders).")
    ready_path: str = Field("/", description="GET path answering 2xx once the product is up.")
    base_url: str = Field("http://127.0.0.1:{port}", description="The lane's base URL.")
    staff_base_url: str = Field("", description="The lane's staff base URL, if another origin.")
    start_timeout_s: float = Field(60.0, gt=0, description="Longest wait for readiness.")
    database: str = Field(
        "claims_dev", pattern=r"^[A-Za-z0-9_]{1,50}$",
        description="Stem of the lanes' database names: lane N's database ({database}) is "
        "<database>_laneN, so it can match the product's own allowed names; {sql_url} is the "
        "SQLite file <database>_laneN.sqlite3 in the dev environment's data folder, "
        "{files_dir} the lane's uploads folder there.")

    @model_validator(mode="after")
    def _valid(self) -> DevStart:
        if bool(self.builtin) == bool(self.command):
            raise ValueError("give either builtin or command")
        for text in [*self.command, *self.env.values(), self.base_url, self.staff_base_url]:
            for name in _PLACEHOLDER.findall(text):
                if name not in PLACEHOLDERS:
                    raise ValueError(f"unknown placeholder {{{name}}}; known: {PLACEHOLDERS}")
        for arg in self.command:
            for name in _PLACEHOLDER.findall(arg):
                if name in SECRET_PLACEHOLDERS:
                    raise ValueError(f"{{{name}}} is a secret: pass it in env, not on the "
                                     "command line")
        return self

    def uses(self, name: str) -> bool:
        texts = [*self.command, *self.env.values(), self.base_url, self.staff_base_url]
        return any(f"{{{name}}}" in t for t in texts)
