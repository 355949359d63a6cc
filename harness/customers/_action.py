"""The customer model's answer: the JSON schema it is asked for, its parse, and its fit.

An answer is one ``CustomerAction`` and nothing else. The parse tolerates what structured
output and common servers add around it — a ```json fence, a leading ``<think>`` block of a
reasoning model (dropped, never sent), explicit nulls or blanks in fields the kind does not
use — and rejects everything else: prose, extra fields, a second object. Only the action's
own text is ever typed into the product.
"""

from __future__ import annotations

import json
import re
from typing import Any, get_args

from claims_records import CustomerAction, ScreenReading

from ._base import CustomerContext

_FENCE = re.compile(r"^```(?:json)?\s*\n(.*?)\n?```$", re.S)
_THINK = re.compile(r"^\s*<think>.*?</think>\s*", re.S)
# The field each kind needs, and the fields it may carry.
NEEDS: dict[str, str] = {"say": "text", "click": "label", "upload": "file"}
USES: dict[str, tuple[str, ...]] = {
    "say": ("text",), "click": ("label",), "upload": ("file",), "sign_in": (),
    "done": ("text", "reason"),
}
KINDS: tuple[str, ...] = get_args(CustomerAction.model_fields["kind"].annotation)
# Fields the model is never asked for: ``corrects`` names the details a customer said were
# wrong, which the scripted customer records; a model's correction is an ordinary 'say'.
NOT_ASKED: frozenset[str] = frozenset({"corrects"})


def action_schema() -> dict[str, Any]:
    """A strict JSON schema of ``CustomerAction`` (every field present, unused ones null)."""
    props: dict[str, Any] = {}
    for name, info in CustomerAction.model_fields.items():
        if name in NOT_ASKED:
            continue
        if name == "kind":
            props[name] = {"type": "string", "enum": list(KINDS),
                           "description": "What the customer does next."}
        else:
            props[name] = {"type": ["string", "null"], "description": info.description or ""}
    return {"type": "object", "properties": props, "required": list(props),
            "additionalProperties": False}


def strip_wrapping(text: str) -> str:
    """A model answer without what servers add around the JSON: a leading ``<think>`` block
    (dropped, never sent) and a ```json fence."""
    body = _THINK.sub("", text, count=1).strip()
    fenced = _FENCE.match(body)
    return fenced.group(1).strip() if fenced else body


def parse_action(text: str) -> CustomerAction:
    """Parse a model answer into a ``CustomerAction`` (raises ``ValueError``)."""
    body = strip_wrapping(text)
    # strict=False: a raw newline or tab inside a string (small models emit them, and a
    # grammar-constrained server lets them through) is text, not a broken answer
    data = json.loads(body, strict=False)
    if not isinstance(data, dict):
        raise ValueError("the answer is not a JSON object")
    action = CustomerAction.model_validate(data)
    uses = USES[action.kind]
    cleaned = {k: (v if k in uses and (v or "").strip() else None)
               for k, v in action.model_dump(exclude={"kind", *NOT_ASKED}).items()}
    action = CustomerAction.model_validate({"kind": action.kind, **cleaned})
    need = NEEDS.get(action.kind)
    if need and getattr(action, need) is None:
        raise ValueError(f"a '{action.kind}' action needs '{need}'")
    return action


def _label_key(label: str) -> str:
    return " ".join(label.split()).casefold()


def misfit(action: CustomerAction, screen: ScreenReading, ctx: CustomerContext) -> str | None:
    """Why ``action`` cannot be done on this screen by this customer, or None when it can."""
    if action.kind == "upload":
        if not ctx.can_attach:
            return "the screen has no control to attach a file"
        if action.file not in ctx.available_files:
            return f"'{action.file}' is not one of the files you have now"
    if action.kind == "click":
        labels = {_label_key(x) for x in [*screen.chips, *screen.buttons]}
        if _label_key(action.label or "") not in labels:
            return f"there is no button labelled '{action.label}' on the screen"
    if action.kind == "sign_in" and (ctx.signed_in or not screen.sign_in_prompt):
        return "no sign-in window is open"
    return None


def exact_label(action: CustomerAction, screen: ScreenReading) -> CustomerAction:
    """A click with the label exactly as the screen shows it (case and spaces)."""
    if action.kind != "click":
        return action
    for label in [*screen.chips, *screen.buttons]:
        if _label_key(label) == _label_key(action.label or ""):
            return action.model_copy(update={"label": label})
    return action
