"""Email: each reader's own results after a turn, a reminder before the deadline, in their time zone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend

from campaign.lifecycle import time_zone_set
from campaign.models import Turn
from campaign.queue import turns_remind
from frontend.mail.turns import due_in_words, turn_reminders_send
from rules.services import turn_process

# NOR takes the empty M2; EST and KAR fight over E2 and K4, out of NOR's sight.
ORDERS = [
    ("NOR", "attack", "N5", "M2", {"JV": 4, "PA": 3}),
    ("EST", "attack", "E2", "K4", {"JV": 3, "PA": 3}),
    ("KAR", "attack", "K4", "E2", {"JV": 4, "PA": 2}),
]
DEADLINE = datetime(2026, 10, 25, 12, 0, tzinfo=UTC)  # Helsinki left summer time at 01:00 UTC that day


@pytest.fixture
def turn1(demo):
    turn = demo.turns.get(number=1)
    turn.deadline = DEADLINE
    turn.save(update_fields=["deadline"])
    return turn


def _process(turn, capture):
    with capture(execute=True):
        processed = turn_process(turn_id=turn.pk)
    assert processed.status == Turn.Status.RESOLVED, processed.error
    return processed


def _mail_to(address):
    [message] = [m for m in mail.outbox if m.to == [address]]
    return message, message.alternatives[0][0]


def test_it_mails_each_player_only_the_battles_it_may_read(
    turn1, mailed, place_orders, django_capture_on_commit_callbacks
):
    place_orders(turn1, ORDERS)
    _process(turn1, django_capture_on_commit_callbacks)

    text, html = _mail_to("player@example.org")
    assert text.subject == "[The Grenzwald Crisis] Turn 1 results — Kingdom of Nordmark"
    for body in (text.body, html):
        assert "Battle of M2" in body
        assert "K4" not in body and "E2" not in body, "a battle NOR neither fought nor supported"
        assert "Ostland" not in body and "Karelian" not in body
    assert "you took M2" in text.body
    assert "http://127.0.0.1:8000/c/demo/turns/1/" in text.body

    rival, rival_html = _mail_to("rival@example.org")
    assert rival.subject == "[The Grenzwald Crisis] Turn 1 results — Ostland Federation"
    assert "K4" in rival.body and "Battle of M2" not in rival.body and "Battle of M2" not in rival_html

    gm, _ = _mail_to("gm@example.org")
    assert gm.subject == "[The Grenzwald Crisis] Turn 1 results — game master"
    assert "Battle of M2" in gm.body and "K4" in gm.body


def test_it_sends_the_results_only_once_the_turn_has_committed(
    turn1, mailed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        turn_process(turn_id=turn1.pk)
    assert mail.outbox == [] and len(callbacks) == 1
    callbacks[0]()
    assert sorted(m.to[0] for m in mail.outbox) == [
        "gm@example.org",
        "player@example.org",
        "rival@example.org",
    ]


class _Refusing(EmailBackend):
    def send_messages(self, messages):
        raise ConnectionRefusedError("the mail server is down")


def test_it_leaves_the_turn_resolved_when_the_mail_server_refuses(
    turn1, mailed, place_orders, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = f"{__name__}._Refusing"
    place_orders(turn1, ORDERS)
    _process(turn1, django_capture_on_commit_callbacks)
    turn1.refresh_from_db()
    assert turn1.status == Turn.Status.RESOLVED
    assert turn1.campaign.turns.get(number=2).status == Turn.Status.OPEN
    assert mail.outbox == []


def test_it_tells_a_player_without_orders_that_its_units_held(
    turn1, mailed, django_capture_on_commit_callbacks
):
    _process(turn1, django_capture_on_commit_callbacks)
    text, _ = _mail_to("player@example.org")
    assert "sent no orders this turn: its units held" in text.body
    assert "Missed turns in a row: 1 (after 3 the nation falls into civil disorder)" in text.body


def test_it_reminds_12_real_hours_before_across_the_change_from_summer_time(
    turn1, mailed, place_orders, django_capture_on_commit_callbacks
):
    gm, player, rival = mailed
    time_zone_set(user=player, time_zone="Europe/Helsinki")
    place_orders(turn1, [("EST", "hold", "E1", None, {"JV": 4})])  # the rival has orders in
    # 00:00 UTC is 03:00 summer time in Helsinki; the deadline, 12:00 UTC, is 14:00 winter time: 11 hours
    # apart on the wall clock, 12 in fact.
    just_before = datetime(2026, 10, 24, 23, 59, tzinfo=UTC)
    twelve_before = DEADLINE - timedelta(hours=12)
    with django_capture_on_commit_callbacks() as callbacks:
        assert turns_remind(now=lambda: just_before) == 0
        assert turns_remind(now=lambda: twelve_before) == 1
        assert turns_remind(now=lambda: DEADLINE - timedelta(hours=11)) == 0, "once per turn"
    assert len(callbacks) == 1  # the send task, queued on commit; here sent at the claim's moment:
    assert turn_reminders_send(turn_id=turn1.pk, now=lambda: twelve_before) == 1
    [message] = mail.outbox
    assert message.to == ["player@example.org"], "only the players without orders"
    assert message.subject == "[The Grenzwald Crisis] Turn 1 orders due in 12 hours"
    assert "Sunday 25 October 2026, 14:00 EET (Europe/Helsinki)" in message.body
    assert "14:00 EET" in message.alternatives[0][0]


def test_it_shows_the_deadline_in_utc_to_a_player_without_a_time_zone(turn1, mailed):
    assert turn_reminders_send(turn_id=turn1.pk, now=lambda: DEADLINE - timedelta(hours=3)) == 2
    message = next(m for m in mail.outbox if m.to == ["rival@example.org"])
    assert "Sunday 25 October 2026, 12:00 UTC (UTC)" in message.body
    assert message.subject.endswith("orders due in 3 hours")


def test_it_does_not_remind_a_paused_campaign_nor_one_whose_reminder_is_off(turn1, mailed, gm):
    from campaign.gm.clock import campaign_pause

    turn1.campaign.reminder_before = timedelta(0)
    turn1.campaign.save(update_fields=["reminder_before"])
    assert turns_remind(now=lambda: DEADLINE - timedelta(hours=1)) == 0
    turn1.campaign.reminder_before = timedelta(hours=12)
    turn1.campaign.save(update_fields=["reminder_before"])
    campaign_pause(campaign=turn1.campaign, by=gm, now=lambda: DEADLINE - timedelta(hours=13))
    assert turns_remind(now=lambda: DEADLINE - timedelta(hours=1)) == 0


@pytest.mark.parametrize(
    ("left", "words"),
    [
        (timedelta(hours=12), "12 hours"),
        (timedelta(hours=11, minutes=59, seconds=20), "12 hours"),
        (timedelta(minutes=45), "45 minutes"),
        (timedelta(days=2), "2 days"),
        (timedelta(hours=30), "30 hours"),
    ],
)
def test_it_says_how_long_is_left_in_round_words(left, words):
    assert due_in_words(left) == words


def test_it_invites_replies_with_orders_when_an_orders_address_is_set(turn1, mailed, settings):
    settings.IRONFIST_ORDERS_EMAIL = "orders@ironfist.example.org"
    turn_reminders_send(turn_id=turn1.pk, now=lambda: DEADLINE - timedelta(hours=12))
    message = next(m for m in mail.outbox if m.to == ["player@example.org"])
    assert message.reply_to == ["orders@ironfist.example.org"]
    assert "keeping [demo] in the subject" in message.body


def test_it_links_the_rules_in_a_mail_by_the_whole_address(
    turn1, mailed, place_orders, settings, django_capture_on_commit_callbacks
):
    settings.IRONFIST_SITE_URL = "https://ironfist.example.org"
    place_orders(turn1, ORDERS)
    _process(turn1, django_capture_on_commit_callbacks)
    _, html = _mail_to("rival@example.org")
    assert 'href="https://ironfist.example.org/c/demo/turns/1/"' in html
    assert 'href="/' not in html
