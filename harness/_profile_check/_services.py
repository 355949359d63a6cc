"""The service lines of ``profile check``: the runtime report, the reset adapter, state
dumps, how conversations are held, the agent's decision words and completion."""

from __future__ import annotations

from pathlib import Path

import claims_corpus
from claims_records import HarnessError

from .._conversation import check_lanes
from .._runtime import check_runtime
from ..profile import Lane, Profile
from ..reset import make_reset, setup_and_files
from ._report import CheckReport, Line


def service_lines(profile: Profile, lane: Lane, packs_root: Path, reset_pack: str | None,
                   report: CheckReport) -> list[Line]:
    lines = []
    try:
        info = check_runtime(profile, [lane], self_test=True, allow_unreported=True)
        if info.declared is not None:
            lines.append(Line("runtime report", None, f"none (profile); declared: {info.runtime}"
                              " (runs are labelled 'runtime declared, not reported')"))
        elif not info.reported:
            lines.append(Line("runtime report", None, "none (profile): runs need "
                              "--allow-unreported-runtime or a declared runtime"))
        else:
            controlled = info.runtime in profile.runtime.controlled_values
            stored = ", ".join(info.fields) or "none"
            lines.append(Line("runtime report", True, f"runtime '{info.runtime}'"
                              + (" (controlled: refused without --self-test)" if controlled
                                 else "") + f"; other fields stored: {stored}"))
    except HarnessError as exc:
        lines.append(Line("runtime report", False, str(exc)))
    adapter = profile.reset.adapter
    if adapter == "none":
        lines.append(Line("reset", None, "none (profile): runs need --no-reset"))
    else:
        reset = None
        try:
            reset = make_reset(profile, lane, packs_root)
            lines.append(Line("reset", True, f"{adapter}: {reset.health()}"))
            checked = reset_pack or _first_pack(packs_root)
            if checked:
                setup, files = setup_and_files(packs_root / checked)
                lines.append(Line("reset", True, f"pre-flight of {checked}: "
                                  f"{reset.preflight(setup, files)}"))
            if reset_pack:
                setup, files = setup_and_files(packs_root / reset_pack)
                outcome = reset.reset(setup, files)
                report.staff_credentials = outcome.staff_credentials
                lines.append(Line("reset", outcome.verified is not False,
                                  f"{reset_pack} loaded: {outcome.describe()}"))
        except HarnessError as exc:
            lines.append(Line("reset", False, f"{adapter}: {exc}"))
        finally:
            if reset is not None:
                reset.close()
    source = profile.state_source()
    lines.append(Line("state dumps", None, {
        "seed_route": "from the seed route", "stores": "read from the product's stores "
        "through the mapping", "none": "none (state and state assertions not_implemented)"}
        [source]))
    if profile.staff_stores is not None:
        where = profile.staff_side().stores
        assert where is not None
        lines.append(Line("staff side", None, f"read from the stores: {where.describe()} "
                          "(the state dumped after each journey)"))
    lines += conversation_lines(profile)
    if profile.agent_decision is not None:
        lines.append(Line("agent decision", None, "read from the agent's messages: "
                          + profile.agent_decision.describe()))
    c = profile.completion
    lines.append(Line("completion", None, ", ".join(c.strategies())
                      + (f"; ready: {' | '.join(c.ready)}" if c.ready else "; no ready selector")))
    return lines


def _first_pack(packs_root: Path) -> str | None:
    """The corpus's first pack (the one a run's pre-flight checks), if it has any."""
    try:
        ids = claims_corpus.open_corpora([packs_root]).pack_ids
    except HarnessError:
        return None
    return ids[0] if ids else None


def conversation_lines(profile: Profile) -> list[Line]:
    """How the product holds conversations, and whether the profile's lanes can run."""
    conv = profile.conversation
    if conv.new is None:
        return []
    scope = ("one per process" if conv.one_per_process else "one per browser session")
    out = [Line("conversation", None, f"{scope}; before every trial a new one by "
                f"{conv.new.describe()}")]
    try:
        check_lanes(profile, profile.resolved_lanes(), started_per_lane=False)
    except HarnessError as exc:
        out.append(Line("conversation", False, exc.message))
    return out
