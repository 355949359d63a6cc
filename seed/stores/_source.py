"""What a profile and one lane say of one store, for its kind to open it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from claims_records import ProfileError, StoreRefusal

from ._base import NamePolicy, StoreOptions
from .mapping import CollectionMap, Mapping, product_tables, translate


@dataclass(frozen=True)
class StoreSource:
    """What a profile and one lane say of one store."""

    kind: str
    env: str  # the environment variable holding its URL, URI or folder (never shown)
    database: str | None = None  # the lane's database, for a documents store
    bucket: str | None = None  # the lane's bucket (a bucket, or a sub-folder of uploads)
    names: NamePolicy = field(default_factory=lambda: NamePolicy(r"(?!)"))
    mapping: Mapping = field(default_factory=dict)
    listed: tuple[str, ...] = ()  # the product's own collections a reset empties too
    options: dict[str, Any] = field(default_factory=dict)
    setting: str = "stores"  # the profile key naming this store, in errors

    def value(self) -> str:
        """The environment variable's value; ``StoreRefusal`` when it is unset or empty."""
        value = os.environ.get(self.env, "")
        if not value:
            raise StoreRefusal(f"no {self.kind} store is configured: set the environment "
                               f"variable {self.env}", field=self.env, setting=self.setting)
        return value

    def scope(self) -> tuple[str, ...]:
        """The collections a reset empties besides those it writes: mapped and listed."""
        return tuple(sorted({*product_tables(self.mapping), *self.listed}))

    def parsed_options(self, model: type[StoreOptions]) -> Any:
        try:
            return model.model_validate(self.options)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise ProfileError(f"{self.kind} store option {where}: {err['msg']}",
                               field=f"{self.setting}.options.{where}") from exc


def id_column(cmap: CollectionMap) -> str:
    """The product column holding a collection's canonical id ('' when it is the key)."""
    column = translate("_id", cmap.fields)
    return "" if column == "_id" else column
