"""``start_dev``: stores, then one product or seed server per lane."""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from collections.abc import Sequence
from pathlib import Path

from claims_records import SeedError
from seed import SEED_PREFIX, S3Config, SeedSettings, create_seed_app

from ._app import ProductCommand, _start_app, _start_product
from ._embedded import start_stores
from ._environment import DEFAULT_DATABASE, RUNTIMES, DevEnvironment, Lane, lane_names
from ._model import _start_model, wants_local_model
from ._server import BackgroundServer

# The reference app refuses fault switches from its environment; say so before starting it.
APP_FAULTS_ENV = "CLAIMS_APP_FAULTS"
DEFAULT_BASELINE = Path("packs/baseline.json")
_DATABASE_STEM = re.compile(r"[A-Za-z0-9_]{1,50}")
_DEFAULT = object()


def check_dev_options(lanes: int = 1, app: bool = True, runtime: str = "reference",
                      database: str = DEFAULT_DATABASE, model: str = "auto",
                      product: ProductCommand | None = None) -> bool:
    """Refuse options ``start_dev`` cannot start (``SeedError``), before anything is started
    or written; returns whether it would start the embedded model."""
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
    return local_model


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
    local_model = check_dev_options(lanes, app, runtime, database, model, product)
    if baseline_path is _DEFAULT:
        baseline_path = DEFAULT_BASELINE.resolve() if DEFAULT_BASELINE.is_file() else None
    baseline = Path(baseline_path).resolve() if baseline_path is not None else None  # type: ignore[arg-type]
    temporary = log_dir is None
    log_dir = Path(log_dir) if log_dir else Path(tempfile.mkdtemp(prefix="claims-harness-dev-"))
    log_dir.mkdir(parents=True, exist_ok=True)

    stores = start_stores(mongo_uri, s3, log_dir=log_dir)  # on failure its logs are kept
    env = DevEnvironment(lanes=[], seed_token=secrets.token_urlsafe(24),
                         mongo_uri=stores.mongo_uri, s3=stores.s3, runtime=runtime,
                         log_dir=log_dir, database=database, _stores=stores,
                         temporary_logs=temporary)
    if product is not None:
        env.tokens = {"reset_token": secrets.token_urlsafe(24),
                      "staff_token": secrets.token_urlsafe(24)}
    try:
        if local_model:
            _start_model(env, instances=lanes)
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
