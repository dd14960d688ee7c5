"""Mails are written in the recipient's language: the one they chose on the web, English until then."""

from __future__ import annotations

from datetime import timedelta

from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign.lifecycle import language_of, language_set
from campaign.models import Turn
from frontend.mail.turns import turn_reminders_send
from rules.services import turn_process
from tests.i18n.conftest import ORDERS


def _addresses(*users):
    for user in users:
        user.email = f"{user.username}@example.org"
        user.save(update_fields=["email"])


def _mail_to(address):
    [message] = [m for m in mail.outbox if m.to == [address]]
    return message, message.alternatives[0][0]


def test_it_mails_a_finnish_player_the_results_in_finnish_and_the_others_in_english(
    demo, player, rival, gm, place_orders, django_capture_on_commit_callbacks
):
    _addresses(player, rival, gm)
    language_set(user=player, language="fi")
    turn1 = demo.turns.get(number=1)
    place_orders(turn1, ORDERS)
    with django_capture_on_commit_callbacks(execute=True):
        assert turn_process(turn_id=turn1.pk).status == Turn.Status.RESOLVED

    finnish, finnish_html = _mail_to("player@example.org")
    assert finnish.subject == "[The Grenzwald Crisis] Vuoron 1 tulokset — Kingdom of Nordmark"
    for body in (finnish.body, finnish_html):
        assert "Taistelu: K1" in body and "Taistelu: M2" in body and "valtasit: M2" in body
        assert "sotaonni" in body and "hyökkääjä" in body
        assert "KTA" in body and "JV 2" in body and "JV 4" in body and "PA 3" in body
        assert "Battle of M2" not in body
    assert '<html lang="fi">' in finnish_html

    english, _ = _mail_to("rival@example.org")
    assert english.subject == "[The Grenzwald Crisis] Turn 1 results — Ostland Federation"
    gm_mail, _ = _mail_to("gm@example.org")
    assert "results for the game master" in gm_mail.body


def test_it_reminds_a_finnish_player_in_finnish(demo, player, rival):
    _addresses(player, rival)
    language_set(user=player, language="fi")
    turn = demo.turns.get(number=1)
    turn.deadline = timezone.now() + timedelta(hours=12)
    turn.save(update_fields=["deadline"])

    assert turn_reminders_send(turn_id=turn.pk) == 2
    finnish, html = _mail_to("player@example.org")
    assert finnish.subject == "[The Grenzwald Crisis] Vuoro 1: käskyjen määräaikaan 12 tuntia"
    assert "Ilman käskyjä yksikkösi pitävät asemansa." in finnish.body
    assert "Anna käskyt verkossa" in html
    english, _ = _mail_to("rival@example.org")
    assert english.subject == "[The Grenzwald Crisis] Turn 1 orders due in 12 hours"


def test_it_writes_to_a_player_in_the_language_their_browser_asked_for_at_login(demo, player):
    assert language_of(user=player) == "en"
    client = Client(headers={"accept-language": "fi"})
    client.post(reverse("frontend:login"), {"username": "player", "password": "player-password-1"})
    assert language_of(user=player) == "fi"

    language_set(user=player, language="en")
    Client(headers={"accept-language": "fi"}).post(
        reverse("frontend:login"), {"username": "player", "password": "player-password-1"}
    )
    assert language_of(user=player) == "en", "a language chosen on the web is kept"
