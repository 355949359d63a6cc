"""The type of arbitrary JSON data (a value whose shape no format fixes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

JsonValue: TypeAlias = (
    dict[str, "JsonValue"] | list["JsonValue"] | str | int | float | bool | None
)

# A record field whose value is arbitrary JSON (a document of the product's store, a request
# body, evidence details). The type checker sees JsonValue; pydantic validates the field as any
# value, as it always has, so the committed JSON schemas stay ``{}`` / ``"additionalProperties":
# true`` and reading a record costs no walk of every nested value.
if TYPE_CHECKING:
    JsonField: TypeAlias = JsonValue
else:
    JsonField = Any
