"""One trial of a pack: reset the product, play the journey in a fresh browser context, read
the staff side, take the pack's staff decision, and write the evidence.

A lane hands each trial a ``TrialRig`` (browser, profile, lane, reset, customer factory, staff
session, settings); ``run_trial`` turns it into the ``TrialContext`` its phases share:
``_after`` (the journey, then the staff side beside closing and redacting the customer's
context), ``_decision`` (the staff decision and the customer's return), ``_agent_decision``
(what the product's own agent told the customer it decided, read from the journey's agent
messages), with the journey loop in ``_journey``, its record in ``_record`` and the customer's
pace (``--pace``) in ``_pace``.
"""

from ._context import TRACING_MODES, CustomerFactory, TrialContext, TrialRig, TrialSettings
from ._conversation import earlier_messages, start_new_conversation
from ._decision import DECISION_FILE
from ._pace import Pace, make_pace
from ._run import run_trial
from ._transcript import SELF_TEST_LABEL

__all__ = [
    "DECISION_FILE",
    "SELF_TEST_LABEL",
    "TRACING_MODES",
    "CustomerFactory",
    "Pace",
    "TrialContext",
    "TrialRig",
    "TrialSettings",
    "earlier_messages",
    "make_pace",
    "run_trial",
    "start_new_conversation",
]
