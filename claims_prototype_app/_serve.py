"""Serving the chat page: Streamlit runs in a child process of its own session; a SIGTERM or
Ctrl-C stops it (and anything it started) before this process exits."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import FrameType

from ._settings import Settings

PAGE = Path(__file__).with_name("_chat_page.py")
STOP_TIMEOUT_S = 10.0


def streamlit_command(host: str, port: int) -> list[str]:
    return [sys.executable, "-m", "streamlit", "run", str(PAGE),
            "--server.address", host, "--server.port", str(port),
            "--server.headless", "true", "--server.fileWatcherType", "none",
            "--server.runOnSave", "false", "--browser.gatherUsageStats", "false",
            "--global.developmentMode", "false", "--client.toolbarMode", "minimal"]


def _ready(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "_stcore/health", timeout=2) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def stop(child: subprocess.Popen[bytes]) -> None:
    """Stop the child's whole process group: SIGTERM, then SIGKILL after a grace period."""
    if child.poll() is not None:
        return
    try:
        os.killpg(child.pid, signal.SIGTERM)
        child.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    except ProcessLookupError:
        child.wait()


def serve(settings: Settings, host: str, port: int, start_timeout_s: float = 60.0) -> int:
    """Run the chat page until it exits or this process is told to stop; an exit code."""
    if importlib.util.find_spec("streamlit") is None:
        print("Heron Mutual needs Streamlit: pip install 'claims-journey-harness[prototype]' "
              "(or the project's test extras)", file=sys.stderr)
        return 2
    settings.uploads_dir.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **settings.environ()}
    url = f"http://{host}:{port}/"
    stopping: list[int] = []

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stopping.append(signum)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    child = subprocess.Popen(streamlit_command(host, port), env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + start_timeout_s
        while not stopping and child.poll() is None and not _ready(url):
            if time.monotonic() > deadline:
                print(f"error: Heron Mutual did not answer on {url}", file=sys.stderr)
                return 1
            time.sleep(0.2)
        if not stopping and child.poll() is None:
            print(f"Heron Mutual on {url}", flush=True)
        while not stopping and child.poll() is None:
            time.sleep(0.2)
        return 0 if stopping else (child.returncode or 0)
    finally:
        stop(child)
        for signum, handler in previous.items():
            signal.signal(signum, handler)
