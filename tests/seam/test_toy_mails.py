"""The mails ask the presentation registry too (frontend.systems.MailParts): a toy system's own order line,
registered by the test through the registry's interface, is read from a player's orders mail by the generic
reader, which names no system; and each system's mail tasks live in its own package under the names that
its services, and the jobs already queued, carry."""

from __future__ import annotations

import mailbox
import re

import pytest
from celery import current_app
from django.core import mail
from django.core.management import call_command

import rules.company.turn
import rules.tabletop.mail
from frontend.mail.orders import orders_parse
from frontend.systems import MailParts, SystemPages, pages_register, pages_unregister
from orders.services import OrderDraft
from tests.lifecycle.test_order_mail import _mail, mail_server  # noqa: F401  (the server that proves senders)
from tests.seam.test_toy_kind import mustering

MUSTER = re.compile(r"^muster\s+(?P<origin>\w+)\s*->\s*(?P<target>\w+)$", re.IGNORECASE)


def muster_line(line: str) -> OrderDraft | None:
    """The toy's own words in a mail: `muster N3 -> K1`, no units."""
    match = MUSTER.match(line)
    if match is None:
        return None
    return OrderDraft(kind="muster", origin=match["origin"].upper(), target=match["target"].upper(), units={})


@pytest.fixture
def muster_toy():
    with mustering():
        yield


def test_a_toy_systems_order_line_is_read_from_an_orders_mail(
    muster_toy, demo, player, tmp_path, django_capture_on_commit_callbacks
) -> None:
    demo.battle_system = "muster_toy"
    demo.save(update_fields=["battle_system"])
    player.email = "player@example.org"
    player.save(update_fields=["email"])
    box = mailbox.mbox(tmp_path / "orders.mbox")
    box.add(_mail("player@example.org", "[demo] orders", "muster N3 -> K1\nhold N2: JV 4\n", "<toy@x>"))
    box.flush()
    assert orders_parse("muster N3 -> K1\n").orders == (), "the generic syntax cannot say it"

    pages_register(SystemPages("muster_toy", mail=MailParts(order_line=muster_line)))
    try:
        with django_capture_on_commit_callbacks(execute=True):
            call_command("read_order_mail", str(tmp_path / "orders.mbox"))
    finally:
        pages_unregister("muster_toy")

    orders = demo.turns.get(number=1).orders.order_by("sequence")
    assert [(o.kind, o.origin.code) for o in orders] == [("muster", "N3"), ("hold", "N2")]
    [reply] = mail.outbox
    assert "2 orders entered" in reply.body


COMPANY_TASKS = (rules.company.turn.SEND_COMPANY_BATTLES, rules.company.turn.SEND_COMPANY_RESULTS)
TABLETOP_TASKS = (
    rules.tabletop.mail.SEND_BATTLE_SHEET,
    rules.tabletop.mail.SEND_BATTLE_REMINDER,
    rules.tabletop.mail.SEND_BATTLE_OVERDUE,
    rules.tabletop.mail.SEND_BATTLE_EVENT,
)


@pytest.mark.parametrize(
    ("names", "home"), [(COMPANY_TASKS, "rules.company."), (TABLETOP_TASKS, "rules.tabletop.")]
)
def test_each_mail_task_queued_by_name_is_its_systems_own_under_its_old_name(names, home) -> None:
    for name in names:
        assert name.startswith("frontend.tasks.send_"), "jobs already queued carry the old name"
        assert current_app.tasks[name].run.__module__.startswith(home), name
