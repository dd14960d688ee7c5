"""Orders by email: parsed at the edge, judged like the web form, answered line by line, read once."""

from __future__ import annotations

import mailbox
from email.message import EmailMessage

import pytest
from django.core import mail

from campaign.models import InboundMail
from frontend.mail.orders import orders_parse
from orders.services import OrderDraft


def test_it_parses_one_order_a_line_with_its_line_number():
    parsed = orders_parse(
        "# turn 5, from the north\n"
        "attack n5 -> M2: JV 4, PA 3\n"
        "\n"
        "  move N5->N3 : TY 1   # the tanks go home\n"
        "stand down N1: IV 1\n"
        "hold N2: JV 4\n"
        "--\n"
        "attack N1 -> N2: JV 1\n"
    )
    assert parsed.errors == ()
    assert [(o.line, o.draft) for o in parsed.orders] == [
        (2, OrderDraft(kind="attack", origin="N5", target="M2", units={"JV": 4, "PA": 3})),
        (4, OrderDraft(kind="move", origin="N5", target="N3", units={"TY": 1})),
        (5, OrderDraft(kind="stand_down", origin="N1", target=None, units={"IV": 1})),
        (6, OrderDraft(kind="hold", origin="N2", target=None, units={"JV": 4})),
    ], "reading stops at the signature"


def test_it_says_which_lines_it_cannot_read_and_why():
    parsed = orders_parse("delete all\nraid N5 -> M2: JV 4\nattack N5 -> M2 JV 4\nmove N5 -> N3: JV four\n")
    assert parsed.delete_all
    assert parsed.errors == (
        "line 2: unknown kind of order 'raid': one of attack, hold, move, rebase, stand_down",
        "line 3: expected an order like 'N5 -> M2: attack with 4 JV, 3 PA' or 'attack N5 -> M2: JV 4, PA 3', "
        "got 'attack N5 -> M2 JV 4'",
        "line 4: expected units like 'JV 4, PA 3', got 'JV four'",
    )


def test_it_stops_where_the_quoted_mail_begins():
    parsed = orders_parse("hold N2: JV 4\n\nOn Sun, 25 Oct 2026 the GM wrote:\n> attack N5 -> M2: JV 4\n")
    assert [o.line for o in parsed.orders] == [1] and parsed.errors == ()


SERVER = "mx.iron-fist.test"  # our receiving mail server, as IRONFIST_MAIL_AUTHSERV_ID names it


@pytest.fixture(autouse=True)
def mail_server(settings):
    settings.IRONFIST_MAIL_AUTHSERV_ID = SERVER


def _mail(sender, subject, body, message_id, *, results="dmarc=pass header.from={domain}"):
    """A mail as our server hands it over: with its Authentication-Results (a pass, unless told)."""
    message = EmailMessage()
    if results:
        domain = sender.rpartition("@")[2]
        message["Authentication-Results"] = f"{SERVER}; " + results.format(domain=domain)
    message["From"] = f"Someone <{sender}>"
    message["To"] = "orders@example.org"
    message["Subject"] = subject
    message["Message-ID"] = message_id
    message.set_content(body)
    return message


def test_it_enters_mailed_orders_and_replies_with_what_stands(demo, mailed, mbox, read):
    path = mbox(
        _mail(
            "PLAYER@example.org",
            "Re: [The Grenzwald Crisis] Turn 1 orders due in 12 hours",
            "attack N5 -> M2: JV 4, PA 3\nhold N2: JV 4\n",
            "<one@example.org>",
        )
    )
    read(path)
    turn = demo.turns.get(number=1)
    assert [(o.nation.code, o.kind, o.origin.code) for o in turn.orders.order_by("sequence")] == [
        ("NOR", "attack", "N5"),
        ("NOR", "hold", "N2"),
    ]
    [reply] = mail.outbox
    assert reply.to == ["player@example.org"]
    assert reply.subject == "Re: [The Grenzwald Crisis] Turn 1 orders due in 12 hours"
    assert reply.extra_headers["In-Reply-To"] == "<one@example.org>"
    assert "2 orders entered" in reply.body
    assert "1. N5 → M2: attack with 4 JV, 3 PA\n  2. N2: 4 JV hold" in reply.body


def test_it_changes_nothing_and_lists_every_refused_line(demo, mailed, mbox, place_orders, read):
    turn = demo.turns.get(number=1)
    place_orders(turn, [("NOR", "hold", "N4", None, {"JV": 3})])
    body = "delete all\nattack N5 -> M2: JV 4\n# M3 is two steps away\nattack N5 -> M3: PA 3\nhold N2: JV 9\n"
    read(mbox(_mail("player@example.org", "[demo] orders", body, "<two@x>")))
    assert [o.origin.code for o in turn.orders.all()] == ["N4"], "all or nothing: the earlier order stays"
    [reply] = mail.outbox
    assert "your mail changed nothing" in reply.body
    assert "line 4: M3 is not adjacent to N5" in reply.body
    assert "line 5: " in reply.body and "line 2" not in reply.body
    assert "1. N4: 3 JV hold" in reply.body


def test_it_reads_each_message_once_however_often_the_mailbox_is_read(demo, mailed, mbox, tmp_path, read):
    path = mbox(
        _mail("player@example.org", "[demo]", "hold N2: JV 4\n", "<three@x>"),
        _mail("rival@example.org", "[demo]", "hold E1: JV 4\n", "<four@x>"),
    )
    read(path)
    read(path)
    assert demo.turns.get(number=1).orders.count() == 2
    assert len(mail.outbox) == 2
    assert set(InboundMail.objects.values_list("message_id", flat=True)) == {"<three@x>", "<four@x>"}


def test_it_reads_a_maildir_too(demo, mailed, tmp_path, read):
    box = mailbox.Maildir(tmp_path / "Maildir")
    box.add(_mail("rival@example.org", "[demo]", "hold E1: JV 4\n", "<five@x>"))
    read(str(tmp_path / "Maildir"))
    assert demo.turns.get(number=1).orders.get().nation.code == "EST"


def test_it_does_not_answer_strangers_nor_automatic_mail(demo, mailed, mbox, outsider, read):
    auto = _mail("player@example.org", "[demo] Out of office", "I am away\n", "<six@x>")
    auto["Auto-Submitted"] = "auto-replied"
    read(mbox(_mail("stranger@example.org", "[demo]", "hold N2: JV 4\n", "<seven@x>"), auto))
    assert mail.outbox == []
    assert demo.turns.get(number=1).orders.count() == 0


def test_it_asks_which_campaign_when_the_subject_names_none(demo, mailed, mbox, read):
    read(mbox(_mail("player@example.org", "my orders", "hold N2: JV 4\n", "<8@x>")))
    [reply] = mail.outbox
    assert "Which campaign? Put its tag in the subject, like [demo]." in reply.body


def test_it_refuses_orders_of_the_gm_and_of_a_nation_in_civil_disorder(demo, mailed, mbox, nations, read):
    nations["EST"].civil_disorder = True
    nations["EST"].save(update_fields=["civil_disorder"])
    read(
        mbox(
            _mail("gm@example.org", "[demo]", "hold N2: JV 4\n", "<9@x>"),
            _mail("rival@example.org", "[demo]", "hold E1: JV 4\n", "<10@x>"),
        ),
    )
    assert demo.turns.get(number=1).orders.count() == 0
    gm_reply, rival_reply = sorted(mail.outbox, key=lambda m: m.to)
    assert "only players give orders" in gm_reply.body
    assert "Ostland Federation is in civil disorder" in rival_reply.body
    assert "line 1" not in rival_reply.body, "said once for the whole mail"


def test_it_says_once_that_the_deadline_has_passed(demo, mailed, mbox, read):
    from datetime import UTC, datetime

    demo.turns.filter(number=1).update(deadline=datetime(2020, 1, 1, tzinfo=UTC))
    read(mbox(_mail("player@example.org", "[demo]", "hold N2: JV 4\nhold N4: JV 3\n", "<11@x>")))
    [reply] = mail.outbox
    assert "your mail changed nothing" in reply.body
    assert reply.body.count("the deadline of turn 1 has passed") == 1
