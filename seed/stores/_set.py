"""The stores of one reset, taken together: guard and plan all of them before any is touched.

``prepare`` runs every store's guard, maps the canonical setup into the product's terms and
plans every store; nothing has been written when it returns, so a product's own clearing step
(its endpoint, its command) runs after it and a refusal always comes first. ``apply`` then
empties and loads each store and verifies what it wrote. ``dump`` reads the state back in
canonical terms.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from claims_records import SeedError, StateDump

from .._names import REASON_VERIFY_FAILED
from .._plan import PlannedObject
from ._base import DocumentStore, ObjectStore, Store, plain_documents
from .mapping import Assigned, Mapping, canonical_collections, to_product


@dataclass
class Prepared:
    """Every store's plan, made and checked; nothing written yet."""

    plans: list[tuple[Store, Any]]
    assigned: Assigned = field(default_factory=dict)


class StoreSet:
    """A documents store and an objects store (either may be absent), and the mapping
    between the canonical schema and the product's (None: the stores speak it)."""

    def __init__(self, documents: DocumentStore | None, objects: ObjectStore | None = None,
                 mapping: Mapping | None = None, ignore: Iterable[str] = ()) -> None:
        self.documents = documents
        self.objects = objects
        self.mapping = mapping
        self.ignore = tuple(ignore)
        self._assigned: Assigned = {}

    @property
    def stores(self) -> list[Store]:
        return [s for s in (self.documents, self.objects) if s is not None]

    @property
    def database(self) -> str:
        return self.documents.name if self.documents is not None else ""

    def location(self) -> str:
        """Where the stores are, when their names do not say it ('' when they do)."""
        return "; ".join(loc for s in self.stores if (loc := s.location()))

    def guard(self) -> None:
        """Every store's guard (``StoreRefusal`` from the first that refuses)."""
        for store in self.stores:
            store.guard()

    def prepare(self, collections: dict[str, list[dict[str, Any]]],
                objects: list[PlannedObject]) -> Prepared:
        """Guard every store, then plan every store (reads only)."""
        self.guard()
        return self.plan(collections, objects)

    def plan(self, collections: dict[str, list[dict[str, Any]]],
             objects: list[PlannedObject]) -> Prepared:
        """Plan every store (reads only), its guards already run."""
        documents = (to_product(collections, self.mapping) if self.mapping is not None
                     else plain_documents(collections))
        plans = [(store, store.plan(documents, objects)) for store in self.stores]
        assigned = {k: v for store, plan in plans for k, v in store.assigned(plan).items()}
        return Prepared(plans, assigned)

    def apply(self, prepared: Prepared) -> None:
        """Empty and load every store, then verify; ``SeedError`` naming the differences."""
        for store, plan in prepared.plans:
            store.replace(plan)
        self._assigned = dict(prepared.assigned)
        problems = self.verify(prepared)
        if problems:
            raise SeedError(f"the stores do not hold what the reset wrote: "
                            f"{'; '.join(problems[:5])}", database=self.database,
                            reason=REASON_VERIFY_FAILED)

    def verify(self, prepared: Prepared) -> list[str]:
        """Differences between the stores and the plans (empty: they hold what was meant)."""
        return [p for store, plan in prepared.plans for p in store.verify(plan)]

    def dump(self) -> StateDump:
        """The state in canonical terms (ignored collections left out)."""
        collections = self.documents.dump() if self.documents is not None else {}
        if self.mapping is not None and self.documents is not None:
            keys = {name: self.documents.key_field(name) for name in collections}
            collections = canonical_collections(collections, self.mapping, key_fields=keys,
                                                assigned=self._assigned, ignore=self.ignore)
        else:
            collections = {n: d for n, d in collections.items() if n not in self.ignore}
        return StateDump(
            taken_at=_dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            database=self.database, bucket=self.objects.name if self.objects else "",
            collections=collections, objects=self.objects.dump() if self.objects else {})

    def close(self) -> None:
        for store in self.stores:
            store.close()
