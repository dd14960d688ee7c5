"""A benchmark's child process (rules/bench/mila_driver.py, rules/bench/compare_driver.py), spoken to a line
at a time: a number on its standard input asks for that much work, a line of JSON comes back."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any


@contextmanager
def child_session(command: Sequence[str], *, timeout: float, **popen: Any) -> Iterator[subprocess.Popen]:
    """The child running `command`; its input closed, and the child waited for, when the session ends."""
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, **popen)
    try:
        yield child
    finally:
        child.stdin.close()
        child.wait(timeout=timeout)


def child_ask(child: subprocess.Popen, count: int) -> dict[str, Any]:
    """Ask the child for `count` runs; its answer. A child that stopped is said so, with its exit status."""
    child.stdin.write(f"{count}\n")
    child.stdin.flush()
    line = child.stdout.readline()
    if not line:
        raise SystemExit(f"the driver stopped (exit status {child.wait()})")
    return json.loads(line)
