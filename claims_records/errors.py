"""The project's exception hierarchy.

Every error carries its context as keyword arguments (``pack``, ``file``, ``field``,
``trial``, ...), kept in ``.context`` and rendered into the message, so a user always
learns *where* a problem is, not only what it is.

    HarnessError
    ├── PackError          a pack or corpus file is missing or invalid
    │   └── LeakError      a customer prompt would contain a value the customer may not know
    ├── SeedError          the seed route refused or failed a reset, or a store is unreachable
    │   └── StoreRefusal   a store's guard refused a reset before anything was touched
    ├── ProductError       the product under test crashed, timed out or broke its contract
    ├── SimulatorError     the simulated customer failed (endpoint errors, unparseable output)
    ├── ProfileError       a product profile is invalid
    ├── ConfigError        a nightly configuration is invalid
    ├── RunRecordError     a run record is missing, unreadable or inconsistent
    └── ScoringError       the scorer cannot score a record against an oracle
"""

from __future__ import annotations


class HarnessError(Exception):
    """Base of every error raised on purpose by this project."""

    def __init__(self, message: str, **context: object) -> None:
        self.message = message
        self.context = {k: v for k, v in context.items() if v is not None}
        super().__init__(self.__str__())

    def __str__(self) -> str:
        if not self.context:
            return self.message
        where = ", ".join(f"{k}={v}" for k, v in self.context.items())
        return f"{self.message} [{where}]"


class PackError(HarnessError):
    """A pack or corpus file is missing or invalid (context: pack, file, field)."""


class LeakError(PackError):
    """A customer-facing prompt would contain a value only the oracle or setup holds."""


class SeedError(HarnessError):
    """The seed route refused or failed a reset, or a store cannot be reached."""


class StoreRefusal(SeedError):
    """A store refused a reset before anything was read or written: the database is not
    named for tests or carries the production marker, a folder is a file-system root, the
    store cannot be reached, or it lacks a table or column the plan needs (context: the store
    and what refused it)."""


class ProductError(HarnessError):
    """The product under test crashed, timed out or broke the product contract."""


class SimulatorError(HarnessError):
    """The simulated customer failed: endpoint errors after retries or unusable output."""


class ProfileError(HarnessError):
    """A product profile (TOML) is missing or invalid."""


class ConfigError(HarnessError):
    """A nightly configuration (TOML) is missing or invalid (context: file, field)."""


class RunRecordError(HarnessError):
    """A run record is missing, unreadable or inconsistent."""


class ScoringError(HarnessError):
    """A record cannot be scored against its oracle."""


__all__ = [
    "ConfigError",
    "HarnessError",
    "LeakError",
    "PackError",
    "ProductError",
    "ProfileError",
    "RunRecordError",
    "ScoringError",
    "SeedError",
    "SimulatorError",
]
