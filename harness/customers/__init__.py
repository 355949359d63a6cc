"""Simulated customers behind one interface: ``await customer.next_action(screen, ctx)``."""

from __future__ import annotations

from pathlib import Path

from claims_corpus import CustomerView
from claims_corpus.formats import HOME_CONVENTIONS, MoneyConventions

from ._action import action_schema, parse_action
from ._base import Customer, CustomerContext, material_availability
from ._endpoint import ENV_PREFIX, SDK_ENV, EndpointError, LlmSettings
from ._grounded import Choice, GroundedCustomer, choice_schema, chosen, permitted
from ._llm import LlmCustomer
from ._match import Synonyms
from ._probe import probe as probe_dialect
from ._replay import RecordedTrial, Recording, prompt_key
from ._scripted import ScriptedCustomer
from ._tracker import JourneyTracker


def make_customer(
    kind: str, view: CustomerView, pack_dir: Path, llm: LlmSettings | None = None,
    confirm_labels: list[str] | None = None, money: MoneyConventions = HOME_CONVENTIONS,
    replay: RecordedTrial | None = None,
) -> Customer:
    """A customer of ``kind`` ('scripted' or 'llm') for one trial of the pack at ``pack_dir``;
    an llm customer in the mode its settings name (free, or grounded: ``GroundedCustomer``).

    ``confirm_labels`` are the product's own words for its confirm / submit controls (from
    the profile), which the scripted customer treats like a confirm control; ``money`` is how
    the product shows amounts, by which the scripted customer reads a summary's amounts.
    ``replay``, the same trial of a recorded run (``Recording.trial``), makes the llm
    customer answer from that recording instead of an endpoint.
    """
    if replay is not None and kind != "llm":
        from claims_records import SimulatorError

        raise SimulatorError("only the llm customer can be replayed", field="customer")
    if kind == "scripted":
        return ScriptedCustomer(view, confirm_labels=confirm_labels, money=money)
    if kind == "llm":
        import claims_corpus

        if llm is None:
            llm = LlmSettings.from_options()
        if llm.mode == "grounded":
            return GroundedCustomer(
                view, llm, guard=claims_corpus.LeakGuard.for_runtime(pack_dir),
                build_messages=claims_corpus.build_grounded_messages,
                build_repair=claims_corpus.build_repair_messages, replay=replay,
                confirm_labels=confirm_labels, money=money)
        return LlmCustomer(
            view,
            llm,
            guard=claims_corpus.LeakGuard.for_runtime(pack_dir),
            build_messages=claims_corpus.build_customer_messages,
            build_repair=claims_corpus.build_repair_messages,
            replay=replay,
        )
    from claims_records import SimulatorError

    raise SimulatorError(
        f"unknown customer kind {kind!r}; use 'scripted' or 'llm'", field="customer"
    )


__all__ = [
    "ENV_PREFIX",
    "SDK_ENV",
    "Choice",
    "Customer",
    "CustomerContext",
    "EndpointError",
    "GroundedCustomer",
    "JourneyTracker",
    "LlmCustomer",
    "LlmSettings",
    "RecordedTrial",
    "Recording",
    "ScriptedCustomer",
    "Synonyms",
    "action_schema",
    "choice_schema",
    "chosen",
    "make_customer",
    "material_availability",
    "parse_action",
    "permitted",
    "probe_dialect",
    "prompt_key",
]
