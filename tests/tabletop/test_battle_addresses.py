"""Every battle fought at the table, tabletop's and company_d20's, is a row of one model (rules.TableBattle),
listed in one list and found at one address, `c/<slug>/turns/<n>/battles/<id>/` (the API's under
/api/campaigns/). The earlier addresses keep working: a page by its key (tabletop) or its own id (company)
moves there for good; an API path of before answers as the address does, undocumented."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from frontend.systems import system_api_urls
from tests.api.conftest import client_for

A = "/api/campaigns/demo"


def _browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_tabletop_battle_by_its_key_moves_to_its_address(tabletop_battle, player, rival) -> None:
    address = reverse("frontend:battle", args=["demo", 1, tabletop_battle.pk])
    moved = _browser(player).get("/c/demo/turns/1/battles/region:K1/?print=1")
    assert (moved.status_code, moved["Location"]) == (301, f"{address}?print=1")
    moved = _browser(player).get("/c/demo/turns/1/battles/region:K1/round/")
    assert (moved.status_code, moved["Location"]) == (301, f"{address}round/")
    assert _browser(player).get(moved["Location"]).status_code == 200
    assert _browser(rival).get("/c/demo/turns/1/battles/region:K1/").status_code == 404, "not for others"


def test_a_tabletop_battle_answers_by_its_key_in_the_api_as_at_its_address(tabletop_battle, player) -> None:
    api = client_for(player)
    by_key = api.get(f"{A}/turns/1/battles/region:K1/")
    at_address = api.get(f"{A}/turns/1/battles/{tabletop_battle.pk}/")
    assert by_key.status_code == at_address.status_code == 200
    assert by_key.json() == at_address.json() and at_address.json()["id"] == tabletop_battle.pk
    text = api.get(f"{A}/turns/1/battles/{tabletop_battle.pk}/", {"format": "text"})
    assert text["Content-Type"].startswith("text/plain") and "Kaarnala" in text.content.decode()


def test_no_two_systems_route_the_same_path_under_a_battle_and_aliases_are_undocumented() -> None:
    from drf_spectacular.generators import SchemaGenerator

    routes = [str(p.pattern) for p in system_api_urls("battle")]
    assert len(routes) == len(set(routes)), routes
    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert "/api/campaigns/{slug}/turns/{number}/battles/{battle}/results/" in paths
    assert "/api/campaigns/{slug}/turns/{number}/battles/{battle}/rolls/" in paths
    assert not [p for p in paths if "{key}" in p or "/battles/{pk}/" in p], "an alias is documented"
