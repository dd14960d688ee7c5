"""Orders by mail trust our server's Authentication-Results (SPF, DKIM, DMARC), else the player's key in the
subject; a mail that may be forged changes nothing and is answered at the player's real address."""

from __future__ import annotations

import mailbox

import pytest
from django.core import mail
from django.core.management import call_command

from campaign.models import InboundMail
from frontend.mail.sender import order_mail_key_tag
from tests.lifecycle.test_order_mail import SERVER, _mail, mail_server  # noqa: F401 (a fixture)


@pytest.fixture
def deliver(tmp_path, django_capture_on_commit_callbacks):
    def run(*messages):
        box = mailbox.mbox(tmp_path / "in.mbox")
        for message in messages:
            box.add(message)
        box.flush()
        with django_capture_on_commit_callbacks(execute=True):
            call_command("read_order_mail", str(tmp_path / "in.mbox"))
        return [m.outcome for m in InboundMail.objects.order_by("pk")]

    return run


def _orders(demo):
    return list(demo.turns.get(number=1).orders.values_list("origin__code", flat=True))


@pytest.mark.parametrize(
    "results",
    [
        "dmarc=pass header.from={domain}",
        "dkim=pass header.d={domain} header.i=@{domain}; spf=fail smtp.mailfrom=evil.example",
        "spf=pass smtp.mailfrom=player@{domain}",
        "dkim=pass header.d=org",  # a parent domain: relaxed alignment
    ],
)
def test_it_takes_orders_our_server_proved(demo, mailed, deliver, results):
    [outcome] = deliver(_mail("player@example.org", "[demo]", "hold N2: JV 4\n", "<p@x>", results=results))

    assert outcome.startswith("accepted"), outcome
    assert _orders(demo) == ["N2"]


@pytest.mark.parametrize(
    "results, how",
    [
        ("dmarc=fail header.from={domain}", "dmarc=fail"),
        (
            "dkim=pass header.d=evil.example; spf=pass smtp.mailfrom=x@evil.example",
            "no key (dkim=pass, spf=pass)",
        ),
        ("spf=softfail smtp.mailfrom=player@{domain}; dkim=none", "no key (spf=softfail, dkim=none)"),
        ("", "no key"),
    ],
)
def test_it_refuses_a_mail_not_proven_and_tells_the_real_address(demo, mailed, deliver, results, how):
    _, player, _ = mailed
    forged = _mail("PLAYER@EXAMPLE.ORG", "[demo] orders", "hold N2: JV 4\n", "<f@x>", results=results)

    [outcome] = deliver(forged)

    assert outcome == f"refused: sender not proven ({how})"
    assert _orders(demo) == []
    [reply] = mail.outbox
    assert reply.to == [player.email] == ["player@example.org"]
    assert reply.subject == f"Re: [demo] orders {order_mail_key_tag(user=player)}"
    assert "changed nothing" in reply.body and "someone else tried" in reply.body


def test_a_pass_written_by_the_sender_is_not_trusted(demo, mailed, deliver):
    forged = _mail("player@example.org", "[demo]", "hold N2: JV 4\n", "<h@x>", results="")
    forged["Authentication-Results"] = "mx.forger.example; dmarc=pass header.from=example.org"

    [outcome] = deliver(forged)

    assert outcome.startswith("refused: sender not proven")


def test_only_the_first_header_of_our_server_counts(demo, mailed, deliver):
    forged = _mail("player@example.org", "[demo]", "hold N2: JV 4\n", "<o@x>", results="dmarc=fail")
    forged["Authentication-Results"] = f"{SERVER}; dmarc=pass header.from=example.org"  # below ours

    [outcome] = deliver(forged)

    assert outcome == "refused: sender not proven (dmarc=fail)"


def test_the_key_in_the_subject_stands_in_where_the_server_adds_no_results(demo, mailed, deliver, settings):
    _, player, rival = mailed
    settings.IRONFIST_MAIL_AUTHSERV_ID = ""
    mine = _mail(
        "player@example.org", f"[demo] {order_mail_key_tag(user=player)}", "hold N2: JV 4\n", "<k@x>"
    )
    stolen = _mail(
        "rival@example.org", f"[demo] {order_mail_key_tag(user=player)}", "hold E1: JV 4\n", "<s@x>"
    )

    assert deliver(mine, stolen) == ["accepted: 1 order entered", "refused: sender not proven (no key)"]
    assert _orders(demo) == ["N2"]


def test_a_failed_dmarc_is_refused_even_with_the_key(demo, mailed, deliver):
    _, player, _ = mailed
    subject = f"[demo] {order_mail_key_tag(user=player)}"

    [outcome] = deliver(
        _mail("player@example.org", subject, "hold N2: JV 4\n", "<d@x>", results="dmarc=fail")
    )

    assert outcome == "refused: sender not proven (dmarc=fail)"


def test_answering_the_refusal_passes(demo, mailed, deliver):
    deliver(_mail("player@example.org", "[demo] orders", "hold N2: JV 4\n", "<r1@x>", results=""))
    [refusal] = mail.outbox

    outcomes = deliver(_mail("player@example.org", refusal.subject, "hold N2: JV 4\n", "<r2@x>", results=""))

    assert outcomes[-1] == "accepted: 1 order entered"
    assert _orders(demo) == ["N2"]


def test_the_settings_page_shows_the_players_key(client, mailed):
    _, player, rival = mailed
    client.force_login(player)

    page = client.get("/settings/").content.decode()

    assert order_mail_key_tag(user=player) in page
    assert order_mail_key_tag(user=rival) not in page
    assert order_mail_key_tag(user=player) != order_mail_key_tag(user=rival)
