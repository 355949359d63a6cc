#!/usr/bin/env bash
# Install Debian packages with apt-get, as root or through sudo for a normal user:
#   bash scripts/apt-install.sh WHY PACKAGE...
# WHY names the caller in messages. Exits 1 with a clear line when there is no apt-get, or no
# root and no sudo.
set -euo pipefail
why="$1"; shift
if ! command -v apt-get >/dev/null 2>&1; then
  echo "$why: no apt-get to install $*: install it by hand" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "$why: installing $* needs root and there is no sudo: run 'apt-get install $*' as root" >&2
    exit 1
  fi
  SUDO="sudo"
fi
echo "$why: installing Debian's $* with apt-get" >&2
$SUDO apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
