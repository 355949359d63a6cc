"""Rules for the values a seed plan writes to MongoDB: field names, numbers, strings, depth.

Everything BSON or the minio client would refuse half-way through a reset is refused here,
before a store is touched, with the path of the offending value.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from .._strict_json import iter_nodes

# Deepest nesting of objects and arrays inside one document (MongoDB allows 100 levels in all).
MAX_DOCUMENT_DEPTH = 50
_INT64 = (-(2**63), 2**63 - 1)


def string_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored as UTF-8 (a lone surrogate), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (f"holds a lone UTF-16 surrogate ({text[exc.start]!r} at {exc.start}), which is "
                "not valid UTF-8")
    return None


def field_name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a stored field name, or None."""
    if not isinstance(name, str) or not name:
        return "field names must be non-empty strings"
    if name.startswith("$") or "." in name or "\x00" in name:
        return f"field name {name!r} may not start with '$' or contain '.' or NUL"
    return string_problem(name)


def _scalar_problem(value: Any) -> str | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        if not _INT64[0] <= value <= _INT64[1]:
            return "integer does not fit in 64 bits"
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value} is not a finite number"
    if isinstance(value, str):
        return string_problem(value)
    return f"a {type(value).__name__} is not a JSON value"


def value_problems(value: Any, where: str, *, max_depth: int = MAX_DOCUMENT_DEPTH
                   ) -> Iterator[tuple[str, str]]:
    """(path, message) for every value inside ``value`` that cannot be stored as given."""
    for path, depth, node in iter_nodes(value, where):
        if isinstance(node, dict):
            if depth >= max_depth:
                yield path, f"nested deeper than {max_depth} levels"
                return
            for key in node:
                problem = field_name_problem(key)
                if problem:
                    yield (f"{path}.{key}" if isinstance(key, str) else path), problem
        elif isinstance(node, list):
            if depth >= max_depth:
                yield path, f"nested deeper than {max_depth} levels"
                return
        else:
            problem = _scalar_problem(node)
            if problem:
                yield path, problem
