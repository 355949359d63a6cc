"""Structured-output dialects: the request fields each kind of OpenAI-compatible server takes
to hold its answer to a JSON schema (docs/llm-customer.md, "Dialects").

=====================  ==========================================================  ==========
dialect                what the request carries                                    spoken by
=====================  ==========================================================  ==========
json_schema            ``response_format: {type: json_schema, json_schema: {..}}``  OpenAI
json_object_schema     ``response_format: {type: json_object, schema: {..}}``       llama.cpp
guided_json            ``guided_json: {..}``                                         vLLM
ollama_format          ``format: {..}``                                              Ollama
json_object            ``response_format: {type: json_object}`` (schema in prompt)  many
off                    nothing: the prompt alone describes the answer               all
=====================  ==========================================================  ==========

``auto`` tries them in this order. Every prompt describes the answer in words as well, so
``off`` always works where the model follows instructions.
"""

from __future__ import annotations

from typing import Any, get_args

from claims_records import ResponseFormatMode

# The dialects in the order auto tries them: every mode but auto, in the order the one list
# (``claims_records.ResponseFormatMode``) names them.
ORDER: tuple[ResponseFormatMode, ...] = tuple(m for m in get_args(ResponseFormatMode)
                                              if m != "auto")
# Body fields the ``openai`` client does not know: sent as ``extra_body``.
EXTRA_FIELDS: tuple[str, ...] = ("guided_json", "format")
FIELDS: tuple[str, ...] = ("response_format", *EXTRA_FIELDS)
SCHEMA_NAME = "customer_action"


def apply(dialect: str, body: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """``body`` with the fields of ``dialect`` asking for an answer to ``schema`` (and those of
    any other dialect removed)."""
    out = {k: v for k, v in body.items() if k not in FIELDS}
    if dialect == "json_schema":
        out["response_format"] = {"type": "json_schema", "json_schema": {
            "name": SCHEMA_NAME, "strict": True, "schema": schema}}
    elif dialect == "json_object_schema":
        out["response_format"] = {"type": "json_object", "schema": schema}
    elif dialect == "guided_json":
        out["guided_json"] = schema
    elif dialect == "ollama_format":
        out["format"] = schema
    elif dialect == "json_object":
        out["response_format"] = {"type": "json_object"}
    elif dialect != "off":
        raise ValueError(f"unknown structured-output dialect {dialect!r}")
    return out


def split(body: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments of ``chat.completions.create`` for ``body``: the fields the client
    does not know go in ``extra_body``."""
    known = {k: v for k, v in body.items() if k not in EXTRA_FIELDS}
    extra = {k: v for k, v in body.items() if k in EXTRA_FIELDS}
    return {**known, "extra_body": extra} if extra else known


def named(mode: str) -> ResponseFormatMode:
    """``mode`` as a structured-output mode (raises ``ValueError`` for an unknown one)."""
    for known in get_args(ResponseFormatMode):
        if known == mode:
            return known  # type: ignore[no-any-return]
    raise ValueError(f"unknown structured-output mode {mode!r}")


def after(dialect: str) -> ResponseFormatMode | None:
    """The dialect auto tries after ``dialect``, None after the last."""
    i = ORDER.index(dialect) if dialect in ORDER else len(ORDER)
    return ORDER[i + 1] if i + 1 < len(ORDER) else None


def refused(exc: BaseException) -> bool:
    """True when the endpoint said the request's shape is wrong (HTTP 400, 404, 422): what
    a request of auto without a probe takes as the dialect's fields refused. auto's probe
    takes any HTTP error but 429 so (``_probe``): llama-cpp-python answers an unknown
    ``response_format`` type with 500, which a request cannot tell from a broken server."""
    import openai

    return isinstance(exc, openai.APIStatusError) and exc.status_code in (400, 404, 422)
