"""Seed route and stores: reset and load a pack's setup, dump and diff state."""

from .stores import S3Config, Stores, free_port, open_stores, start_embedded_mongo, start_embedded_s3

__all__ = [
    "S3Config",
    "Stores",
    "free_port",
    "open_stores",
    "start_embedded_mongo",
    "start_embedded_s3",
]
