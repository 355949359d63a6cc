"""The reset's own error: the product's reset failed (its error, not the harness's)."""

from __future__ import annotations

from claims_records import SeedError


class ProductResetError(SeedError):
    """The product's own reset failed: its reset endpoint answered an error, did not answer
    in time or could not be reached, its clearing command failed or overran, or the state it
    left differs from the setup. A trial ending so is ``reset_failed``, the product's error;
    a failure of the harness's own means (the seed route, the stores it writes, a command
    that cannot be started) stays a ``SeedError``."""
