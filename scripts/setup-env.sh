#!/usr/bin/env bash
# Make sure the project is installed in a virtual environment; print that environment's bin
# folder (the only line on stdout; messages go to stderr).
#
#   bash scripts/setup-env.sh [EXTRAS]        e.g. `bash scripts/setup-env.sh test`
#
# An active virtual environment ($VIRTUAL_ENV) is used as it is. Otherwise ./.venv is created
# with the first Python 3.11+ found ($PYTHON, python3.13, python3.12, python3.11, python3), so
# a system Python that refuses installs (PEP 668, e.g. Debian 12) is never installed into.
# The environment sees the system's packages (--system-site-packages): what the machine
# already has in a suitable version is reused, the rest is installed into .venv only.
# Where Debian/Ubuntu ship venv apart (python3-venv), it is installed with apt-get as root or
# through sudo. Re-running is cheap: the project is installed again only when pyproject.toml
# or the extras change.
set -euo pipefail
cd "$(dirname "$0")/.."
EXTRAS="${1:-}"
MINIMUM="3.11"

say() { echo "setup: $*" >&2; }
die() { echo "setup: error: $*" >&2; exit 1; }
version_of() { "$1" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null || echo "?"; }
version_ok() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "'$*' needs root and there is no sudo here: run it as root, then run this again"
  fi
}

find_python() {
  local tried="" c
  for c in "${PYTHON:-}" python3.13 python3.12 python3.11 python3; do
    [ -n "$c" ] || continue
    command -v "$c" >/dev/null 2>&1 || continue
    if version_ok "$c"; then echo "$c"; return 0; fi
    tried="$tried $c ($(version_of "$c")),"
  done
  die "the harness needs Python $MINIMUM or newer; found:${tried:- no python3 at all}. Install one (Debian/Ubuntu: apt-get install python3; elsewhere python.org) or point PYTHON at it, e.g. PYTHON=/usr/local/bin/python3.12"
}

make_venv() {
  local py="$1" venv="$2" log
  log="$(mktemp)"
  if "$py" -m venv --system-site-packages "$venv" >"$log" 2>&1; then rm -f "$log"; return 0; fi
  rm -rf "$venv"
  if ! command -v apt-get >/dev/null 2>&1; then
    cat "$log" >&2; rm -f "$log"
    die "$py cannot create a virtual environment (above); install its venv module"
  fi
  rm -f "$log"
  local versioned
  versioned="$("$py" -c 'import sys; print("python%d.%d-venv" % sys.version_info[:2])')"
  say "$py has no working venv module: installing python3-venv $versioned with apt-get"
  as_root apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv "$versioned" >&2 \
    || as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
  "$py" -m venv --system-site-packages "$venv" >&2 \
    || die "$py still cannot create a virtual environment in $venv"
}

if [ -n "${VIRTUAL_ENV:-}" ] && [ -x "${VIRTUAL_ENV}/bin/python" ]; then
  VENV="$VIRTUAL_ENV"
  version_ok "$VENV/bin/python" \
    || die "the active virtual environment $VENV has Python $(version_of "$VENV/bin/python"); the harness needs $MINIMUM or newer: deactivate it or make a new one"
else
  VENV="$PWD/.venv"
  if [ ! -x "$VENV/bin/python" ] || ! version_ok "$VENV/bin/python"; then
    PY="$(find_python)"
    if [ -e "$VENV" ]; then
      say "replacing $VENV: its Python is missing or older than $MINIMUM"
      rm -rf "$VENV"
    fi
    say "creating $VENV with $PY ($(version_of "$PY"))"
    make_venv "$PY" "$VENV"
  fi
fi

STAMP="$VENV/.claims-harness-installed"
SOURCE="$(cksum < pyproject.toml | cut -d' ' -f1) $PWD"
HAVE="$(cat "$STAMP" 2>/dev/null || true)"
# Installed from this pyproject.toml, here, with these extras (or without needing any)?
if [ "$HAVE" != "$SOURCE [$EXTRAS]" ] && { [ -n "$EXTRAS" ] || [ "${HAVE% \[*\]}" != "$SOURCE" ]; }; then
  SPEC="."
  [ -z "$EXTRAS" ] || SPEC=".[$EXTRAS]"
  # llama-cpp-python (the test and local-model extras) builds from source, once: pip's wheel
  # cache keeps the result. Built for any x86-64 CPU with AVX2, not for this one alone: a
  # native build may use instructions (AVX-512, AMX) that a virtual machine's CPU refuses,
  # and crash on the first answer. CMAKE_ARGS set by the caller wins.
  if [ "$(uname -m)" = x86_64 ]; then
    export CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_OPENMP=OFF}"
  fi
  say "installing the project ($SPEC) into $VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$SPEC" >&2 \
    || die "pip could not install the project into $VENV (its messages are above)"
  echo "$SOURCE [$EXTRAS]" > "$STAMP"
fi
echo "$VENV/bin"
