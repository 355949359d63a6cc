"""How a product is reset before each trial and how its state is read.

Adapters: the harness's ``seed_route`` mounted in or beside the product; the product's own
reset ``endpoint``; direct ``stores`` (the harness writes the setup into the product's MongoDB
or SQL database, and its bucket or uploads folder, itself); a composition, where the product's
endpoint or a command clears and the stores load (``endpoint+stores``, ``command+stores``);
or ``none`` (refused unless the run says ``--no-reset``). A collection/field ``mapping`` turns
the corpus's canonical schema into the product's, and back for state dumps.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from claims_corpus.formats._base import Strict
from seed.stores import KINDS

BODY_PLACEHOLDERS: tuple[str, ...] = (
    "{{pack_id}}", "{{claimant_session}}", "{{setup}}", "{{collections}}", "{{objects}}",
)
COMMAND_PLACEHOLDERS: tuple[str, ...] = (
    "{python}", "{pack_id}", "{lane}", "{base_url}", "{database}", "{bucket}",
)
ResetAdapterName = Literal["seed_route", "endpoint", "stores", "none", "endpoint+stores",
                           "command+stores"]
CLEARING_STEPS: tuple[str, ...] = ("endpoint", "command")



class SeedRoute(Strict):
    """The harness's seed route (``claims-harness seed serve`` or mounted in the product)."""

    path: str = Field("/_harness/seed", description="Seed route prefix under base_url.")
    token_env: str = Field("CLAIMS_HARNESS_SEED_TOKEN",
                           description="Environment variable holding the seed token.")
    timeout_s: float = Field(60.0, gt=0, description="Timeout of one seed call.")


class EndpointReset(Strict):
    """The product's own reset endpoint."""

    method: Literal["POST", "PUT"] = Field("POST", description="HTTP method.")
    path: str = Field(description="Path under the lane's base URL.")
    auth_header: str = Field("", description="Header carrying the token ('' = no auth).")
    auth_scheme: str = Field("", description="Prefix before the token, e.g. 'Bearer'.")
    auth_env: str = Field("", description="Environment variable holding the token.")
    body: dict[str, Any] = Field(
        default_factory=dict, description="JSON body template. A string value that is exactly "
        "one placeholder is replaced by its JSON value: {{pack_id}}, {{claimant_session}}, "
        "{{setup}} (the pack's setup.json as written), {{collections}} (baseline + setup, "
        "overrides applied, mapped to the product's names), {{objects}} (list of {key, "
        "content_type, base64}); placeholders inside longer strings are replaced by text.")
    health_path: str = Field("", description="GET path answering 2xx when reset is possible.")
    timeout_s: float = Field(60.0, gt=0, description="Timeout of one reset call.")

    @model_validator(mode="after")
    def _auth(self) -> EndpointReset:
        if bool(self.auth_header) != bool(self.auth_env):
            raise ValueError("give both auth_header and auth_env, or neither")
        return self


class CommandReset(Strict):
    """A command that clears the product (``adapter = "command+stores"``)."""

    argv: list[str] = Field(
        min_length=1, description="The command and its arguments (no shell). Placeholders: "
        "{python} (the harness's interpreter), {pack_id}, {lane}, {base_url}, {database}, "
        "{bucket}. It runs with the harness's environment, stores.sql_url_env and "
        "stores.files_dir_env set to the lane's database URL and uploads folder, so secrets "
        "stay in environment variables.")
    timeout_s: float = Field(60.0, gt=0, description="Longest run of the command.")

    @field_validator("argv")
    @classmethod
    def _placeholders(cls, argv: list[str]) -> list[str]:
        for arg in argv:
            for found in re.findall(r"\{[a-z_]+\}", arg):
                if found not in COMMAND_PLACEHOLDERS:
                    raise ValueError(f"unknown placeholder {found} in {arg!r}; known: "
                                     f"{', '.join(COMMAND_PLACEHOLDERS)}")
        return argv


@dataclass(frozen=True)
class StoreChoice:
    """One store a profile names: its kind, the variable saying where it is, its options and
    the profile keys that named it (for errors)."""

    kind: str
    env: str
    options: dict[str, Any]
    setting: str


class Stores(Strict):
    """Direct access to the product's stores (by URI, URL or folder, from the environment).

    The product's documents are in one database — ``mongo_uri_env`` (MongoDB),
    ``sql_url_env`` (SQL), or any registered kind by ``database_kind`` + ``database_env`` —
    and its uploads, if the harness resets them, in one bucket or folder: ``s3_endpoint_env``
    (S3), ``files_dir_env`` (a folder), or ``files_kind`` + ``files_env``."""

    mongo_uri_env: str = Field("", description="Environment variable with the MongoDB URI "
                               "(a shorthand for database_kind = 'mongo').")
    sql_url_env: str = Field(
        "", description="Environment variable with a SQLAlchemy URL of the product's SQL "
        "database, e.g. sqlite:////srv/app/claims_dev.db or postgresql://user:pw@host/"
        "claims_dev (a shorthand for database_kind = 'sql'). The URL is never recorded.")
    database_kind: str = Field(
        "", description="The kind of store holding the product's documents, by its "
        "registered name (seed.stores.KINDS: mongo, sql, ...); with database_env.")
    database_env: str = Field("", description="Environment variable saying where the "
                              "database_kind store is (its URL or URI; never recorded).")
    database_options: dict[str, Any] = Field(
        default_factory=dict, description="Options of the database_kind store, as its kind "
        "reads them.")
    s3_endpoint_env: str = Field("", description="Environment variable with the S3 endpoint "
                                 "URL ('' = the product has no object store, or a folder).")
    s3_access_key_env: str = Field("", description="Environment variable with the S3 key id.")
    s3_secret_key_env: str = Field("", description="Environment variable with the S3 secret.")
    s3_region: str = Field("us-east-1", description="S3 region.")
    files_dir_env: str = Field(
        "", description="Environment variable with the folder the product keeps uploads in "
        "as files (instead of S3); a lane's bucket, when given, is a sub-folder.")
    files_kind: str = Field(
        "", description="The kind of store holding the product's uploads, by its registered "
        "name (s3, folder, ...); with files_env.")
    files_env: str = Field("", description="Environment variable saying where the files_kind "
                           "store is.")
    files_options: dict[str, Any] = Field(
        default_factory=dict, description="Options of the files_kind store.")
    collections: list[str] = Field(
        default_factory=list, description="The product's own collections (tables) a reset "
        "empties and a state dump reads, besides the mapped ones. Nothing else is touched.")
    allowed_database: str = Field(
        r"(?i)(^|[_-])(test|dev|harness|eval)([_-]|$)",
        description="Regex the database name must match before anything is written (a "
        "SQLite database's name is its file name without the suffix).")

    @model_validator(mode="after")
    def _one_each(self) -> Stores:
        databases = [k for k in ("mongo_uri_env", "sql_url_env", "database_kind")
                     if getattr(self, k)]
        if len(databases) != 1:
            raise ValueError("give one of stores.mongo_uri_env (MongoDB), stores.sql_url_env "
                             "(a SQL database) and stores.database_kind (with database_env)")
        files = [k for k in ("s3_endpoint_env", "files_dir_env", "files_kind") if getattr(self, k)]
        if len(files) > 1:
            raise ValueError("give at most one of stores.s3_endpoint_env (S3), "
                             "stores.files_dir_env (uploads kept as files) and "
                             "stores.files_kind (with files_env)")
        for kind, env in ((self.database_kind, self.database_env),
                          (self.files_kind, self.files_env)):
            if kind and kind not in KINDS:
                raise ValueError(f"unknown kind of store {kind!r}; known: {sorted(KINDS)}")
            if kind and not env:
                raise ValueError(f"a {kind} store needs the variable saying where it is "
                                 "(database_env / files_env)")
        return self

    def database_store(self) -> StoreChoice:
        """The store holding the product's documents."""
        if self.mongo_uri_env:
            return StoreChoice("mongo", self.mongo_uri_env, {}, "stores.mongo_uri_env")
        if self.sql_url_env:
            return StoreChoice("sql", self.sql_url_env, {}, "stores.sql_url_env")
        return StoreChoice(self.database_kind, self.database_env, dict(self.database_options),
                           "stores.database_kind")

    def files_store(self) -> StoreChoice | None:
        """The store holding the product's uploads, when the harness resets them."""
        if self.files_dir_env:
            return StoreChoice("folder", self.files_dir_env, {}, "stores.files_dir_env")
        if self.s3_endpoint_env:
            return StoreChoice("s3", self.s3_endpoint_env, {
                "access_key_env": self.s3_access_key_env,
                "secret_key_env": self.s3_secret_key_env, "region": self.s3_region},
                "stores.s3_endpoint_env")
        if self.files_kind:
            return StoreChoice(self.files_kind, self.files_env, dict(self.files_options),
                               "stores.files_kind")
        return None

    @property
    def kind(self) -> str:
        """Which kind of store holds the product's documents."""
        return self.database_store().kind


class ResetSettings(Strict):
    adapter: ResetAdapterName = Field(
        "seed_route", description="Which reset adapter runs before every trial: seed_route, "
        "endpoint, stores, none, or the product clearing and the stores loading: "
        "endpoint+stores, command+stores.")
    endpoint: EndpointReset | None = Field(
        None, description="For adapter = 'endpoint' or 'endpoint+stores'.")
    command: CommandReset | None = Field(None, description="For adapter = 'command+stores'.")

    @field_validator("adapter", mode="before")
    @classmethod
    def _composition(cls, value: Any) -> Any:
        """Explain the compositions that cannot work (the choices themselves are listed by
        the type)."""
        if value == "command":
            raise ValueError("a command only clears the product; let the stores load the "
                             "setup after it: adapter = 'command+stores'")
        if not isinstance(value, str) or "+" not in value or value in (
                "endpoint+stores", "command+stores"):
            return value
        parts = value.split("+")
        if len(parts) != 2 or parts[1] != "stores":
            raise ValueError(f"{value!r}: a composed reset is '<clear>+stores': the product "
                             "clears (its endpoint or a command), then the harness loads the "
                             "setup through [stores]")
        raise ValueError(f"{value!r}: only the product's endpoint or a command can clear "
                         "before the stores load ('endpoint+stores', 'command+stores'); "
                         f"{parts[0]!r} " + ("resets and loads by itself" if parts[0]
                                             == "seed_route" else "does not clear anything"))

    @model_validator(mode="after")
    def _steps_given(self) -> ResetSettings:
        if self.adapter == "command+stores" and self.command is None:
            raise ValueError("reset.adapter = 'command+stores' needs [reset.command]")
        if self.adapter == "endpoint+stores" and self.endpoint is None:
            raise ValueError("reset.adapter = 'endpoint+stores' needs [reset.endpoint]")
        return self

    def clearing_step(self) -> str | None:
        """The product's own clearing step of a composed reset ('endpoint', 'command')."""
        first = self.adapter.split("+")[0]
        return first if "+" in self.adapter and first in CLEARING_STEPS else None

    def loads_through_stores(self) -> bool:
        """The harness writes the setup into the product's stores itself."""
        return self.adapter.endswith("stores")


class StateSettings(Strict):
    source: Literal["auto", "seed_route", "stores", "none"] = Field(
        "auto", description="Where state dumps come from; auto: the seed route when it is the "
        "reset adapter, else the stores when [stores] is given, else none (state scoring is "
        "then not_implemented).")
    ignore_collections: list[str] = Field(
        default_factory=list, description="Product collections left out of state dumps.")

