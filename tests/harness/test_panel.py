"""The simulator panel: every misbehaviour of the stand-in model is caught with its label, the
well-behaved stand-in and the scripted customer give no finding, and the CLI says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli import app
from harness import make_customer, panel
from harness.customers import LlmSettings
from scoring.fidelity import audit_trial

PACKS = Path(__file__).resolve().parents[2] / "packs"
# one pack per line, one with a sign-in and a file that comes later among them
SOME = ["CTL-C-001", "CTL-H-003", "CTL-M-004"]
runner = CliRunner()


def _panel(behaviour: str, packs: list[str] | None = None, **settings):
    with panel.StandIn(panel.stand_in_behaviour(behaviour)) as server:
        llm = LlmSettings(base_url=server.base_url, model=f"stand-in-{behaviour}",
                          timeout_s=10, **settings)
        return panel.run_panel(lambda view, d: make_customer("llm", view, d, llm), PACKS,
                               panel.load_screens(), audit_trial, packs)


def _authored() -> list[str]:
    from claims_corpus.authoring import load_table

    return sorted(r.id for r in load_table().pack if r.hand_written)


def _sample(recorded: list[str]) -> list[str]:
    """The authored packs and every third generated one (each line, session mode and style
    among them)."""
    authored = set(_authored())
    generated = [p for p in sorted(recorded) if p not in authored]
    return sorted(authored | set(generated[::3]))


# The screen view (the standard) over the authored packs and a third of the generated ones;
# the wide view, which changes only what the prompt holds, over the authored packs.
@pytest.mark.slow  # hundreds of recorded screens answered
@pytest.mark.parametrize(("prompt_view", "which"), [("screen", "sample"), ("wide", "authored")])
def test_the_well_behaved_stand_in_gives_no_finding_over_the_recorded_packs(prompt_view, which):
    recorded = panel.load_screens()  # every pack of the corpus (test_panel_screens.py)
    wanted = _sample(list(recorded)) if which == "sample" else _authored()
    outcomes = _panel("well_behaved", wanted, prompt_view=prompt_view)
    assert [o.trial.pack_id for o in outcomes] == wanted and len(wanted) >= 18
    kinds: set[str] = set()
    for o in outcomes:
        t = o.trial
        assert o.labels == set(), (t.pack_id, o.audit.findings)
        # it really played: an answer to every recorded screen
        assert t.ended == "screens_exhausted", t.pack_id
        assert len(t.events) == len(recorded[t.pack_id].screens) + 1, t.pack_id
        kinds |= {e.action.kind for e in t.events[1:]}
    assert {"say", "click", "upload", "sign_in"} <= kinds, kinds


@pytest.mark.parametrize("behaviour", [b for b in panel.STAND_INS if b != "well_behaved"])
def test_each_misbehaviour_is_caught_with_its_label(behaviour):
    outcomes = _panel(behaviour, SOME)
    expected = panel.expected_label(behaviour)
    for o in outcomes:
        assert o.labels == {expected}, (o.trial.pack_id, o.labels, o.audit.findings)
    if behaviour == "malformed_output":
        assert all(o.trial.ended == "simulator_error" for o in outcomes)
    if behaviour == "rate_limited":  # recovered by the client: the journey goes on, clean
        assert all(o.trial.ended == "screens_exhausted" and not o.audit.findings
                   for o in outcomes)
        assert all(o.trial.calls[0].http_statuses == [429, 200] for o in outcomes)


def test_the_cli_vets_a_configured_endpoint_and_demonstrates_a_stand_in(tmp_path):
    result = runner.invoke(app, ["selftest", "simulator", "--stand-in", "hints",
                                 "--pack", "CTL-M-001"])
    assert result.exit_code == 0, result.output
    assert "CAUGHT: stand-in hints expects hinting" in result.output
    result = runner.invoke(app, ["selftest", "simulator", "--customer", "scripted"])
    assert result.exit_code == 0 and "TRUSTED" in result.output
    with panel.StandIn(panel.stand_in_behaviour("invents_a_date")) as server:
        result = runner.invoke(app, ["selftest", "simulator", "--pack", "CTL-M-001"], env={
            "CLAIMS_HARNESS_LLM_BASE_URL": server.base_url,
            "CLAIMS_HARNESS_LLM_MODEL": "team-model", "CLAIMS_HARNESS_LLM_API_KEY": "sk-x"})
    assert result.exit_code == 1, result.output
    assert "team-model @ 127.0.0.1" in result.output and "SUSPECT: invented" in result.output
    assert "invented at step" in result.output
    result = runner.invoke(app, ["selftest", "simulator", "--stand-in", "nonsense"])
    assert result.exit_code != 0 and "--stand-in" in result.output


def test_screens_are_recorded_from_a_run_record(tmp_path):
    from claims_records import CustomerAction, JourneyEvent, PanelScreens

    shipped = panel.load_screens()["CTL-M-001"]
    run = tmp_path / "run"
    trial = run / "CTL-M-001" / "trial-1"
    trial.mkdir(parents=True)
    events = [JourneyEvent(step=0, ts="t", note="reset took 3 ms"),
              JourneyEvent(step=0, ts="t", screen=shipped.start, note="initial message",
                           action=CustomerAction(kind="say", text="hello")),
              *[JourneyEvent(step=i, ts="t", screen=s, action=CustomerAction(kind="sign_in"))
                for i, s in enumerate(shipped.screens, start=1)]]
    trial.joinpath("journey.jsonl").write_text("".join(e.model_dump_json() + "\n"
                                                       for e in events))
    run.joinpath("run.json").write_text(json.dumps({
        "run_id": "rec", "created_at": "t", "harness": {"version": "x"},
        "corpus": {"version": "0.2.0", "hash": "h", "path": "packs"},
        "product": {"profile": "reference", "base_urls": [], "runtime": "reference"},
        "customer": {"kind": "scripted"},
        "trials": [{"pack_id": "CTL-M-001", "trial": 1, "status": "completed",
                    "path": "CTL-M-001/trial-1"},
                   {"pack_id": "CTL-M-002", "trial": 1, "status": "stuck",
                    "path": "CTL-M-002/trial-1"}]}))
    result = runner.invoke(app, ["selftest", "record-screens", str(run), "--out",
                                 str(tmp_path / "screens")])
    assert result.exit_code == 0, result.output
    written = PanelScreens.model_validate_json(
        (tmp_path / "screens" / "CTL-M-001.json").read_text())
    assert written.screens == shipped.screens and written.start == shipped.start
    assert "run rec" in written.source
    assert not (tmp_path / "screens" / "CTL-M-002.json").exists()  # not completed
