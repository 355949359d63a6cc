"""Product profiles (TOML): one place that knows each product concept.

``_model`` (the profile, lanes, loading), ``_capabilities`` (what a product has),
``_completion`` (when a reply is finished), ``_selectors`` (any Playwright selector, with
alternatives), ``_customer`` (customer regions, words, uploads; the customer side in one
piece), ``_staff`` (staff access, regions, vocabulary; the staff side in one piece),
``_staff_stores`` (where a product without a staff screen keeps the staff-side fields),
``_decision`` (staff decision controls), ``_reset`` (reset adapters, state source, schema
mapping), ``_runtime`` (the runtime report, or the runtime declared), ``_dev`` (starting the
product for a dev environment), ``_conversation`` (one conversation per session or per
process, and the step starting a new one), ``_agent_decision`` (the words the product's own
agent uses for a decision it tells the customer).
"""

from seed.stores import CollectionMap

from ._agent_decision import HEDGE_WORDS, AgentDecisionWords
from ._capabilities import Capabilities
from ._completion import Completion
from ._conversation import RESTART_PLACEHOLDERS, Conversation, NewConversation
from ._customer import READ_REGIONS, CustomerScreen, CustomerSide, SignIn
from ._decision import DecisionControls
from ._dev import PLACEHOLDERS, SECRET_PLACEHOLDERS, DevStart
from ._format import PROFILE_FORMAT_VERSION
from ._model import PROFILES_DIR, Lane, Profile, load_profile, url
from ._reset import (
    BODY_PLACEHOLDERS,
    COMMAND_PLACEHOLDERS,
    CommandReset,
    EndpointReset,
    ResetSettings,
    SeedRoute,
    StateSettings,
    Stores,
)
from ._runtime import RuntimeCheck
from ._selectors import Selector
from ._staff import CANONICAL, FACT_KEY, StaffAccess, StaffScreen, StaffSide, Vocabulary
from ._staff_stores import StaffStores

__all__ = [
    "BODY_PLACEHOLDERS",
    "CANONICAL",
    "FACT_KEY",
    "COMMAND_PLACEHOLDERS",
    "HEDGE_WORDS",
    "PLACEHOLDERS",
    "PROFILES_DIR",
    "PROFILE_FORMAT_VERSION",
    "READ_REGIONS",
    "RESTART_PLACEHOLDERS",
    "SECRET_PLACEHOLDERS",
    "AgentDecisionWords",
    "Capabilities",
    "CollectionMap",
    "CommandReset",
    "Completion",
    "Conversation",
    "CustomerScreen",
    "CustomerSide",
    "DecisionControls",
    "DevStart",
    "EndpointReset",
    "Lane",
    "NewConversation",
    "Profile",
    "ResetSettings",
    "RuntimeCheck",
    "SeedRoute",
    "Selector",
    "SignIn",
    "StaffAccess",
    "StaffScreen",
    "StaffSide",
    "StaffStores",
    "StateSettings",
    "Stores",
    "Vocabulary",
    "load_profile",
    "url",
]
