"""The pack format, loading, the corpus checker and the customer view.

This is the only package that opens pack files.
"""

from . import formats
from .errors import (
    HarnessError,
    LeakError,
    PackError,
    ProductError,
    ProfileError,
    RunRecordError,
    ScoringError,
    SeedError,
    SimulatorError,
)

__all__ = [
    "HarnessError",
    "LeakError",
    "PackError",
    "ProductError",
    "ProfileError",
    "RunRecordError",
    "ScoringError",
    "SeedError",
    "SimulatorError",
    "formats",
]
