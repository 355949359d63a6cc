"""The local development environment: stores, one product (or seed server) per lane.

``start_dev`` starts whatever is missing and returns a ``DevEnvironment`` that stops all of it
on ``close()``. Every child process runs in its own process group, so stopping it also stops
anything it started.

The reference app's ``model`` runtime needs a model endpoint. ``model="auto"`` (the default)
starts the embedded model (``seed._local_model``) for it when the environment names none
(``CLAIMS_APP_MODEL_BASE_URL`` unset or empty), so ``run --dev --runtime model`` works on a
machine with no model service; ``"local"`` starts it whatever the environment says; ``"env"``
never does, leaving the app to the ``CLAIMS_APP_MODEL_*`` variables.

The parts: ``_environment`` (the lanes and ``DevEnvironment``), ``_model`` (the embedded
model), ``_app`` (the reference app or a product's own command per lane), ``_start``
(``start_dev``).
"""

from ._app import ProductCommand
from ._environment import RUNTIMES, DevEnvironment, Lane, lane_names
from ._model import MODEL_SOURCES, wants_local_model
from ._start import start_dev

__all__ = [
    "MODEL_SOURCES",
    "RUNTIMES",
    "DevEnvironment",
    "Lane",
    "ProductCommand",
    "lane_names",
    "start_dev",
    "wants_local_model",
]
