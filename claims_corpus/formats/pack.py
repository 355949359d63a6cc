"""Pack format v0.3: one strict model per file of a test pack, and what the files share.

A pack is one complete claim journey::

    packs/<PACK-ID>/
      input/initial_message.txt   InitialMessage (plain text, read verbatim)
      input/persona.json          Persona      (``formats.pack_input``)
      input/facts.json            Facts        (``formats.pack_input``)
      input/materials.json        Materials    (``formats.pack_input``)
      input/materials/*           the files themselves
      oracle/labels.json          Labels       (``formats.labels``)
      setup.json                  Setup        (``formats.setup``)
      provenance.json             Provenance   (``formats.review``)
      review.json                 Review       (``formats.review``)
    packs/baseline.json           Baseline     (``formats.setup``)
    packs/manifest.json           Manifest     (``formats.manifest``)
    packs/acceptance.toml         AcceptanceConfig (claims_records.acceptance)

This module holds what more than one of those files uses: the pack id (its pattern and the
corpus id prefix it starts with), the style of the initial message and the claimant's
session. Structured values (money, time windows) and "when" (``Arrival``) are in
``formats.values``. ``packs/STANDARD.md`` is the prose standard these models encode.
"""

from __future__ import annotations

import re
from typing import Literal

# A pack id is <corpus id prefix>-<M|H|C>-<three digits>; the corpus's manifest.json names its
# prefix (CTL for the public corpus in packs/).
ID_PREFIX_PATTERN = r"^[A-Z][A-Z0-9]{1,9}$"
PACK_ID_PATTERN = r"^[A-Z][A-Z0-9]{1,9}-[MHC]-\d{3}$"

MessageStyle = Literal[
    "plain", "many_facts", "emotional", "typos", "non_native", "wrong_product_term"
]
ClaimantSession = Literal["anonymous", "account", "anonymous_then_sign_in"]


def id_prefix_of(pack_id: str) -> str:
    """The corpus id prefix a pack id starts with (``HLD`` of ``HLD-M-001``)."""
    return pack_id.rsplit("-", 2)[0]


def pack_id_pattern(id_prefix: str) -> str:
    """The pack id pattern of a corpus whose manifest declares ``id_prefix``."""
    return rf"^{re.escape(id_prefix)}-[MHC]-\d{{3}}$"


__all__ = [
    "ID_PREFIX_PATTERN",
    "PACK_ID_PATTERN",
    "ClaimantSession",
    "MessageStyle",
    "id_prefix_of",
    "pack_id_pattern",
]
