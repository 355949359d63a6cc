#!/usr/bin/env bash
# The scheduled job (cron, systemd, CI): make sure the project environment is there, then run
# `claims-harness nightly CONFIG [options]`; its exit code is this script's. The codes are
# claims_records.ExitCode (docs/running.md, "Exit codes"): 0 ok, 1 regression or gate
# failure, 2 the configuration or command line was refused, 3 the night could not be judged
# (the run failed or stopped early, every trial an infrastructure error, nothing scorable),
# 130 interrupted. Only 0 is a success; an environment that cannot be set up is 3 too.
set -euo pipefail
cd "$(dirname "$0")/.."
NO_RESULT=3  # ExitCode.NO_RESULT
if ! BIN="$(bash scripts/setup-env.sh)"; then
  echo "nightly: the project environment could not be set up; exit code $NO_RESULT" >&2
  exit "$NO_RESULT"
fi
exec "$BIN/claims-harness" nightly "$@"
