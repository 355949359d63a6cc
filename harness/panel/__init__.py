"""The simulator panel: vet a customer (model) before trusting its numbers.

The panel plays a customer through screens recorded from a product (``screens/``: the
reference app over the corpus) and records its answers as journey events for the scorer's
fidelity audit. A local stand-in model (``StandIn``) with scripted behaviours — one that
keeps every rule, one per misbehaviour — shows the panel catches each misbehaviour with its
label. ``claims-harness selftest simulator`` runs it against any configured endpoint;
``rerecord_screens`` records the screens again from the current corpus on the reference app.
"""

from ._behaviours import STAND_INS, Prompt, expected_label, stand_in_behaviour, well_behaved
from ._play import (
    SCREENS_DIR,
    PanelOutcome,
    PanelTrial,
    labels_seen,
    load_screens,
    play,
    record_screens,
    run_panel,
)
from ._rerecord import RERECORD_COMMAND, Rerecording, rerecord_screens
from ._standin import StandIn, completion

__all__ = [
    "RERECORD_COMMAND",
    "SCREENS_DIR",
    "STAND_INS",
    "PanelOutcome",
    "PanelTrial",
    "Prompt",
    "Rerecording",
    "StandIn",
    "completion",
    "expected_label",
    "labels_seen",
    "load_screens",
    "play",
    "record_screens",
    "rerecord_screens",
    "run_panel",
    "stand_in_behaviour",
    "well_behaved",
]
