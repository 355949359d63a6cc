"""Turn BSON values into JSON-safe values, the same way for stored and expected documents."""

from __future__ import annotations

import base64
import datetime as _dt
import uuid
from collections.abc import Mapping
from typing import Any

from bson import Binary, Decimal128, ObjectId, Regex, Timestamp


def json_safe(value: Any) -> Any:
    """A JSON-safe copy of ``value``.

    ObjectId -> 24-hex string; datetime -> ISO 8601 UTC with milliseconds and ``Z`` (BSON dates
    hold milliseconds); bytes -> base64; Decimal128, UUID, Timestamp, Regex -> strings. Mappings
    and sequences are copied recursively; JSON scalars are kept as they are.
    """
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if isinstance(value, ObjectId):
        return str(value)
    if isinstance(value, _dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(_dt.UTC).replace(tzinfo=None)
        return value.isoformat(timespec="milliseconds") + "Z"
    if isinstance(value, _dt.date):
        return value.isoformat()
    if isinstance(value, Binary | bytes | bytearray):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, Decimal128 | uuid.UUID):
        return str(value)
    if isinstance(value, Timestamp):
        return f"{value.time}:{value.inc}"
    if isinstance(value, Regex):
        return value.pattern
    return str(value)


def id_key(value: Any) -> str:
    """The string a document id is keyed by in dumps, diffs and overrides."""
    safe = json_safe(value)
    return safe if isinstance(safe, str) else _stable_str(safe)


def _stable_str(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
