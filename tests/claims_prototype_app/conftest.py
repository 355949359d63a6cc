"""Heron Mutual on a fresh SQLite database and uploads folder per test."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from claims_prototype_app import Conversation, Settings, Store

from ._packs import PACKS, load_setup


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings.from_env(db_file=str(tmp_path / "db" / "heron.sqlite3"),
                             uploads_dir=str(tmp_path / "uploads"), environ={})


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    s = Store(settings)
    s.create_tables()
    yield s
    s.close()


@pytest.fixture
def pack_conversation(store: Store) -> Callable[[str], Conversation]:
    """A new conversation on a store holding the baseline and the pack's setup."""

    def make(pack_id: str) -> Conversation:
        load_setup(store, PACKS / pack_id)
        return Conversation(store)

    return make
