"""The product's own clearing command (``[reset.command]``), run for one lane."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from claims_records import SeedError

from ..profile import Lane, Profile
from ._errors import ProductResetError
from ._stores import lane_variables, redact_lane_secrets


def run_clear_command(profile: Profile, lane: Lane, pack_id: str) -> None:
    """Run ``[reset.command]`` for one lane; ``SeedError`` when it fails or overruns. It runs
    with the harness's environment and the store variables as the lane sees them
    (``lane_variables``: the lane's database URL and uploads folder), so with several lanes
    each clears its own. Its output is not kept (only the last line of a failure's error
    output is shown)."""
    from claims_dev import SPAWN_OPTIONS, stop_process_tree

    command = profile.reset.command
    assert command is not None
    values = {"{python}": sys.executable, "{pack_id}": pack_id, "{lane}": lane.name,
              "{base_url}": lane.base_url, "{database}": lane.database or "",
              "{bucket}": lane.bucket or ""}
    argv = [re.sub(r"\{[a-z_]+\}", lambda m: values.get(m[0], m[0]), a) for a in command.argv]
    env = {**os.environ, **lane_variables(profile, lane)}
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env=env, **SPAWN_OPTIONS)
    except OSError as exc:
        raise SeedError(f"cannot start the reset command: {exc.strerror or exc}",
                        field="reset.command.argv", command=argv[0]) from exc
    try:
        _, err = proc.communicate(timeout=command.timeout_s)
    except subprocess.TimeoutExpired as exc:
        raise ProductResetError("the reset command did not finish in time", command=argv[0],
                                timeout_s=command.timeout_s) from exc
    finally:
        stop_process_tree(proc)
    if proc.returncode != 0:
        lines = err.decode("utf-8", "replace").strip().splitlines()
        last = redact_lane_secrets(profile, lane, lines[-1])[:200] if lines else ""
        raise ProductResetError(f"the reset command failed with exit code {proc.returncode}"
                                + (f": {last}" if last else ""), command=argv[0])
