"""Product profiles: how the harness reaches and reads one claims product (TOML).

A profile names the product's URLs, how to read its runtime report, how customers and staff
sign in, the seed route, and the selector of every screen region the harness reads.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

from pydantic import Field, ValidationError, field_validator, model_validator

from corpus.errors import ProfileError
from corpus.formats._base import Strict

PROFILES_DIR = Path(__file__).parent / "profiles"
PROFILE_FORMAT_VERSION = "1"


class Lane(Strict):
    """One product instance with its own database and bucket."""

    name: str = Field(description="Lane name, unique in the profile.")
    base_url: str = Field(description="Product base URL of this lane, e.g. http://127.0.0.1:8001.")
    seed_url: str | None = Field(
        None, description="Seed route base URL of this lane; default: base_url + seed.path."
    )
    database: str | None = Field(None, description="Database name, for the run record.")


class RuntimeCheck(Strict):
    path: str = Field("/api/runtime", description="Runtime report path under base_url.")
    field: str = Field("runtime", description="JSON field of the report naming the runtime.")
    controlled_values: list[str] = Field(
        default_factory=lambda: ["controlled"],
        description="Runtime values that mean a controlled stand-in (refused unless self-test).",
    )


class SeedRoute(Strict):
    path: str = Field("/_harness/seed", description="Seed route prefix under base_url.")
    token_env: str = Field(
        "CLAIMS_HARNESS_SEED_TOKEN", description="Environment variable holding the seed token."
    )
    timeout_s: float = Field(60.0, gt=0, description="Timeout of one seed call.")


class SignIn(Strict):
    path: str = Field(description="Sign-in page path under base_url.")
    username: str = Field(description="Selector of the user name / e-mail field.")
    password: str = Field(description="Selector of the password field.")
    submit: str = Field(description="Selector of the submit control.")


class Completion(Strict):
    """How to tell that the product's reply has finished (never network idle)."""

    selector: str = Field(description="Element carrying the state attribute.")
    attribute: str = Field(description="Attribute name, e.g. data-state.")
    value: str = Field(description="Attribute value meaning 'reply complete', e.g. idle.")
    timeout_s: float = Field(60.0, gt=0, description="Longest wait for a reply to complete.")
    new_reply_timeout_s: float = Field(
        20.0, gt=0, description="Longest wait for a new agent reply to appear after an action."
    )


class CustomerScreen(Strict):
    start_path: str = Field("/", description="Where an anonymous journey starts.")
    conversation: str = Field(description="The conversation pane (scrolled for screenshots).")
    agent_message: str = Field(description="Each agent reply; the last is the latest.")
    customer_message: str = Field(description="Each customer message.")
    chips: str = Field(description="Chip buttons under the latest reply.")
    composer_input: str
    composer_send: str
    attach_input: str = Field(description="input[type=file] for uploads.")
    upload_error: str = ""
    todo_bar: str = ""
    sidebar: str = ""
    facts_panel: str = ""
    confirm_button: str = ""
    claim_number: str = Field(description="Element showing the claim number once created.")
    claim_number_pattern: str = Field(description="Regular expression of a claim number.")
    sign_in_prompt: str = ""
    sign_in_username: str = ""
    sign_in_password: str = ""
    sign_in_submit: str = ""
    dialogs: str = ""
    cards: str = Field("", description="Cards needing the customer's action.")
    buttons: str = Field("button", description="Other visible action buttons.")
    talk_to_person: str = ""
    problem_message: str = Field(
        "", description="A reply that reports a product problem (e.g. server unreachable); "
        "when it is the latest reply the harness checks whether the product is still up.",
    )
    handoff_patterns: list[str] = Field(
        default_factory=list,
        description="Regexes on the latest reply meaning an explicit hand-off.",
    )

    @field_validator("claim_number_pattern")
    @classmethod
    def _regex(cls, v: str) -> str:
        try:
            re.compile(v)
        except re.error as exc:
            raise ValueError(f"not a regular expression: {exc}") from exc
        return v

    @field_validator("handoff_patterns")
    @classmethod
    def _regexes(cls, v: list[str]) -> list[str]:
        for p in v:
            try:
                re.compile(p)
            except re.error as exc:
                raise ValueError(f"not a regular expression {p!r}: {exc}") from exc
        return v


class StaffScreen(Strict):
    claim_path: str = Field(description="Claim detail path; '{claim_number}' is substituted.")
    waiting_path: str = ""
    triage_class: str = ""
    reason: str = ""
    urgency: str = ""
    review_signal: str = ""
    review_required_values: list[str] = Field(default_factory=lambda: ["review_required"])
    check_row: str = ""
    check_id: str = ""
    check_outcome: str = ""
    check_rests_on: str = ""
    fact_row: str = ""
    fact_key: str = ""
    fact_value: str = ""
    fact_state: str = ""
    waiting_item: str = ""
    waiting_kind: str = ""
    waiting_text: str = ""

    @field_validator("claim_path")
    @classmethod
    def _placeholder(cls, v: str) -> str:
        if "{claim_number}" not in v:
            raise ValueError("claim_path must contain '{claim_number}'")
        return v


class BrowserSettings(Strict):
    extra_headers_env: dict[str, str] = Field(
        default_factory=dict,
        description="Headers sent with every page request, name -> environment variable "
        "holding the value (e.g. a staging gateway key). Values are redacted from the HAR.",
    )

    def extra_headers(self) -> dict[str, str]:
        return {name: os.environ[var] for name, var in self.extra_headers_env.items()
                if os.environ.get(var)}


class Profile(Strict):
    """A product profile (TOML)."""

    version: str = Field(PROFILE_FORMAT_VERSION, description="Profile format version.")
    name: str = Field(description="Product name, recorded in run.json.")
    base_url: str | None = Field(None, description="Single-lane product URL.")
    lanes: list[Lane] = Field(
        default_factory=list, description="Several lanes instead of base_url."
    )
    runtime: RuntimeCheck = Field(default_factory=RuntimeCheck)
    seed: SeedRoute = Field(default_factory=SeedRoute)
    customer_sign_in: SignIn
    staff_sign_in: SignIn
    completion: Completion
    customer_screen: CustomerScreen
    staff_screen: StaffScreen
    browser: BrowserSettings = Field(default_factory=BrowserSettings)

    @model_validator(mode="after")
    def _has_lanes(self) -> Profile:
        if not self.base_url and not self.lanes:
            raise ValueError("give base_url or at least one entry in lanes")
        names = [lane.name for lane in self.lanes]
        if len(set(names)) != len(names):
            raise ValueError(f"lane names must be unique: {names}")
        return self

    def resolved_lanes(self) -> list[Lane]:
        """The lanes to run on; a profile with only base_url has one lane 'lane-1'."""
        lanes = self.lanes or [Lane(name="lane-1", base_url=self.base_url or "")]
        return [
            lane.model_copy(
                update={"seed_url": lane.seed_url or _join(lane.base_url, self.seed.path)}
            )
            for lane in lanes
        ]

    def with_lanes(self, lanes: list[Lane]) -> Profile:
        """The same profile pointed at other lanes (e.g. a dev environment's)."""
        return self.model_copy(update={"lanes": lanes, "base_url": None})

    def seed_token(self) -> str:
        """The seed route token from the environment (never stored in any record)."""
        return os.environ.get(self.seed.token_env, "")


def _join(base: str, path: str) -> str:
    return base.rstrip("/") + "/" + path.lstrip("/")


def url(base: str, path: str) -> str:
    """``base`` joined with ``path``."""
    return _join(base, path)


def load_profile(ref: str | Path) -> Profile:
    """Load a profile from a TOML path, or a shipped profile by name (e.g. 'reference')."""
    path = Path(ref)
    if not path.suffix and not path.exists():
        path = PROFILES_DIR / f"{ref}.toml"
    if not path.is_file():
        shipped = sorted(p.stem for p in PROFILES_DIR.glob("*.toml"))
        raise ProfileError(f"no such profile; shipped profiles: {shipped}", file=str(path))
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ProfileError(f"not valid TOML: {exc}", file=str(path)) from exc
    try:
        return Profile.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(profile)"
        raise ProfileError(
            f"invalid profile: {err['msg']} ({len(exc.errors())} problem(s))",
            file=str(path),
            field=field,
        ) from exc
