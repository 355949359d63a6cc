#!/usr/bin/env bash
# Make sure a Chromium is available for Playwright. Playwright cannot download its own
# browser offline, so Debian's chromium is installed with apt-get (scripts/apt-install.sh).
# Skipped when CLAIMS_HARNESS_CHROMIUM points at a browser, a remote browser is configured
# (CLAIMS_HARNESS_BROWSER_CDP_URL / _WS_ENDPOINT), or a chromium is already installed.
set -euo pipefail
if [ -n "${CLAIMS_HARNESS_CHROMIUM:-}" ] && [ -x "${CLAIMS_HARNESS_CHROMIUM}" ]; then exit 0; fi
if [ -n "${CLAIMS_HARNESS_BROWSER_CDP_URL:-}${CLAIMS_HARNESS_BROWSER_WS_ENDPOINT:-}" ]; then exit 0; fi
# Headless runs prefer Chromium's headless shell (a quarter less CPU per journey); headed runs
# need the full chromium. Both come from Debian; the shell is optional when chromium is there.
if command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  if command -v chromium >/dev/null 2>&1; then exit 0; fi
  echo "install-browser: no chromium and no apt-get: install Chromium, Chrome or Edge, or set CLAIMS_HARNESS_CHROMIUM" >&2
  exit 1
fi
if command -v chromium >/dev/null 2>&1; then
  bash "$(dirname "$0")/apt-install.sh" install-browser chromium-headless-shell ||
    echo "install-browser: chromium-headless-shell not installed; the full chromium is used" >&2
  exit 0
fi
bash "$(dirname "$0")/apt-install.sh" install-browser chromium chromium-headless-shell
