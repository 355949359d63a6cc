"""The fidelity audit over a run: findings by rule, the suspect trials, and validity."""

from __future__ import annotations

from collections import Counter

from claims_records import FidelitySummary, Sheet, SuspectTrial


def fidelity_summary(sheets: list[Sheet], strict: bool = False) -> FidelitySummary:
    """Findings by rule and the suspect trials; under ``strict`` any finding makes the run
    invalid."""
    by_rule: Counter[str] = Counter()
    suspects: list[SuspectTrial] = []
    audited = 0
    for s in sheets:
        if s.fidelity is None or not s.fidelity.audited:
            continue
        audited += 1
        findings = s.fidelity.findings
        if not findings:
            continue
        by_rule.update(f.rule for f in findings)
        first = findings[0]
        suspects.append(SuspectTrial(
            pack_id=s.pack_id, trial=s.trial, path=s.path,
            rules=sorted({f.rule for f in findings}),
            first=f"{first.rule} at step {first.step}: {first.evidence}"))
    valid = not (strict and suspects)
    if not audited:
        why = "no trial could be audited"
    elif suspects:
        why = (f"{len(suspects)} of {audited} audited trial(s) simulator-suspect, kept out of "
               "the rates: " + ", ".join(f"{k} {v}" for k, v in sorted(by_rule.items())))
    else:
        why = f"no finding in {audited} audited trial(s)"
    if not valid:
        why += "; strict fidelity: the run is not valid"
    return FidelitySummary(strict=strict, valid=valid, audited_trials=audited,
                           not_audited_trials=len(sheets) - audited,
                           suspect_trials=len(suspects),
                           findings_by_rule=dict(sorted(by_rule.items())), suspects=suspects,
                           explanation=why)
