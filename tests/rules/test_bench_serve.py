"""`make bench-run` (rules/bench/serve.py) times `make run` until the server answers, then stops it whole.
Here against a stand-in checkout whose `make run` installs nothing and serves with Python's own server."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

from rules.bench import serve

MAKEFILE = """\
run:
\tsleep 0.5
\tmkdir -p .venv && touch .venv/.installed-run
\t{python} -m http.server --bind 127.0.0.1 $(PORT)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _checkout(tmp_path: Path) -> Path:
    (tmp_path / "Makefile").write_text(MAKEFILE.format(python=sys.executable))
    return tmp_path


def test_it_prints_the_seconds_until_make_run_serves_and_stops_the_server(tmp_path) -> None:
    port = _free_port()
    done = subprocess.run(
        [sys.executable, serve.__file__, "--dir", str(_checkout(tmp_path)), "--port", str(port)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"make run served http://127.0.0.1:{port}/ after ")
    assert "(installed after " in done.stdout
    assert not serve.answers(f"http://127.0.0.1:{port}/"), "the server was left running"


def test_it_says_when_make_run_never_serves(tmp_path) -> None:
    (tmp_path / "Makefile").write_text("run:\n\t@echo no server here; exit 3\n")
    served, installed, tail = serve.time_to_serve(tmp_path, port=_free_port(), timeout=10)
    assert (served, installed) == (None, None)
    assert "no server here" in tail


def test_it_refuses_a_port_that_answers_already(tmp_path, capsys) -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while not serve.answers(f"http://127.0.0.1:{port}/"):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert serve.main(["--dir", str(_checkout(tmp_path)), "--port", str(port)]) == 2
    finally:
        server.kill()
        server.wait()
    assert "answers already" in capsys.readouterr().err
    assert not (tmp_path / ".venv").exists(), "make run was not started"
