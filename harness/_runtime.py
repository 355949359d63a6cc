"""Reading which agent runtime a product runs, storing only what the profile names."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

import httpx

from claims_records import DeclaredRuntime, ProductError, ProfileError, RuntimeSource

from .profile import Lane, Profile, url

UNREPORTED = "not reported"
_MISSING = object()


@dataclass
class RuntimeInfo:
    """The runtime a product reported, and the named fields of its report (nothing else);
    or the runtime a run declares for a product that cannot report it."""

    runtime: str
    reported: bool = True
    fields: dict[str, Any] = field(default_factory=dict)
    declared: DeclaredRuntime | None = None

    @property
    def source(self) -> RuntimeSource:
        """reported, declared (by the profile or the run) or unknown."""
        if self.reported:
            return "reported"
        return "declared" if self.declared is not None else "unknown"


def dotted(data: Any, path: str) -> Any:
    """``data`` at a dotted path (``service.agent.mode``), or a sentinel when absent."""
    node = data
    for part in path.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return _MISSING
    return node


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def read_lane_runtime(profile: Profile, lane: Lane) -> RuntimeInfo:
    """One lane's runtime report; ``ProductError`` when it is missing or not a runtime."""
    rc = profile.runtime
    target = url(lane.base_url, rc.path)
    headers = {}
    if rc.auth_header:
        headers[rc.auth_header] = f"{rc.auth_scheme} {os.environ.get(rc.auth_env, '')}".strip()
    try:
        resp = httpx.get(target, timeout=10.0, trust_env=False, headers=headers)
        resp.raise_for_status()
    except httpx.HTTPError as exc:
        raise ProductError(f"cannot read the runtime report: {exc}", url=target,
                           lane=lane.name) from exc
    try:
        report: Any = resp.json()
    except ValueError:
        report = None
    pattern = re.compile(rc.pattern) if rc.pattern else None
    if report is None:
        match = pattern.search(resp.text) if pattern else None
        if match is None:
            raise ProductError("the runtime report is not JSON and its pattern does not match",
                               url=target, pattern=rc.pattern or None)
        return RuntimeInfo(runtime=(match.group(1) if match.groups() else match.group(0)))
    value = dotted(report, rc.field)
    if value is _MISSING or not _scalar(value) or not str(value).strip():
        raise ProductError("the runtime report lacks its runtime field (a non-empty text or "
                           "number)", url=target, field=rc.field)
    runtime = str(value)
    if pattern is not None and not pattern.search(runtime):
        raise ProductError("the reported runtime does not match the profile's pattern",
                           url=target, field=rc.field, pattern=rc.pattern, runtime=runtime)
    fields = {}
    for path in rc.store_fields:
        found = dotted(report, path)
        if found is not _MISSING:
            fields[path] = found
    return RuntimeInfo(runtime=runtime, fields=fields)


def check_runtime(profile: Profile, lanes: list[Lane], self_test: bool,
                  allow_unreported: bool = False,
                  declared: DeclaredRuntime | None = None) -> RuntimeInfo:
    """Read each lane's runtime; refuse a controlled runtime unless ``self_test``.

    A product whose profile says it has no runtime report runs when its runtime is declared
    (the profile's ``[runtime.declared]``, with ``declared`` — the run's own declaration —
    over it key by key; labelled "runtime declared, not reported"), or with
    ``allow_unreported`` (labelled "runtime not reported").
    """
    if not profile.capabilities.runtime_report:
        stated = declared.over(profile.runtime.declared) if declared else profile.runtime.declared
        if stated is not None:
            return RuntimeInfo(runtime=stated.describe(), reported=False, declared=stated)
        if not allow_unreported:
            raise ProductError(
                "refusing to run: the profile says this product does not report its runtime, "
                "so a controlled stand-in could not be told from the real agent; declare it "
                "([runtime.declared] in the profile, or --declare-runtime model=NAME) or pass "
                "--allow-unreported-runtime to run anyway (the run is labelled 'runtime "
                "declared, not reported' or 'runtime not reported')", profile=profile.name)
        return RuntimeInfo(runtime=UNREPORTED, reported=False)
    if declared is not None:
        raise ProfileError("the product reports its runtime, so the run cannot declare it: "
                           "drop --declare-runtime (or set capabilities.runtime_report = false "
                           "if the product cannot report it)", profile=profile.name,
                           field="capabilities.runtime_report")
    info = RuntimeInfo(runtime="")
    for lane in lanes:
        info = read_lane_runtime(profile, lane)
        if info.runtime in profile.runtime.controlled_values and not self_test:
            raise ProductError(
                f"refusing to run: the product reports the controlled runtime '{info.runtime}',"
                " a stand-in that only proves the harness works; pass --self-test to run "
                "against it on purpose (the run is then labelled a self-test)",
                url=url(lane.base_url, profile.runtime.path), lane=lane.name,
                runtime=info.runtime)
    return info
