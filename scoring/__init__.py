"""scoring package."""

__all__: list[str] = []
