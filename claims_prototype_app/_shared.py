"""The one conversation of this process, as quick prototypes keep it: every browser tab sees
the same conversation until someone presses "Start a new claim"."""

from __future__ import annotations

import threading

from ._conversation import Conversation
from ._settings import Settings
from ._store import Store


class Heron:
    """The store and the process's current conversation."""

    def __init__(self, settings: Settings) -> None:
        self.store = Store(settings)
        self.store.create_tables()
        self.lock = threading.Lock()
        self.conversation = Conversation(self.store)
        self.upload_round = 0  # a new round gives the file box a fresh, empty widget

    def new_conversation(self) -> Conversation:
        """Forget the current conversation (what it stored stays stored) and start another."""
        with self.lock:
            self.conversation = Conversation(self.store)
            self.upload_round += 1
            return self.conversation

    def take_upload(self, name: str, data: bytes, content_type: str) -> None:
        with self.lock:
            self.conversation.upload(name, data, content_type)
            self.upload_round += 1


def open_heron() -> Heron:
    """Heron Mutual on the settings of the environment (``HERON_*``)."""
    return Heron(Settings.from_env())
