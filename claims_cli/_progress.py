"""Progress of a run: a bar per pack and one overall on a terminal, plain lines otherwise."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

import typer


@contextlib.contextmanager
def run_progress(pack_ids: list[str], trials: int, force_lines: bool = False
                 ) -> Iterator[Callable[[Any], None]]:
    """Yield a callback for ``harness.TrialProgress`` events.

    On an interactive terminal it draws a bar per pack (``trials`` steps each) and an overall
    bar; in logs and schedulers (no TTY) it prints one line per trial start and end, which
    reads well in a captured log.
    """
    if force_lines or not sys.stdout.isatty():
        yield lambda event: typer.echo(str(event))
        return

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description:<12}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[last]}"), TimeElapsedColumn())
    with Progress(*columns, transient=False) as bars:
        overall = bars.add_task("all", total=None, last="")
        tasks: dict[str, Any] = {}
        for pack in pack_ids:
            tasks[pack] = bars.add_task(pack, total=trials, last="")

        def on_event(event: Any) -> None:
            if event.pack_id not in tasks:
                tasks[event.pack_id] = bars.add_task(event.pack_id, total=trials, last="")
            task = tasks[event.pack_id]
            if event.status is None:
                bars.update(task, last=f"trial {event.trial} on {event.lane} ...")
                bars.update(overall, total=event.total)
                return
            bars.update(task, advance=1,
                        last=f"trial {event.trial}: {event.status} ({event.stop_reason})")
            bars.update(overall, completed=event.done, total=event.total,
                        last=f"{event.done}/{event.total} trials")

        yield on_event
