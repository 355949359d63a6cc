"""Reset adapters: put a product into a pack's starting state before a trial, and read state.

``seed_route``  the harness's seed route (in or beside the product) resets, loads and dumps;
``endpoint``    the product's own reset endpoint, called with a body built from a template;
``stores``      the harness writes the setup into the product's stores itself (a database,
                and a bucket or an uploads folder), through the store layer;
``endpoint+stores``, ``command+stores``
                the product's endpoint or a command clears, then the stores load;
``none``        nothing is reset (refused unless the run says ``--no-reset``).

Every adapter that touches the product's stores plans first: every store's guard (allowed
name, production marker, file-system root, reachability, missing tables and columns) and its
plan run before the product's own clearing step and before any write, so a refusal never
follows a change. State dumps come from the seed route, or from the product's stores read
directly through the profile's mapping, or nowhere (state scoring is then
``not_implemented``). Every adapter is synchronous; the trial calls it in a worker thread.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

from claims_corpus.formats import Baseline, Setup
from claims_records import SeedError, StateDump

from ..profile import Lane, Profile, url
from ._command import run_clear_command
from ._errors import ProductResetError
from ._stores import from_env, open_stores
from ._template import fill_template

if TYPE_CHECKING:
    from claims_corpus.plan import Plan
    from seed.stores import Prepared, StoreSet

Credentials = dict[str, Any]
"""A person's sign-in (``username``, ``password``) as a reset gives it: JSON values."""


@dataclass
class ResetOutcome:
    """What a reset tells the trial."""

    adapter: str
    claimant_session: str
    customer_credentials: Credentials | None = None
    staff_credentials: Credentials | None = None
    took_ms: float | None = None
    verified: bool | None = None  # None: this adapter cannot verify
    notes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        verified = {True: "verified", False: "NOT verified", None: "not verifiable"}
        notes = f" ({'; '.join(self.notes)})" if self.notes else ""
        return (f"reset by {self.adapter} took {self.took_ms} ms, {verified[self.verified]}, "
                f"session={self.claimant_session}{notes}")


def corpus_baseline(packs_root: Path) -> Baseline:
    """The corpus's baseline.json (an empty baseline when there is none)."""
    from seed import load_baseline_file

    path = packs_root / "baseline.json"
    return load_baseline_file(path if path.is_file() else None)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


class ResetAdapter:
    """Base: resets nothing, reads state from the product's stores when the profile says so."""

    name = "none"

    def __init__(self, profile: Profile, lane: Lane, packs_root: Path) -> None:
        self.profile = profile
        self.lane = lane
        self.packs_root = Path(packs_root)
        self._stores: StoreSet | None = None
        self._baseline: Baseline | None = None

    # ------------------------------------------------------------------ helpers
    def stores(self) -> StoreSet:
        if self._stores is None:
            self._stores = open_stores(self.profile, self.lane)
        return self._stores

    def baseline(self) -> Baseline:
        if self._baseline is None:
            self._baseline = corpus_baseline(self.packs_root)
        return self._baseline

    def _plan(self, setup: Setup, files: dict[str, bytes]) -> Plan:
        from seed import build_plan

        return build_plan(self.baseline(), setup, files)

    def _prepare(self, plan: Plan) -> Prepared:
        """Every store's guard and plan (nothing written)."""
        return self.stores().prepare(plan.collections, plan.objects)

    def _outcome(self, setup: Setup, started: float, verified: bool | None,
                 notes: list[str] | None = None) -> ResetOutcome:
        creds = setup.customer_credentials
        staff = setup.staff_credentials or self.baseline().staff_credentials
        return ResetOutcome(
            adapter=self.name, claimant_session=setup.claimant_session,
            customer_credentials=creds.model_dump() if creds else None,
            staff_credentials=staff.model_dump() if staff else None,
            took_ms=_ms(started), verified=verified, notes=notes or [])

    def _reads_stores(self) -> bool:
        return self.profile.state_source() == "stores"

    # ------------------------------------------------------------------ interface
    def reset(self, setup: Setup, files: dict[str, bytes]) -> ResetOutcome:
        started = time.perf_counter()
        return self._outcome(setup, started, None, ["nothing was reset (--no-reset)"])

    def preflight(self, setup: Setup, files: dict[str, bytes]) -> str:
        """One line on whether ``setup`` could be reset now, checked as a reset checks it
        before the product's own step or any write (guards and plans; nothing changes);
        ``SeedError`` (a ``StoreRefusal`` for a store's guard) when it could not."""
        if self._reads_stores():
            self._prepare(self._plan(setup, files))
            return f"stores ready (database {self.stores().database})"
        return "nothing to check before a reset"

    def state(self) -> StateDump | None:
        """A canonical state dump, or None when this product's state cannot be read."""
        if self._reads_stores():
            self.stores().guard()
            return self.stores().dump()
        return None

    def health(self) -> str:
        """One line on whether a reset is possible now; raises ``SeedError`` when it is not."""
        return "no reset configured"

    def close(self) -> None:
        if self._stores is not None:
            self._stores.close()


class SeedRouteReset(ResetAdapter):
    name = "seed_route"

    def __init__(self, profile: Profile, lane: Lane, packs_root: Path, token: str) -> None:
        super().__init__(profile, lane, packs_root)
        from seed import SeedClient

        self.client = SeedClient(lane.seed_url or "", token, profile.seed.timeout_s)

    def reset(self, setup: Setup, files: dict[str, bytes]) -> ResetOutcome:
        answer = self.client.reset(setup.model_dump(mode="json", exclude={"staff_script"}), files)
        return ResetOutcome(
            adapter=self.name, claimant_session=answer.get("claimant_session", "anonymous"),
            customer_credentials=answer.get("customer_credentials"),
            staff_credentials=answer.get("staff_credentials"), took_ms=answer.get("took_ms"),
            verified=answer.get("verified"))

    def preflight(self, setup: Setup, files: dict[str, bytes]) -> str:
        self._plan(setup, files)  # the setup itself, as the route would refuse it
        return self.health()  # the route runs its stores' guards

    def state(self) -> StateDump | None:
        if self.profile.state_source() == "seed_route":
            return self.client.state()
        return super().state()

    def health(self) -> str:
        answer = self.client.health()
        return f"seed route healthy (database {answer.get('database')}, " \
               f"bucket {answer.get('bucket')})"

    def close(self) -> None:
        self.client.close()
        super().close()


class EndpointResetAdapter(ResetAdapter):
    name = "endpoint"
    _http: httpx.Client | None = None

    def _client(self) -> httpx.Client:
        """One client for the lane's resets (a new one per reset loads the CA bundle again)."""
        if self._http is None:
            self._http = httpx.Client(trust_env=False)
        return self._http

    def close(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None
        super().close()

    def _request(self, method: str, path: str, body: Any | None = None) -> httpx.Response:
        ep = self.profile.reset.endpoint
        assert ep is not None
        headers = {}
        if ep.auth_header:
            token = from_env(ep.auth_env, "reset token")
            headers[ep.auth_header] = f"{ep.auth_scheme} {token}".strip()
        target = url(self.lane.base_url, path)
        try:
            return self._client().request(method, target, json=body, headers=headers,
                                          timeout=ep.timeout_s)
        except httpx.TimeoutException as exc:
            raise ProductResetError(f"the product's reset endpoint did not answer within "
                                    f"{ep.timeout_s} s ({type(exc).__name__})", url=target,
                                    timeout_s=ep.timeout_s) from exc
        except httpx.HTTPError as exc:
            raise ProductResetError(f"the product's reset endpoint is unreachable: {exc}",
                                    url=target) from exc

    def body(self, setup: Setup, plan: Plan) -> Any:
        from seed.stores import as_json, to_product

        ep = self.profile.reset.endpoint
        assert ep is not None
        values = {
            "pack_id": setup.pack_id,
            "claimant_session": setup.claimant_session,
            "setup": setup.model_dump(mode="json", exclude={"staff_script"}),
            "collections": as_json(to_product(plan.collections, self.profile.mapping)),
            "objects": [{"key": o.key, "content_type": o.content_type,
                         "base64": base64.b64encode(o.data).decode("ascii")}
                        for o in plan.objects],
        }
        return fill_template(ep.body, values)

    def call(self, setup: Setup, plan: Plan) -> None:
        """Call the product's reset endpoint; ``SeedError`` unless it answers 2xx: a
        ``ProductResetError`` for a server error (5xx), a 4xx being a refusal of what the
        harness sent (its token, the profile's path or body)."""
        ep = self.profile.reset.endpoint
        assert ep is not None
        resp = self._request(ep.method, ep.path, self.body(setup, plan))
        if resp.status_code >= 300:
            error = ProductResetError if resp.status_code >= 500 else SeedError
            raise error(f"the product refused the reset: HTTP {resp.status_code}: "
                        f"{resp.text[:300]}", url=str(resp.request.url),
                        status=resp.status_code)

    def reset(self, setup: Setup, files: dict[str, bytes]) -> ResetOutcome:
        started = time.perf_counter()
        plan = self._plan(setup, files)
        prepared = self._prepare(plan) if self._reads_stores() else None  # guards first
        self.call(setup, plan)
        verified: bool | None = None
        if prepared is not None:
            problems = self.stores().verify(prepared)
            verified = not problems
            if problems:
                raise ProductResetError(f"state after the product's reset differs from the "
                                        f"setup: {'; '.join(problems[:5])}", pack=setup.pack_id)
        return self._outcome(setup, started, verified)

    def health(self) -> str:
        ep = self.profile.reset.endpoint
        assert ep is not None
        if not ep.health_path:
            return "no health path configured for the reset endpoint"
        resp = self._request("GET", ep.health_path)
        if resp.status_code >= 300:
            raise SeedError(f"reset endpoint health answers HTTP {resp.status_code}",
                            url=str(resp.request.url))
        return f"reset endpoint healthy (HTTP {resp.status_code})"


class StoresReset(ResetAdapter):
    name = "stores"

    def _reads_stores(self) -> bool:
        return True  # the stores are written: they are checked whatever state reads

    def reset(self, setup: Setup, files: dict[str, bytes]) -> ResetOutcome:
        started = time.perf_counter()
        prepared = self._prepare(self._plan(setup, files))
        self.stores().apply(prepared)
        return self._outcome(setup, started, True)

    def state(self) -> StateDump | None:
        if self.profile.state_source() == "none":
            return None
        return super().state()

    def health(self) -> str:
        stores = self.stores()
        stores.guard()
        dump = stores.dump()
        where = stores.location()
        return f"stores reachable (database {dump.database}" \
               + (f", {where}" if where else "") \
               + f", {len(dump.collections)} non-empty collection(s))"


class EndpointThenStores(StoresReset, EndpointResetAdapter):
    """The product's own endpoint clears, then the harness loads the setup through the
    stores and reads it back (``adapter = "endpoint+stores"``)."""

    name = "endpoint+stores"

    def reset(self, setup: Setup, files: dict[str, bytes]) -> ResetOutcome:
        started = time.perf_counter()
        plan = self._plan(setup, files)
        prepared = self._prepare(plan)  # every refusal before the product is touched
        self.call(setup, plan)
        cleared = f"cleared by the product's endpoint in {_ms(started)} ms"
        self.stores().apply(prepared)
        return self._outcome(setup, started, True, [cleared])

    def health(self) -> str:
        return f"{EndpointResetAdapter.health(self)}; {StoresReset.health(self)}"


class CommandThenStores(StoresReset):
    """A command clears the product, then the harness loads the setup through the stores and
    reads it back (``adapter = "command+stores"``)."""

    name = "command+stores"

    def reset(self, setup: Setup, files: dict[str, bytes]) -> ResetOutcome:
        started = time.perf_counter()
        prepared = self._prepare(self._plan(setup, files))  # every refusal before the command
        run_clear_command(self.profile, self.lane, setup.pack_id)
        cleared = f"cleared by the product's command in {_ms(started)} ms"
        self.stores().apply(prepared)
        return self._outcome(setup, started, True, [cleared])


def make_reset(profile: Profile, lane: Lane, packs_root: Path,
               seed_token: str | None = None) -> ResetAdapter:
    """The reset adapter the profile names, for one lane."""
    adapter = profile.reset.adapter
    if adapter == "seed_route":
        token = seed_token if seed_token is not None else profile.seed_token()
        return SeedRouteReset(profile, lane, packs_root, token)
    if adapter == "endpoint":
        return EndpointResetAdapter(profile, lane, packs_root)
    if adapter == "stores":
        return StoresReset(profile, lane, packs_root)
    if adapter == "endpoint+stores":
        return EndpointThenStores(profile, lane, packs_root)
    if adapter == "command+stores":
        return CommandThenStores(profile, lane, packs_root)
    return ResetAdapter(profile, lane, packs_root)
