"""Run progress: plain lines in logs, bars on a terminal."""

from __future__ import annotations

import io

from claims_cli import _progress
from harness import TrialProgress


def _events() -> list[TrialProgress]:
    return [
        TrialProgress("lane1", "CTL-M-001", 1, 0, 2),
        TrialProgress("lane1", "CTL-M-001", 1, 1, 2, "completed", "claim_number", 3.25),
        TrialProgress("lane2", "CTL-H-001", 1, 1, 2),
        TrialProgress("lane2", "CTL-H-001", 1, 2, 2, "stuck", "stuck", 9.0),
    ]


def test_lines_without_a_terminal(capsys):
    with _progress.run_progress(["CTL-M-001", "CTL-H-001"], 1, force_lines=True) as on_event:
        for e in _events():
            on_event(e)
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "[lane1] CTL-M-001 trial 1 ...",
        "[lane1] CTL-M-001 trial 1: completed (claim_number) in 3.2s  [1/2]",
        "[lane2] CTL-H-001 trial 1 ...",
        "[lane2] CTL-H-001 trial 1: stuck (stuck) in 9.0s  [2/2]",
    ]


def test_bars_on_a_terminal(monkeypatch):
    screen = io.StringIO()
    monkeypatch.setattr(_progress.sys.stdout, "isatty", lambda: True, raising=False)
    import rich.progress

    real = rich.progress.Progress

    def to_buffer(*columns, **kw):
        from rich.console import Console

        return real(*columns, console=Console(file=screen, force_terminal=True, width=120), **kw)

    monkeypatch.setattr(rich.progress, "Progress", to_buffer)
    with _progress.run_progress(["CTL-M-001"], 1) as on_event:
        for e in _events():  # CTL-H-001 was not announced: it gets a bar when it first shows
            on_event(e)
    text = screen.getvalue()
    assert "CTL-M-001" in text and "CTL-H-001" in text
    assert "2/2 trials" in text and "stuck (stuck)" in text
