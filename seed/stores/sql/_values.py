"""JSON values <-> SQL column values, by the column's reflected type.

Writing (``to_column``): a JSON column (``JSON``, PostgreSQL's ``JSONB``) takes any JSON value;
an ISO 8601 text goes into a date, time or timestamp column as that type (a timestamp with a
time zone into a column without one is stored in UTC); a number into a text column is written
as its text, and true and false as "true" and "false"; an integer column takes integers (a
true/false as 1/0, a whole number written as text or as a float as that integer) and a numeric
column numbers (text that is a number as that number), anything else is refused there, so
text never reaches an integer key (SQLite's "datatype mismatch", found only once the tables
are emptied); a JSON object or list into any other column is refused. ``null`` is SQL
``NULL``.

Reading (``plain``): dates and times come back as ISO 8601 text (a timestamp with a time zone
in UTC, ``+00:00``), exact decimals as numbers (integral ones as integers), bytes as base64,
anything else as its JSON-safe form.
"""

from __future__ import annotations

import datetime as _dt
import decimal
import re
from typing import Any

from sqlalchemy import JSON, Column, Date, DateTime, Integer, Numeric, String, Time, null

from ..._jsonsafe import json_safe


class NestedValueError(ValueError):
    """A JSON object or list meant for a column that is not a JSON column."""


def is_json(column: Column[Any]) -> bool:
    return isinstance(column.type, JSON)


def to_column(value: Any, column: Column[Any]) -> Any:
    """``value`` (a JSON value) as written into ``column``; ``ValueError`` when it cannot be."""
    kind = column.type
    if value is None:  # SQL NULL (a JSON column would otherwise store JSON 'null')
        return null() if isinstance(kind, JSON) else None
    if isinstance(kind, JSON):
        return value
    if isinstance(value, dict | list):
        raise NestedValueError(f"column {column.name!r} is {kind} and cannot hold a JSON "
                               f"{'object' if isinstance(value, dict) else 'list'}")
    if isinstance(kind, Integer | Numeric):
        return _number(value, column)
    if isinstance(value, str):
        if isinstance(kind, DateTime):
            return _timestamp(value, bool(kind.timezone))
        if isinstance(kind, Date):
            return _dt.date.fromisoformat(value)
        if isinstance(kind, Time):
            return _dt.time.fromisoformat(value)
    elif isinstance(kind, String) and isinstance(value, bool):
        return "true" if value else "false"  # as JSON writes it: a text column holds text
    elif isinstance(kind, String) and isinstance(value, int | float):
        return str(value)
    return value


_INTEGER = re.compile(r"\s*[+-]?\d+\s*")


def _number(value: Any, column: Column[Any]) -> Any:
    """``value`` for an integer or numeric column; ``ValueError`` when it is not a number."""
    integer = isinstance(column.type, Integer)
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and (not integer or value.is_integer()):
        return int(value) if integer else value
    if isinstance(value, str):
        if integer and _INTEGER.fullmatch(value):
            return int(value)
        if not integer:
            try:
                return decimal.Decimal(value.strip())
            except decimal.InvalidOperation:
                pass
    raise ValueError(f"column {column.name!r} is {column.type} and cannot hold {value!r}")


def _timestamp(text: str, zoned: bool) -> _dt.datetime:
    value = _dt.datetime.fromisoformat(text)
    if zoned and value.tzinfo is None:
        return value.replace(tzinfo=_dt.UTC)
    if not zoned and value.tzinfo is not None:
        return value.astimezone(_dt.UTC).replace(tzinfo=None)
    return value


def plain(value: Any) -> Any:
    """A value read from a column as a JSON value."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(_dt.UTC)
        return value.isoformat()
    if isinstance(value, _dt.date | _dt.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        if value.is_finite() and value == value.to_integral_value():
            return int(value)
        return float(value)
    if isinstance(value, memoryview):
        value = bytes(value)
    return json_safe(value)
