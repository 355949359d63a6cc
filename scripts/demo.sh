#!/usr/bin/env bash
# The demo job on a fresh machine: install what is needed (a project virtual environment, a
# Chromium), start the embedded stores and the reference app, run the whole corpus with the
# scripted customer, score it, write the report and print where it is. Extra arguments go to
# `claims-harness run` (e.g. --pack CTL-M-001).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-browser.sh
BIN="$(bash scripts/setup-env.sh)"
export PATH="$BIN:$PATH"

RUNS_DIR="${CLAIMS_HARNESS_RUNS_DIR:-runs}"
RUN_ID="demo-$(date -u +%Y%m%dT%H%M%SZ)"
status=0
claims-harness run --dev --profile reference --packs packs --customer scripted --lanes 2 \
  --runs-dir "$RUNS_DIR" --run-id "$RUN_ID" "$@" || status=$?
# Score and report whatever was recorded, even after a failed trial.
if [ -f "$RUNS_DIR/$RUN_ID/run.json" ]; then
  claims-harness score "$RUNS_DIR/$RUN_ID"
  claims-harness report "$RUNS_DIR/$RUN_ID"
  echo
  echo "Run record: $RUNS_DIR/$RUN_ID"
  echo "Report:     $RUNS_DIR/$RUN_ID/report/index.html"
fi
exit "$status"
