"""scripts/setup-env.sh decides with stand-ins for python, apt-get, sudo and id: a Python too
old is refused with what was found and what to do; a Python without venv gets python3-venv
through apt-get — directly as root, through sudo as a normal user, and a clear refusal for a
normal user without sudo."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOLS = ("bash", "dirname", "cksum", "cut", "cat", "mktemp", "rm", "mkdir", "cp", "env", "touch")

PYTHON = r"""#!/bin/bash
# A stand-in Python: answers the questions setup-env.sh asks, as $STUB_VERSION would.
if [ "$1" = "-c" ]; then
  case "$2" in
    *"sys.exit(0 if"*) [ "$STUB_OK" = 1 ]; exit $?;;
    *"-venv"*) echo "python3.12-venv"; exit 0;;
    *) echo "$STUB_VERSION"; exit 0;;
  esac
fi
if [ "$1 $2" = "-m venv" ]; then
  if [ ! -f "$STUB_DIR/venv-installed" ]; then
    echo "The virtual environment was not created successfully: no ensurepip" >&2
    exit 1
  fi
  target="${@: -1}"; mkdir -p "$target/bin"; cp "$0" "$target/bin/python"
  echo "venv $*" >> "$STUB_DIR/log"; exit 0
fi
if [ "$1 $2" = "-m pip" ]; then echo "pip $*" >> "$STUB_DIR/log"; exit 0; fi
exit 3
"""
APT = """#!/bin/bash
echo "apt-get $*" >> "$STUB_DIR/log"
case "$*" in *install*) touch "$STUB_DIR/venv-installed";; esac
"""
SUDO = """#!/bin/bash
echo "sudo $*" >> "$STUB_DIR/log"
exec "$@"
"""
ID = """#!/bin/bash
echo "$STUB_UID"
"""


def _stubs(tmp_path: Path, *, version: str, ok: bool, uid: int, sudo: bool) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in TOOLS:
        os.symlink(shutil.which(tool), bin_dir / tool)
    for name, text in (("python3", PYTHON), ("apt-get", APT), ("id", ID)) + (
            (("sudo", SUDO),) if sudo else ()):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "setup-env.sh", repo / "scripts")
    shutil.copy(REPO / "pyproject.toml", repo)
    return {"PATH": str(bin_dir), "STUB_DIR": str(tmp_path), "STUB_VERSION": version,
            "STUB_OK": "1" if ok else "0", "STUB_UID": str(uid), "HOME": str(tmp_path)}


def _setup(tmp_path: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(tmp_path / "repo" / "scripts" / "setup-env.sh"), *args],
                          env=env, capture_output=True, text=True, timeout=60)


def _log(tmp_path: Path) -> list[str]:
    path = tmp_path / "log"
    return path.read_text().splitlines() if path.exists() else []


def test_a_python_too_old_is_refused_with_what_was_found(tmp_path):
    env = _stubs(tmp_path, version="3.9.2", ok=False, uid=1000, sudo=True)
    done = _setup(tmp_path, env)
    assert done.returncode == 1
    assert "the harness needs Python 3.11 or newer; found: python3 (3.9.2)" in done.stderr
    assert "PYTHON=" in done.stderr and done.stdout == ""
    assert not (tmp_path / "repo" / ".venv").exists()


@pytest.mark.parametrize(("uid", "prefix"), [(0, ""), (1000, "sudo ")])
def test_without_venv_python3_venv_is_installed_as_root_or_through_sudo(tmp_path, uid, prefix):
    env = _stubs(tmp_path, version="3.12.1", ok=True, uid=uid, sudo=True)
    done = _setup(tmp_path, env, "test")
    assert done.returncode == 0, done.stderr
    venv = tmp_path / "repo" / ".venv"
    assert done.stdout == f"{venv}/bin\n"
    log = _log(tmp_path)
    assert f"{prefix}apt-get update -qq" in log
    assert "apt-get install -y -qq python3-venv python3.12-venv" in log
    if prefix:
        assert ("sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv "
                "python3.12-venv") in log
    assert any(x.startswith("venv -m venv --system-site-packages") for x in log)
    assert any(x.endswith("install -q --disable-pip-version-check -e .[test]") for x in log)
    if uid == 0:
        assert not any(x.startswith("sudo") for x in log)
    again = _setup(tmp_path, env, "test")  # installed: nothing is done again
    assert again.returncode == 0 and _log(tmp_path) == log


def test_a_normal_user_without_sudo_is_told_what_to_run(tmp_path):
    env = _stubs(tmp_path, version="3.12.1", ok=True, uid=1000, sudo=False)
    done = _setup(tmp_path, env)
    assert done.returncode == 1
    assert "'apt-get update -qq' needs root and there is no sudo here" in done.stderr
    assert not (tmp_path / "repo" / ".venv").exists()


def test_an_active_virtual_environment_is_used_as_it_is(tmp_path):
    env = _stubs(tmp_path, version="3.12.1", ok=True, uid=1000, sudo=False)
    active = tmp_path / "active"
    (active / "bin").mkdir(parents=True)
    shutil.copy(tmp_path / "bin" / "python3", active / "bin" / "python")
    done = _setup(tmp_path, {**env, "VIRTUAL_ENV": str(active)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{active}/bin\n"
    assert not (tmp_path / "repo" / ".venv").exists()
    old = _setup(tmp_path, {**env, "VIRTUAL_ENV": str(active), "STUB_OK": "0"})
    assert old.returncode == 1 and "deactivate it or make a new one" in old.stderr
