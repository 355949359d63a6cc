"""The whole corpus against Kestrel Claims, the second example product, with the scripted
customer — a product built unlike the reference app, driven only through its profile
(harness/profiles/kestrel.toml): no test ids, no idle attribute, its own reset endpoint,
workbench, words and schema, no customer accounts.

Every pack Kestrel can take reaches a claim number in Kestrel's own format and scores as on
the reference app; packs that need customer accounts are not_implemented trials that never
open a browser; no trial is a product or harness error. Kestrel implements the claim rules of
pack format v0.2, so the packs that need a v0.3 addition are not run here
(``tests/claims_example_app/conftest.py``, ``kestrel_packs``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import claims_corpus
from claims_corpus.formats import Setup
from claims_records import RunConfig, RunRecord

from .claims_example_app.conftest import kestrel_packs
from .records import first_trial

pytestmark = [pytest.mark.slow, pytest.mark.browser]

PACKS = Path(__file__).resolve().parents[1] / "packs"


def _authored() -> set[str]:
    from claims_corpus.authoring import load_table

    return {r.id for r in load_table().pack if r.hand_written}


# The authored packs within what Kestrel implements (the in-process tests in
# tests/claims_example_app drive every such pack, generated ones included, without a browser).
AUTHORED = _authored()
PACK_IDS = [p.name for p in kestrel_packs() if p.name in AUTHORED]
ACCOUNT_PACKS = [p for p in PACK_IDS if claims_corpus.load_setup(PACKS / p).claimant_session
                 == "account"]
# What Kestrel exposes, scored as on the reference app.
SCORED = ("triage", "review", "facts", "journey", "waiting_list", "state", "assertions_state",
          "assertions_text")


@pytest.fixture(scope="module")
def kestrel_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import harness
    import scoring

    profile = harness.load_profile("kestrel")
    with harness.dev_product(profile, 1, PACKS) as (pointed, _env):
        config = RunConfig(corpora=[str(PACKS)], customer="scripted", packs=PACK_IDS)
        _, run_dir = harness.run(config, harness.RunContext(
            profile=pointed, runs_dir=tmp_path_factory.mktemp("runs"),
            run_id="kestrel-corpus"))
    scoring.score_run(run_dir, PACKS)
    return run_dir


def test_the_run_records_how_kestrel_was_driven(kestrel_run: Path) -> None:
    run = RunRecord.model_validate_json((kestrel_run / "run.json").read_text("utf-8"))
    assert run.product.profile == "kestrel" and run.product.runtime == "rules"
    assert run.product.reset_adapter == "endpoint" and run.product.state_source == "stores"
    assert run.product.runtime_report == {"build": run.product.runtime_report["build"]}
    assert "internal" not in (kestrel_run / "run.json").read_text("utf-8")
    assert run.product.capabilities["customer_accounts"] is False
    assert run.labels == []
    statuses = {t.status.value for t in run.trials}
    assert statuses <= {"completed", "not_implemented"}, statuses
    assert ACCOUNT_PACKS and len(ACCOUNT_PACKS) < len(PACK_IDS)


@pytest.mark.parametrize("pack_id", PACK_IDS)
def test_each_pack_scores_as_on_the_reference_app(kestrel_run: Path, pack_id: str) -> None:
    _, result, sheet = first_trial(kestrel_run, pack_id)
    if pack_id in ACCOUNT_PACKS:
        assert result.status == "not_implemented" and result.duration_s < 5
        assert result.steps == 0 and not result.claim_number  # no browser, no sign-in wait
        assert {c.status for c in sheet.components} == {"not_implemented"}
        assert sheet.success is None and sheet.error_category == "not_implemented"
        return
    assert result.status == "completed" and result.stop_reason == "claim_number", result.detail
    assert re.fullmatch(r"CLM-\d{2}-[2-9A-HJKMNP-TV-Z]{6}", result.claim_number or "")
    status = {c.name: c.status for c in sheet.components}
    failed = {name: s for name, s in status.items() if s == "fail"}
    labels = claims_corpus.load_labels(PACKS / pack_id)
    if labels.review.customer_explanations:
        # Kestrel never asks about a document its checks hit on: the customer's explanation
        # cannot reach staff, and that is all that fails
        explanation = next(c for c in sheet.components if c.name == "explanation")
        assert failed == {"explanation": "fail"}, sheet.explanation
        assert explanation.failure_modes == ["explanation_not_passed_on"]
        assert "never came up" in explanation.explanation
        return
    assert not failed and sheet.success is True, sheet.explanation
    for name in SCORED:
        assert status.get(name) == "pass", (name, status)
    setup = Setup.model_validate_json((PACKS / pack_id / "setup.json").read_text("utf-8"))
    assert setup.claimant_session != "account"
