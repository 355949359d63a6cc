"""Names a seed plan writes: collection names, object keys and content types.

Object keys follow what S3 and MinIO accept everywhere (MinIO refuses some keys only when it
writes them, and a key the bulk delete cannot carry would make every later reset fail):

- 1 to 1,024 bytes of UTF-8, no lone surrogates;
- no control characters (C0, DEL, C1) and no backslash;
- '/'-separated segments that are neither empty (no leading, trailing or doubled '/') nor
  '.' or '..'.
"""

from __future__ import annotations

import re

from ._values import string_problem

# Collections that belong to the environment, not to the product's state: they survive every
# reset, are left out of every dump, and a setup may not write them.
HARNESS_COLLECTION = "_harness"
ENVIRONMENT_COLLECTION = "_environment"
RESERVED_COLLECTIONS: frozenset[str] = frozenset({HARNESS_COLLECTION, ENVIRONMENT_COLLECTION})

MAX_OBJECT_KEY_BYTES = 1024
_COLLECTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,119}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_TOKEN = r"[A-Za-z0-9!#$&^_.+\-]+"
_CONTENT_TYPE = re.compile(
    rf"^{_TOKEN}/{_TOKEN}(?:\s*;\s*{_TOKEN}=(?:{_TOKEN}|\"[^\"\\\x00-\x1f\x7f]*\"))*$")


def collection_name_problem(name: object) -> str | None:
    """Why ``name`` cannot be a collection a setup writes, or None."""
    if not isinstance(name, str) or not _COLLECTION_NAME.match(name):
        return (f"collection name {name!r} is not allowed (a letter or '_', then up to 119 "
                "letters, digits, '_' or '-')")
    if name.lower() in RESERVED_COLLECTIONS:
        return f"collection name {name!r} is reserved for the environment"
    return None


def object_key_problem(key: object) -> str | None:
    """Why ``key`` cannot be an object key in the bucket, or None."""
    if not isinstance(key, str) or not key:
        return "object key is empty"
    bad = string_problem(key)
    if bad:
        return f"object key {bad}"
    size = len(key.encode("utf-8"))
    if size > MAX_OBJECT_KEY_BYTES:
        return f"object key is {size} bytes of UTF-8; S3 allows at most {MAX_OBJECT_KEY_BYTES}"
    control = _CONTROL.search(key)
    if control:
        return f"object key holds the control character {control.group()!r}"
    if "\\" in key:
        return "object key holds a backslash; separate segments with '/'"
    for segment in key.split("/"):
        if segment in ("", ".", ".."):
            shown = "an empty segment (leading, trailing or doubled '/')" if not segment \
                else f"a {segment!r} segment"
            return f"object key {key!r} has {shown}"
    return None


def content_type_problem(value: object) -> str | None:
    """Why ``value`` cannot be an object's Content-Type header, or None."""
    if not isinstance(value, str) or not _CONTENT_TYPE.match(value):
        return f"content type {value!r} is not 'type/subtype' (with optional '; name=value')"
    return None
