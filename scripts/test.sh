#!/usr/bin/env bash
# Install Chromium, PostgreSQL and the project with its test extras (into the active virtual
# environment, else ./.venv: see setup-env.sh), lint, type-check, run the whole suite (slow tests included)
# on parallel workers. Extra arguments go to pytest (e.g. `-m "not slow"` for the fast tier,
# `-n 0` for one process).
#
# Workers: three per core (CLAIMS_HARNESS_TEST_WORKERS to choose): the end-to-end tests spend
# much of their time waiting on browsers, products and installs; at two per core the cores
# were still idle about 30 % of the time (measured from a clean clone: 13 min 51 s of pytest
# at two per core, 9 min 35 s at three). The tests of one module stay on one worker, so a module's
# dev environment or corpus run is built once, and the modules with slow tests start first
# (tests/conftest.py).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-browser.sh || exit 1
# The SQL store tests start a PostgreSQL server of their own (initdb + pg_ctl): Debian's.
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1
then
  bash scripts/apt-install.sh test postgresql || exit 1
fi
BIN="$(bash scripts/setup-env.sh test)" || exit 1
export PATH="$BIN:$PATH"
# pytest keeps each test module with its asserts rewritten as bytecode; where writing bytecode
# is turned off (PYTHONDONTWRITEBYTECODE), every worker rewrites every module again.
unset PYTHONDONTWRITEBYTECODE
# While lint and the type checker run on one core, one pytest collects the tests on the other,
# leaving every test module rewritten and compiled for the workers: on a fresh clone each
# worker did that anew, all at once (13 CPU-s a worker instead of 6).
"$BIN/python" -m pytest --collect-only -q "$@" >/dev/null 2>&1 &
WARM=$!
trap 'kill "$WARM" 2>/dev/null' EXIT
"$BIN/python" -m ruff check . || exit 1
# The type checker (configured in pyproject.toml: strict for claims_records, harness and scoring).
if ! "$BIN/python" -m mypy; then
  echo "type check failed: mypy found the errors above (see [tool.mypy] in pyproject.toml)" >&2
  exit 1
fi
wait "$WARM"  # its result does not matter: the run below reports what it found
CORES="$("$BIN/python" -c 'import os; print(len(os.sched_getaffinity(0)))')"
"$BIN/python" -m pytest -n "${CLAIMS_HARNESS_TEST_WORKERS:-$((CORES * 3))}" --dist loadgroup \
  --no-loadscope-reorder "$@"
rc=$?
# pytest exits 5 when it collected no test: that is a failure of the suite, say so.
if [ "$rc" -eq 5 ]; then
  echo "no tests were collected" >&2
  exit 1
fi
exit "$rc"
