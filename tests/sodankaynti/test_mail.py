"""Sodankäynti's orders by email (frontend/mail/orders.py): `doctrine bold`, `doctrine B: steady
retreat_below=75`, `ambush B -> A`, judged by the same service as the web form."""

from __future__ import annotations

from django.core import mail
from django.core.management import call_command

from frontend.mail.orders import orders_parse
from orders.services import OrderDraft
from tests.lifecycle.test_order_mail import _mail, mail_server  # noqa: F401  (the server that proves senders)


def test_it_parses_doctrines_with_and_without_a_region_and_an_ambush():
    parsed = orders_parse(
        "doctrine bold\ndoctrine v2: Steady retreat_below=75 retreat_when_helpless=no\nambush p2 -> v2\n"
        "doctrine V1: cautious sacrifice_max_die=none\n"
    )
    assert parsed.errors == ()
    assert [o.draft for o in parsed.orders] == [
        OrderDraft("doctrine", "", None, {}, {"doctrine": "bold", "params": {}}),
        OrderDraft(
            "doctrine",
            "V2",
            None,
            {},
            {"doctrine": "steady", "params": {"retreat_below": 75, "retreat_when_helpless": False}},
        ),
        OrderDraft("ambush", "P2", "V2", {}),
        OrderDraft(
            "doctrine", "V1", None, {}, {"doctrine": "cautious", "params": {"sacrifice_max_die": None}}
        ),
    ]


def test_a_mailed_doctrine_is_entered_and_a_bad_one_refused_by_line(
    sampo, poh, tmp_path, django_capture_on_commit_callbacks
):
    import mailbox

    poh.email = "poh@example.org"
    poh.save(update_fields=["email"])
    box = mailbox.mbox(tmp_path / "orders.mbox")
    box.add(_mail("poh@example.org", "[sampo] orders", "doctrine V2: bold\nambush P2 -> V2\n", "<a@x>"))
    box.add(_mail("poh@example.org", "[sampo] more", "doctrine V2: steady retreat_below=5000\n", "<b@x>"))
    box.flush()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("read_order_mail", str(tmp_path / "orders.mbox"))
    turn = sampo.turns.get(number=1)
    assert [(o.kind, o.params.get("doctrine"), o.target_id is not None) for o in turn.orders.all()] == [
        ("doctrine", "bold", False),
        ("ambush", None, True),
    ]
    first, second = mail.outbox
    assert "1. doctrine bold in battles in V2\n  2. ambush in P2 facing V2" in first.body
    assert "line 1: invalid doctrine order: params: retreat_below" in second.body
