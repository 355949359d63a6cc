"""The embedded model for the reference app's ``model`` runtime: when and how it starts."""

from __future__ import annotations

import os

from claims_records import SeedError, SimulatorError

from ._environment import APP_ENV_PREFIX, DevEnvironment
from ._local_model import TOOLS_CHAT_FORMAT
from ._model_pool import start_model_server

APP_MODEL_URL_ENV = APP_ENV_PREFIX + "MODEL_BASE_URL"
APP_MODEL_KEY_ENV = APP_ENV_PREFIX + "MODEL_API_KEY"
# The app's model request settings with the embedded model, unless the environment sets
# them: each of its servers runs one request at a time and cannot stop a generation whose
# client gave up, so a retry only waits behind a runaway answer; and a timeout (the whole
# reply's) below the harness's wait for a reply (60 s in the reference profile) lets the app
# say so on screen itself.
EMBEDDED_MODEL_SETTINGS = {APP_ENV_PREFIX + "MODEL_TIMEOUT_S": "30",
                           APP_ENV_PREFIX + "MODEL_MAX_RETRIES": "0"}
# Where the ``model`` runtime's endpoint comes from: ``auto`` the embedded model unless
# CLAIMS_APP_MODEL_BASE_URL is set, ``local`` the embedded model, ``env`` the environment.
MODEL_SOURCES = ("auto", "local", "env")


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


def _start_model(env: DevEnvironment, instances: int = 1) -> None:
    """Start the embedded model with a chat format that makes tool calls, as ``instances``
    servers behind one address (one per lane: lanes sharing one server wait for each other
    and spoil each other's prompt cache), logging into the environment's log folder; a
    failure is the dev environment's (``SeedError``)."""
    try:
        env._model = start_model_server(instances=instances, chat_format=TOOLS_CHAT_FORMAT,
                                        log=env.log_dir / "model.log")
        env.model = env._model.model
    except SimulatorError as exc:
        raise SeedError(f"the embedded model for the model runtime did not start: "
                        f"{exc.message}", **exc.context) from exc
