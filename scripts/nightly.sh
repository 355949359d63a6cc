#!/usr/bin/env bash
# The scheduled job (cron, systemd, CI): make sure the project environment is there, then run
# `claims-harness nightly CONFIG [options]`; its exit code is this script's (0 ok, 1 regression
# or gate failure, 2 the night could not be judged).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="$(bash scripts/setup-env.sh)"
exec "$BIN/claims-harness" nightly "$@"
