"""The type of arbitrary JSON data (a value whose shape no format fixes)."""

from __future__ import annotations

from typing import TypeAlias

JsonValue: TypeAlias = (
    dict[str, "JsonValue"] | list["JsonValue"] | str | int | float | bool | None
)
