"""Deadlines fire under `make run` as under beat: beside the server, `lifecycle_tick --every 60` ticks until
the server stops, so a deadline two minutes ahead processes its turn by itself, with nothing else started."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from campaign.management.commands.lifecycle_tick import Command
from campaign.models import Turn

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    """A clock the loop's sleep moves on: a minute's wait takes no time."""

    def __init__(self, at: datetime) -> None:
        self.at = at
        self.statuses: list[str] = []

    def __call__(self) -> datetime:
        return self.at

    def sleep(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.mark.django_db(transaction=True)  # each tick's commit runs its on-commit work, as in `make run`
def test_a_deadline_two_minutes_ahead_processes_the_turn_at_the_first_tick_past_it(
    demo, player, monkeypatch, capsys
) -> None:
    start = timezone.now()
    turn = demo.turns.get(number=1)
    Turn.objects.filter(pk=turn.pk).update(deadline=start + timedelta(minutes=2))
    clock = Clock(start)
    seen = []

    def sleep(seconds: float) -> None:
        seen.append(Turn.objects.get(pk=turn.pk).status)
        clock.sleep(seconds)

    monkeypatch.setattr(Command, "clock", staticmethod(clock))
    monkeypatch.setattr(Command, "sleep", staticmethod(sleep))

    call_command("lifecycle_tick", every=60, ticks=4)

    # ticks at 0 s, 60 s, 120 s (the deadline: due), 180 s
    assert seen == ["open", "open", "resolved"]
    assert Turn.objects.get(pk=turn.pk).status == Turn.Status.RESOLVED
    assert demo.turns.get(number=2).status == Turn.Status.OPEN
    said = capsys.readouterr().out.splitlines()
    # The console hears of the ticks that did something: the reminder at once (the deadline is near), the
    # turn at the deadline.
    assert [line.split(" UTC tick: ")[0] for line in said] == [
        f"{start:%Y-%m-%d %H:%M:%S}",
        f"{start + timedelta(minutes=2):%Y-%m-%d %H:%M:%S}",
    ]
    assert "0 turn(s) due, 0 ready early, 1 reminder(s) queued" in said[0]
    assert "1 turn(s) due, 0 ready early, 0 reminder(s) queued" in said[1]


@pytest.mark.django_db(transaction=True)
def test_a_tick_that_fails_does_not_stop_the_loop(demo, monkeypatch) -> None:
    import campaign.management.commands.lifecycle_tick as command

    calls = []

    def tick(*, now):
        calls.append(now())
        if len(calls) == 1:
            raise RuntimeError("database is locked")
        return "", False

    monkeypatch.setattr(command, "tick", tick)
    monkeypatch.setattr(Command, "sleep", staticmethod(lambda seconds: None))
    call_command("lifecycle_tick", every=60, ticks=3)
    assert len(calls) == 3


def test_make_run_starts_the_tick_beside_the_server_and_stops_it_with_the_server() -> None:
    recipe = subprocess.run(
        ["make", "-s", "-n", "run"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    tick = recipe.index("manage.py lifecycle_tick --every 60 &")
    serve = recipe.index("manage.py runserver")
    assert tick < serve
    assert re.search(r"trap 'kill \$ticker[^']*' EXIT INT TERM", recipe[tick:serve]), recipe


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


def _demo_turns(database: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(database) as db:
        return db.execute(
            "SELECT t.number, t.status FROM campaign_turn t JOIN campaign_campaign c ON c.id = t.campaign_id "
            "WHERE c.slug = 'demo' ORDER BY t.number"
        ).fetchall()


def test_under_make_run_a_deadline_processes_its_turn_with_nothing_else_started(tmp_path) -> None:
    """The real `make run` (its own SQLite database, a tick a second): the demo's deadline moved to a few
    seconds ahead passes, and the turn resolves by itself; Ctrl-C stops the server and the tick."""
    database = tmp_path / "demo.sqlite3"
    port = _free_port()
    keep = ("PATH", "HOME", "LANG", "TMPDIR")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env["DATABASE_URL"] = f"sqlite:///{database}"  # the demo's database, not the checkout's db.sqlite3
    process = subprocess.Popen(
        ["make", "-o", ".venv/.installed-run", "run", f"PORT={port}", "TICK=1"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 120
        while not _answers(port):
            assert process.poll() is None, process.stdout.read()
            assert time.monotonic() < deadline, "make run did not serve"
            time.sleep(0.3)
        assert _demo_turns(database)[0] == (1, "open")
        soon = datetime.now(UTC) + timedelta(seconds=2)
        with sqlite3.connect(database) as db:
            db.execute(
                "UPDATE campaign_turn SET deadline = ? WHERE number = 1 AND campaign_id = "
                "(SELECT id FROM campaign_campaign WHERE slug = 'demo')",
                (soon.replace(tzinfo=None).isoformat(sep=" "),),
            )
        while _demo_turns(database)[0] != (1, "resolved"):
            assert time.monotonic() < deadline + 30, _demo_turns(database)
            time.sleep(0.5)
        assert _demo_turns(database)[1] == (2, "open")
    finally:
        os.killpg(process.pid, signal.SIGINT)  # Ctrl-C
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raise
    time.sleep(1)
    left = subprocess.run(["ps", "-o", "cmd=", "-g", str(process.pid)], capture_output=True, text=True)
    assert "lifecycle_tick" not in left.stdout and "runserver" not in left.stdout, left.stdout
