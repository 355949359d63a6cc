"""``profile check`` of a profile holding selectors Playwright cannot parse, table-driven,
in-process against a small chat page on loopback: each ends in a reported problem naming the
profile, the key and the selector, exit 1, no traceback; a profile whose selectors all parse
(every syntax) is checked as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from claims_cli.app import app
from tests.harness.pages import PageServer

pytestmark = [pytest.mark.slow, pytest.mark.browser]

GOOD = {
    "conversation": "role=log",
    "agent_message": ".bubble.bot",
    "customer_message": "xpath=//li[contains(@class, 'me')]",
    "composer_input": "role=textbox[name='Your message']",
    "composer_send": "button:has-text('Send')",
    "upload_error": "text=/could not upload/i",
    "chips": ["css=.chips button", "main >> button.chip"],
}
# (case, [(key in the TOML, value)], keys named in the report)
CASES: list[tuple[str, list[tuple[str, str | list[str]]], list[str]]] = [
    ("broken CSS", [("agent_message", "div[[")], ["customer_screen.agent_message"]),
    ("broken XPath", [("agent_message", "xpath=//div[")], ["customer_screen.agent_message"]),
    ("bare broken XPath", [("customer_message", "//li[@class=")],
     ["customer_screen.customer_message"]),
    ("leading dots read as XPath", [("conversation", "...")], ["customer_screen.conversation"]),
    ("empty XPath", [("customer_message", "xpath=")], ["customer_screen.customer_message"]),
    ("nothing after >>", [("composer_send", "button >> ")], ["customer_screen.composer_send"]),
    ("unclosed role attribute", [("composer_input", "role=textbox[name=")],
     ["customer_screen.composer_input"]),
    ("unknown engine", [("composer_input", "nosuch=foo")], ["customer_screen.composer_input"]),
    ("unclosed :has-text(", [("composer_send", "button:has-text(")],
     ["customer_screen.composer_send"]),
    ("bad text regex", [("upload_error", "text=/unclosed(/")], ["customer_screen.upload_error"]),
    ("unknown pseudo-class", [("agent_message", "div:unknown-pseudo")],
     ["customer_screen.agent_message"]),
    ("unterminated quote", [("agent_message", "[data-x='open]")],
     ["customer_screen.agent_message"]),
    ("lone #", [("agent_message", "#")], ["customer_screen.agent_message"]),
    ("second alternative broken", [("chips", ["button.chip", "div[["])],
     ["customer_screen.chips[1]"]),
    ("completion selector", [("completion.busy", ".spinner[")], ["completion.busy"]),
    ("two broken at once", [("agent_message", "div[["), ("composer_send", "xpath=//button[")],
     ["customer_screen.agent_message", "customer_screen.composer_send"]),
]


def _toml(value: str | list[str]) -> str:
    items = [value] if isinstance(value, str) else value
    quoted = ", ".join("'" + v + "'" if "'" not in v else '"' + v + '"' for v in items)
    return quoted if isinstance(value, str) else f"[{quoted}]"


def _profile(path: Path, base_url: str, screen: dict[str, str | list[str]],
             busy: str = ".spinner") -> Path:
    lines = "\n".join(f"{k} = {_toml(v)}" for k, v in screen.items())
    path.write_text(f'''name = "broken-selectors"
base_url = "{base_url}"
[capabilities]
customer_accounts = false
staff_side = false
runtime_report = false
[reset]
adapter = "none"
[completion]
busy = {_toml(busy)}
timeout_s = 5
[customer_screen]
start_path = "/?signal=attr&greet=100"
claim_number_pattern = "CLM-\\\\d+"
{lines}
''', encoding="utf-8")
    return path


@pytest.mark.parametrize(("case", "bad", "keys"), CASES, ids=[c[0] for c in CASES])
def test_a_selector_that_does_not_parse_is_a_reported_problem(
        case: str, bad: list[tuple[str, str | list[str]]], keys: list[str],
        server: PageServer, tmp_path: Path) -> None:
    screen = dict(GOOD)
    busy = ".spinner"
    for key, value in bad:
        if key == "completion.busy":
            assert isinstance(value, str)
            busy = value
        else:
            screen[key] = value
    path = _profile(tmp_path / "broken.toml", server.url, screen, busy)

    result = CliRunner().invoke(app, ["profile", "check", str(path)])

    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), case
    assert "Traceback" not in result.output
    assert result.output.startswith("Profile broken-selectors\n")
    fails = [ln for ln in result.output.splitlines() if ln.startswith("FAIL selector")]
    assert len(fails) == len(keys), result.output
    for line, key, (_, value) in zip(fails, keys, bad, strict=True):
        shown = value if isinstance(value, str) else value[-1]
        assert f"{key} = {shown!r} is not a valid selector: " in line, line
    assert f"{len(keys)} problem(s)" in result.output


def test_a_profile_whose_selectors_all_parse_is_checked_as_before(
        server: PageServer, tmp_path: Path) -> None:
    path = _profile(tmp_path / "good.toml", server.url, dict(GOOD))
    result = CliRunner().invoke(app, ["profile", "check", str(path)])
    assert result.exit_code == 0, result.output
    assert "FAIL" not in result.output and "ok   start page" in result.output
    assert "0 problem(s)" in result.output
