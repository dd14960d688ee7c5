"""The API over a real socket: a live server in a thread, urllib as the client, token authentication.

These catch what the in-process test client cannot: headers on the wire, content negotiation, the
token header as a script sends it, and on-commit work (the live server commits for real).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest
from rest_framework.authtoken.models import Token

from campaign.models import Turn


def call(base: str, method: str, path: str, *, user=None, body=None, raw: bytes | None = None):
    """(status, headers, parsed JSON or None) of one request over HTTP."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Accept", "application/json")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if user is not None:
        request.add_header("Authorization", f"Token {Token.objects.get_or_create(user=user)[0].key}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, headers, payload = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, payload = error.code, error.headers, error.read()
    return status, headers, json.loads(payload) if payload else None


@pytest.fixture
def base(live_server) -> str:
    return live_server.url


def test_it_takes_an_order_over_http_and_hides_it_from_the_rival(base, player, rival) -> None:
    body = {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 4, "PA": 3}}

    status, headers, order = call(base, "POST", "/api/campaigns/demo/orders/", user=player, body=body)

    assert status == 201, order
    assert headers["Content-Type"] == "application/json"
    assert order["description"] == "N5 → M2: attack with 4 JV, 3 PA"
    assert call(base, "GET", f"/api/campaigns/demo/orders/{order['id']}/", user=player)[0] == 200
    assert call(base, "GET", f"/api/campaigns/demo/orders/{order['id']}/", user=rival)[0] == 404
    assert call(base, "GET", "/api/campaigns/demo/orders/", user=rival)[2] == []


def test_it_answers_401_without_a_token_and_400_to_bad_json(base, player) -> None:
    status, headers, _ = call(base, "GET", "/api/campaigns/")
    assert (status, headers["WWW-Authenticate"]) == (401, "Token")

    status, _, error = call(base, "POST", "/api/campaigns/demo/orders/", user=player, raw=b'{"kind": ')
    assert status == 400 and "JSON parse error" in error["errors"][0]["message"]


def test_it_trades_a_password_for_a_token(base, player) -> None:
    status, _, answer = call(
        base, "POST", "/api/auth/token/", body={"username": "player", "password": "player-password-1"}
    )

    assert status == 200
    assert answer["token"] == Token.objects.get(user=player).key
    assert call(base, "POST", "/api/auth/token/", body={"username": "player", "password": "wrong"})[0] == 400


def test_the_gm_processes_a_turn_over_http_and_polls_its_status(base, gm, player, demo) -> None:
    call(
        base,
        "POST",
        "/api/campaigns/demo/orders/",
        user=player,
        body={"kind": "attack", "origin": "N5", "target": "M1", "units": {"JV": 3, "PA": 2}},
    )

    status, headers, queued = call(base, "POST", "/api/campaigns/demo/turns/1/process/", user=gm)

    assert status == 202 and headers["Location"] == queued["status_url"]
    deadline = time.monotonic() + 20
    while True:
        turn = call(base, "GET", queued["status_url"].removeprefix(base), user=gm)[2]
        if turn["status"] in (Turn.Status.RESOLVED, Turn.Status.FAILED) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert turn["status"] == "resolved", turn
    reports = call(base, "GET", "/api/campaigns/demo/turns/1/reports/", user=player)[2]
    assert [r["region"] for r in reports] == ["M1"]
