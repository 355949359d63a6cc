"""The body of a product's own reset endpoint, filled from its template."""

from __future__ import annotations

import json
import re
from typing import Any

from claims_records import ProfileError

_PLACEHOLDER = re.compile(r"\{\{([a-z_]+)\}\}")


def fill_template(template: Any, values: dict[str, Any]) -> Any:
    """Replace ``{{name}}`` placeholders: a whole-string placeholder by the JSON value, one
    inside a longer string by its text."""
    if isinstance(template, dict):
        return {k: fill_template(v, values) for k, v in template.items()}
    if isinstance(template, list):
        return [fill_template(v, values) for v in template]
    if isinstance(template, str):
        whole = _PLACEHOLDER.fullmatch(template)
        if whole:
            return values[_known(whole[1], values)]

        def text(m: re.Match[str]) -> str:
            value = values[_known(m[1], values)]
            return value if isinstance(value, str) else json.dumps(value)

        return _PLACEHOLDER.sub(text, template)
    return template


def _known(name: str, values: dict[str, Any]) -> str:
    if name not in values:
        raise ProfileError(f"unknown placeholder {{{{{name}}}}} in the reset body",
                           field="reset.endpoint.body", known=sorted(values))
    return name
