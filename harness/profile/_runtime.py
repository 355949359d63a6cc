"""How the harness reads which agent runtime a product runs."""

from __future__ import annotations

import re

from pydantic import Field, field_validator, model_validator

from claims_corpus.formats._base import Strict
from claims_records import DeclaredRuntime


class RuntimeCheck(Strict):
    """The runtime report: a GET under the base URL; only the named fields are stored."""

    path: str = Field("/api/runtime", description="Runtime report path under base_url.")
    field: str = Field("runtime", description="Dotted path of the JSON field naming the "
                       "runtime (e.g. service.agent.mode).")
    pattern: str = Field("", description="Optional regex: the runtime must match it; for an "
                         "answer that is not JSON, its first group (or whole match) is the "
                         "runtime.")
    store_fields: list[str] = Field(
        default_factory=list, description="Dotted paths stored in run.json besides the runtime "
        "field; nothing else of the answer is kept.")
    auth_header: str = Field("", description="Header carrying a token ('' = none).")
    auth_scheme: str = Field("", description="Prefix before the token, e.g. 'Bearer'.")
    auth_env: str = Field("", description="Environment variable holding the token.")
    controlled_values: list[str] = Field(
        default_factory=lambda: ["controlled"],
        description="Runtime values that mean a controlled stand-in (refused unless self-test).")
    declared: DeclaredRuntime | None = Field(
        None, description="The runtime of a product that cannot report it "
        "(capabilities.runtime_report = false): model, endpoint, version. Recorded and shown "
        "as declared, not reported.")

    @field_validator("pattern")
    @classmethod
    def _regex(cls, v: str) -> str:
        if v:
            try:
                re.compile(v)
            except re.error as exc:
                raise ValueError(f"not a regular expression: {exc}") from exc
        return v

    @model_validator(mode="after")
    def _auth(self) -> RuntimeCheck:
        if bool(self.auth_header) != bool(self.auth_env):
            raise ValueError("give both auth_header and auth_env, or neither")
        return self
