"""The embedded stores leave nothing behind: a store's temporary files are in its own folder,
which goes when the store stops, however it stops (seed/stores.py)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pymongo

from claims_dev import EmbeddedProcess, start_embedded_mongo


def _write_one(uri: str) -> None:
    client = pymongo.MongoClient(uri, serverSelectionTimeoutMS=20000)
    try:
        client.claims.probe.insert_one({"seen": True})
    finally:
        client.close()


def _temporary_files(handle: EmbeddedProcess) -> Path:
    """The store's own temporary folder, which must be inside its workdir."""
    assert handle.workdir is not None
    [found] = [p for p in handle.workdir.iterdir() if p.name.startswith("secantus_wt_")]
    return found


def test_the_embedded_mongo_keeps_its_temporary_files_in_its_own_folder():
    uri, handle = start_embedded_mongo()
    try:
        _write_one(uri)
        files = _temporary_files(handle)
    finally:
        started = time.monotonic()
        handle.stop()
    assert time.monotonic() - started < 5  # in memory: nothing to wait for
    assert handle.proc.poll() is not None
    assert not files.exists()


def test_a_store_that_was_killed_still_leaves_no_folder_behind():
    uri, handle = start_embedded_mongo()
    try:
        _write_one(uri)
        files = _temporary_files(handle)
        os.killpg(handle.proc.pid, signal.SIGKILL)  # no clean-up of its own
        handle.proc.wait(timeout=60)
        assert files.exists()
    finally:
        handle.stop()
    assert not files.exists()
