#!/usr/bin/env bash
# Start the local development environment (stores, reference app or seed route per lane).
# Every option is passed on: see `claims-harness dev up --help`.
set -euo pipefail
cd "$(dirname "$0")/.."
exec claims-harness dev up "$@"
