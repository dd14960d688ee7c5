"""Orders by email written forwards, as the pages and the replies write them ("N5 → M2: attack with 4 JV,
3 PA"), in English or Finnish, with "→" or "->", beside the kind-first syntax; a line of neither is refused
by its number, and the mail changes nothing."""

from __future__ import annotations

import pytest
from django.core import mail

from frontend.mail.orders import orders_parse
from orders.services import OrderDraft
from tests.lifecycle.test_order_mail import _mail, mail_server  # noqa: F401 (a fixture)

ATTACK = OrderDraft(kind="attack", origin="N5", target="M2", units={"JV": 4, "PA": 3})


@pytest.mark.parametrize(
    ("line", "draft"),
    [
        ("N5 → M2: attack with 4 JV, 3 PA", ATTACK),
        ("n5 -> m2 : Attack with 4 jv,3 pa", ATTACK),
        ("N5->M2: attack JV 4, PA 3", ATTACK),
        ("N5 → M2: hyökkäys, 4 JV, 3 PA", ATTACK),
        ("  1. N5 → M2: attack with 4 JV, 3 PA", ATTACK),  # a line of the reply's list, copied
        ("N4 → N5: move 3 JV", OrderDraft(kind="move", origin="N4", target="N5", units={"JV": 3})),
        ("N4 -> N5: siirto, 3 JV", OrderDraft(kind="move", origin="N4", target="N5", units={"JV": 3})),
        ("N1 → N5: rebase 2 IV", OrderDraft(kind="rebase", origin="N1", target="N5", units={"IV": 2})),
        (
            "N1 → N5: tukikohdan vaihto, 2 IV",
            OrderDraft(kind="rebase", origin="N1", target="N5", units={"IV": 2}),
        ),
        ("N2: 4 JV hold", OrderDraft(kind="hold", origin="N2", target=None, units={"JV": 4})),
        ("N2: 4 JV pitää asemansa", OrderDraft(kind="hold", origin="N2", target=None, units={"JV": 4})),
        ("N1: 1 IV stand down", OrderDraft(kind="stand_down", origin="N1", target=None, units={"IV": 1})),
        (
            "N1: 1 IV pidättäytyy tuesta",
            OrderDraft(kind="stand_down", origin="N1", target=None, units={"IV": 1}),
        ),
        # The kind first, as before, with either arrow.
        ("attack N5 -> M2: JV 4, PA 3", ATTACK),
        ("attack N5 → M2: JV 4, PA 3", ATTACK),
        ("hold N2: JV 4", OrderDraft(kind="hold", origin="N2", target=None, units={"JV": 4})),
    ],
)
def test_it_reads_an_order_forwards_or_kind_first(line, draft):
    parsed = orders_parse(f"# turn 1\n{line}\n")
    assert parsed.errors == ()
    assert [(o.line, o.draft) for o in parsed.orders] == [(2, draft)]


def test_it_names_the_line_it_cannot_read_forwards_and_why():
    parsed = orders_parse(
        "N5 → M2: attack with 4 JV, 3 PA\n"
        "N5 → M2: charge 4 JV\n"
        "N5 → M2: attack with four JV\n"
        "N5 → M2: attack with 4 JV, 4 JV\n"
        "N5 → → M2: attack with 4 JV\n"
    )
    assert parsed.errors == (
        "line 2: unknown kind of order 'charge': one of attack, hold, move, rebase, stand_down",
        "line 3: expected the kind of order and its units, like 'attack with 4 JV, 3 PA', "
        "got 'attack with four JV'",
        "line 4: JV is named twice",
        "line 5: expected an order like 'N5 -> M2: attack with 4 JV, 3 PA' or 'attack N5 -> M2: JV 4, PA 3', "
        "got 'N5 → → M2: attack with 4 JV'",
    )


def test_it_enters_a_mail_written_forwards_and_the_reply_reads_back_the_same(demo, mailed, mbox, read):
    body = "N5 → M2: attack with 4 JV, 3 PA\nN4 -> N5: move 3 JV\nN2: 4 JV hold\n"
    read(mbox(_mail("player@example.org", "[demo] orders", body, "<fwd-1@x>")))
    turn = demo.turns.get(number=1)
    orders = turn.orders.order_by("sequence")
    assert [(o.kind, o.origin.code, o.target and o.target.code, o.units) for o in orders] == [
        ("attack", "N5", "M2", {"JV": 4, "PA": 3}),
        ("move", "N4", "N5", {"JV": 3}),
        ("hold", "N2", None, {"JV": 4}),
    ]
    [reply] = mail.outbox
    assert "3 orders entered" in reply.body
    assert "  1. N5 → M2: attack with 4 JV, 3 PA\n  2. N4 → N5: move 3 JV\n  3. N2: 4 JV hold" in reply.body


def test_a_reply_pasted_back_replaces_the_orders_with_the_same(demo, mailed, mbox, read):
    read(mbox(_mail("player@example.org", "[demo]", "N5 → M2: attack with 4 JV, 3 PA\n", "<fwd-2@x>")))
    standing = mail.outbox[0].body.split("now:\n", 1)[1].split("\nUnits without orders hold.")[0]
    read(mbox(_mail("player@example.org", "[demo]", "delete all\n" + standing + "\n", "<fwd-3@x>")))
    assert "1 order entered after deleting" in mail.outbox[1].body
    orders = demo.turns.get(number=1).orders.all()
    assert [(o.kind, o.origin.code, o.target.code, o.units) for o in orders] == [
        ("attack", "N5", "M2", {"JV": 4, "PA": 3})
    ]


def test_a_malformed_line_among_forward_orders_changes_nothing(demo, mailed, mbox, place_orders, read):
    turn = demo.turns.get(number=1)
    place_orders(turn, [("NOR", "hold", "N4", None, {"JV": 3})])
    body = "delete all\nN5 → M2: attack with 4 JV, 3 PA\nN4 → N5 move 3 JV\n"
    read(mbox(_mail("player@example.org", "[demo] orders", body, "<fwd-4@x>")))
    assert [(o.kind, o.origin.code) for o in turn.orders.all()] == [("hold", "N4")], "nothing lost"
    [reply] = mail.outbox
    assert "your mail changed nothing" in reply.body
    assert "line 3: expected an order like 'N5 -> M2: attack with 4 JV, 3 PA'" in reply.body
    assert "got 'N4 → N5 move 3 JV'" in reply.body and "line 2" not in reply.body


def test_a_finnish_reader_is_told_in_finnish_which_line_is_wrong(demo, mailed, mbox, read):
    from campaign.lifecycle import language_set

    language_set(user=mailed[1], language="fi")
    read(mbox(_mail("player@example.org", "[demo]", "N5 → M2: hyökkäys, neljä JV\n", "<fwd-5@x>")))
    [reply] = mail.outbox
    assert "rivi 1: " in reply.body
    assert "'hyökkäys, neljä JV'" in reply.body
