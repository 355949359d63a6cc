"""The product profile (TOML): how the harness reaches, resets, reads and drives one product."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from pydantic import Field, ValidationError, model_validator

from claims_corpus.formats import HOME_CURRENCY, MoneyConventions
from claims_corpus.formats._base import Strict
from claims_corpus.formats.money import DEFAULT_LOCALE, CurrencyCode, LocaleId
from claims_records import ProfileError, StaffSideSource
from seed.stores import CollectionMap

from ._agent_decision import AgentDecisionWords
from ._capabilities import Capabilities
from ._completion import Completion
from ._conversation import Conversation
from ._customer import CustomerScreen, CustomerSide, SignIn
from ._decision import DecisionControls
from ._dev import DevStart
from ._format import PROFILE_FORMAT_VERSION, FormatVersion, check_format
from ._reset import ResetSettings, SeedRoute, StateSettings, Stores
from ._runtime import RuntimeCheck
from ._staff import StaffAccess, StaffScreen, StaffSide, Vocabulary
from ._staff_stores import StaffStores

PROFILES_DIR = Path(__file__).resolve().parent.parent / "profiles"


class Lane(Strict):
    """One product instance with its own database and bucket."""

    name: str = Field(description="Lane name, unique in the profile.")
    base_url: str = Field(description="Product base URL of this lane, e.g. http://127.0.0.1:8001.")
    staff_base_url: str | None = Field(None, description="Staff side base URL of this lane, "
                                       "when it is on another origin.")
    seed_url: str | None = Field(
        None, description="Seed route base URL of this lane; default: base_url + seed.path.")
    database: str | None = Field(
        None, description="Database name (direct stores; run record). With SQL stores it "
        "replaces the URL's database: a server database's name, or a SQLite file's name "
        "without its suffix (a path: the whole file).")
    bucket: str | None = Field(None, description="Bucket name (direct stores).")


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
    """A product profile (TOML). ``docs/product-contract.md`` describes every key."""

    version: FormatVersion = Field(
        PROFILE_FORMAT_VERSION, description="Profile format version (older files still "
        "load; the keys format 3 added need \"3\", those format 4 added \"4\", those format 5 "
        "added \"5\").")
    name: str = Field(description="Product name, recorded in run.json.")
    locale: LocaleId = Field(DEFAULT_LOCALE, description="CLDR locale the product writes "
                             "amounts in ('en_GB', 'en_IN', 'de_DE'); recorded in run.json.")
    currency: CurrencyCode = Field(HOME_CURRENCY, description="ISO 4217 code of the "
                                   "product's home currency: an amount it shows naming no "
                                   "currency is in it; recorded in run.json.")
    base_url: str | None = Field(None, description="Single-lane product URL.")
    staff_base_url: str | None = Field(None, description="Single-lane staff side URL.")
    database: str | None = Field(None, description="Single-lane database (direct stores).")
    bucket: str | None = Field(None, description="Single-lane bucket (direct stores).")
    lanes: list[Lane] = Field(default_factory=list,
                              description="Several lanes instead of base_url.")
    capabilities: Capabilities = Field(default_factory=Capabilities)
    runtime: RuntimeCheck = Field(default_factory=RuntimeCheck)
    seed: SeedRoute = Field(default_factory=SeedRoute)
    reset: ResetSettings = Field(default_factory=ResetSettings)
    stores: Stores | None = None
    state: StateSettings = Field(default_factory=StateSettings)
    mapping: dict[str, CollectionMap] = Field(
        default_factory=dict, description="Canonical collection -> the product's collection, "
        "fields and values (setups written, state read back).")
    customer_sign_in: SignIn | None = None
    staff_sign_in: SignIn | None = None
    staff: StaffAccess = Field(default_factory=StaffAccess)
    staff_screen: StaffScreen = Field(default_factory=StaffScreen)
    staff_vocabulary: Vocabulary = Field(default_factory=Vocabulary)
    staff_stores: StaffStores | None = Field(
        None, description="A product without a staff screen: where its stores keep the "
        "staff-side fields (triage, review, checks, facts, waiting list), read from the state "
        "dump after the journey in canonical terms (none: those components are "
        "not_implemented).")
    decision: DecisionControls = Field(
        default_factory=DecisionControls, description="Staff decision controls and where the "
        "customer sees the decision (none: the decision components are not_implemented).")
    agent_decision: AgentDecisionWords | None = Field(
        None, description="How the product's own agent words a decision it tells the "
        "customer (none: the screen is not read for agent decisions, and the agent_decision "
        "component is not_implemented).")
    completion: Completion
    customer_screen: CustomerScreen
    browser: BrowserSettings = Field(default_factory=BrowserSettings)
    dev: DevStart | None = None
    conversation: Conversation = Field(
        default_factory=Conversation, description="How the product holds conversations and "
        "how a new one starts between trials.")

    @model_validator(mode="after")
    def _consistent(self) -> Profile:
        if not self.base_url and not self.lanes:
            raise ValueError("give base_url or at least one entry in lanes")
        names = [lane.name for lane in self.lanes]
        if len(set(names)) != len(names):
            raise ValueError(f"lane names must be unique: {names}")
        caps = self.capabilities
        if caps.customer_accounts and self.customer_sign_in is None:
            raise ValueError("customer_accounts is on: give [customer_sign_in] (or set "
                             "capabilities.customer_accounts = false)")
        if caps.staff_side:
            if self.staff.sign_in == "form" and self.staff_sign_in is None:
                raise ValueError("staff sign-in by form: give [staff_sign_in] (or set "
                                 "staff.sign_in, or capabilities.staff_side = false)")
            if self.staff.find == "url" and not self.staff_screen.claim_path:
                raise ValueError("staff.find = 'url' needs staff_screen.claim_path")
        if self.reset.adapter == "endpoint" and self.reset.endpoint is None:
            raise ValueError("reset.adapter = 'endpoint' needs [reset.endpoint]")
        if self.reset.loads_through_stores() and self.stores is None:
            raise ValueError(f"reset.adapter = '{self.reset.adapter}' needs [stores]")
        if self.state.source == "stores" and self.stores is None:
            raise ValueError("state.source = 'stores' needs [stores]")
        if self.staff_stores is not None:
            if caps.staff_side:
                raise ValueError("[staff_stores] is for a product without a staff screen: set "
                                 "capabilities.staff_side = false, or remove [staff_stores]")
            if self.state_source() == "none":
                raise ValueError("[staff_stores] reads the state dumped after the journey: "
                                 "give state.source = 'stores' (or a seed route that dumps "
                                 "the state)")
        sql = self.stores is not None and self.stores.kind == "sql"
        for canonical, cmap in self.mapping.items():
            if cmap.extra_column and not sql:
                raise ValueError(f"mapping.{canonical}.extra_column is for SQL stores: give "
                                 "stores.sql_url_env, or leave it out")
        targets = [m.collection for m in self.mapping.values() if m.collection]
        if len(set(targets)) != len(targets):
            raise ValueError(f"two canonical collections map to one product collection: "
                             f"{targets}")
        return self

    @model_validator(mode="after")
    def _format(self) -> Profile:
        check_format(self)
        return self

    @model_validator(mode="after")
    def _conversation_and_runtime(self) -> Profile:
        if self.runtime.declared is not None and self.capabilities.runtime_report:
            raise ValueError("runtime.declared is for a product that cannot report its "
                             "runtime: set capabilities.runtime_report = false, or remove "
                             "[runtime.declared]")
        conv = self.conversation
        if conv.new is not None and not self.customer_screen.customer_message:
            raise ValueError("[conversation.new] needs customer_screen.customer_message: the "
                             "harness checks that a trial starts with no customer message "
                             "of an earlier conversation")
        urls = [lane.base_url for lane in self.lanes]
        if conv.instance_per_lane and len(set(urls)) != len(urls):
            raise ValueError("conversation.instance_per_lane: lanes sharing a base_url "
                             f"cannot be processes of their own: {urls}")
        return self

    # ------------------------------------------------------------------ derived
    def money(self) -> MoneyConventions:
        """How the product shows money (its locale and home currency)."""
        return MoneyConventions(locale=self.locale, currency=self.currency)

    def state_source(self) -> str:
        """Where state dumps come from: seed_route | stores | none."""
        if self.state.source != "auto":
            return self.state.source
        if self.reset.adapter == "seed_route":
            return "seed_route"
        return "stores" if self.stores is not None else "none"

    def customer_side(self) -> CustomerSide:
        """What the browser driver needs of this profile to read and drive the customer
        screen."""
        return CustomerSide(
            screen=self.customer_screen, completion=self.completion,
            sign_in=self.customer_sign_in, absent=self.capabilities.absent_regions(),
            alive_path=(self.runtime.path if self.capabilities.runtime_report
                        else self.customer_screen.start_path))

    def staff_side(self) -> StaffSide:
        """What the staff side needs of this profile to get in, read and decide."""
        return StaffSide(
            present=self.capabilities.staff_side, access=self.staff,
            sign_in=self.staff_sign_in, screen=self.staff_screen,
            vocabulary=self.staff_vocabulary, decision=self.decision,
            waiting_list=self.capabilities.waiting_list, timeout_s=self.completion.timeout_s,
            stores=self._staff_stores())

    def _staff_stores(self) -> StaffStores | None:
        """``[staff_stores]``, its waiting list left out when the product has none."""
        where = self.staff_stores
        if where is None or self.capabilities.waiting_list:
            return where
        return where.model_copy(update={"waiting_list": ""})

    def staff_source(self) -> StaffSideSource:
        """Where the staff side is read: staff_screen | stores | none."""
        if self.capabilities.staff_side:
            return "staff_screen"
        return "stores" if self.staff_stores is not None else "none"

    def resolved_lanes(self) -> list[Lane]:
        """The lanes to run on; a profile with only base_url has one lane 'lane-1'."""
        lanes = self.lanes or [Lane(name="lane-1", base_url=self.base_url or "",
                                    staff_base_url=self.staff_base_url,
                                    database=self.database, bucket=self.bucket)]
        return [
            lane.model_copy(update={
                "seed_url": lane.seed_url or url(lane.base_url, self.seed.path),
                "staff_base_url": (self.staff.base_url or lane.staff_base_url
                                   or lane.base_url),
            })
            for lane in lanes
        ]

    def with_lanes(self, lanes: list[Lane]) -> Profile:
        """The same profile pointed at other lanes (e.g. a dev environment's)."""
        staff = self.staff.model_copy(update={"base_url": ""})
        return self.model_copy(update={"lanes": lanes, "base_url": None,
                                       "staff_base_url": None, "database": None,
                                       "bucket": None, "staff": staff})

    def seed_token(self) -> str:
        """The seed route token from the environment (never stored in any record)."""
        return os.environ.get(self.seed.token_env, "")


def url(base: str, path: str) -> str:
    """``base`` joined with ``path``."""
    return base.rstrip("/") + "/" + path.lstrip("/")


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
