"""The local development environment: stores, one product (or seed server) per lane, and the
embedded model.

``start_dev`` starts whatever is missing and returns a ``DevEnvironment`` that stops all of it
on ``close()``. Every child process runs in its own process group, so stopping it also stops
anything it started.

The reference app's ``model`` runtime needs a model endpoint. ``model="auto"`` (the default)
starts the embedded model (``_local_model``) for it when the environment names none
(``CLAIMS_APP_MODEL_BASE_URL`` unset or empty), so ``run --dev --runtime model`` works on a
machine with no model service; ``"local"`` starts it whatever the environment says; ``"env"``
never does, leaving the app to the ``CLAIMS_APP_MODEL_*`` variables.

The parts: ``_environment`` (the lanes and ``DevEnvironment``), ``_embedded`` (MongoDB and S3,
real or embedded), ``_local_model`` (the embedded model's server) and ``_model`` (when the
dev environment starts it), ``_app`` (the reference app or a product's own command per
lane), ``_start`` (``start_dev``), ``_processes`` and ``_ports`` (child processes and the
loopback ports they listen on), ``_server`` (an ASGI app served on a thread).
"""

from ._app import ProductCommand
from ._embedded import DevStores, start_embedded_mongo, start_embedded_s3, start_stores
from ._environment import DEFAULT_DATABASE, RUNTIMES, DevEnvironment, Lane, lane_names
from ._local_model import TOOLS_CHAT_FORMAT, LocalModel, model_file, start_local_model
from ._model import MODEL_SOURCES, wants_local_model
from ._model_pool import ModelServer, cpu_cores, default_threads, start_model_server
from ._ports import free_port
from ._processes import (
    SPAWN_OPTIONS,
    EmbeddedProcess,
    exit_description,
    process_running,
    signals_ignored_while_stopping,
    stop_process_tree,
)
from ._server import BackgroundServer
from ._start import check_dev_options, start_dev

__all__ = [
    "DEFAULT_DATABASE",
    "MODEL_SOURCES",
    "RUNTIMES",
    "SPAWN_OPTIONS",
    "TOOLS_CHAT_FORMAT",
    "BackgroundServer",
    "DevEnvironment",
    "DevStores",
    "EmbeddedProcess",
    "Lane",
    "LocalModel",
    "ModelServer",
    "ProductCommand",
    "check_dev_options",
    "cpu_cores",
    "default_threads",
    "exit_description",
    "free_port",
    "lane_names",
    "model_file",
    "process_running",
    "signals_ignored_while_stopping",
    "start_dev",
    "start_embedded_mongo",
    "start_embedded_s3",
    "start_local_model",
    "start_model_server",
    "start_stores",
    "stop_process_tree",
    "wants_local_model",
]
