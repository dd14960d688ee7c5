"""Guessers are throttled (django-axes) on the login page, the admin and the API's token endpoint, by
account and address together, with a lockout that says when to try again: a guesser locks out nobody else at
their address, and nobody can lock an account (the GM's) out from another address. A player revokes their
API token."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.test import RequestFactory
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from frontend.views.lockout import lockout_response
from tests.api.conftest import client_for
from tests.errors import errors

LIMIT = settings.AXES_FAILURE_LIMIT
WHEN = re.compile(r"Try again after \d{4}-\d\d-\d\d \d\d:\d\d UTC \(in 15 minutes\)")


def _login_page(client, username, password, address="10.0.0.1"):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def _admin(client, username, password, address="10.0.0.1"):
    return client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def _token(username, password, address="10.0.0.1"):
    return APIClient().post(
        "/api/auth/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=address
    )


def test_the_login_page_locks_out_after_the_limit_even_with_the_right_password(client, player):
    for _ in range(LIMIT - 1):
        assert _login_page(client, "player", "wrong").status_code == 200  # the form again, with its error

    refused = _login_page(client, "player", "wrong")
    right = _login_page(client, "player", "player-password-1")

    assert refused.status_code == right.status_code == 429
    assert WHEN.search(right.content.decode()), right.content.decode()
    assert right["Retry-After"] == "900"
    assert "_auth_user_id" not in client.session


def test_a_guesser_locks_out_no_other_player_at_the_same_address(client, player, rival):
    for _ in range(LIMIT):
        _login_page(client, "player", "wrong")

    assert _login_page(client, "player", "player-password-1").status_code == 429
    assert _login_page(client, "rival", "rival-password-1").status_code == 302


def test_a_guesser_locks_out_no_other_player_behind_the_same_proxy(client, player, rival):
    """Behind a proxy every player's address is the one the proxy gives; a guesser locks out only the
    account they guess."""
    for n in range(LIMIT):
        _login_page(client, f"nobody-{n}", "wrong")
        _login_page(client, "player", "wrong")

    assert _login_page(client, "rival", "rival-password-1").status_code == 302
    client.logout()
    assert _login_page(client, "nobody-0", "wrong").status_code == 200


def test_the_account_is_not_locked_out_from_another_address(client, player):
    for _ in range(LIMIT):
        _login_page(client, "player", "wrong", address="10.0.1.1")

    assert _login_page(client, "player", "player-password-1", address="10.0.1.1").status_code == 429
    assert _login_page(client, "player", "player-password-1", address="10.0.2.1").status_code == 302


def test_nobody_can_lock_the_gm_out_of_a_running_campaign(client, demo, gm):
    for n in range(LIMIT * 2):
        _login_page(client, "gm", "wrong", address=f"10.0.3.{n % 3}")
        _token("gm", "wrong", address=f"10.0.4.{n % 3}")

    assert _login_page(client, "gm", "gm-password-1", address="10.0.9.9").status_code == 302
    assert _token("gm", "gm-password-1", address="10.0.9.9").status_code == 200


def test_the_admin_locks_out_too(client, gm):
    gm.is_staff = True
    gm.save(update_fields=["is_staff"])
    for _ in range(LIMIT):
        _admin(client, "gm", "wrong")

    locked = _admin(client, "gm", "gm-password-1")

    assert locked.status_code == 429 and WHEN.search(locked.content.decode())


def test_the_token_endpoint_locks_out_with_json_that_says_when(db, player):
    for _ in range(LIMIT - 1):
        wrong = _token("player", "wrong")
        assert wrong.status_code == 400 and wrong.json()["errors"][0]["code"] == "authorization"
    assert _token("player", "wrong").status_code == 429

    locked = _token("player", "player-password-1")

    assert locked.status_code == 429 and locked["Retry-After"] == "900"
    (error,) = locked.json()["errors"]
    assert error["code"] == "locked_out" and error["params"] == {"retry_after": 900}
    assert WHEN.search(error["message"])
    assert not Token.objects.filter(user=player).exists()


def test_a_right_password_before_the_limit_clears_the_count(client, player):
    for _ in range(LIMIT - 1):
        _login_page(client, "player", "wrong")
    assert _login_page(client, "player", "player-password-1").status_code == 302
    client.logout()

    for _ in range(LIMIT - 1):
        assert _login_page(client, "player", "wrong").status_code == 200


def test_a_player_revokes_their_token_through_the_api(demo, player):
    api = client_for(player)
    assert api.get("/api/campaigns/").status_code == 200

    assert api.delete("/api/auth/token/").status_code == 204

    assert api.get("/api/campaigns/").status_code == 401
    assert not Token.objects.filter(user=player).exists()


def test_a_player_revokes_and_renews_their_token_on_the_settings_page(client, demo, player):
    old = client_for(player)
    client.force_login(player)
    assert "You have a token" in client.get("/settings/").content.decode()

    renewed = client.post("/settings/token/", {"action": "renew"}, follow=True)
    key = Token.objects.get(user=player).key
    assert key in renewed.content.decode()
    assert old.get("/api/campaigns/").status_code == 401
    assert client_for(player).get("/api/campaigns/").status_code == 200

    revoked = client.post("/settings/token/", {"action": "revoke"}, follow=True)
    assert "Your API token is revoked" in revoked.content.decode()
    assert not Token.objects.filter(user=player).exists()
    assert "You have no API token." in client.get("/settings/").content.decode()


@pytest.mark.parametrize("method", ["get", "post"])
def test_the_token_page_needs_a_login(client, db, method):
    response = getattr(client, method)("/settings/token/")

    assert response.status_code in (302, 405)


@pytest.mark.parametrize("username", ["x" * 300, "ab\x00c"])
def test_a_username_no_account_can_have_is_a_failed_login_not_a_server_error(client, db, username):
    """django-axes records the username of each failed try, in a column of 255 characters."""
    assert _token(username, "wrong").status_code == 400
    assert _login_page(client, username, "wrong").status_code in (200, 400)


def test_a_lone_surrogate_in_json_is_refused_as_not_text(db):
    """JSON may escape half a UTF-16 pair ("\\ud800"); no database can store it."""
    response = APIClient().post(
        "/api/auth/token/", '{"username": "\\ud800", "password": "x"}', content_type="application/json"
    )

    assert response.status_code == 400
    [error] = errors(response)
    assert error["code"] == "parse_error" and "not text" in error["message"]


def test_the_api_lockout_is_the_one_error_envelope_with_retry_after(db):
    response = lockout_response(RequestFactory().post("/api/auth/token/"))

    assert response.status_code == 429 and response["Retry-After"] == "900"
    [error] = json.loads(response.content)["errors"]
    assert (error["code"], error["ref"], error["params"]) == ("locked_out", None, {"retry_after": 900})
    assert WHEN.search(error["message"]) and "for this account from this address" in error["message"]
