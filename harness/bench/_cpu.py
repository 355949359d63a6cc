"""CPU seconds and memory of process trees, read from ``/proc`` (Linux).

A tree's time is the user + system time of every live process in it plus what its reaped
children used (``cutime``/``cstime``), so a Chromium renderer that exits between two readings
still counts: its time moves into its parent's children-time when the parent reaps it.
Elsewhere than Linux every reading is ``None`` and the bench reports wall time only.

Memory is the proportional set size (PSS: a page shared by n processes counts 1/n in each,
so Chromium's shared pages are not counted once per process), summed over the tree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

_PROC = Path("/proc")
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def available() -> bool:
    return (_PROC / "self" / "stat").is_file()


def _stat(pid: int) -> tuple[int, float, float] | None:
    """(parent pid, own CPU s, reaped children's CPU s) of one process, or None if gone."""
    try:
        raw = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    # the command name (field 2) may hold spaces and parentheses: split after the last ')'
    fields = raw[raw.rindex(")") + 2:].split()
    ppid = int(fields[1])
    utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
    return ppid, (utime + stime) / _TICK, (cutime + cstime) / _TICK


def _pss_mb(pid: int) -> float:
    """The process's proportional set size in MB (0 when it is gone or unreadable)."""
    try:
        with open(_PROC / str(pid) / "smaps_rollup", encoding="ascii") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def _children() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for entry in _PROC.iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st is not None:
                out.setdefault(st[0], []).append(int(entry.name))
    return out


def _tree(root: int, children: dict[int, list[int]]) -> list[int]:
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


@dataclass(frozen=True)
class CpuReading:
    """CPU seconds used so far by this process and by two groups of its descendants."""

    harness: float  # this Python process, its reaped children and the browser (Playwright's
    #                 driver and Chromium)
    product: float  # every other live child's tree: the product and its stores

    def __sub__(self, other: CpuReading) -> CpuReading:
        return CpuReading(self.harness - other.harness, self.product - other.product)

    @property
    def total(self) -> float:
        return self.harness + self.product


def read() -> CpuReading | None:
    """Read the CPU time of this process's tree, split into harness and product.

    A live child running Playwright's driver (Node.js ``run-driver``) counts as the harness's,
    with everything under it (Chromium); a child that has exited counts as the harness's too.
    """
    if not available():
        return None
    children = _children()
    me = os.getpid()
    own = _stat(me)
    harness = own[1] + own[2] if own else 0.0
    product = 0.0
    drivers = driver_pids(children.get(me, []))
    for child in children.get(me, []):
        total = 0.0
        for pid in _tree(child, children):
            st = _stat(pid)
            if st is not None:
                total += st[1] + st[2]
        if child in drivers:
            harness += total
        else:
            product += total
    return CpuReading(harness=harness, product=product)


def driver_pids(pids: list[int]) -> set[int]:
    """The pids among ``pids`` that run Playwright's driver (Node.js ``run-driver``)."""
    out = set()
    for pid in pids:
        try:
            cmd = (_PROC / str(pid) / "cmdline").read_bytes()
        except OSError:
            continue
        if b"run-driver" in cmd:
            out.add(pid)
    return out


class Sampler:
    """CPU seconds of this process's whole tree over a stretch of time in which processes
    come and go (a run launches and closes its own browser).

    A thread reads every process of the tree every ``interval`` seconds and keeps, per process,
    the last own time it saw; the total is the sum. A process's time after its last reading is
    missed (at most ``interval`` each), so this undercounts a little, never double counts.
    Processes under the children alive at ``start`` (the product, its stores) are the product
    side; everything else (this process, Playwright's driver, Chromium) the harness side.
    """

    def __init__(self, interval: float = 0.2, memory_every: int = 5) -> None:
        import threading

        self.interval = interval
        self.memory_every = memory_every
        """Memory is read every this many samples (reading it costs more than CPU time)."""
        self.peak_mb: dict[str, float] = {"harness": 0.0, "product": 0.0, "total": 0.0}
        """The largest memory (PSS, MB) the tree held at one reading, by side."""
        self._samples = 0
        self._seen: dict[int, tuple[bool, float]] = {}
        self._base: dict[int, float] = {}
        self._product_roots: set[int] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="cpu-sampler", daemon=True)

    def _sample(self) -> None:
        children = _children()
        me = os.getpid()
        product = set()
        for root in self._product_roots:
            product.update(_tree(root, children))
        tree = _tree(me, children)
        for pid in tree:
            st = _stat(pid)
            if st is not None:
                self._seen[pid] = (pid in product, st[1])
        self._samples += 1
        if self._samples % self.memory_every == 1 or self.memory_every == 1:
            side = {"harness": 0.0, "product": 0.0}
            for pid in tree:
                side["product" if pid in product else "harness"] += _pss_mb(pid)
            for key, mb in (*side.items(), ("total", sum(side.values()))):
                self.peak_mb[key] = max(self.peak_mb[key], round(mb, 1))

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()

    def start(self) -> None:
        if not available():
            return
        self._product_roots = set(_children().get(os.getpid(), []))
        self._sample()
        self._base = {pid: cpu for pid, (_, cpu) in self._seen.items()}
        self._thread.start()

    def stop(self) -> CpuReading | None:
        if not available():
            return None
        self._stop.set()
        self._thread.join()
        self._sample()
        harness = product = 0.0
        for pid, (is_product, cpu) in self._seen.items():
            used = cpu - self._base.get(pid, 0.0)
            if is_product:
                product += used
            else:
                harness += used
        return CpuReading(harness=harness, product=product)


def tree_pss_mb(root: int) -> float:
    """The proportional set size of process ``root`` and all its live descendants, in MB."""
    return sum(_pss_mb(pid) for pid in _tree(root, _children()))
