#!/usr/bin/env bash
# Make sure a Chromium is available for Playwright. Playwright cannot download its own
# browser offline, so Debian's chromium is installed (needs root or sudo). Skipped when
# CLAIMS_HARNESS_CHROMIUM points at a browser or chromium is already installed.
set -euo pipefail
if [ -n "${CLAIMS_HARNESS_CHROMIUM:-}" ] && [ -x "${CLAIMS_HARNESS_CHROMIUM}" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium >/dev/null
