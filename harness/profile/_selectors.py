"""Selectors in a profile: any Playwright selector, or a list of alternatives.

A region's selector may be one string or a list; the first alternative that matches on the
page is used. An empty string or list means the product has no such region. Plain CSS is read
inside the page in one call; other Playwright selectors (``role=``, ``text=``, ``>>``,
``:has-text()``, ``xpath=``) are resolved by Playwright first (see ``harness/browser/_screen.py``).
"""

from __future__ import annotations

import typing
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator
from pydantic.fields import FieldInfo


def _to_alternatives(value: Any) -> Any:
    if value is None:
        return []
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [v for v in value if not (isinstance(v, str) and not v.strip())]
    return value


Selector = Annotated[list[str], BeforeValidator(_to_alternatives)]
"""One Playwright selector or a list of alternatives (first that matches wins)."""


def _is_selector(info: FieldInfo) -> bool:
    """Whether a field is a ``Selector`` (or ``Selector | None``)."""
    metadata = list(info.metadata)
    for t in typing.get_args(info.annotation):
        metadata += getattr(t, "__metadata__", ())
    return any(isinstance(m, BeforeValidator) and m.func is _to_alternatives for m in metadata)


def selector_fields(model: BaseModel, prefix: str = "") -> list[tuple[str, str]]:
    """Every selector of ``model`` (a profile or a part of one), with the key it is under
    (``customer_screen.cards[1]`` for the second alternative), in the model's order."""
    out: list[tuple[str, str]] = []
    for name, info in type(model).model_fields.items():
        value, key = getattr(model, name), f"{prefix}{name}"
        if _is_selector(info) and isinstance(value, list):
            out += [(key if len(value) == 1 else f"{key}[{i}]", s)
                    for i, s in enumerate(value) if isinstance(s, str)]
        elif isinstance(value, BaseModel):
            out += selector_fields(value, f"{key}.")
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(v, BaseModel):
                    out += selector_fields(v, f"{key}.{k}.")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                if isinstance(v, BaseModel):
                    out += selector_fields(v, f"{key}[{i}].")
    return out
