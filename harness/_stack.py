"""The running dev stack: the file `dev up` writes and how `run` (without --dev) finds it.

`claims-harness dev up` writes ``.claims-harness.stack.json`` (``claims_records.DevStack``)
beside its env file and removes it when it stops. `claims-harness run` without ``--dev`` and
without ``--base-url`` points the profile at that stack when

- the profile is one `dev up` serves: its ``[dev]`` starts the reference app
  (``builtin = "reference_app"``), and every lane's base URL is the shipped reference
  profile's default (``http://127.0.0.1:8000``, i.e. it was not pointed elsewhere);
- the stack file (``./.claims-harness.stack.json``, or the file ``$CLAIMS_HARNESS_STACK_FILE``
  names) exists, reads as a ``DevStack`` and runs the reference
  app (not ``--no-app``);
- the ``dev up`` process it names is still running (otherwise the file is stale: ignored,
  with a note).

``--base-url URL`` (one, or one per lane) always wins over both the profile and the stack.
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from claims_dev import process_running
from claims_records import (
    DEV_STACK_FILE,
    DevStack,
    ProfileError,
    SeedError,
    StackLane,
    read_model,
    write_model_atomic,
    write_text_atomic,
)

from .profile import Lane, Profile, load_profile

if TYPE_CHECKING:
    from claims_dev import DevEnvironment

STACK_FILE_ENV = "CLAIMS_HARNESS_STACK_FILE"  # where `run` looks, when not ./DEV_STACK_FILE
REFERENCE_PRODUCT = "reference_app"
SEED_ONLY = "seed_route"


def stack_record(env: DevEnvironment, env_file: Path, pid: int | None = None) -> DevStack:
    """The stack file's content for a started dev environment (``pid``: this process)."""
    app = any(lane.base_url for lane in env.lanes)
    return DevStack(
        pid=os.getpid() if pid is None else pid,
        started_at=datetime.now(UTC).isoformat(timespec="seconds"),
        product=REFERENCE_PRODUCT if app else SEED_ONLY,
        runtime=env.runtime if app else None,
        mongo_uri=env.mongo_uri, s3_endpoint=env.s3.endpoint,
        env_file=str(Path(env_file).resolve()),
        lanes=[StackLane(name=ln.name, base_url=ln.base_url, staff_base_url=ln.staff_base_url,
                         seed_url=ln.seed_url, database=ln.database, bucket=ln.bucket)
               for ln in env.lanes])


def write_stack_file(stack: DevStack, path: Path | str = DEV_STACK_FILE) -> Path:
    """Write the stack file (atomically); returns its path."""
    path = Path(path)
    write_model_atomic(path, stack)
    return path


def remove_stack_file(path: Path | str = DEV_STACK_FILE, pid: int | None = None) -> None:
    """Remove the stack file if it is this process's (``pid``): a newer `dev up` that wrote
    the same path keeps its file."""
    path = Path(path)
    try:
        stack = read_model(DevStack, path, SeedError)
    except SeedError:
        return
    if stack.pid == (os.getpid() if pid is None else pid):
        path.unlink(missing_ok=True)


def powershell_env(variables: dict[str, str]) -> str:
    """``variables`` as PowerShell assignments (``$env:NAME = 'value'``), one a line."""
    return "".join(f"$env:{k} = '{v.replace(chr(39), chr(39) * 2)}'\n"
                   for k, v in variables.items())


def write_powershell_env(variables: dict[str, str], path: Path | str) -> Path:
    """Write the env file's PowerShell form (owner-only, like the env file: it holds the
    seed token). Load it with ``Get-Content FILE | Out-String | Invoke-Expression``, which no
    execution policy blocks."""
    path = Path(path)
    write_text_atomic(path, powershell_env(variables), mode=0o600)
    return path


def serves_profile(profile: Profile) -> bool:
    """Whether ``profile`` is one `dev up` serves: it starts the reference app and its lanes
    are still the shipped reference profile's default URL."""
    if profile.dev is None or profile.dev.builtin != REFERENCE_PRODUCT:
        return False
    default = load_profile("reference").base_url
    return all(lane.base_url == default for lane in profile.resolved_lanes())


def running_stack(path: Path | str | None = None) -> tuple[DevStack | None, str | None]:
    """The stack a running `dev up` serves, from its stack file (default: the file
    ``$CLAIMS_HARNESS_STACK_FILE`` names, else ``./.claims-harness.stack.json``): (stack,
    None); or (None, a note saying why the file is not used); (None, None) when there is no
    file."""
    path = Path(path or os.environ.get(STACK_FILE_ENV) or DEV_STACK_FILE)
    if not path.is_file():
        return None, None
    try:
        stack = read_model(DevStack, path, SeedError)
    except SeedError as exc:
        return None, f"ignoring {path}: {exc}"
    if not process_running(stack.pid):
        return None, (f"ignoring {path}: the dev up process {stack.pid} that wrote it is no "
                      "longer running (a stale file; start the stack again or delete it)")
    if stack.product != REFERENCE_PRODUCT:
        return None, (f"ignoring {path}: that stack serves only seed routes (dev up --no-app), "
                      "no product to drive")
    return stack, None


def point_at_stack(profile: Profile, stack: DevStack) -> Profile:
    """``profile`` pointed at the stack's lanes."""
    return profile.with_lanes([
        Lane(name=ln.name, base_url=ln.base_url or "", staff_base_url=ln.staff_base_url,
             seed_url=ln.seed_url, database=ln.database, bucket=ln.bucket)
        for ln in stack.lanes])


def stack_seed_token(stack: DevStack) -> str | None:
    """The seed token in the env file the stack names (None when it cannot be read)."""
    try:
        text = Path(stack.env_file).read_text(encoding="utf-8")
    except OSError:
        return None
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key.strip().endswith("SEED_TOKEN"):
            return value.strip()
    return None


def with_base_urls(profile: Profile, urls: list[str]) -> Profile:
    """``profile`` with its product URL(s) replaced: one URL makes one lane, several make one
    lane each. When the profile has as many lanes, each keeps its name, database, bucket and
    staff origin; its seed route becomes the new base URL plus ``seed.path``."""
    for u in urls:
        if not u.startswith(("http://", "https://")):
            raise ProfileError("a base URL starts with http:// or https://", value=u,
                               field="--base-url", profile=profile.name)
    own = profile.lanes or [Lane(name="lane-1", base_url=profile.base_url or "",
                                 staff_base_url=profile.staff_base_url,
                                 database=profile.database, bucket=profile.bucket)]
    if len(own) == len(urls):
        lanes = [lane.model_copy(update={"base_url": u.rstrip("/"), "seed_url": None})
                 for lane, u in zip(own, urls, strict=True)]
    else:
        lanes = [Lane(name=f"lane-{i}", base_url=u.rstrip("/"))
                 for i, u in enumerate(urls, start=1)]
    return profile.model_copy(update={"lanes": lanes, "base_url": None,
                                      "staff_base_url": None, "database": None,
                                      "bucket": None})


def next_steps(program: str, folder: Path | str, stack_file: Path | str) -> list[str]:
    """What to type next, from another shell, once `dev up` is ready (``program``: how this
    `claims-harness` was started; ``stack_file``: where the stack file is)."""
    exe = Path(program)
    stack_file = Path(stack_file).resolve()
    folder = Path(folder).resolve()
    cmd = str(exe.resolve()) if exe.is_file() else "claims-harness"
    if " " in cmd:
        cmd = f'"{cmd}"' if sys.platform != "win32" else f'& "{cmd}"'
    where = [] if stack_file == folder / DEV_STACK_FILE else [
        f"          with {STACK_FILE_ENV}={stack_file}"]
    return [f"next      from another shell, in {folder}:", *where,
            f"          {cmd} run --pack CTL-M-001",
            f"          {cmd} score runs/<RUN_ID>   (the run prints its id)"]
