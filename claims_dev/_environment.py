"""The dev environment's lanes and ``DevEnvironment``, which holds everything started."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from claims_records import SeedError, write_text_atomic
from seed import ENV_PREFIX, S3Config

from ._embedded import DevStores
from ._local_model import TOOLS_CHAT_FORMAT, LocalModel
from ._model_pool import ModelServer
from ._processes import (
    exit_description,
    signals_ignored_while_stopping,
    stop_process_tree,
)
from ._server import BackgroundServer

RUNTIMES = ("reference", "controlled", "model")
APP_ENV_PREFIX = "CLAIMS_APP_"  # the reference app's settings (claims_reference_app._settings)
DEFAULT_DATABASE = "claims_dev"  # lane N's database is <database>_laneN


@dataclass(frozen=True)
class Lane:
    """One product instance with its own database and bucket."""

    name: str
    base_url: str | None  # the product's root URL; None when only the seed route runs
    seed_url: str
    database: str
    bucket: str
    staff_base_url: str | None = None  # when the product's staff side has its own origin



def lane_names(n: int, database: str = DEFAULT_DATABASE) -> list[tuple[str, str, str]]:
    """(name, database, bucket) of lanes 1..n: lane N's database is ``<database>_laneN``."""
    return [(f"lane{i}", f"{database}_lane{i}", f"claims-dev-lane{i}")
            for i in range(1, n + 1)]


@dataclass
class _AppProcess:
    proc: subprocess.Popen
    log: Path
    name: str = "app"  # what it is, for messages: "lane1 app"

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
    _stores: DevStores | None = field(default=None, repr=False)
    _model: ModelServer | None = field(default=None, repr=False)
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
            servers = self._model.instances if self._model is not None else 1
            out.append(f"model     {self.model.model} at {self.model.base_url} (embedded, "
                       f"chat format {TOOLS_CHAT_FORMAT}, {servers} server(s))")
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

    def processes(self) -> list[tuple[str, subprocess.Popen]]:
        """Every child process started for this environment, named ("lane1 app",
        "embedded mongo", "embedded s3", "embedded model"), while it is not closed."""
        out = [(app.name, app.proc) for app in self._apps]
        embedded = [*(self._stores.processes if self._stores else []),
                    *(self._model.backends if self._model else [])]
        return out + [(f"embedded {p.name}", p.proc) for p in embedded]

    def ended(self) -> list[str]:
        """One line per started process that has ended — which one and how ("lane1 app (pid
        4242) was killed by SIGKILL (signal 9)") — and per seed server whose thread stopped;
        empty while everything runs. Its own children are asked (``Popen.poll``), which also
        gives how they ended."""
        out = [f"{name} (pid {proc.pid}) {exit_description(proc.returncode)}"
               for name, proc in self.processes() if proc.poll() is not None]
        return out + [f"seed route {server.url} (served by this process) stopped"
                      for server in self._servers if not server.running]

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
