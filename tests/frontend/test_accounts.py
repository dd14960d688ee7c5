"""The first five minutes: logging in (straight to the one campaign; the demo's logins while it is loaded),
the campaign list, the email address, changing and resetting the password, the time zone list."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

LOGIN = reverse("frontend:login")


@pytest.fixture(autouse=True)
def _english_after():
    """A request in Finnish leaves Finnish active in this thread: the next test starts in English."""
    from django.utils import translation

    yield
    translation.activate("en")


def test_a_player_of_one_campaign_goes_straight_to_it_after_login(client, player, demo):
    response = client.post(LOGIN, {"username": "player", "password": "player-password-1"})
    assert response["Location"] == reverse("frontend:campaign", args=["demo"])


def test_a_member_of_two_campaigns_gets_the_list_and_next_wins(client, player, demo, other_campaign, nations):
    from campaign.services import membership_set

    membership_set(campaign=other_campaign, username="player", password="player-password-1", nation=None)
    response = client.post(LOGIN, {"username": "player", "password": "player-password-1"})
    assert response["Location"] == reverse("frontend:home")
    client.logout()
    response = client.post(
        LOGIN + "?next=/settings/",
        {"username": "player", "password": "player-password-1", "next": "/settings/"},
    )
    assert response["Location"] == "/settings/"


def test_the_login_page_shows_the_demo_logins_only_while_the_demo_has_its_passwords(client, db, capsys):
    assert "demo-logins" not in client.get(LOGIN).content.decode()
    call_command("load_demo")
    page = client.get(LOGIN).content.decode()
    assert 'id="demo-logins"' in page and "<code>gm</code>" in page and "<code>ironfist-player</code>" in page
    from django.contrib.auth import get_user_model

    gm = get_user_model().objects.get(username="gm")
    gm.set_password("a-real-password-now")
    gm.save()
    assert "demo-logins" not in client.get(LOGIN).content.decode()


def test_the_campaign_list_shows_the_turn_the_deadline_and_whether_orders_are_in(
    client, player, turn1, place_orders
):
    client.force_login(player)
    [row] = client.get(reverse("frontend:home")).context["rows"]
    assert (row["turn"].number, row["plays"], row["orders_in"]) == (1, True, False)
    place_orders(turn1, [("NOR", "hold", "N5", None, {"JV": 1})])
    response = client.get(reverse("frontend:home"))
    assert response.context["rows"][0]["orders_in"] is True
    page = response.content.decode()
    assert turn1.deadline.strftime("%Y-%m-%d") in page  # the deadline's datetime attribute


def test_a_player_sets_an_email_address_and_changes_the_password(client, player):
    client.force_login(player)
    response = client.post(
        reverse("frontend:settings"), {"which": "email", "email": "nor@example.org"}, follow=True
    )
    assert [str(m) for m in response.context["messages"]] == ["Email address set to nor@example.org."]
    player.refresh_from_db()
    assert player.email == "nor@example.org"
    response = client.post(reverse("frontend:settings"), {"which": "email", "email": "not an address"})
    assert response.status_code == 400
    response = client.post(
        reverse("frontend:password_change"),
        {
            "old_password": "player-password-1",
            "new_password1": "a-much-better-one-42",
            "new_password2": "a-much-better-one-42",
        },
        follow=True,
    )
    assert "Your new password works from now on." in response.content.decode()
    player.refresh_from_db()
    assert player.check_password("a-much-better-one-42")


@pytest.mark.parametrize("language", ["en", "fi"])
def test_a_player_resets_a_forgotten_password_by_email(client, player, language):
    player.email = "nor@example.org"
    player.save()
    client.cookies["django_language"] = language
    response = client.post(reverse("frontend:password_reset"), {"email": "nor@example.org"}, follow=True)
    assert response.status_code == 200 and 'id="account-done"' in response.content.decode()
    [message] = mail.outbox
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", message.body).group(1)
    response = client.get(link, follow=True)
    form_url = response.redirect_chain[-1][0]
    response = client.post(
        form_url, {"new_password1": "fresh-and-long-77", "new_password2": "fresh-and-long-77"}, follow=True
    )
    assert 'id="account-done"' in response.content.decode()
    player.refresh_from_db()
    assert player.check_password("fresh-and-long-77")


def test_the_time_zone_is_typed_with_a_list_of_the_real_zones(client, player):
    client.force_login(player)
    page = client.get(reverse("frontend:settings")).content.decode()
    assert 'list="time-zones"' in page and '<option value="Europe/Helsinki">' in page
    response = client.post(reverse("frontend:settings"), {"time_zone": "Europe/Helsinki"}, follow=True)
    assert "Time zone set to Europe/Helsinki" in [str(m) for m in response.context["messages"]][0]
