"""reference_app package."""

__all__: list[str] = []
