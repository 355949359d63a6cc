"""The local development environment: stores, one product (or seed server) per lane.

``start_dev`` starts whatever is missing and returns a ``DevEnvironment`` that stops all of it
on ``close()``. Every child process runs in its own process group, so stopping it also stops
anything it started.

The reference app's ``model`` runtime needs a model endpoint. ``model="auto"`` (the default)
starts the embedded model (``_local_model``) for it when the environment names none
(``CLAIMS_APP_MODEL_BASE_URL`` unset or empty), so ``run --dev --runtime model`` works on a
machine with no model service; ``"local"`` starts it whatever the environment says; ``"env"``
never does, leaving the app to the ``CLAIMS_APP_MODEL_*`` variables.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from claims_records import SeedError, SimulatorError, write_text_atomic

from ._local_model import TOOLS_CHAT_FORMAT, LocalModel, start_local_model
from ._ports import START_ATTEMPTS, free_port, listener_is_ours
from ._route import SEED_PREFIX, create_seed_app
from ._server import BackgroundServer
from ._settings import ENV_PREFIX, SeedSettings
from .stores import (
    SPAWN_OPTIONS,
    EmbeddedProcess,
    S3Config,
    Stores,
    open_stores,
    signals_ignored_while_stopping,
    stop_process_tree,
)

RUNTIMES = ("reference", "controlled", "model")
# The reference app refuses fault switches from its environment; say so before starting it.
APP_FAULTS_ENV = "CLAIMS_APP_FAULTS"
APP_ENV_PREFIX = "CLAIMS_APP_"  # the reference app's settings (claims_reference_app._settings)
APP_MODEL_URL_ENV = APP_ENV_PREFIX + "MODEL_BASE_URL"
APP_MODEL_KEY_ENV = APP_ENV_PREFIX + "MODEL_API_KEY"
# The app's model request settings with the embedded model, unless the environment sets
# them: its server runs one request at a time and cannot stop a generation whose client gave
# up, so a retry only waits behind a runaway answer; and a timeout below the harness's wait
# for a reply (60 s in the reference profile) lets the app say so on screen itself.
EMBEDDED_MODEL_SETTINGS = {APP_ENV_PREFIX + "MODEL_TIMEOUT_S": "30",
                           APP_ENV_PREFIX + "MODEL_MAX_RETRIES": "0"}
# Where the ``model`` runtime's endpoint comes from: ``auto`` the embedded model unless
# CLAIMS_APP_MODEL_BASE_URL is set, ``local`` the embedded model, ``env`` the environment.
MODEL_SOURCES = ("auto", "local", "env")
DEFAULT_BASELINE = Path("packs/baseline.json")
DEFAULT_DATABASE = "claims_dev"  # lane N's database is <database>_laneN
_DATABASE_STEM = re.compile(r"[A-Za-z0-9_]{1,50}")
_DEFAULT = object()


@dataclass(frozen=True)
class Lane:
    """One product instance with its own database and bucket."""

    name: str
    base_url: str | None  # the product's root URL; None when only the seed route runs
    seed_url: str
    database: str
    bucket: str
    staff_base_url: str | None = None  # when the product's staff side has its own origin


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


def lane_names(n: int, database: str = DEFAULT_DATABASE) -> list[tuple[str, str, str]]:
    """(name, database, bucket) of lanes 1..n: lane N's database is ``<database>_laneN``."""
    return [(f"lane{i}", f"{database}_lane{i}", f"claims-dev-lane{i}")
            for i in range(1, n + 1)]


@dataclass
class _AppProcess:
    proc: subprocess.Popen
    log: Path

    def stop(self, timeout: float = 10.0) -> None:
        stop_process_tree(self.proc, timeout)


@dataclass
class DevEnvironment:
    """Everything ``start_dev`` started; a context manager."""

    lanes: list[Lane]
    seed_token: str
    mongo_uri: str
    s3: S3Config
    runtime: str
    log_dir: Path
    tokens: dict[str, str] = field(default_factory=dict)  # reset_token, staff_token (products)
    database: str = DEFAULT_DATABASE  # the stem of the lanes' database names
    # A product's SQLite files and uploads ({sql_url}, {files_dir}): made for a product
    # started by its own command, removed on close.
    data_dir: Path | None = None
    # A log folder start_dev made itself is removed on close, unless the start failed (its
    # logs say why) or keep_logs is set.
    temporary_logs: bool = False
    keep_logs: bool = False
    # The embedded model the app's ``model`` runtime talks to, when start_dev started it.
    model: LocalModel | None = None
    _stores: Stores | None = field(default=None, repr=False)
    _model: EmbeddedProcess | None = field(default=None, repr=False)
    _apps: list[_AppProcess] = field(default_factory=list, repr=False)
    _servers: list[BackgroundServer] = field(default_factory=list, repr=False)

    def env_vars(self) -> dict[str, str]:
        """The environment a harness run needs to reach this environment."""
        env = {
            ENV_PREFIX + "MONGO_URI": self.mongo_uri,
            ENV_PREFIX + "S3_ENDPOINT": self.s3.endpoint,
            ENV_PREFIX + "S3_ACCESS_KEY": self.s3.access_key,
            ENV_PREFIX + "S3_SECRET_KEY": self.s3.secret_key,
            ENV_PREFIX + "SEED_TOKEN": self.seed_token,
            ENV_PREFIX + "LANES": str(len(self.lanes)),
        }
        for i, lane in enumerate(self.lanes, start=1):
            p = f"{ENV_PREFIX}LANE{i}_"
            if lane.base_url:
                env[p + "BASE_URL"] = lane.base_url
            if lane.staff_base_url:
                env[p + "STAFF_BASE_URL"] = lane.staff_base_url
            env[p + "SEED_URL"] = lane.seed_url
            env[p + "DATABASE"] = lane.database
            env[p + "BUCKET"] = lane.bucket
        return env

    def sql_url(self, database: str) -> str:
        """The SQLite URL of ``database`` in the data folder (a lane's: ``{sql_url}``)."""
        return f"sqlite:///{self._data() / database}.sqlite3"

    def files_dir(self, bucket: str = "") -> Path:
        """The uploads folder in the data folder; a lane's bucket is a sub-folder of it
        (``{files_dir}``)."""
        root = self._data() / "uploads"
        return root / bucket if bucket else root

    def _data(self) -> Path:
        if self.data_dir is None:
            raise SeedError("this dev environment has no data folder (only a product started "
                            "by its own command has one)")
        return self.data_dir

    def write_env_file(self, path: Path) -> Path:
        """Write ``KEY=value`` lines (readable by ``source`` and by docker/compose)."""
        path = Path(path)
        lines = [f"{k}={v}" for k, v in self.env_vars().items()]
        write_text_atomic(path, "\n".join(lines) + "\n", mode=0o600)
        return path

    def describe(self) -> list[str]:
        """Human-readable lines naming every URL (the token is only in the env file)."""
        out = [f"MongoDB   {self.mongo_uri}", f"S3        {self.s3.endpoint}"]
        if any(lane.base_url for lane in self.lanes):
            out.append(f"runtime   {self.runtime}")
        if self.model is not None:
            out.append(f"model     {self.model.model} at {self.model.base_url} (embedded, "
                       f"chat format {TOOLS_CHAT_FORMAT})")
        for lane in self.lanes:
            if lane.base_url:
                out.append(f"{lane.name}     app  {lane.base_url}")
            if lane.staff_base_url:
                out.append(f"{lane.name}     staff {lane.staff_base_url}")
            out.append(f"{lane.name}     seed {lane.seed_url}  "
                       f"(database {lane.database}, bucket {lane.bucket})")
        if self.data_dir is not None:
            out.append(f"data      {self.data_dir}")
        out.append(f"logs      {self.log_dir}")
        return out

    def close(self) -> None:
        """Stop every app, server and embedded store; a second Ctrl-C does not cut it short."""
        with signals_ignored_while_stopping():
            for app in self._apps:
                app.stop()
            self._apps.clear()
            for server in self._servers:
                server.stop()
            self._servers.clear()
            if self._model is not None:
                self._model.stop()
                self._model = None
            if self._stores is not None:
                self._stores.close()
                self._stores = None
            if self.temporary_logs and not self.keep_logs:
                shutil.rmtree(self.log_dir, ignore_errors=True)
            if self.data_dir is not None:
                shutil.rmtree(self.data_dir, ignore_errors=True)
                self.data_dir = None

    def __enter__(self) -> DevEnvironment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
        env._apps.append(_AppProcess(proc, log))
        try:
            _wait_for_app(env._apps[-1], f"http://127.0.0.1:{port}/api/runtime", timeout)
            return f"http://127.0.0.1:{port}"
        except SeedError:
            with open(log, "rb") as fh:
                fh.seek(logged)
                taken = b"address already in use" in fh.read().lower()
            if not taken or attempt == START_ATTEMPTS:
                raise
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


def wants_local_model(runtime: str, model: str, app: bool = True,
                      environ: dict[str, str] | None = None) -> bool:
    """Whether ``start_dev`` starts the embedded model: only for the reference app's ``model``
    runtime; ``local`` always, ``auto`` when the environment names no model endpoint
    (``CLAIMS_APP_MODEL_BASE_URL`` unset or empty), ``env`` never."""
    if model not in MODEL_SOURCES:
        raise SeedError(f"unknown model source; choose one of {', '.join(MODEL_SOURCES)}",
                        model=model)
    if model == "local" and (runtime != "model" or not app):
        raise SeedError("the embedded model is for the reference app's model runtime "
                        "(--runtime model)", runtime=runtime, app=app)
    if runtime != "model" or not app or model == "env":
        return False
    env = os.environ if environ is None else environ
    return model == "local" or not env.get(APP_MODEL_URL_ENV, "").strip()


def _start_model(env: DevEnvironment) -> None:
    """Start the embedded model with a chat format that makes tool calls, logging into the
    environment's log folder; a failure is the dev environment's (``SeedError``)."""
    try:
        env.model, env._model = start_local_model(chat_format=TOOLS_CHAT_FORMAT,
                                                  log=env.log_dir / "model.log")
    except SimulatorError as exc:
        raise SeedError(f"the embedded model for the model runtime did not start: "
                        f"{exc.message}", **exc.context) from exc


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
    handle = _AppProcess(proc, log)
    env._apps.append(handle)
    base = _fill(product.base_url, values)
    _wait_for_app(handle, base.rstrip("/") + "/" + product.ready_path.lstrip("/"),
                  product.start_timeout_s, product.name, own_socket=False)
    staff = _fill(product.staff_base_url, values) or None
    env.lanes.append(Lane(name, base, base.rstrip("/") + SEED_PREFIX, database, bucket, staff))


def start_dev(lanes: int = 1, app: bool = True, runtime: str = "reference",
              faults: Sequence[str] = (), mongo_uri: str | None = None, s3: S3Config | None = None,
              baseline_path: Path | None | object = _DEFAULT, log_dir: Path | None = None,
              app_start_timeout: float = 60.0,
              product: ProductCommand | None = None,
              database: str = DEFAULT_DATABASE, model: str = "auto") -> DevEnvironment:
    """Start stores (when not given) and one product or seed server per lane.

    ``product`` starts another product by its own command instead of the reference app
    (fresh ``reset_token`` and ``staff_token`` values are made for it, in ``env.tokens``,
    and a data folder for its SQLite files and uploads, ``env.data_dir``, removed on close).
    ``database`` is the stem of the lanes' database names (lane N's is ``<database>_laneN``),
    so a product whose guard allows only its own names gets them.

    ``faults`` are the reference app's fault switches, the only way they reach it: a
    ``CLAIMS_APP_FAULTS`` in the environment is refused. ``model`` says where the ``model``
    runtime's endpoint comes from (``wants_local_model``); the embedded model, when started,
    is ``env.model``, logs to ``model.log`` and stops with the rest. ``baseline_path`` defaults to
    ``packs/baseline.json`` when that file exists. Raises ``SeedError`` (with the log path)
    if anything fails to start; whatever was already started is stopped again.
    """
    if lanes < 1:
        raise SeedError("at least one lane is needed", lanes=lanes)
    if runtime not in RUNTIMES:
        raise SeedError(f"unknown runtime; choose one of {', '.join(RUNTIMES)}", runtime=runtime)
    if not _DATABASE_STEM.fullmatch(database):
        raise SeedError("the lanes' database name must be 1 to 50 letters, digits or "
                        "underscores", database=database)
    local_model = wants_local_model(runtime, model, app and product is None)
    if app and os.environ.get(APP_FAULTS_ENV, "").strip():
        raise SeedError(f"{APP_FAULTS_ENV} is set in the environment; fault switches come only "
                        f"from this run's own options (--fault NAME): unset {APP_FAULTS_ENV}",
                        value=os.environ[APP_FAULTS_ENV])
    if baseline_path is _DEFAULT:
        baseline_path = DEFAULT_BASELINE.resolve() if DEFAULT_BASELINE.is_file() else None
    baseline = Path(baseline_path).resolve() if baseline_path is not None else None  # type: ignore[arg-type]
    temporary = log_dir is None
    log_dir = Path(log_dir) if log_dir else Path(tempfile.mkdtemp(prefix="claims-harness-dev-"))
    log_dir.mkdir(parents=True, exist_ok=True)

    stores = open_stores(mongo_uri, s3, log_dir=log_dir)  # on failure its logs are kept
    env = DevEnvironment(lanes=[], seed_token=secrets.token_urlsafe(24),
                         mongo_uri=stores.mongo_uri, s3=stores.s3, runtime=runtime,
                         log_dir=log_dir, database=database, _stores=stores,
                         temporary_logs=temporary)
    if product is not None:
        env.tokens = {"reset_token": secrets.token_urlsafe(24),
                      "staff_token": secrets.token_urlsafe(24)}
    try:
        if local_model:
            _start_model(env)
        if product is not None:
            env.data_dir = Path(tempfile.mkdtemp(prefix="claims-harness-data-"))
            env.files_dir().mkdir()
        for spec in lane_names(lanes, database):
            name, lane_database, bucket = spec
            if product is not None:
                _start_product(product, spec, env)
            elif app:
                base = _start_app(spec, env, baseline, faults, log_dir / f"app-{name}.log",
                                  app_start_timeout)
                env.lanes.append(Lane(name, base, base + SEED_PREFIX, lane_database, bucket))
            else:
                settings = SeedSettings(
                    enabled=True, token=env.seed_token, mongo_uri=env.mongo_uri,
                    database=lane_database, s3_endpoint=env.s3.endpoint,
                    s3_access_key=env.s3.access_key, s3_secret_key=env.s3.secret_key,
                    s3_region=env.s3.region, bucket=bucket, baseline_path=baseline,
                )
                server = BackgroundServer(create_seed_app(settings))
                env._servers.append(server)
                server.start()
                env.lanes.append(Lane(name, None, server.url + SEED_PREFIX, lane_database,
                                      bucket))
    except BaseException as exc:
        env.keep_logs = not isinstance(exc, KeyboardInterrupt)  # the logs say what failed
        env.close()
        raise
    return env
