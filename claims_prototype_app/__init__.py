"""Heron Mutual: a claims chat prototype on Streamlit's chat elements, built the way teams
prototype — SQL storage through SQLAlchemy (SQLite by default, PostgreSQL by URL), uploads in
a folder, one conversation per process, an assistant that settles small claims itself and
tells the customer, amounts in euros (en_IE), no runtime report. See docs/prototype-app.md.

It shares nothing with the other example products: its rules engine is its own.
"""

from ._conversation import Conversation, Message
from ._money import Money
from ._settings import Settings
from ._store import CLAIM_NUMBER_PATTERN, Store

__all__ = ["CLAIM_NUMBER_PATTERN", "Conversation", "Message", "Money", "Settings", "Store"]
