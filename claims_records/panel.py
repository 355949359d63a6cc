"""The planted-defect panel: does the scorer see every defect the reference app can plant?

    <runs-dir>/<panel-id>/defect-panel.json   DefectPanel   the detection matrix
    <runs-dir>/<panel-id>/<clean|fault>/      one ordinary run record per row

``docs/defect-panel.md`` shows the latest full matrix.
"""

from __future__ import annotations

from pydantic import Field

from ._base import Strict

PANEL_FORMAT_VERSION = "1"


class FaultDetection(Strict):
    """One fault switch against the packs it ran on."""

    fault: str
    effect: str = Field(description="What the fault does to the product.")
    expected_mode: str = Field(description="The failure-mode label it must produce.")
    run_id: str
    packs: list[str] = Field(description="Packs with a scorable trial.")
    detected: list[str] = Field(description="Packs with a failing scorable trial.")
    labelled: list[str] = Field(description="Packs where a failing trial carries the expected "
                                "label.")
    other_modes: dict[str, int] = Field(default_factory=dict, description="Other labels seen "
                                        "in failing trials, with counts.")
    errors: int = Field(0, description="Trials ending in an infrastructure error.")
    seconds: float | None = None

    @property
    def caught(self) -> bool:
        return bool(self.labelled)


class DefectPanel(Strict):
    """defect-panel.json — fault -> packs detected -> label matches; false alarms when clean."""

    version: str = Field(PANEL_FORMAT_VERSION)
    panel_id: str
    created_at: str
    corpus_version: str
    packs: list[str]
    clean_run_id: str
    clean_packs: list[str] = Field(description="Packs with a scorable trial in the clean run.")
    false_alarms: dict[str, list[str]] = Field(
        default_factory=dict, description="Clean run: pack -> failure modes of its failing "
        "trials (every one is a false alarm).")
    clean_errors: int = Field(0, description="Clean-run trials ending in an infrastructure "
                              "error.")
    clean_seconds: float | None = None
    faults: list[FaultDetection]
    passed: bool = Field(description="Every fault caught with its label on at least one pack, "
                         "no false alarm and no error on the clean run.")
