"""Products that hold one conversation for their whole process (profile ``[conversation]``):
the run-level check. Lanes sharing such a process would mix their conversations, so a run of
several lanes is refused unless each lane is a process of its own. The step that starts a new
conversation before every trial is the trial's (``harness.trial._conversation``).
"""

from __future__ import annotations

from pathlib import Path

from claims_records import ProfileError

from .profile import PROFILES_DIR, Lane, Profile


def check_lanes(profile: Profile, lanes: list[Lane], started_per_lane: bool,
                file: str | None = None) -> None:
    """Refuse several lanes sharing one product process that holds one conversation.

    ``started_per_lane``: the run started one product per lane (``--dev``).
    """
    conv = profile.conversation
    if (not conv.one_per_process or len(lanes) < 2 or started_per_lane
            or conv.instance_per_lane):
        return
    raise ProfileError(
        f"refusing to run {len(lanes)} lanes: the product holds one conversation for its "
        "whole process (conversation.scope = 'process'), so lanes would mix their "
        "conversations; run one lane, let --dev start a product per lane ([dev]), or set "
        "conversation.instance_per_lane = true if each of [[lanes]] is a process of its own",
        profile=profile.name, file=_profile_file(file), field="conversation.scope")


def _profile_file(ref: str | None) -> str | None:
    """The profile's file: a path as given, a shipped profile's name as its file."""
    if not ref or ref.endswith(".toml") or Path(ref).exists():
        return ref
    return str(PROFILES_DIR / f"{ref}.toml")
