#!/usr/bin/env bash
# Install Chromium, the project and its test extras; lint; run the whole suite (slow tests
# included). Extra arguments go to pytest.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-browser.sh || exit 1
python3 -m pip install -q --disable-pip-version-check -e '.[test]' || exit 1
python3 -m ruff check . || exit 1
python3 -m pytest "$@"
rc=$?
# pytest exits 5 when it collected no test: that is a failure of the suite, say so.
if [ "$rc" -eq 5 ]; then
  echo "no tests were collected" >&2
  exit 1
fi
exit "$rc"
