"""The fidelity audit of the simulated customer: mechanical, after the fact, by rule.

Every customer message and action of every trial — scripted or LLM — is checked against the
behaviour rules a simulated customer must keep (``claims_records.FIDELITY_RULES``): nothing
invented, nothing volunteered, no file nobody asked for, no steering of the agent, never
out of character, no giving up while the screen still asked something it could answer.
A trial with a finding is ``simulator_suspect``: shown, and kept out of the agent's rates.
``docs/scoring.md`` states each rule; ``rules.toml`` holds the word lists.
"""

from ._audit import audit_trial, describe, not_audited
from ._summary import fidelity_summary
from ._values import Value, extract

__all__ = ["Value", "audit_trial", "describe", "extract", "fidelity_summary", "not_audited"]
