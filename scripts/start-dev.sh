#!/usr/bin/env bash
# Start the local development environment (stores, reference app and seed route per lane) from
# any shell, no virtual environment needed: installs what is missing the way scripts/demo.sh
# does (a Chromium for the runs, the project in the active virtual environment or ./.venv:
# scripts/setup-env.sh), then runs `claims-harness dev up` from that environment. It prints
# every URL and the next command, writes .claims-harness.env (+ .ps1) and
# .claims-harness.stack.json, and runs until Ctrl-C (or SIGTERM), which stops everything. A
# second start while one runs from this checkout is refused with the first's pid and URL
# (--name NAME starts one beside it under its own files); when a process of the stack dies,
# it says which and how, marks the stack file dead and exits with code 3.
# Every option is passed on: see `claims-harness dev up --help`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-browser.sh
BIN="$(bash scripts/setup-env.sh)"
exec "$BIN/claims-harness" dev up "$@"
