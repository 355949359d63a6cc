"""The corpus against the reference runtime with the scripted customer, on a sample.

The reference runtime follows the claim rules exactly, so every pack must reach a claim
number and score 100 %: a failure means a pack, its labels, the reference app or the runner
is wrong. The evidence test prints the time and the evidence size of every pack.

The whole corpus (100 packs x 3 trials) takes longer than the CI budget allows; it is run by
hand (docs/reference-app.md, "The reference corpus run") and CI runs a sample: every authored
pack of the scenario table, the first generated pack of each pressure kind the authored ones
do not put on the product, and a generated pack of every scenario kind.

The same run holds a held-out corpus kept in a temporary folder outside the repository (its
own manifest, id prefix HLD and version), as a team would run one beside packs/: the run
record, the summary and the report show each corpus on its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import claims_corpus
from claims_records import RunConfig, RunRecord, RunSummary

from .conftest import make_held_out
from .records import first_trial

# One run of 32 trials: about 7 min of worker time on a quiet two-core machine, far longer on a
# busy one; a generous bound instead of the suite's 600 s per test.
pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(2400)]

PACKS = Path(__file__).resolve().parents[1] / "packs"
ALL_PACK_IDS = [p.name for p in claims_corpus.list_packs(PACKS)]


def _sample() -> list[str]:
    from claims_corpus.authoring import load_table

    rows = load_table().pack
    chosen = [r.id for r in rows if r.hand_written]
    covered = {k for r in rows if r.hand_written for k in r.pressure}
    for r in rows:
        if set(r.pressure) - covered:
            chosen.append(r.id)
            covered |= set(r.pressure)
    # one generated pack of every scenario kind, without pressure where none is picked yet
    kinds = {r.kind for r in rows if r.id in chosen and not r.hand_written}
    for r in rows:
        if not r.hand_written and not r.pressure and r.kind not in kinds:
            chosen.append(r.id)
            kinds.add(r.kind)
    return sorted(chosen)


PACK_IDS = _sample()
EVIDENCE = ("journey.jsonl", "transcript.md", "network.har", "state-before.json",
            "state-after.json", "staff.json", "trial.json", "sheet.json")


HELD_OUT = {"CTL-H-004": "HLD-H-001"}


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run every pack once (one lane, reference runtime, scripted customer), with a held-out
    corpus beside packs/, and score it."""
    import claims_dev
    import harness
    import scoring

    env = claims_dev.start_dev(lanes=1, app=True, runtime="reference",
                         baseline_path=PACKS / "baseline.json",
                         log_dir=tmp_path_factory.mktemp("dev-logs"))
    try:
        profile = harness.load_profile("reference").with_lanes([
            harness.Lane(name=lane.name, base_url=lane.base_url, seed_url=lane.seed_url,
                         database=lane.database) for lane in env.lanes])
        held_out = make_held_out(tmp_path_factory.mktemp("private") / "held-out", HELD_OUT)
        config = RunConfig(corpora=[str(PACKS), str(held_out)], customer="scripted",
                           packs=PACK_IDS + list(HELD_OUT.values()))
        _, run_dir = harness.run(config, harness.RunContext(
            profile=profile, runs_dir=tmp_path_factory.mktemp("runs"),
            run_id="reference-corpus", seed_token=env.seed_token))
    finally:
        env.close()
    scoring.score_run(run_dir)  # each corpus from the folder run.json recorded for it
    scoring.write_report(run_dir)
    return run_dir


def test_the_sample_covers_every_pressure_kind_and_scenario_kind() -> None:
    from claims_corpus.formats import PRESSURE_KINDS

    manifest = claims_corpus.load_manifest(PACKS)
    assert sorted(manifest.packs) == ALL_PACK_IDS and set(PACK_IDS) <= set(ALL_PACK_IDS)
    assert {k for p in PACK_IDS for k in manifest.packs[p].pressure} == set(PRESSURE_KINDS)
    assert len({manifest.packs[p].scenario_kind for p in PACK_IDS}) == 10
    assert 18 <= len(PACK_IDS) <= 35


def test_the_run_reports_the_public_and_the_held_out_corpus_apart(reference_run: Path) -> None:
    record = RunRecord.model_validate_json((reference_run / "run.json").read_text("utf-8"))
    assert [c.id_prefix for c in record.corpora] == ["CTL", "HLD"]
    assert record.corpus.id_prefix == "CTL" and record.corpora[1].version == "1.0.0"
    summary = RunSummary.model_validate_json((reference_run / "summary.json").read_text())
    by = {c.id_prefix: c for c in summary.corpora}
    assert (by["CTL"].packs, by["HLD"].packs) == (len(PACK_IDS), len(HELD_OUT))
    assert by["HLD"].successes == by["HLD"].scorable_trials == 1
    assert by["CTL"].successes == by["CTL"].scorable_trials == len(PACK_IDS)
    _, result, sheet = first_trial(reference_run, "HLD-H-001")
    assert result.stop_reason == "claim_number" and sheet.success is True, sheet.explanation
    assert sheet.corpus == "HLD"
    index = (reference_run / "report" / "index.html").read_text(encoding="utf-8")
    assert 'data-testid="corpus-table"' in index
    assert "held-out set HLD" in index and "1.0.0" in index


def test_every_pack_leaves_complete_evidence(reference_run: Path) -> None:
    rows = []
    for pack_id in PACK_IDS:
        trial, result, sheet = first_trial(reference_run, pack_id)
        assert result.status == "completed", f"{pack_id}: {result.detail}"
        for name in EVIDENCE:
            assert (trial / name).is_file(), f"{pack_id}: {name} missing"
        assert any((trial / "screens").glob("*.png")), f"{pack_id}: no screenshots"
        size = sum(p.stat().st_size for p in trial.rglob("*") if p.is_file())
        rows.append(f"{pack_id}  {result.duration_s:6.1f} s  {size / 1024:7.0f} KiB  "
                    f"{result.customer_messages:2d} messages  {result.stop_reason}")
    print("\npack        time      evidence\n" + "\n".join(rows))


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_pack_reaches_a_claim_number_and_scores_100_percent(reference_run: Path,
                                                            pack_id: str) -> None:
    _, result, sheet = first_trial(reference_run, pack_id)
    assert result.stop_reason == "claim_number" and result.claim_number, (
        f"no claim number ({result.stop_reason}: {result.detail})")
    failed = [c.name for c in sheet.components if c.status == "fail"]
    assert sheet.success is True and not failed, f"{sheet.explanation}; failed: {failed}"


def test_the_reference_runtime_meets_every_acceptance_criterion(reference_run: Path) -> None:
    import scoring

    summary = scoring.load_summary(reference_run)
    assert summary.faults == []
    acceptance = summary.acceptance
    assert acceptance is not None and acceptance.source.endswith("acceptance.toml")
    failing = [f"{c.name}: {c.status} ({c.explanation})" for c in acceptance.criteria
               if c.status != "met"]
    assert acceptance.met and not failing, failing
    assert scoring.acceptance_gate(acceptance).passed


def test_no_trial_shows_the_other_customer(reference_run: Path) -> None:
    for pack_id in PACK_IDS:
        _, _, sheet = first_trial(reference_run, pack_id)
        privacy = next(c for c in sheet.components if c.name == "privacy")
        assert privacy.status == "pass" and privacy.details["responses"] > 0, privacy


def test_the_scripted_customer_keeps_every_fidelity_rule_across_the_corpus(
        reference_run: Path) -> None:
    """The fidelity audit finds nothing in any message or action of the scripted customer."""
    audited = 0
    for pack_id in PACK_IDS:
        _, _, sheet = first_trial(reference_run, pack_id)
        assert sheet.fidelity is not None and sheet.fidelity.audited, pack_id
        assert sheet.fidelity.findings == [], (pack_id, sheet.fidelity.findings)
        assert not sheet.simulator_suspect
        audited += sheet.fidelity.messages + sheet.fidelity.actions
    assert audited >= 8 * len(PACK_IDS)  # the audit looked at every step


def test_every_staff_decision_passes_and_reaches_the_customer(reference_run: Path) -> None:
    """Each pack with a staff script: staff decided through the workbench, the customer's own
    session came back and saw it, and routing, target, state, note, follow-through and audit
    all pass; the four decisions are all covered."""
    from claims_records import DecisionRecord

    seen: dict[str, str | None] = {}
    for pack_id in PACK_IDS:
        script = claims_corpus.load_setup(PACKS / pack_id).staff_script
        if script is None:
            continue
        trial, _, sheet = first_trial(reference_run, pack_id)
        grader = sheet.grader
        assert grader is not None and not grader.failure_modes, (pack_id, grader)
        for aspect in ("routing", "target", "state", "note", "follow_through", "audit"):
            assert getattr(grader, aspect).status == "pass", (pack_id, aspect, grader)
        rec = DecisionRecord.model_validate_json((trial / "decision.json").read_text("utf-8"))
        assert rec.outcome == "performed" and rec.customer is not None
        assert len(rec.staff_screenshots) == 3 and rec.customer.screenshots
        assert all((trial / s).is_file() for s in rec.staff_screenshots
                   + rec.customer.screenshots)
        assert (trial / "decision-journey.jsonl").is_file()
        seen[script.decision] = rec.customer.status
    assert seen == {"approve": "approved", "amend_amount": "amended", "decline": "declined",
                    "return_for_info": "under_review"}
