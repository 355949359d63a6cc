"""The README's two commands on a Python whose system site refuses pip installs (a PEP 668
EXTERNALLY-MANAGED marker, as on Debian 12), as root and as a normal user, from a fresh copy
of the project with no virtual environment active; nothing is left in the temporary folder.

The "system" Python is built here from the running one: its installation is hard-linked into
a new folder (fast, no copy, readable by the normal user whatever the original's parent
permissions) and the marker is added to that folder's standard library, so pip refuses to
install into it exactly as Debian's does. Its site-packages already holds the project's
dependencies, as a machine's Python packages would; the scripts' virtual environment sees
them (--system-site-packages), so only the project itself is installed. Its build tools
(setuptools, wheel) are fetched once into a local wheel folder; both installs then run
without an index (PIP_NO_INDEX + PIP_FIND_LINKS), so nothing is downloaded twice and nothing
already installed is installed again.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MARKER = """[externally-managed]
Error=To install Python packages system-wide, try apt install python3-xyz (a stand-in for
 Debian 12's marker, written by the project's tests).
"""
NOBODY = 65534
pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.fixture(scope="module")
def workspace() -> Iterator[Path]:
    """A folder every user can enter, removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="ch-fresh-", dir="/tmp"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def system_python(workspace: Path) -> Path:
    """A non-virtual Python that refuses pip installs; returns its bin folder."""
    base = Path(sys.base_prefix)
    prefix = workspace / "python"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    # Only what an interpreter is made of (not all of /usr when it is a distribution's).
    parts = ["bin", f"lib/{version}", "lib/python3",
             *(p.relative_to(base).as_posix() for p in (base / "lib").glob("libpython*"))]
    for part in parts:
        if not (base / part).exists():
            continue
        (prefix / part).parent.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["cp", "-al", str(base / part), str(prefix / part)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot hard-link {base / part} into {workspace} "
                        f"({done.stderr.strip()}); the interpreter must be on the file system "
                        "of /tmp")
    stdlib = Path(sysconfig.get_path("stdlib", vars={"installed_base": str(prefix),
                                                     "base": str(prefix)}))
    assert stdlib.is_dir() and str(stdlib).startswith(str(prefix))
    (stdlib / "EXTERNALLY-MANAGED").write_text(MARKER)
    bin_dir = prefix / "bin"
    python = bin_dir / version
    env = _env(workspace, bin_dir, "probe")
    probe = subprocess.run([str(python), "-c", "import sys; print(sys.prefix == sys.base_prefix,"
                            " sys.prefix)"], env=env, capture_output=True, text=True)
    assert probe.stdout.split() == ["True", str(prefix)], probe.stderr
    refused = subprocess.run([str(python), "-m", "pip", "install", "--no-index", "anything"],
                             env=env, capture_output=True, text=True)
    assert refused.returncode != 0 and "externally-managed-environment" in refused.stderr
    return bin_dir


@pytest.fixture(scope="module")
def build_tools(workspace: Path) -> Path:
    """setuptools and wheel for building the project (pip's isolated build), fetched once."""
    folder = workspace / "wheels"
    done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:",
                           "-d", str(folder), "setuptools>=68", "wheel"],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        pytest.skip(f"no package index for the build tools ({done.stderr.strip()[-300:]})")
    folder.chmod(0o755)
    return folder


def _env(workspace: Path, bin_dir: Path, who: str) -> dict[str, str]:
    home, tmp = workspace / f"home-{who}", workspace / f"tmp-{who}"
    for d in (home, tmp):
        d.mkdir(exist_ok=True)
        d.chmod(0o777)
    keep = {k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TERM")}
    return {**keep, "PATH": f"{bin_dir}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:"
                            "/sbin:/bin",
            "HOME": str(home), "TMPDIR": str(tmp), "LD_LIBRARY_PATH": str(bin_dir.parent / "lib"),
            "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(workspace / "wheels"),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_CONFIG_FILE": os.devnull,
            "CLAIMS_HARNESS_RUNS_DIR": "runs"}


def _fresh_copy(workspace: Path, who: str, uid: int) -> Path:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, capture_output=True, text=True, check=True).stdout
    dest = workspace / f"repo-{who}"
    for rel in listed.splitlines():
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    if uid != os.getuid():
        subprocess.run(["chown", "-R", f"{uid}:{uid}", str(dest), str(workspace / f"home-{who}"),
                        str(workspace / f"tmp-{who}")], check=True)
    return dest


def _as(uid: int, argv: list[str]) -> list[str]:
    if uid == os.getuid():
        return argv
    return ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--", *argv]


@pytest.mark.parametrize("who", ["root", "user"])
def test_the_two_readme_commands_on_a_python_that_refuses_installs(workspace, system_python,
                                                                   build_tools, who):
    if os.getuid() != 0:
        pytest.skip("switching to a normal user and chowning the copy needs root")
    if who == "user" and shutil.which("setpriv") is None:
        pytest.skip("no setpriv to run as a normal user")
    uid = 0 if who == "root" else NOBODY
    env = _env(workspace, system_python, who)
    repo = _fresh_copy(workspace, who, uid)
    tests = _as(uid, ["bash", "scripts/test.sh", "tests/claims_corpus/test_loading.py", "-q",
                      "-p", "no:cacheprovider"])
    done = subprocess.run(tests, cwd=repo, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "passed" in done.stdout
    assert f"setup: creating {repo}/.venv with python3.11" in done.stderr
    cfg = (repo / ".venv" / "pyvenv.cfg").read_text()
    assert f"home = {system_python}" in cfg and "include-system-site-packages = true" in cfg

    demo = subprocess.run(_as(uid, ["bash", "scripts/demo.sh", "--pack", "CTL-M-001"]),
                          cwd=repo, env=env, capture_output=True, text=True, timeout=900)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    report = [x for x in demo.stdout.splitlines() if x.startswith("Report:")]
    assert report and (repo / report[0].split(maxsplit=1)[1]).is_file()
    assert "setup: creating" not in demo.stderr  # the environment made for the tests is reused
    left = sorted(p.name for p in (workspace / f"tmp-{who}").iterdir()
                  if not p.name.startswith("pytest-of-"))  # pytest's own, kept by design
    assert left == [], f"left in the temporary folder: {left}"
    if uid != 0:
        owners = {p.stat().st_uid for p in (repo / "runs").rglob("*")}
        assert owners == {uid}
