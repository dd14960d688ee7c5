"""Sodankäynti's orders through the API: a doctrine and an ambush saved with their fields, stand down refused
in the engine's words, and nobody else's orders seen or touched."""

from __future__ import annotations

import pytest

from orders.models import Order
from tests.api.conftest import client_for
from tests.errors import errors, fields, said

URL = "/api/campaigns/sampo/orders/"


def test_it_saves_a_doctrine_for_a_region_and_says_what_was_saved(poh, sampo):
    body = {"kind": "doctrine", "origin": "V2", "units": {}, "params": {"doctrine": "bold", "params": {}}}
    response = client_for(poh).post(URL, body, format="json")
    assert response.status_code == 201, response.json()
    saved = response.json()
    assert (saved["kind"], saved["origin"], saved["params"]["doctrine"]) == ("doctrine", "V2", "bold")
    assert saved["description"] == "doctrine bold in battles in V2"


def test_it_saves_a_doctrine_for_every_battle_with_no_region(poh, sampo):
    body = {"kind": "doctrine", "origin": "", "units": {}, "params": {"doctrine": "cautious"}}
    response = client_for(poh).post(URL, body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["origin"] is None


def test_it_saves_an_ambush_and_refuses_one_out_of_another_nations_region(poh, sampo):
    api = client_for(poh)
    ok = api.post(URL, {"kind": "ambush", "origin": "P2", "target": "V2", "units": {}}, format="json")
    assert ok.status_code == 201, ok.json()
    bad = api.post(URL, {"kind": "ambush", "origin": "K2", "target": "V2", "units": {}}, format="json")
    assert (bad.status_code, said(bad)) == (
        400,
        [("origin", "sodankaynti.order.ambush_owner", "K2 is not held by POH")],
    )


def test_it_refuses_stand_down_with_the_engines_message(poh, sampo):
    body = {"kind": "stand_down", "origin": "P1", "units": {"GREN": 1}}
    response = client_for(poh).post(URL, body, format="json")
    assert response.status_code == 400
    [problem] = errors(response)
    assert (problem["field"], problem["code"]) == ("kind", "sodankaynti.order.stand_down")
    assert not Order.objects.exists()


def test_a_move_still_needs_units(poh, sampo):
    response = client_for(poh).post(
        URL, {"kind": "move", "origin": "P2", "target": "P1", "units": {}}, format="json"
    )
    assert response.status_code == 400 and fields(response) == {"units"}


@pytest.mark.parametrize("who", ["kal", "outsider", "anonymous"])
def test_nobody_else_sees_or_deletes_a_nations_doctrine(request, poh, sampo, who):
    body = {"kind": "doctrine", "origin": "", "units": {}, "params": {"doctrine": "bold"}}
    client_for(poh).post(URL, body, format="json")
    other = client_for(None if who == "anonymous" else request.getfixturevalue(who))
    listed = other.get(URL)
    assert listed.status_code in (200, 401, 403, 404)
    if listed.status_code == 200:
        assert listed.json() == [], "the rival sees none of POH's orders"
    order = Order.objects.get()
    assert other.delete(f"{URL}{order.pk}/").status_code in (401, 403, 404)
    assert Order.objects.filter(pk=order.pk).exists()


def test_the_gm_reads_the_doctrine_with_its_fields(poh, sampo_gm, sampo):
    body = {"kind": "doctrine", "origin": "", "units": {}, "params": {"doctrine": "bold"}}
    client_for(poh).post(URL, body, format="json")
    [order] = client_for(sampo_gm).get(URL).json()
    assert (order["nation"], order["params"]) == ("POH", {"doctrine": "bold", "params": {}, "region": None})
