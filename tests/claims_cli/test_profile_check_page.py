"""``profile check`` on the start page, table-driven, in-process against the small chat page
on loopback (``tests/harness/pages.py``):

- the new-conversation control is tried: a misspelt one is a FAIL naming its key and
  selector, found at once; one that changes nothing is a FAIL; a working control or URL is ok;
- a page rendered client-side is waited for when ``completion.ready`` is set, and warned
  about (WARN, no problem) when it is not; a ready selector that never matches is a FAIL
  naming ``completion.ready``;
- ``--base-url`` points the check elsewhere, as ``run``'s does;
- a chat widget in an iframe is read through ``customer_screen.frame``.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli.app import app
from tests.harness.pages import PageServer

pytestmark = [pytest.mark.slow, pytest.mark.browser]

SCREEN = """conversation = 'role=log'
agent_message = '.bubble.bot'
customer_message = '.bubble.me'
composer_input = "role=textbox[name='Your message']"
composer_send = "button:has-text('Send')"
claim_number_pattern = "CLM-\\\\d+"
"""


def _profile(path: Path, base_url: str, start: str, completion: str = "",
             conversation: str = "", frame: str = "") -> Path:
    path.write_text(f'''name = "chat-page"
base_url = "{base_url}"
version = "5"
[capabilities]
customer_accounts = false
staff_side = false
runtime_report = false
[reset]
adapter = "none"
[completion]
selector = "role=log"
attribute = "data-state"
value = "idle"
timeout_s = 3
{completion}
[customer_screen]
start_path = "{start}"
{frame}
{SCREEN}
{conversation}
''', encoding="utf-8")
    return path


def _check(path: Path, *more: str):
    result = CliRunner().invoke(app, ["profile", "check", str(path), *more])
    assert "Traceback" not in result.output
    return result


def _lines(output: str, what: str) -> list[str]:
    return [ln for ln in output.splitlines() if ln[5:].startswith(what)]


# ------------------------------------------------------------------ new conversation

CONTROL = "role=button[name='Start a new claim']"
MISSPELT = "role=button[name='Start a new clam']"
# (case, page query, [conversation.new] keys, exit code, the new-conversation line's start and
# words it holds)
NEW_CONVERSATION = [
    ("working control", "restart=clear", f'by = "control"\ncontrol = "{CONTROL}"', 0,
     "ok  ", [f"conversation.new.control = {CONTROL!r} clicked", "fresh conversation"]),
    ("misspelt control", "restart=clear", f'by = "control"\ncontrol = "{MISSPELT}"', 1,
     "FAIL", [f"conversation.new.control = {MISSPELT!r} matches no visible control",
              "product_error"]),
    ("second alternative works", "restart=clear",
     f'by = "control"\ncontrol = ["{MISSPELT}", "{CONTROL}"]', 0, "ok  ", ["clicked"]),
    ("control that changes nothing", "restart=noop", f'by = "control"\ncontrol = "{CONTROL}"',
     1, "FAIL", [f"conversation.new.control = {CONTROL!r} was clicked, but the conversation "
                 "did not change", "1 customer message(s) still shown"]),
    ("url", "", 'by = "url"\nurl = "/?signal=attr"', 0, "ok  ",
     ["conversation.new.url = '/?signal=attr' opened", "fresh conversation"]),
    ("restart is not tried", "", 'by = "restart"\ncommand = ["true"]', 0, "    ",
     ["not tried by profile check"]),
]


@pytest.mark.parametrize(("case", "query", "step", "code", "mark", "words"), NEW_CONVERSATION,
                         ids=[c[0] for c in NEW_CONVERSATION])
def test_the_new_conversation_step_is_tried(case: str, query: str, step: str, code: int,
                                            mark: str, words: list[str], server: PageServer,
                                            tmp_path: Path) -> None:
    conversation = f'[conversation]\nscope = "process"\n[conversation.new]\n{step}\ntimeout_s = 2\n'
    path = _profile(tmp_path / "p.toml", server.url, f"/?signal=attr&{query}",
                    conversation=conversation)
    started = time.monotonic()
    result = _check(path)
    assert result.exit_code == code, result.output
    [line] = _lines(result.output, "new conversation")
    assert line.startswith(mark), line
    for word in words:
        assert word in line, (word, line)
    assert f"{1 if code else 0} problem(s)" in result.output
    if case == "misspelt control":  # found at once, not after the step's wait
        assert time.monotonic() - started < 30


# ------------------------------------------------------------------ client-rendered pages

# (case, start path, [completion] lines, exit code, WARN expected, FAIL words, a region row
# that must show)
READY = [
    ("late greeting, no ready", "/?signal=attr&greet=1500", "", 0, ["agent_message"], [],
     ("agent_message", "1")),
    ("late greeting, ready waited for", "/?signal=attr&greet=1500", "ready = '.bubble.bot'", 0,
     [], [], ("agent_message", "1")),
    ("page built by script, no ready", "/spa?signal=attr", "", 0,
     ["conversation", "composer_input", "composer_send", "buttons"], [], ("composer_send", "1")),
    ("page built by script, ready waited for", "/spa?signal=attr", "ready = 'role=log'", 0, [],
     [], ("conversation", "1")),
    ("server-rendered page, no ready", "/?signal=attr", "", 0, [], [], ("conversation", "1")),
    ("misspelt ready", "/?signal=attr&greet=100", "ready = '.bubble.bott'", 1, [],
     ["completion.ready = '.bubble.bott' never matched on the start page"], None),
]


@pytest.mark.parametrize(("case", "start", "completion", "code", "warned", "fails", "row"),
                         READY, ids=[c[0] for c in READY])
def test_a_client_rendered_start_page_is_waited_for_or_warned_about(
        case: str, start: str, completion: str, code: int, warned: list[str], fails: list[str],
        row: tuple[str, str] | None, server: PageServer, tmp_path: Path) -> None:
    path = _profile(tmp_path / "p.toml", server.url, start, completion)
    result = _check(path)
    assert result.exit_code == code, result.output
    warns = [ln for ln in result.output.splitlines() if ln.startswith("WARN")]
    if warned:
        [warn] = warns
        assert "completion.ready is not set and the start page is rendered client-side" in warn
        named = warn.split("client-side: ", 1)[1].split(" not in its HTML", 1)[0]
        assert named.split(", ") == warned
        assert result.output.rstrip().endswith("0 problem(s), 1 warning(s)")
    else:
        assert warns == [], result.output
    for words in fails:
        assert any(words in ln for ln in result.output.splitlines()
                   if ln.startswith("FAIL start page")), result.output
    if row is not None:
        name, count = row
        assert any(ln.split()[:2] == [name, count] for ln in result.output.splitlines()), \
            result.output


# ------------------------------------------------------------------ --base-url

def test_base_url_points_the_check_elsewhere(server: PageServer, tmp_path: Path) -> None:
    from claims_dev import free_port

    gone = f"http://127.0.0.1:{free_port()}"
    path = _profile(tmp_path / "p.toml", gone, "/?signal=attr")
    assert _check(path).exit_code == 1  # the profile's own URL: nothing there
    cases = [  # (arguments, exit code, words in the output)
        (["--base-url", server.url], 0, [f"Lane lane-1: {server.url}", "0 problem(s)"]),
        (["--base-url", server.url + "/"], 0, [f"Lane lane-1: {server.url}\n"]),
        (["--base-url", server.url, "--base-url", gone], 0, [f"Lane lane-1: {server.url}"]),
        (["--base-url", "127.0.0.1:9"], 2, ["a base URL starts with http:// or https://",
                                            "field=--base-url"]),
        (["--base-url", server.url, "--dev"], 2, ["--dev starts its own product; drop "
                                                  "--base-url"]),
    ]
    for args, code, words in cases:
        result = _check(path, *args)
        assert result.exit_code == code, (args, result.output)
        text = " ".join(result.output.split()) if code == 2 else result.output
        for word in words:
            assert (word if code != 2 else " ".join(word.split())) in text, (args, word, text)


# ------------------------------------------------------------------ a chat in an iframe

# (case, frame key, exit code, words)
FRAMES = [
    ("frame given", "frame = 'iframe[title=\"Claims chat\"]'", 0,
     ["ok   start page", "0 problem(s)"]),
    ("frame by role", "frame = 'role=document >> iframe'", 0, ["0 problem(s)"]),
    ("no frame key", "", 1, ["required region conversation has no match"]),
    ("frame that is not there", "frame = 'iframe#nope'", 1,
     ["the chat's frame did not show on the page", "field=customer_screen.frame"]),
    ("frame selector on no iframe", "frame = 'header'", 1, ["no frame"]),
]


@pytest.mark.parametrize(("case", "frame", "code", "words"), FRAMES, ids=[c[0] for c in FRAMES])
def test_a_chat_widget_in_an_iframe_is_read_through_frame(case: str, frame: str, code: int,
                                                          words: list[str], server: PageServer,
                                                          tmp_path: Path) -> None:
    path = _profile(tmp_path / "p.toml", server.url, "/widget?signal=attr&greet=100", frame=frame,
                    completion="ready = '.bubble.bot'" if frame else "")
    result = _check(path)
    assert result.exit_code == code, result.output
    for word in words:
        assert word in result.output, (word, result.output)
    if code == 0:
        rows = {ln.split()[0]: ln for ln in result.output.splitlines() if ln.startswith("  ")}
        assert '"Hello! What happened?"' in rows["agent_message"]
        assert rows["composer_send"].split()[1] == "1"
