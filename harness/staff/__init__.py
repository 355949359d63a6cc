"""The staff side of a product: getting in, finding a claim, reading it in canonical codes,
and recording a staff decision.

``StaffSession`` (``_session``) is a lane's staff browser context, kept from trial to trial;
``_find`` gets to a claim's page, ``_read`` reads claim pages and the waiting list,
``_vocabulary`` maps the product's words to canonical codes, ``_decide`` records a decision;
``_stores`` reads the staff side from the stores' state, for a product without a staff screen.
"""

from ._decide import record_decision
from ._find import open_claim
from ._read import CLAIM_REGIONS, WAITING_REGIONS, no_staff_side
from ._session import StaffSession
from ._stores import read_stores
from ._vocabulary import WordMap, map_word

__all__ = [
    "CLAIM_REGIONS",
    "WAITING_REGIONS",
    "StaffSession",
    "WordMap",
    "map_word",
    "no_staff_side",
    "open_claim",
    "read_stores",
    "record_decision",
]
