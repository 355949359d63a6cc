"""The product side: the reference app or a product's own command, one process per lane."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx

from claims_records import SeedError
from seed import ENV_PREFIX, SEED_PREFIX

from ._environment import APP_ENV_PREFIX, DevEnvironment, Lane, _AppProcess
from ._model import APP_MODEL_KEY_ENV, EMBEDDED_MODEL_SETTINGS
from ._ports import START_ATTEMPTS, free_port, listener_is_ours
from ._processes import SPAWN_OPTIONS


@dataclass(frozen=True)
class ProductCommand:
    """How to start a product other than the reference app, one process per lane.

    Placeholders ``{name}`` in ``argv``, ``env``, ``base_url`` and ``staff_base_url`` are
    filled per lane (``_start_product``; the names are those a profile's ``[dev]`` may use);
    secrets only ever go into ``env``.
    """

    argv: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    ready_path: str = "/"
    base_url: str = "http://127.0.0.1:{port}"
    staff_base_url: str = ""
    start_timeout_s: float = 60.0
    name: str = "product"


def _wait_for_app(app: _AppProcess, url: str, timeout: float,
                  what: str = "the reference app", own_socket: bool = True) -> None:
    """Wait until ``url`` answers 200 — from ``app``'s own socket when ``own_socket`` (a
    product's command may serve from elsewhere: a container, a server it starts apart)."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    # One client for every poll: each new client loads the CA bundle again (a fifth of a
    # second of CPU here), which slowed the very start it was waiting for.
    with httpx.Client(timeout=2.0, trust_env=False) as client:
        while time.monotonic() < deadline:
            if app.proc.poll() is not None:
                raise SeedError(f"{what} exited during start-up", code=app.proc.returncode,
                                log=str(app.log))
            try:
                resp = client.get(url)
                if resp.status_code == 200 and (not own_socket or listener_is_ours(
                        app.proc, httpx.URL(url).port or 80) is not False):
                    return
                last = (f"HTTP {resp.status_code}" if resp.status_code != 200 else
                        "another program answers on its port")
            except httpx.HTTPError as exc:
                last = type(exc).__name__
            time.sleep(0.1)
    raise SeedError(f"{what} did not answer in time ({last})", url=url,
                    timeout_s=timeout, log=str(app.log))


def _start_app(spec: tuple[str, str, str], env: DevEnvironment, baseline: Path | None,
               faults: Sequence[str], log: Path, timeout: float) -> str:
    """Start the reference app for one lane on a free port, on another one when it could
    not bind it (taken meanwhile); return its base URL."""
    for attempt in range(1, START_ATTEMPTS + 1):
        port, logged = free_port(), log.stat().st_size if log.exists() else 0
        with open(log, "ab") as out:
            try:
                proc = subprocess.Popen(
                    app_command(spec, port, env, baseline, faults), stdout=out,
                    stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                    env=app_environment(env), **SPAWN_OPTIONS)
            except OSError as exc:
                raise SeedError(f"cannot start the reference app: {exc}", log=str(log)) from exc
        env._apps.append(_AppProcess(proc, log, f"{spec[0]} app"))
        try:
            _wait_for_app(env._apps[-1], f"http://127.0.0.1:{port}/api/runtime", timeout)
            return f"http://127.0.0.1:{port}"
        except SeedError:
            with open(log, "rb") as fh:
                fh.seek(logged)
                taken = b"address already in use" in fh.read().lower()
            if not taken or attempt == START_ATTEMPTS:
                raise
            env._apps.pop().stop()  # it could not bind; the next attempt takes its place
    raise AssertionError("START_ATTEMPTS is at least 1")


def app_command(lane: tuple[str, str, str], port: int, env: DevEnvironment,
                baseline: Path | None, faults: Sequence[str]) -> list[str]:
    """The reference app's command line for one lane. It holds no secret (any user of the
    machine can read a command line); those travel in ``app_environment``."""
    _, database, bucket = lane
    argv = [sys.executable, "-m", "claims_reference_app", "--host", "127.0.0.1",
            "--port", str(port),
            "--database", database, "--s3-endpoint", env.s3.endpoint,
            "--s3-access-key", env.s3.access_key, "--bucket", bucket,
            "--runtime", env.runtime, "--enable-seed-route"]
    if env.model is not None:
        argv += ["--model-base-url", env.model.base_url, "--model-name", env.model.model]
    if baseline is not None:
        argv += ["--baseline", str(baseline)]
    for fault in faults:
        argv += ["--fault", fault]
    return argv


def app_environment(env: DevEnvironment) -> dict[str, str]:
    """The environment of a started product: the parent's plus the secrets it needs (the seed
    token, the S3 secret key, and the MongoDB URI, which may hold a password). An app talking
    to the embedded model gets no model API key (one meant for another endpoint stays home)
    and ``EMBEDDED_MODEL_SETTINGS`` where the environment sets none."""
    out = {**os.environ,
           ENV_PREFIX + "SEED_TOKEN": env.seed_token,
           APP_ENV_PREFIX + "S3_SECRET_KEY": env.s3.secret_key,
           APP_ENV_PREFIX + "MONGO_URI": env.mongo_uri}
    if env.model is not None:
        out.pop(APP_MODEL_KEY_ENV, None)
        out.update({k: v for k, v in EMBEDDED_MODEL_SETTINGS.items() if not out.get(k)})
    return out


def _fill(text: str, values: dict[str, str]) -> str:
    return re.sub(r"\{([a-z0-9_]+)\}", lambda m: values.get(m[1], m[0]), text)


def _start_product(product: ProductCommand, spec: tuple[str, str, str],
                   env: DevEnvironment) -> None:
    """Start one lane of a product by its own command and wait until it answers."""
    name, database, bucket = spec
    values = {"python": sys.executable, "lane": name, "port": str(free_port()),
              "staff_port": str(free_port()), "mongo_uri": env.mongo_uri, "database": database,
              "bucket": bucket, "s3_endpoint": env.s3.endpoint, "s3_region": env.s3.region,
              "s3_access_key": env.s3.access_key, "s3_secret_key": env.s3.secret_key,
              "seed_token": env.seed_token, "sql_url": env.sql_url(database),
              "files_dir": str(env.files_dir(bucket)), **env.tokens}
    argv = [_fill(a, values) for a in product.argv]
    child_env = {**os.environ, **{k: _fill(v, values) for k, v in product.env}}
    log = env.log_dir / f"{product.name}-{name}.log"
    with open(log, "ab") as out:
        try:
            proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, env=child_env, **SPAWN_OPTIONS)
        except OSError as exc:
            raise SeedError(f"cannot start {product.name}: {exc}", log=str(log)) from exc
    handle = _AppProcess(proc, log, f"{name} {product.name}")
    env._apps.append(handle)
    base = _fill(product.base_url, values)
    _wait_for_app(handle, base.rstrip("/") + "/" + product.ready_path.lstrip("/"),
                  product.start_timeout_s, product.name, own_socket=False)
    staff = _fill(product.staff_base_url, values) or None
    env.lanes.append(Lane(name, base, base.rstrip("/") + SEED_PREFIX, database, bucket, staff))

