#!/usr/bin/env bash
# Make sure a Chromium is available for Playwright. Playwright cannot download its own
# browser offline, so Debian's chromium is installed with apt-get (scripts/apt-install.sh).
# Skipped when CLAIMS_HARNESS_CHROMIUM points at a browser, a remote browser is configured
# (CLAIMS_HARNESS_BROWSER_CDP_URL / _WS_ENDPOINT), or a chromium is already installed.
set -euo pipefail
if [ -n "${CLAIMS_HARNESS_CHROMIUM:-}" ] && [ -x "${CLAIMS_HARNESS_CHROMIUM}" ]; then exit 0; fi
if [ -n "${CLAIMS_HARNESS_BROWSER_CDP_URL:-}${CLAIMS_HARNESS_BROWSER_WS_ENDPOINT:-}" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-browser: no chromium and no apt-get: install Chromium, Chrome or Edge, or set CLAIMS_HARNESS_CHROMIUM" >&2
  exit 1
fi
bash "$(dirname "$0")/apt-install.sh" install-browser chromium
