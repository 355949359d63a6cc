"""How a product is reset before each trial and how its state is read.

Adapters: the harness's ``seed_route`` mounted in or beside the product; the product's own
reset ``endpoint``; direct ``stores`` (the harness writes the setup into the product's MongoDB
and S3 itself); or ``none`` (refused unless the run says ``--no-reset``). A collection/field
``mapping`` turns the corpus's canonical schema into the product's, and back for state dumps.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from claims_corpus.formats._base import Strict

BODY_PLACEHOLDERS: tuple[str, ...] = (
    "{{pack_id}}", "{{claimant_session}}", "{{setup}}", "{{collections}}", "{{objects}}",
)


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


class Stores(Strict):
    """Direct access to the product's stores (by URI, from the environment)."""

    mongo_uri_env: str = Field(description="Environment variable with the MongoDB URI.")
    s3_endpoint_env: str = Field("", description="Environment variable with the S3 endpoint "
                                 "URL ('' = the product has no object store).")
    s3_access_key_env: str = Field("", description="Environment variable with the S3 key id.")
    s3_secret_key_env: str = Field("", description="Environment variable with the S3 secret.")
    s3_region: str = Field("us-east-1", description="S3 region.")
    collections: list[str] = Field(
        default_factory=list, description="The product's own collections a reset empties and a "
        "state dump reads, besides the mapped ones. Nothing else is touched.")
    allowed_database: str = Field(
        r"(?i)(^|[_-])(test|dev|harness|eval)([_-]|$)",
        description="Regex the database name must match before anything is written.")


class ResetSettings(Strict):
    adapter: Literal["seed_route", "endpoint", "stores", "none"] = Field(
        "seed_route", description="Which reset adapter runs before every trial.")
    endpoint: EndpointReset | None = Field(None, description="For adapter = 'endpoint'.")


class StateSettings(Strict):
    source: Literal["auto", "seed_route", "stores", "none"] = Field(
        "auto", description="Where state dumps come from; auto: the seed route when it is the "
        "reset adapter, else the stores when [stores] is given, else none (state scoring is "
        "then not_implemented).")
    ignore_collections: list[str] = Field(
        default_factory=list, description="Product collections left out of state dumps.")


class CollectionMap(Strict):
    """One canonical collection in the product's terms."""

    collection: str = Field(description="The product's collection name; '' when the product "
                            "has no counterpart (its documents are not written, never read).")
    fields: dict[str, str] = Field(
        default_factory=dict, description="Canonical dotted path -> product dotted path; "
        "fields not named keep their name.")
    values: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="Canonical field path -> {canonical value: product "
        "value}; values not named pass unchanged.")

    @model_validator(mode="after")
    def _invertible(self) -> CollectionMap:
        targets = list(self.fields.values())
        if len(set(targets)) != len(targets):
            raise ValueError(f"two canonical fields map to one product field: {targets}")
        for path, table in self.values.items():
            mapped = [repr(v) for v in table.values()]
            if len(set(mapped)) != len(mapped):
                raise ValueError(f"values of {path!r} are not one-to-one: {mapped}")
        return self
