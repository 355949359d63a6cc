"""Templates and style of the image review page."""
