"""The life-cycle cast: the shared demo cast with email addresses, a clock the tests set, and mailboxes
that `manage.py read_order_mail` reads."""

from __future__ import annotations

import mailbox
from datetime import UTC, datetime

import pytest
from django.core.management import call_command


@pytest.fixture
def mailed(gm, player, rival):
    """The GM, the player (NOR) and the rival (EST), each with an address; returns them in that order."""
    for user in (gm, player, rival):
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])
    return gm, player, rival


class Clock:
    """An injectable `now`: set it, move it, call it."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def clock():
    return Clock(datetime(2026, 10, 20, 12, 0, tzinfo=UTC))


@pytest.fixture(autouse=True)
def tasks_in_process(monkeypatch):
    """Mail tasks run in process here even when REDIS_URL names a broker: the tests read the outbox of
    this process (tests/campaign/test_turn_worker.py covers the real worker)."""
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)


@pytest.fixture
def read(django_capture_on_commit_callbacks):
    """`manage.py read_order_mail PATH`, its replies sent as the transaction commits."""

    def run(path):
        with django_capture_on_commit_callbacks(execute=True):
            call_command("read_order_mail", path)

    return run


@pytest.fixture
def mbox(tmp_path):
    def write(*messages):
        box = mailbox.mbox(tmp_path / "orders.mbox")
        for message in messages:
            box.add(message)
        box.flush()
        return str(tmp_path / "orders.mbox")

    return write
