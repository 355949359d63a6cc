#!/usr/bin/env python3
"""Check the test-pack corpus: `python scripts/check_corpus.py [PATH] [--freeze]`.

A thin wrapper around `claims-harness corpus check`.
"""

from __future__ import annotations

import sys

from claims_cli.app import app

if __name__ == "__main__":
    sys.exit(app(["corpus", "check", *sys.argv[1:]], standalone_mode=True))
