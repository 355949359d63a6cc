"""Loopback ports for the servers this package starts, and knowing when one is listening.

A port chosen free (``free_port``) is free only at that moment: another program — another
run's store or app on the same machine, another test worker — can bind it before the child
started for it does. A probe that gets an answer on the port then reached someone else's
server, and the child, unable to bind, ends a moment later. So a probe counts only when the
listening socket belongs to the child (``listener_is_ours``; Linux's /proc, and no check where
there is none), and a start whose child ended is tried again on another port.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time

from claims_records import SeedError

# How often a start is tried on a new port when its child ended during start-up.
START_ATTEMPTS = 3


def free_port(host: str = "127.0.0.1") -> int:
    """A currently free TCP port on ``host``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _listening_inodes(port: int) -> set[str] | None:
    """The inodes of the sockets listening on TCP ``port``; None without /proc/net."""
    found: set[str] = set()
    readable = False
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as fh:
                lines = fh.read().splitlines()[1:]
        except OSError:
            continue
        readable = True
        for line in lines:
            fields = line.split()
            # local address (hex host:port), state (0A: LISTEN), ..., inode
            if len(fields) > 9 and fields[3] == "0A" and \
                    int(fields[1].rsplit(":", 1)[1], 16) == port:
                found.add(fields[9])
    return found if readable else None


def _group(pgid: int) -> list[int]:
    """The live processes of process group ``pgid``."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            members.append(int(entry))
    return members


def listener_is_ours(proc: subprocess.Popen[bytes], port: int) -> bool | None:
    """Whether the socket listening on ``port`` belongs to ``proc`` or a process of its group
    (``proc`` was started in a session of its own, so its children are in it); None where
    this cannot be told (no /proc)."""
    inodes = _listening_inodes(port)
    if inodes is None:
        return None
    sockets = {f"socket:[{inode}]" for inode in inodes}
    for pid in _group(proc.pid) if sockets else []:
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}") in sockets:
                    return True
            except OSError:
                continue
    return False


def wait_for_port(host: str, port: int, timeout: float = 30.0,
                  proc: subprocess.Popen[bytes] | None = None) -> None:
    """Wait until ``port`` accepts connections — from ``proc``'s own socket, when ``proc`` is
    given. Raises ``SeedError`` when ``proc`` ends first or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise SeedError("store process exited during start-up", port=port, code=proc.returncode)
        try:
            with socket.create_connection((host, port), timeout=0.5):
                pass
        except OSError:
            time.sleep(0.05)
            continue
        if proc is None or listener_is_ours(proc, port) is not False:
            return
        time.sleep(0.05)  # another program's server: wait for ours, or for it to end
    raise SeedError("store did not start listening in time", host=host, port=port,
                    timeout_s=timeout)
