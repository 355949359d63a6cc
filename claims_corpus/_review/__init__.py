"""Human review of the corpus's images: the review page, named sign-offs, the blind look.

- ``write_review_page``: a static page with every image beside what its pack says it shows;
- ``sign_off``: a named person's sign-off, tied to the image's sha256 (a change voids it);
- ``blind_look``: each image alone to a vision model; descriptions missing the subject are
  listed for remaking.
"""

from __future__ import annotations

from ._blind_look import (
    BlindLookReport,
    Look,
    VisionSettings,
    blind_look,
    blind_prompt,
    missing_groups,
)
from ._images import ImageItem, pack_images, resolve_packs, sha256_of
from ._page import write_review_page
from ._sign_off import PLACEHOLDER_NAMES, Signed, name_problem, sign_off, sign_off_state

__all__ = [
    "PLACEHOLDER_NAMES",
    "BlindLookReport",
    "ImageItem",
    "Look",
    "Signed",
    "VisionSettings",
    "blind_look",
    "blind_prompt",
    "missing_groups",
    "name_problem",
    "pack_images",
    "resolve_packs",
    "sha256_of",
    "sign_off",
    "sign_off_state",
    "write_review_page",
]
