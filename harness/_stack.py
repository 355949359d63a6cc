"""The running dev stack: the file `dev up` writes and how `run` (without --dev) finds it.

`claims-harness dev up` claims its stack file (``.claims-harness.stack.json``, or
``.claims-harness-NAME.stack.json`` with ``--name NAME``; ``claims_records.DevStack``) before
it starts anything: a second `dev up` for the same file is refused, naming the first's pid
and URLs, while the first runs (``claim_stack_file``); a file left by a `dev up` that is gone
or dead is taken over. The file is ``ready`` once the stack answers, marked ``dead`` when one
of its processes ends (``mark_stack_dead``), and removed when `dev up` stops.

`claims-harness run` without ``--dev`` and without ``--base-url`` points the profile at that
stack when

- the profile is one `dev up` serves: its ``[dev]`` starts the reference app
  (``builtin = "reference_app"``), and every lane's base URL is the shipped reference
  profile's default (``http://127.0.0.1:8000``, i.e. it was not pointed elsewhere);
- the stack file (``./.claims-harness.stack.json``, or the file ``$CLAIMS_HARNESS_STACK_FILE``
  names) exists, reads as a ``DevStack`` and runs the reference app (not ``--no-app``).

A stack file naming a stack that cannot serve — dead, still starting, its `dev up` gone, one
of its processes gone — is refused in one line saying which and why (``running_stack``), as is
a ``$CLAIMS_HARNESS_STACK_FILE`` naming no file; with no stack file at all the profile's own
URL is used, with a note saying how to reach a stack started elsewhere.

``--base-url URL`` (one, or one per lane) always wins over both the profile and the stack.
"""

from __future__ import annotations

import contextlib
import os
import re
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
    StackProcess,
    read_model,
    write_model_atomic,
    write_text_atomic,
    write_text_exclusive,
)

from .profile import Lane, Profile, load_profile

if TYPE_CHECKING:
    from claims_dev import DevEnvironment

STACK_FILE_ENV = "CLAIMS_HARNESS_STACK_FILE"  # where `run` looks, when not ./DEV_STACK_FILE
REFERENCE_PRODUCT = "reference_app"
SEED_ONLY = "seed_route"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


_STACK_NAME = re.compile(r"[A-Za-z0-9_]{1,30}")


def stack_paths(name: str | None, env_file: Path | None,
                stack_file: Path | None) -> tuple[Path, Path]:
    """The env file and stack file of a `dev up` (``--name``, ``--env-file``,
    ``--stack-file``): ``.claims-harness.env`` and the stack file beside it by default;
    ``.claims-harness-NAME.env`` and ``.claims-harness-NAME.stack.json`` for a named stack.
    A given path wins."""
    if name is not None and not _STACK_NAME.fullmatch(name):
        raise SeedError("a stack name is 1 to 30 letters, digits or underscores",
                        field="--name", value=name)
    stem = ".claims-harness" if name is None else f".claims-harness-{name}"
    env_file = Path(env_file) if env_file is not None else Path(f"{stem}.env")
    if stack_file is None:
        stack_file = env_file.parent / (DEV_STACK_FILE if name is None
                                        else f"{stem}.stack.json")
    return env_file, Path(stack_file)


def starting_record(env_file: Path, app: bool, runtime: str,
                    pid: int | None = None) -> DevStack:
    """The stack file's content while `dev up` (``pid``: this process) starts the stack."""
    return DevStack(pid=os.getpid() if pid is None else pid, state="starting",
                    started_at=_now(), product=REFERENCE_PRODUCT if app else SEED_ONLY,
                    runtime=runtime if app else None, env_file=str(Path(env_file).resolve()))


def stack_record(env: DevEnvironment, env_file: Path, pid: int | None = None) -> DevStack:
    """The stack file's content for a started dev environment (``pid``: this process)."""
    app = any(lane.base_url for lane in env.lanes)
    return DevStack(
        pid=os.getpid() if pid is None else pid,
        started_at=_now(),
        product=REFERENCE_PRODUCT if app else SEED_ONLY,
        runtime=env.runtime if app else None,
        mongo_uri=env.mongo_uri, s3_endpoint=env.s3.endpoint,
        env_file=str(Path(env_file).resolve()),
        lanes=[StackLane(name=ln.name, base_url=ln.base_url, staff_base_url=ln.staff_base_url,
                         seed_url=ln.seed_url, database=ln.database, bucket=ln.bucket)
               for ln in env.lanes],
        processes=[StackProcess(name=name, pid=proc.pid) for name, proc in env.processes()])


def write_stack_file(stack: DevStack, path: Path | str = DEV_STACK_FILE) -> Path:
    """Write the stack file (atomically); returns its path."""
    path = Path(path)
    write_model_atomic(path, stack)
    return path


def _where(stack: DevStack) -> str:
    """A live stack in a few words: its `dev up` pid, since when, and its URLs."""
    if stack.state == "starting":
        return f"dev up pid {stack.pid}, starting since {stack.started_at}"
    urls = [f"{ln.name} {'app ' + ln.base_url if ln.base_url else 'seed ' + ln.seed_url}"
            for ln in stack.lanes]
    return f"dev up pid {stack.pid} (ready since {stack.started_at}): {', '.join(urls)}"


def _holder(path: Path) -> DevStack | None:
    """The live stack holding ``path``; None when the file is stale (its `dev up` is gone, or
    its stack dead) and may be taken over. A file that is no stack file is refused."""
    try:
        stack = read_model(DevStack, path, SeedError)
    except SeedError as exc:
        raise SeedError(f"{path} exists and is not a stack file this version reads "
                        f"({exc.message}); nothing was started: delete it if no dev up runs "
                        "from this folder", file=str(path)) from exc
    if stack.state == "dead" or not process_running(stack.pid):
        return None
    return stack


def _refusal(holder: DevStack, path: Path, what: str = "") -> SeedError:
    return SeedError(f"a dev stack already runs from this folder{what}: {_where(holder)}; "
                     "nothing was started or overwritten. Stop it first (Ctrl-C in its window, "
                     f"or kill {holder.pid}), or start another beside it with --name NAME",
                     file=str(path.resolve()))


def _env_file_free(stack: DevStack, path: Path) -> None:
    """Refuse an env file that the live stack of the default stack file beside it names (a
    stack file given apart from its env file would otherwise overwrite that one)."""
    beside = Path(stack.env_file).parent / DEV_STACK_FILE
    if beside.resolve() == path.resolve() or not beside.is_file():
        return
    try:
        holder = _holder(beside)
    except SeedError:
        return
    if holder is not None and Path(holder.env_file) == Path(stack.env_file):
        raise _refusal(holder, beside, f" and writes {stack.env_file}")


def claim_stack_file(stack: DevStack, path: Path | str = DEV_STACK_FILE) -> Path:
    """Write ``stack`` (state ``starting``) to ``path`` unless a live `dev up` holds it: that
    is refused (``SeedError`` naming its pid and URLs) before anything is started or written.
    A file whose `dev up` is gone, or whose stack is dead, is taken over. The file appears
    whole or not at all (written beside it, then linked into place, which fails when another
    `dev up` got there first)."""
    path = Path(path)
    _env_file_free(stack, path)
    text = stack.model_dump_json(indent=2) + "\n"
    for _ in range(3):
        try:
            write_text_exclusive(path, text)
            return path
        except FileExistsError:
            holder = _holder(path)
            if holder is not None:
                raise _refusal(holder, path) from None
            with contextlib.suppress(FileNotFoundError):
                path.unlink()  # stale: its dev up is gone or its stack dead
    raise SeedError("another dev up keeps taking this stack file; nothing was started",
                    file=str(path.resolve()))


def mark_stack_dead(stack: DevStack, reason: str, path: Path | str = DEV_STACK_FILE) -> Path:
    """Rewrite the stack file as ``dead`` with ``reason`` (which process ended and how) and
    the time; kept after `dev up` ends so that `run` can say why it refuses the stack."""
    dead = stack.model_copy(update={"state": "dead", "died": f"{reason} at {_now()}"})
    return write_stack_file(DevStack.model_validate(dead.model_dump()), path)


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
    None); or (None, a note saying why no stack is used and how to reach one: no file here, a
    seed-route-only stack, an unreadable file). A stack that cannot serve — dead, starting,
    its `dev up` or one of its processes gone — and a ``$CLAIMS_HARNESS_STACK_FILE`` naming no
    file raise ``SeedError``, one line saying which process and why."""
    named = os.environ.get(STACK_FILE_ENV)
    path = Path(path or named or DEV_STACK_FILE)
    if not path.is_file():
        if named and not path.exists():
            raise SeedError(f"{STACK_FILE_ENV} names no file: the dev up that wrote it has "
                            "stopped (it removes its stack file) or never ran there; start "
                            f"it again, or unset {STACK_FILE_ENV} to use the profile's URL",
                            file=str(path))
        default = load_profile("reference").base_url
        return None, (f"no dev stack file {path.resolve()}: running against the profile's "
                      f"{default}; for a stack `dev up` runs in another folder set "
                      f"{STACK_FILE_ENV}=<its stack file>, or give --base-url URL")
    try:
        stack = read_model(DevStack, path, SeedError)
    except SeedError as exc:
        return None, f"ignoring {path}: {exc}"
    if stack.state == "dead":
        raise SeedError(f"the dev stack is dead: {stack.died}; start it again (dev up, "
                        "scripts/start-dev.sh) and run then", file=str(path.resolve()))
    if not process_running(stack.pid):
        raise SeedError(f"the dev stack is gone: its dev up process {stack.pid} is no longer "
                        "running (killed, or its window closed); start it again, or delete "
                        "the stale file", file=str(path.resolve()))
    if stack.state == "starting":
        raise SeedError(f"the dev stack is still starting ({_where(stack)}); run again once "
                        "it prints ready", file=str(path.resolve()))
    for proc in stack.processes:
        if not process_running(proc.pid):
            raise SeedError(f"the dev stack is dead: its {proc.name} (pid {proc.pid}) is no "
                            f"longer running; dev up (pid {stack.pid}) says how it ended",
                            file=str(path.resolve()))
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
