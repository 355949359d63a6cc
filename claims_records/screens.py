"""The simulator panel's recorded screens (``harness/panel/screens/<pack-id>.json``).

The panel vets a customer model before a team trusts its numbers: it plays the customer
through screens a real product showed for a pack, in order, and audits every answer. The
screens are recorded from a run record (``claims-harness selftest record-screens``).
"""

from __future__ import annotations

from pydantic import Field

from ._base import Strict
from .trial import ScreenReading

SCREENS_FORMAT_VERSION = "1"


class PanelScreens(Strict):
    """The screens one trial of one pack showed its customer, as recorded."""

    version: str = Field(SCREENS_FORMAT_VERSION)
    pack_id: str
    corpus_version: str = Field(description="Corpus version of the run they came from.")
    source: str = Field(description="Where they were recorded: run id, product, runtime.")
    start: ScreenReading = Field(description="The screen before the first message.")
    screens: list[ScreenReading] = Field(
        description="Each screen the customer acted on after its first message, in order.")
