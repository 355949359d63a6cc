"""seed package."""

__all__: list[str] = []
