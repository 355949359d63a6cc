"""Strict, bounded JSON parsing for every JSON a pack file or a seed call brings in.

Python's ``json`` module accepts ``NaN`` and ``Infinity``, lone surrogates (``"\\ud800"``),
numbers that overflow to infinity (``1e400``) and repeated keys (the last one silently wins),
and it raises ``RecursionError`` on deeply nested input. None of that may reach a store or a
model, and none of it may end in a traceback. ``parse_strict_json`` refuses each of them with
a ``StrictJsonError`` that says where (a JSON path such as ``collections.claims[2].notes``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

from pydantic_core import from_json

# Deepest nesting accepted (objects and arrays). MongoDB allows 100 levels in a document; no
# pack file needs more than a dozen.
MAX_JSON_DEPTH = 64


class StrictJsonError(ValueError):
    """JSON that is malformed or outside the limits; ``path`` says where, when known."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.message = message
        self.path = path


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise StrictJsonError(f"number {text} is too large for a 64-bit float")
    return value


def _no_constants(name: str) -> Any:
    raise StrictJsonError(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise StrictJsonError(f"key {key!r} appears twice in one object")
        out[key] = value
    return out


def child_path(path: str, key: str | int) -> str:
    """``path`` extended by one object key or array index (``a.b``, ``a[3]``)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def iter_nodes(value: Any, path: str = "") -> Iterator[tuple[str, int, Any]]:
    """Every value inside ``value`` as (path, depth, value), without recursion.

    ``value`` itself has depth 0, what it holds depth 1, and so on.
    """
    stack: list[tuple[str, int, Any]] = [(path, 0, value)]
    while stack:
        here, depth, node = stack.pop()
        yield here, depth, node
        if isinstance(node, dict):
            for k in reversed(list(node)):
                stack.append((child_path(here, str(k)), depth + 1, node[k]))
        elif isinstance(node, list):
            for i in range(len(node) - 1, -1, -1):
                stack.append((child_path(here, i), depth + 1, node[i]))


def too_deep(value: Any, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """The path of the first object or array nested deeper than ``max_depth`` levels (its
    first 60 characters), or None. The top-level container is level 1."""
    for path, depth, node in iter_nodes(value):
        if isinstance(node, dict | list) and depth >= max_depth:
            return _abbreviated(path) or "<root>"
    return None


def _abbreviated(path: str, keep: int = 60) -> str:
    """``path`` cut after its last whole segment within ``keep`` characters, marked with …"""
    if len(path) <= keep:
        return path
    cut = max(path.rfind("[", 1, keep), path.rfind(".", 1, keep))
    return path[:cut if cut > 0 else keep] + "…"


def parse_strict_json(data: bytes | str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse ``data`` as strict JSON; raise ``StrictJsonError`` for anything outside it.

    Refused: invalid UTF-8 or JSON, lone surrogates, ``NaN``/``Infinity`` and numbers that
    overflow a float, a key repeated in one object, nesting deeper than ``max_depth``.
    """
    try:
        # jiter (pydantic-core) checks UTF-8, surrogates, NaN and nesting (to ~200 levels)
        # without recursing in Python, so the stdlib parser below never meets a deep input.
        from_json(data, allow_inf_nan=False)
    except ValueError as exc:
        text = str(exc)
        if "recursion limit" in text:
            raise StrictJsonError(f"nested deeper than {max_depth} levels ({text})") from exc
        if "surrogate" in text or "hex escape" in text:
            raise StrictJsonError("a string holds a lone UTF-16 surrogate (\\ud800-\\udfff), "
                                  f"which no store or model can take ({text})") from exc
        _stdlib(data)  # its message is often plainer ("NaN is not a JSON number")
        raise StrictJsonError(f"not valid JSON: {text}") from exc
    value = _stdlib(data)
    deep = too_deep(value, max_depth)
    if deep is not None:
        raise StrictJsonError(f"nested deeper than {max_depth} levels", deep)
    return value


def _stdlib(data: bytes | str) -> Any:
    try:
        return json.loads(data, object_pairs_hook=_unique_keys, parse_float=_finite,
                          parse_constant=_no_constants)
    except StrictJsonError:
        raise
    except (ValueError, RecursionError) as exc:
        raise StrictJsonError(f"not valid JSON: {exc}") from exc
