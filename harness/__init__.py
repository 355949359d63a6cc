"""harness package."""

__all__: list[str] = []
