"""What `dev up` watches: every process the dev environment started, and how one ended."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from claims_dev import SPAWN_OPTIONS, DevEnvironment, exit_description
from claims_dev._environment import _AppProcess
from seed import S3Config


@pytest.mark.parametrize(("code", "said"), [
    (0, "exited with code 0"), (3, "exited with code 3"),
    (-signal.SIGKILL, "was killed by SIGKILL (signal 9)"),
    (-signal.SIGTERM, "was killed by SIGTERM (signal 15)"),
    (-250, "was killed by an unknown signal (signal 250)")])
def test_how_a_child_ended_is_said_from_its_return_code(code, said):
    assert exit_description(code) == said


def _child(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], **SPAWN_OPTIONS)


def test_ended_names_each_process_that_ended_and_how(tmp_path):
    env = DevEnvironment(lanes=[], seed_token="t", mongo_uri="mongodb://127.0.0.1:1/",
                         s3=S3Config(endpoint="http://127.0.0.1:2"), runtime="reference",
                         log_dir=tmp_path)
    sleeping = "import time; time.sleep(60)"
    app1, app2 = _child(sleeping), _child(sleeping)
    env._apps += [_AppProcess(app1, tmp_path / "a1.log", "lane1 app"),
                  _AppProcess(app2, tmp_path / "a2.log", "lane2 app")]
    try:
        assert [name for name, _ in env.processes()] == ["lane1 app", "lane2 app"]
        assert env.ended() == []
        os.killpg(app1.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not env.ended() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert env.ended() == [f"lane1 app (pid {app1.pid}) was killed by SIGKILL (signal 9)"]
        env._apps.append(_AppProcess(_child("raise SystemExit(3)"), tmp_path / "a3.log",
                                     "lane3 app"))
        env._apps[-1].proc.wait(10)
        assert env.ended()[1:] == [f"lane3 app (pid {env._apps[-1].proc.pid}) exited with "
                                   "code 3"]
    finally:
        env.close()
    assert app2.poll() is not None  # close stopped the rest
    assert env.processes() == [] and env.ended() == []
