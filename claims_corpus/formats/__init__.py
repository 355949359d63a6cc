"""The pack formats, as strict pydantic models (run records and the rest: ``claims_records``).

``SCHEMAS`` maps each pack JSON Schema file in ``packs/schema/`` to its model; the schemas are
generated from these models (``claims-harness corpus schema``) and a test keeps them in sync.
"""

from __future__ import annotations

from pydantic import BaseModel

from .decision import (
    DecisionLabel,
    StaffScript,
)
from .end_state import (
    ExpectedDocument,
    ExpectedEndState,
)
from .labels import (
    PRESSURE_KINDS,
    Assertion,
    JudgeKind,
    Labels,
)
from .manifest import (
    ChangelogEntry,
    Manifest,
    ManifestPack,
    StoryFact,
)
from .money import (
    DEFAULT_LOCALE,
    HOME_CONVENTIONS,
    MoneyConventions,
)
from .pack import (
    ID_PREFIX_PATTERN,
    PACK_ID_PATTERN,
    ClaimantSession,
    MessageStyle,
    id_prefix_of,
    pack_id_pattern,
)
from .pack_input import (
    PACK_FORMAT_VERSION,
    Ask,
    Fact,
    Facts,
    HandOver,
    Material,
    Materials,
    Persona,
)
from .review import (
    Provenance,
    Review,
)
from .scene import (
    PhotoRecipe,
    Scene,
)
from .setup import (
    Baseline,
    Credentials,
    OtherCustomer,
    Setup,
)
from .values import (
    HOME_CURRENCY,
    Arrival,
    FactValue,
    LaterFact,
    Money,
    TimeWindow,
)

SCHEMAS: dict[str, type[BaseModel]] = {
    "persona.schema.json": Persona,
    "facts.schema.json": Facts,
    "materials.schema.json": Materials,
    "labels.schema.json": Labels,
    "setup.schema.json": Setup,
    "baseline.schema.json": Baseline,
    "provenance.schema.json": Provenance,
    "photo-recipe.schema.json": PhotoRecipe,
    "review.schema.json": Review,
    "manifest.schema.json": Manifest,
}

__all__ = [
    "DecisionLabel",
    "StaffScript",
    "OtherCustomer",
    "DEFAULT_LOCALE",
    "HOME_CONVENTIONS",
    "HOME_CURRENCY",
    "ID_PREFIX_PATTERN",
    "PACK_FORMAT_VERSION",
    "PACK_ID_PATTERN",
    "PRESSURE_KINDS",
    "SCHEMAS",
    "Arrival",
    "Assertion",
    "Baseline",
    "ChangelogEntry",
    "ClaimantSession",
    "Credentials",
    "ExpectedDocument",
    "ExpectedEndState",
    "Fact",
    "FactValue",
    "Facts",
    "Ask",
    "HandOver",
    "JudgeKind",
    "Labels",
    "LaterFact",
    "Manifest",
    "ManifestPack",
    "Material",
    "Materials",
    "MessageStyle",
    "Money",
    "MoneyConventions",
    "Persona",
    "PhotoRecipe",
    "Provenance",
    "Review",
    "Scene",
    "Setup",
    "StoryFact",
    "TimeWindow",
    "id_prefix_of",
    "pack_id_pattern",
]
