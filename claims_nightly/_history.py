"""The history index of a runs folder: ``history.json`` (every night of every configuration)
and ``index.html`` (per configuration: the trend and one row per night, newest first).

Updates take the runs folder's history lock, so two configurations finishing at the same
time both land.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from claims_records import (
    HistoryIndex,
    NightEntry,
    history_path,
    read_history,
    write_model_atomic,
    write_text_atomic,
)

INDEX_FILE = "index.html"
LOCK_DIR = ".history"  # the lock lives in its own folder, out of the way of run folders
TEMPLATES = Path(__file__).parent / "templates"
SPARK_W, SPARK_H = 240, 48


def load_history(runs_dir: Path) -> HistoryIndex:
    """The runs folder's history index; an empty one when it has none."""
    return read_history(runs_dir) or HistoryIndex()


@contextlib.contextmanager
def history_lock(runs_dir: Path) -> Iterator[None]:
    import harness

    lock = harness.wait_for_lock(Path(runs_dir) / LOCK_DIR, "history", timeout_s=120)
    try:
        yield
    finally:
        lock.release()


def save_history(runs_dir: Path, history: HistoryIndex) -> Path:
    """Write history.json and index.html (caller holds the history lock)."""
    runs_dir = Path(runs_dir)
    write_model_atomic(history_path(runs_dir), history)
    write_text_atomic(runs_dir / INDEX_FILE, render_index(history, runs_dir))
    return runs_dir / INDEX_FILE


def add_night(runs_dir: Path, entry: NightEntry) -> HistoryIndex:
    """Append one night (the latest entry of the same run id replaces an earlier one)."""
    with history_lock(runs_dir):
        history = load_history(runs_dir)
        history.nights = [n for n in history.nights if n.run_id != entry.run_id] + [entry]
        save_history(runs_dir, history)
    return history


def mark_archived(runs_dir: Path, archives: dict[str, str]) -> None:
    """Note each archived run's archive (run id -> path relative to the runs folder)."""
    if not archives or not history_path(runs_dir).exists():
        return
    with history_lock(runs_dir):
        history = load_history(runs_dir)
        for night in history.nights:
            if night.run_id in archives:
                night.archive = archives[night.run_id]
        save_history(runs_dir, history)


def _spark(values: list[float | None]) -> str:
    """An SVG polyline of values in [0, 1], oldest left; gaps for unmeasured nights."""
    if not values:
        return ""
    pad = 6
    step = (SPARK_W - 2 * pad) / max(1, len(values) - 1)
    segments: list[list[str]] = [[]]
    for i, v in enumerate(values):
        if v is None:
            segments.append([])
            continue
        x = pad + i * step if len(values) > 1 else SPARK_W / 2
        y = SPARK_H - 4 - v * (SPARK_H - 8)
        segments[-1].append(f"{x:.1f},{y:.1f}")
    lines = "".join(f'<polyline points="{" ".join(s)}"/>' for s in segments if len(s) > 1)
    dots = "".join(f'<circle cx="{p.split(",")[0]}" cy="{p.split(",")[1]}" r="2.5"/>'
                   for s in segments for p in s)
    return (f'<svg class="spark" width="{SPARK_W}" height="{SPARK_H}" viewBox="0 0 {SPARK_W} '
            f'{SPARK_H}" role="img" aria-label="pass^k by night">{lines}{dots}</svg>')


def _groups(history: HistoryIndex) -> list[dict]:
    from scoring import trend

    names = list(dict.fromkeys(n.config for n in history.nights))
    out = []
    for name in names:
        nights = [n for n in history.nights if n.config == name]
        values = [n.gate.value if n.gate else None for n in nights]
        out.append({"name": name, "nights": list(reversed(nights)), "spark": _spark(values),
                    "trend": trend(values).describe("pass^k")})
    return out


def render_index(history: HistoryIndex, runs_dir: Path) -> str:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=select_autoescape(["html", "j2"]), trim_blocks=True,
                      lstrip_blocks=True)
    env.filters["pct"] = lambda v: "–" if v is None else f"{100 * v:.1f} %"
    env.filters["num"] = lambda v, nd=3: "–" if v is None else f"{v:.{nd}f}"

    def exists(rel: str | None) -> bool:
        return bool(rel) and rel is not None and os.path.exists(Path(runs_dir) / rel)

    return env.get_template("history.html.j2").render(groups=_groups(history), exists=exists)
