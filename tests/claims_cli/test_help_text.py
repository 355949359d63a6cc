"""Every command's help shows its text whole: rich (typer's help renderer) takes ``[word]`` as
markup and drops it, so a profile key such as ``[dev]`` must be written ``\\[dev]``."""

from __future__ import annotations

import re

import typer
from typer.testing import CliRunner

from claims_cli import app

# Square brackets holding a word, not preceded by the backslash that escapes them.
_MARKUP_LIKE = re.compile(r"(?<!\\)\[[a-z_][a-z0-9_.]*\]")


def _commands(command, path: tuple[str, ...] = ()):
    """Every command under ``command`` (typer ships its own click: read it by duck typing)."""
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, (*path, name))


def test_no_help_text_holds_a_bracketed_word_rich_would_drop():
    root = typer.main.get_command(app)
    found = []
    seen = 0
    for path, command in _commands(root):
        texts = [command.help or ""] + [getattr(p, "help", None) or "" for p in command.params]
        seen += 1
        found += [(" ".join(path), m) for t in texts for m in _MARKUP_LIKE.findall(t)]
    assert seen > 20 and found == []


def test_the_escaped_profile_key_shows_in_the_rendered_help():
    for argv in (["run", "--help"], ["profile", "check", "--help"]):
        out = CliRunner().invoke(app, argv, terminal_width=200).output
        assert "([dev] in the profile)" in " ".join(out.replace("│", " ").split()), argv


def test_run_and_panel_help_list_every_structured_output_mode():
    from typing import get_args

    from claims_records import ResponseFormatMode
    from harness.customers._dialects import ORDER

    modes = get_args(ResponseFormatMode)
    assert modes[0] == "auto" and modes[1:] == ORDER and len(ORDER) == 6
    for argv in (["run", "--help"], ["selftest", "simulator", "--help"]):
        out = CliRunner().invoke(app, argv, terminal_width=250).output
        flat = " ".join(out.replace("│", " ").split())
        assert "Structured output: " + " | ".join(modes) in flat, argv
