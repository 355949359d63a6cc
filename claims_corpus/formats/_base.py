"""Shared base for every persisted file format: the records floor's strict model."""

from __future__ import annotations

from claims_records import Strict

__all__ = ["Strict"]
