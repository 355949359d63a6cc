"""The project's exception hierarchy.

Every error carries its context as keyword arguments (``pack``, ``file``, ``field``,
``trial``, ...), kept in ``.context`` and rendered into the message, so a user always
learns *where* a problem is, not only what it is. The context a caller acts on is read
through typed attributes (``field``, ``file``, ``pack``; ``SeedError.reason``,
``SimulatorError.kind``, ``LeakError.term`` and ``.source``), never by string key.

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

    def _text(self, key: str) -> str | None:
        return str(self.context[key]) if key in self.context else None

    @property
    def field(self) -> str | None:
        """The field (dotted path) the error is about, if it names one."""
        return self._text("field")

    @property
    def file(self) -> str | None:
        """The file the error is about, if it names one."""
        return self._text("file")

    @property
    def pack(self) -> str | None:
        """The pack the error is about, if it names one."""
        return self._text("pack")


class PackError(HarnessError):
    """A pack or corpus file is missing or invalid (context: pack, file, field)."""


class LeakError(PackError):
    """A customer-facing prompt would contain a value only the oracle or setup holds
    (context: term, the value found; source, where the value comes from)."""

    @property
    def term(self) -> str | None:
        """The value the prompt would have leaked."""
        return self._text("term")

    @property
    def source(self) -> str | None:
        """Where that value comes from (the oracle or setup field)."""
        return self._text("source")


class SeedError(HarnessError):
    """The seed route refused or failed a reset, or a store cannot be reached (context:
    reason, the seed route's reason code, when one applies)."""

    @property
    def reason(self) -> str | None:
        """The seed route's reason code (``REASON_*`` in seed), if one was given."""
        return self._text("reason")


class StoreRefusal(SeedError):
    """A store refused a reset before anything was read or written: the database is not
    named for tests or carries the production marker, a folder is a file-system root, the
    store cannot be reached, or it lacks a table or column the plan needs (context: the store
    and what refused it)."""


class ProductError(HarnessError):
    """The product under test crashed, timed out or broke the product contract."""


class SimulatorError(HarnessError):
    """The simulated customer failed: endpoint errors after retries or unusable output
    (context: kind, a ``SimulatorErrorKind``, when known)."""

    @property
    def kind(self) -> str | None:
        """What failed (a ``SimulatorErrorKind`` value), if known."""
        return self._text("kind")


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
