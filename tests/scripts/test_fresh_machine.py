"""The README's two commands on a fresh machine: a Python whose system site refuses pip
installs (a PEP 668 EXTERNALLY-MANAGED marker, as on Debian 12), the test command as root (as
CI runs it) and the demo as a normal user, each from a fresh copy of the project of its own
with no virtual environment active; nothing is left in the temporary folder.

The "system" Python is built here from the running one: its standard library is hard-linked
into a new folder (fast, no copy, readable by the normal user whatever the original's parent
permissions) without the running one's site-packages, so what this machine happens to have
installed plays no part. Then pip and the project's runtime dependencies are installed into
it, as a machine's Python packages would be there (not its test tools): the running
environment's installed files, bytecode included, hard-linked into its site folder
(``_installed``; the state ``pip install`` leaves, without a minute of unpacking and
compiling). The marker is added to its standard library, so pip refuses to install into it
exactly as Debian's does.

What the scripts install comes from a wheel folder kept in pytest's cache folder, where later
sessions and other test workers find it: the wheels are made from the distributions installed
in the environment running the tests (``_installed``; what it lacks comes from the package
index), so the fresh machine gets the packages this checkout was type-checked with, and the
test command's type check starts from this checkout's cache (a newer pydantic alone made mypy
check everything again: 6 -> 39 CPU-s). Made that way it takes seconds where ``pip wheel``
from the index took half a minute of CPU, reading the index's page of every package; what
the "system" Python has is left out. The scripts then run without an index (PIP_NO_INDEX +
PIP_FIND_LINKS): the virtual environment they make sees the system's packages
(--system-site-packages) and installs only what is missing (the project, and the test extras
for the test command).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

from ._installed import installed_closure, link_installed, wheel_of

REPO = Path(__file__).resolve().parents[2]
MARKER = """[externally-managed]
Error=To install Python packages system-wide, try apt install python3-xyz (a stand-in for
 Debian 12's marker, written by the project's tests).
"""
NOBODY = 65534
# Two installs, a test run and a demo: minutes on a quiet machine, far longer on a busy one;
# each command has its own bound below, and the test as a whole a generous one.
pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.timeout(3600)]


@pytest.fixture(scope="module")
def workspace() -> Iterator[Path]:
    """A folder every user can enter, removed afterwards."""
    path = Path(tempfile.mkdtemp(prefix="ch-fresh-", dir="/tmp"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def _project() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _requirements() -> list[str]:
    """Everything ``scripts/test.sh`` and ``scripts/demo.sh`` install: the project's
    dependencies, its test extras and the build tools of its pip build (setuptools, wheel)."""
    project = _project()
    return sorted({*project["project"]["dependencies"],
                   *project["project"]["optional-dependencies"]["test"],
                   *project["build-system"]["requires"], "wheel"})


def _system_packages() -> list[metadata.Distribution]:
    """What the "system" Python has: pip, and the project's runtime dependencies with theirs."""
    dists, missing = installed_closure([*_project()["project"]["dependencies"], "pip"],
                                       leave_out={_project()["project"]["name"]})
    assert not missing, f"the environment running the tests lacks {missing}"
    return dists


def _pins() -> list[str]:
    """``name==version`` of every distribution the running environment imports (the first of
    each name on ``sys.path``), but the project itself and the packaging tools (the build
    asks for newer ones than a Python may bring)."""
    left_out = {_project()["project"]["name"].lower(), "pip", "setuptools", "wheel"}
    seen: dict[str, str] = {}
    for dist in metadata.distributions():
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        if name and name not in left_out and name not in seen:
            seen[name] = dist.version
    return [f"{name}=={version}" for name, version in sorted(seen.items())]


@pytest.fixture(scope="session")
def wheel_cache(request: pytest.FixtureRequest,
                tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of every requirement and of what they require, but what the "system" Python
    has, in pytest's cache folder, in the versions this environment has: made from the
    installed distributions (``_installed``), and from the package index for what this
    environment lacks (the build tools, where its setuptools is older than the build asks
    for). A folder per set of requirements and versions, marked complete once filled, so a
    later session finds it as it is. A lock file keeps two test workers from filling it at
    once."""
    system = {d.metadata["Name"] for d in _system_packages()}
    wanted, pins = _requirements(), _pins()
    described = "\n".join([*wanted, "", *pins, "", "but", *sorted(system)])
    key = hashlib.sha256(described.encode()).hexdigest()[:12]
    cache = getattr(request.config, "cache", None)
    stem = f"fresh-machine-wheels-py{sys.version_info.major}{sys.version_info.minor}"
    folder = (cache.mkdir(f"{stem}-{key}") if cache is not None
              else tmp_path_factory.mktemp(f"{stem}-{key}"))
    done = folder / ".complete"
    with open(folder / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if done.is_file():
            return folder
        dists, missing = installed_closure(wanted, leave_out={_project()["project"]["name"]})
        for dist in dists:
            if dist.metadata["Name"] not in system:
                wheel_of(dist, folder)
        if missing:
            # what they require in the versions this environment has (a newer `packaging`
            # beside the installed one: the fresh venv took it, and its type check started over)
            pinned = folder / "constraints.txt"
            pinned.write_text("\n".join(pins) + "\n", encoding="utf-8")
            built = subprocess.run(
                [sys.executable, "-m", "pip", "wheel", "-q", "--disable-pip-version-check",
                 "--find-links", str(folder), "-c", str(pinned), "-w", str(folder), *missing],
                capture_output=True, text=True, timeout=1800)
            if built.returncode != 0:
                pytest.skip(f"this environment lacks {', '.join(missing)} and there is no "
                            f"package index to take them from "
                            f"({built.stderr.strip()[-400:]})")
        done.write_text(described + "\n", encoding="utf-8")
    # earlier sets of requirements or pins: a few hundred MB each, never used again
    for old in folder.parent.glob(f"{stem}*"):
        if old != folder and cache is not None:
            shutil.rmtree(old, ignore_errors=True)
    return folder


@pytest.fixture(scope="module")
def wheels(workspace: Path, wheel_cache: Path) -> Path:
    """The cached wheels in the workspace (hard links where possible), readable by anyone."""
    folder = workspace / "wheels"
    folder.mkdir()
    for wheel in wheel_cache.glob("*.whl"):
        try:
            os.link(wheel, folder / wheel.name)
        except OSError:
            shutil.copy2(wheel, folder / wheel.name)
        (folder / wheel.name).chmod(0o644)
    folder.chmod(0o755)
    return folder


def _site_folder(name: str) -> bool:
    return name in ("site-packages", "dist-packages")


@pytest.fixture(scope="module")
def system_python(workspace: Path) -> Path:
    """A non-virtual Python that refuses pip installs and has pip and the project's runtime
    dependencies installed; returns its bin folder."""
    base = Path(sys.base_prefix)
    prefix = workspace / "python"
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    # Only what an interpreter is made of (not all of /usr when it is a distribution's), and
    # none of the packages installed into it here.
    stdlib_parts = [f"lib/{version}/{p.name}" for p in sorted((base / "lib" / version).iterdir())
                    if not _site_folder(p.name)]
    # the interpreter's own files in bin (not the scripts of packages installed into it)
    interpreter = [f"bin/{p.name}" for p in (base / "bin").iterdir()
                   if p.name.startswith("python")]
    parts = [*interpreter, *stdlib_parts,
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
    bin_dir = prefix / "bin"
    python = bin_dir / version
    env = _env(workspace, bin_dir, "probe")
    # where this Python's pip would install (Debian's: local/lib/python3.X/dist-packages)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                "print(sysconfig.get_path('purelib'))"],
                               env=env, capture_output=True, text=True, check=True).stdout.strip())
    assert site.is_relative_to(prefix), site
    for dist in _system_packages():
        link_installed(dist, prefix, site, python)
    marker = stdlib / "EXTERNALLY-MANAGED"
    marker.unlink(missing_ok=True)  # a distribution's own is a hard link to the original
    marker.write_text(MARKER)
    probe = subprocess.run([str(python), "-c", "import sys, pydantic; print(sys.prefix == "
                            "sys.base_prefix, sys.prefix, pydantic.__file__)"],
                           env=env, capture_output=True, text=True)
    assert probe.stdout.split()[:2] == ["True", str(prefix)], probe.stderr
    assert probe.stdout.split()[2].startswith(str(prefix)), probe.stdout
    missing = subprocess.run([str(python), "-c", "import pytest"], env=env,
                             capture_output=True, text=True)
    assert missing.returncode != 0, "the system Python must not have the test tools"
    refused = subprocess.run([str(python), "-m", "pip", "install", "--no-index", "anything"],
                             env=env, capture_output=True, text=True)
    assert refused.returncode != 0 and "externally-managed-environment" in refused.stderr
    return bin_dir


def _env(workspace: Path, bin_dir: Path, who: str) -> dict[str, str]:
    """The environment of a command on the fresh machine. pip installs without compiling
    bytecode (Python compiles a module when it is first imported): the compiling was two
    thirds of pip's CPU for the test extras, and what the test is about (what gets
    installed, from where, into which environment) is the same either way."""
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
            "PIP_COMPILE": "0",  # pip install --no-compile
            "CLAIMS_HARNESS_RUNS_DIR": "runs",
            # one test file: one worker, not one per core each importing the project
            "CLAIMS_HARNESS_TEST_WORKERS": "1"}


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


def _left_in_tmp(workspace: Path, who: str) -> list[str]:
    return sorted(p.name for p in (workspace / f"tmp-{who}").iterdir()
                  if not p.name.startswith("pytest-of-"))  # pytest's own, kept by design


# Both tests share one "system" Python (one module, one worker: tests/conftest.py).
def test_the_test_command_as_root_as_ci_runs_it(workspace, wheels, system_python):
    if os.getuid() != 0:
        pytest.skip("the test command as root needs root")
    env = _env(workspace, system_python, "root")
    repo = _fresh_copy(workspace, "root", 0)
    # The type checker's cache of this checkout (scripts/test.sh type-checks before the tests
    # run): mypy still checks every file and reads only what has not changed, so the copy
    # type-checks in seconds instead of a minute of CPU. What the test is about, what the
    # command installs on a fresh machine, is untouched.
    if (REPO / ".mypy_cache").is_dir():
        shutil.copytree(REPO / ".mypy_cache", repo / ".mypy_cache")
    done = subprocess.run(["bash", "scripts/test.sh", "tests/claims_corpus/test_loading.py",
                           "-q", "-p", "no:cacheprovider"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "passed" in done.stdout
    assert f"setup: creating {repo}/.venv with python3.11" in done.stderr
    cfg = (repo / ".venv" / "pyvenv.cfg").read_text()
    assert f"home = {system_python}" in cfg and "include-system-site-packages = true" in cfg
    own = [p.name for p in (repo / ".venv").glob("lib/python*/site-packages/*")]
    assert "xdist" in own and "hypothesis" in own  # what the machine lacked went in,
    assert "pydantic" not in own and "playwright" not in own  # what it had is the system's
    assert _left_in_tmp(workspace, "root") == []


def test_the_demo_as_a_normal_user_on_a_copy_of_their_own(workspace, wheels, system_python):
    if os.getuid() != 0:
        pytest.skip("switching to a normal user and chowning the copy needs root")
    if shutil.which("setpriv") is None:
        pytest.skip("no setpriv to run as a normal user")
    env = _env(workspace, system_python, "user")
    repo = _fresh_copy(workspace, "user", NOBODY)
    demo = subprocess.run(_as(NOBODY, ["bash", "scripts/demo.sh", "--pack", "CTL-M-001"]),
                          cwd=repo, env=env, capture_output=True, text=True, timeout=1500)
    assert demo.returncode == 0, demo.stdout[-3000:] + demo.stderr[-3000:]
    assert f"setup: creating {repo}/.venv with python3.11" in demo.stderr
    own = [p.name for p in (repo / ".venv").glob("lib/python*/site-packages/*")]
    assert "pydantic" not in own and "playwright" not in own  # the system's are used
    report = [x for x in demo.stdout.splitlines() if x.startswith("Report:")]
    assert report and (repo / report[0].split(maxsplit=1)[1]).is_file()
    owners = {p.stat().st_uid for p in [repo / ".venv", *(repo / "runs").rglob("*")]}
    assert owners == {NOBODY}
    assert _left_in_tmp(workspace, "user") == []
