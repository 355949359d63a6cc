"""One conversation per process and the declared runtime, without a browser: the profile
keys refused with the key named, several lanes refused, the restart step against a real
product process (and every way it can fail, each the product's error), and the runtime a
profile or a run declares."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from claims_records import DeclaredRuntime, ProductError, ProfileError
from harness import check_runtime
from harness._conversation import check_lanes
from harness.profile import Lane, NewConversation, Profile, load_profile
from harness.runner import product_info, run_labels
from harness.trial._conversation import new_conversation, start_new_conversation
from harness.trial._record import Journey

from . import one_conversation

PRODUCT = Path(one_conversation.__file__)

PROFILE = """
name = "one-chat"
base_url = "http://127.0.0.1:1"

[capabilities]
runtime_report = false
staff_side = false
customer_accounts = false

[reset]
adapter = "none"

[completion]
stable_ms = 300

[customer_screen]
conversation = ".thread"
agent_message = ".bubble.bot"
customer_message = ".bubble.me"
composer_input = "textarea"
composer_send = "button.send"
claim_number_pattern = "CLM-26-[A-Z0-9]{6}"
"""

CONVERSATION = """
[conversation]
scope = "process"

[conversation.new]
by = "control"
control = "role=button[name='New claim']"
"""


def _profile(tmp_path: Path, text: str) -> Profile:
    path = tmp_path / "one-chat.toml"
    path.write_text(PROFILE + text, encoding="utf-8")
    return load_profile(path)


@pytest.mark.parametrize(("text", "field", "message"), [
    ('[conversation]\nscope = "process"\n', "conversation",
     "needs [conversation.new]"),
    ('[conversation]\nscope = "process"\n[conversation.new]\nby = "url"\n',
     "conversation.new", "by = 'url' needs conversation.new.url"),
    ('[conversation.new]\nby = "url"\nurl = "/new"\ncontrol = "text=New"\n',
     "conversation.new", "conversation.new.control is not used with by = 'url'"),
    ('[conversation.new]\nby = "restart"\ncommand = ["bot", "{pid}"]\n',
     "conversation.new", "unknown placeholder {pid}"),
    ('[conversation]\ninstance_per_lane = true\n', "conversation",
     "instance_per_lane is for scope = 'process'"),
    ('[conversation]\nscope = "sometimes"\n', "conversation.scope", "'session' or 'process'"),
])
def test_conversation_keys_are_refused_with_the_key_named(tmp_path, text, field, message):
    with pytest.raises(ProfileError, match="invalid profile") as info:
        _profile(tmp_path, text)
    assert info.value.context["field"] == field
    assert info.value.context["file"].endswith("one-chat.toml")
    assert message in str(info.value)


def test_a_new_conversation_needs_customer_messages_to_check_it(tmp_path):
    text = (PROFILE + CONVERSATION).replace('customer_message = ".bubble.me"\n', "")
    path = tmp_path / "p.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError, match=r"needs customer_screen\.customer_message"):
        load_profile(path)


def test_a_declared_runtime_is_for_a_product_that_cannot_report_one(tmp_path):
    text = PROFILE.replace("runtime_report = false", "runtime_report = true")
    path = tmp_path / "p.toml"
    path.write_text(text + '[runtime.declared]\nmodel = "m"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"runtime\.declared is for a product that cannot"):
        load_profile(path)
    path.write_text(PROFILE + "[runtime.declared]\n", encoding="utf-8")
    with pytest.raises(ProfileError, match="declare at least one of model, endpoint"):
        load_profile(path)


def test_lanes_sharing_one_conversation_are_refused(tmp_path):
    prof = _profile(tmp_path, CONVERSATION)
    two = [Lane(name="a", base_url="http://127.0.0.1:1"),
           Lane(name="b", base_url="http://127.0.0.1:2")]
    check_lanes(prof, two[:1], started_per_lane=False)
    check_lanes(prof, two, started_per_lane=True)  # --dev: a product per lane
    with pytest.raises(ProfileError) as info:
        check_lanes(prof, two, started_per_lane=False, file="one-chat.toml")
    assert info.value.context == {"profile": "one-chat", "file": "one-chat.toml",
                                  "field": "conversation.scope"}
    assert "\n" not in str(info.value)
    own = prof.model_copy(update={"conversation": prof.conversation.model_copy(
        update={"instance_per_lane": True})})
    check_lanes(own, two, started_per_lane=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def product_process(tmp_path):
    """The one-conversation product as a process of its own, started as a restart would."""
    port, pidfile = _free_port(), tmp_path / "product.pid"
    subprocess.run([sys.executable, str(PRODUCT), "restart", "--port", str(port),
                    "--pidfile", str(pidfile)], check=True, timeout=30)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/health", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.05)
    try:
        yield base, pidfile
    finally:
        one_conversation.stop_process(pidfile, port)


@pytest.mark.asyncio
async def test_a_restart_empties_the_conversation_and_waits_until_ready(product_process):
    base, pidfile = product_process
    httpx.post(base + "/api/say", json={"text": "an earlier customer"}, timeout=5)
    before = pidfile.read_text()
    step = NewConversation(by="restart", ready_url="/health", timeout_s=20, command=[
        sys.executable, str(PRODUCT), "restart", "--port", "{port}", "--pidfile",
        str(pidfile)])
    detail = await start_new_conversation(None, Lane(name="lane-1", base_url=base), step)
    assert "/health answered HTTP 200" in detail
    assert httpx.get(base + "/api/conversation", timeout=5).json() == []
    assert pidfile.read_text() != before  # really another process


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


@pytest.mark.parametrize(("command", "timeout", "message"), [
    (_python("import sys; sys.stderr.write('bot: no such unit\\n'); sys.exit(3)"), 10,
     "the restart command failed with exit code 3: bot: no such unit"),
    (["/nonexistent/restart-bot"], 10, "cannot run the restart command"),
    (_python("pass"), 0.5, "the product was not ready again after the restart"),
])
@pytest.mark.asyncio
async def test_a_failed_restart_is_the_products_error(command, timeout, message):
    step = NewConversation(by="restart", command=command, timeout_s=timeout)
    lane = Lane(name="lane-1", base_url=f"http://127.0.0.1:{_free_port()}")
    with pytest.raises(ProductError, match=message):
        await start_new_conversation(None, lane, step)


@pytest.mark.asyncio
async def test_a_restart_command_overrunning_is_stopped(tmp_path):
    pid_file = tmp_path / "pid"
    command = _python(f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid()));"
                      " time.sleep(60)")
    step = NewConversation(by="restart", command=command, timeout_s=1)
    with pytest.raises(ProductError, match="did not finish in time"):
        await start_new_conversation(None, Lane(name="l", base_url="http://127.0.0.1:1"), step)
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


@pytest.mark.asyncio
async def test_a_failed_step_is_recorded_and_stops_the_trial(tmp_path):
    prof = _profile(tmp_path, '[conversation]\nscope = "process"\n[conversation.new]\n'
                    f'by = "restart"\ncommand = {json.dumps(_python("raise SystemExit(2)"))}\n')
    j = Journey(folder=tmp_path)
    assert prof.conversation.new is not None
    start, _ = new_conversation(j, prof.resolved_lanes()[0], prof.conversation.new)
    with pytest.raises(ProductError, match="the new conversation by restart failed: the "
                       "restart command failed with exit code 2"):
        await start(None)  # type: ignore[arg-type]  # a restart needs no page
    assert j.new_conversation is not None
    assert (j.new_conversation.by, j.new_conversation.ok, j.new_conversation.fresh) == (
        "restart", False, None)
    event = json.loads((tmp_path / "journey.jsonl").read_text())
    assert event["note"].startswith("new conversation by restart failed")


def test_a_declared_runtime_is_recorded_as_declared(tmp_path):
    prof = _profile(tmp_path, '[runtime.declared]\nmodel = "claims-bot-7b"\n'
                    'endpoint = "https://team:pw@llm.internal:8443/v1?api_key=k"\n')
    lanes = prof.resolved_lanes()
    info = check_runtime(prof, lanes, self_test=False)
    assert info.source == "declared" and not info.reported
    assert info.runtime == "model claims-bot-7b; endpoint https://llm.internal:8443/v1"
    # the run's own declaration goes over the profile's, key by key
    run_says = DeclaredRuntime(model="claims-bot-8b", version="0.5")
    info = check_runtime(prof, lanes, self_test=False, declared=run_says)
    assert info.declared == DeclaredRuntime(
        model="claims-bot-8b", endpoint="https://llm.internal:8443/v1", version="0.5")
    product = product_info(prof, lanes, info)
    assert (product.runtime_source, product.runtime_reported) == ("declared", False)
    assert product.declared_runtime == info.declared
    assert "pw" not in product.model_dump_json()
    assert run_labels(False, True, info.reported, info.declared is not None) == [
        "no reset", "runtime declared, not reported"]


def test_unknown_and_refused_runtimes(tmp_path):
    prof = _profile(tmp_path, "")
    with pytest.raises(ProductError, match="--declare-runtime model=NAME"):
        check_runtime(prof, prof.resolved_lanes(), self_test=False)
    info = check_runtime(prof, prof.resolved_lanes(), self_test=False, allow_unreported=True)
    assert (info.source, info.runtime) == ("unknown", "not reported")
    assert product_info(prof, prof.resolved_lanes(), info).runtime_source == "unknown"
    reporting = prof.model_copy(update={"capabilities": prof.capabilities.model_copy(
        update={"runtime_report": True})})
    with pytest.raises(ProfileError, match="cannot declare it: drop --declare-runtime"):
        check_runtime(reporting, prof.resolved_lanes(), self_test=False,
                      declared=DeclaredRuntime(model="m"))


def test_profile_check_says_how_conversations_are_held(tmp_path):
    from harness._profile_check import conversation_lines

    prof = _profile(tmp_path, CONVERSATION)
    [line] = conversation_lines(prof)
    assert (line.ok, line.detail) == (None, "one per process; before every trial a new one "
                                      "by control role=button[name='New claim']")
    two = prof.model_copy(update={"lanes": [Lane(name="a", base_url="http://127.0.0.1:1"),
                                            Lane(name="b", base_url="http://127.0.0.1:2")]})
    assert [ln.ok for ln in conversation_lines(two)] == [None, False]
    assert conversation_lines(_profile(tmp_path, "")) == []
