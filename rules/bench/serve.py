"""The first five minutes, timed: `make run` on a fresh checkout until the demo answers (`make bench-run`).

    python3 rules/bench/serve.py [--dir DIR] [--port N] [--timeout S] [--keep]

By default it clones this checkout's last commit into a temporary folder (no `.venv`, no database: what a
fresh machine has), runs `make run` there, asks http://127.0.0.1:PORT/ every 0.2 s and prints the seconds
until the first answer, the time to install (the venv's stamp) on the way, then stops the server and removes
the clone. `--dir DIR` times `make run` in DIR as it is (with its `.venv`, if any: a warm start). The
installer's own settings (a package index, `PIP_*`, `UV_*`) come from the environment, as for `make run`.

Only the standard library: it runs with the machine's python3 before any venv exists.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def answers(url: str) -> bool:
    """Whether the server answers at all (any HTTP status counts: a redirect to the login is serving)."""
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, urllib.error.URLError):
        return False


def time_to_serve(directory: Path, *, port: int, timeout: float) -> tuple[float | None, float | None, str]:
    """Run `make run` in `directory`: (seconds to the first answer or None, seconds to the installed
    stamp or None, the output's tail). The server and its children are stopped before returning."""
    stamp = directory / ".venv" / ".installed-run"
    log = tempfile.TemporaryFile(mode="w+")
    start = time.monotonic()
    process = subprocess.Popen(
        ["make", "run", f"PORT={port}"],
        cwd=directory,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: runserver's reloader child stops with it
        # Ctrl-C as a terminal gives it, also when this runs in the background (which ignores SIGINT)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    installed = served = None
    try:
        while time.monotonic() - start < timeout and process.poll() is None:
            if installed is None and stamp.exists():
                installed = time.monotonic() - start
            if answers(f"http://127.0.0.1:{port}/"):
                served = time.monotonic() - start
                break
            time.sleep(0.2)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    log.seek(0)
    tail = "".join(log.readlines()[-15:])
    return served, installed, tail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rules/bench/serve.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=None, help="time `make run` here as it is (no clone)")
    parser.add_argument("--port", type=int, default=8090)
    parser.add_argument("--timeout", type=float, default=900.0, help="give up after this many seconds")
    parser.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    args = parser.parse_args(argv)
    if answers(f"http://127.0.0.1:{args.port}/"):
        print(f"port {args.port} answers already: stop that server or pass --port", file=sys.stderr)
        return 2

    clone = None
    directory = args.dir
    if directory is None:
        clone = Path(tempfile.mkdtemp(prefix="iron-fist-bench-run-"))
        directory = clone / "checkout"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(directory)], check=True)
    try:
        served, installed, tail = time_to_serve(directory, port=args.port, timeout=args.timeout)
    finally:
        if clone is not None and not args.keep:
            shutil.rmtree(clone, ignore_errors=True)
    if clone is not None and args.keep:
        print(f"the clone: {directory}")
    if served is None:
        print(f"make run did not serve within {args.timeout:.0f} s; its last lines:\n{tail}", file=sys.stderr)
        return 1
    install = f" (installed after {installed:.1f} s)" if installed is not None else ""
    print(f"make run served http://127.0.0.1:{args.port}/ after {served:.1f} s{install}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
