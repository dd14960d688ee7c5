"""A Sodankäynti campaign in the browser's pages: units as dice, doctrines explained in the order panel,
doctrine and ambush orders entered there, the GM's ratings and advantages on the dashboard, and who may."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import AuditEntry
from orders.models import Order


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _post(client, view: str, form: str, *, follow: bool = False, **fields: str):
    """`fields` posted to the Sampo War's page "frontend:<view>" by their names in the form `form`."""
    data = {f"{form}-{name}": value for name, value in fields.items()}
    return client.post(reverse(f"frontend:{view}", args=["sampo"]), data, follow=follow)


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_player_sees_units_as_dice_and_every_doctrine_explained(poh, sampo):
    page = _text(_client(poh).get(reverse("frontend:campaign", args=["sampo"])))
    assert '<th scope="col" class="num">CAV d8</th>' in page, "the roster's columns say the die"
    assert "CAV d8 3" in page, "the map's counter says the die"
    assert "<li><strong>bold: never retreats while it can act; holds when no die can act" in page
    assert "<li><strong>steady: retreats when its dice are worth under 50 % of the enemy" in page
    assert "<li><strong>cautious: retreats when its dice are worth under 100 %" in page
    assert "Weather:" not in page, "§2: no battle here reads the weather, so the legend does not speak of it"


def test_the_player_sets_a_doctrine_and_an_ambush_from_the_panel(poh, sampo):
    client = _client(poh)
    response = _post(
        client, "doctrine_create", "doctrine", follow=True, doctrine="steady", region="v2", retreat_below="75"
    )
    assert "Order saved: doctrine steady (retreat_below=75) in battles in V2." in _text(response)
    response = _post(client, "ambush_create", "ambush", follow=True, origin="P2", target="V2")
    assert "Order saved: ambush in P2 facing V2." in _text(response)
    assert list(Order.objects.values_list("kind", flat=True)) == ["doctrine", "ambush"]


def test_the_order_form_offers_the_kinds_of_the_systems_registry_entry(poh, sampo):
    """§4: nothing stands down here; a doctrine and an ambush have forms of their own."""
    page = _client(poh).get(reverse("frontend:campaign", args=["sampo"])).content.decode()
    select = re.search(r'<select name="kind"[^>]*>(.*?)</select>', page, re.S).group(1)

    assert re.findall(r'<option value="([a-z_]+)"', select) == ["hold", "move", "rebase", "attack"]


def test_the_panel_says_why_the_rules_refuse_a_doctrine_or_ambush(poh, sampo):
    client = _client(poh)
    response = _post(client, "ambush_create", "ambush", follow=True, origin="K1", target="K2")
    assert "The order was not saved: K1 is not held by POH." in _text(response)
    response = client.post(
        reverse("frontend:order_create", args=["sampo"]),
        {"origin": "P1", "kind": "stand_down", "units_GREN": "1"},
    )
    assert response.status_code == 400
    assert "there is no support to stand down from" in _text(response)
    assert not Order.objects.exists()


def test_the_gm_sets_ratings_and_advantages_on_the_dashboard(sampo_gm, sampo):
    client = _client(sampo_gm)
    page = _text(client.get(reverse("frontend:gm", args=["sampo"])))
    assert "Nation ratings and doctrines" in page and "GM advantages this turn" in page
    ratings = {"nation": "KAL", "politics": "5", "tactics": "2", "doctrine": "bold"}
    response = _post(client, "gm_ratings", "ratings", follow=True, **ratings, reason="Väinämöinen leads")
    assert "Kalevala: politics 5, tactics 2, doctrine bold." in _text(response)
    assert sampo.nations.get(code="KAL").attributes == {"politics": 5, "tactics": 2, "doctrine": "bold"}
    advantages = {"advantages": "V2 POH tactics 2 the Sampo\n", "skip_politics": "V1, V1|V2"}
    response = _post(client, "gm_advantages", "advantages", follow=True, **advantages)
    assert "Turn 1: 1 GM advantages, politics skipped in V1, V1|V2." in _text(response)
    turn = sampo.turns.get(number=1)
    assert turn.system_inputs == {
        "gm_advantages": [
            {"region": "V2", "nation": "POH", "roll": "tactics", "dice": 2, "reason": "the Sampo"}
        ],
        "skip_politics": ["V1", "V1|V2"],
    }
    assert set(AuditEntry.objects.values_list("action", flat=True)) >= {"nation_attributes", "system_inputs"}


def test_the_gm_form_refuses_an_advantage_the_turn_would_refuse(sampo_gm, sampo):
    response = _post(_client(sampo_gm), "gm_advantages", "advantages", advantages="Z9 POH tactics 2 fog")
    assert response.status_code == 400
    assert "gm_advantages[0].region: unknown region" in _text(response)
    assert sampo.turns.get(number=1).system_inputs == {}


@pytest.mark.parametrize("who", ["poh", "kal", "outsider", None])
def test_only_the_gm_sets_ratings(request, sampo, who):
    user = request.getfixturevalue(who) if who else None
    response = _post(
        _client(user), "gm_ratings", "ratings", nation="KAL", politics="9", tactics="9", doctrine="bold"
    )
    assert response.status_code in (302, 403, 404)
    if response.status_code == 302:
        assert "/accounts/login/" in response["Location"]
    assert sampo.nations.get(code="KAL").attributes["politics"] == 3


def test_an_outsider_cannot_enter_a_doctrine(outsider, sampo):
    response = _post(_client(outsider), "doctrine_create", "doctrine", doctrine="bold")
    assert response.status_code in (403, 404)
    assert not Order.objects.exists()


def test_a_doctrine_is_listed_without_an_edit_link_and_its_edit_page_still_answers(poh, sampo):
    client = _client(poh)
    _post(client, "doctrine_create", "doctrine", doctrine="bold")
    order = Order.objects.get()
    page = _text(client.get(reverse("frontend:campaign", args=["sampo"])))
    assert "doctrine bold in every battle" in page
    assert f'href="{reverse("frontend:order_edit", args=["sampo", order.pk])}"' not in page
    assert reverse("frontend:order_delete", args=["sampo", order.pk]) in page
    assert client.get(reverse("frontend:order_edit", args=["sampo", order.pk])).status_code == 200


def test_the_gm_sees_the_ratings_and_doctrine_each_nation_fights_with(sampo_gm, sampo):
    """§5: a rating of 0 is 0 dice, not "—"; a nation without attributes has the ruleset's defaults; a
    doctrine with parameters shows them."""
    sampo.nations.filter(code="KAL").update(
        attributes={"politics": 0, "tactics": 4, "doctrine": {"name": "bold", "retreat_below": 30}}
    )
    sampo.nations.filter(code="POH").update(attributes={})
    page = _text(_client(sampo_gm).get(reverse("frontend:gm", args=["sampo"])))
    kal = '<th scope="row">KAL Kalevala</th><td class="num">0</td><td class="num">4</td>'
    assert kal + "<td>bold (retreat_below=30)</td>" in page
    poh = '<th scope="row">POH Pohjola</th><td class="num">3</td><td class="num">3</td><td>steady</td>'
    assert poh in page


def test_the_ambush_hint_says_the_campaigns_dice(poh, sampo):
    """§4.2, §6.4: the hint gives `advantages.ambush` and `advantages.surprise` as the campaign sets them;
    retreat_below is a share of what the enemy's dice show (§10.1), not of how many there are."""
    sampo.ruleset_overrides = {**(sampo.ruleset_overrides or {}), "advantages": {"ambush": 2, "surprise": 0}}
    sampo.save(update_fields=["ruleset_overrides"])
    page = _text(_client(poh).get(reverse("frontend:campaign", args=["sampo"])))
    assert "gives your defenders 2 more tactics dice; facing the wrong way, it gives the attacker 0." in page
    assert "Retreat when your dice show under this % of the enemy&#x27;s" in page


def test_every_doctrine_parameter_can_be_given_from_the_panel_and_the_dashboard(poh, sampo_gm, sampo):
    """§4.1: a doctrine order names a doctrine with optional parameters, any of §10.1's; §5: so does a
    nation's standing doctrine. An empty field keeps the preset's value."""
    fields = {"retreat_when_helpless": "true", "sacrifice": "last", "sacrifice_max_die": "8"}
    response = _post(
        _client(poh),
        "doctrine_create",
        "doctrine",
        follow=True,
        doctrine="bold",
        **fields,
        attack_priority="value",
    )
    assert "Order saved" in _text(response)
    params = Order.objects.get(kind="doctrine").params["params"]
    given = {"retreat_when_helpless": True, "sacrifice": "last", "sacrifice_max_die": 8}
    assert params == given | {"attack_priority": "value"}
    ratings = {"nation": "KAL", "politics": "3", "tactics": "4", "doctrine": "cautious"}
    params = {"retreat_when_helpless": "false", "sacrifice_max_die": "12"}
    _post(_client(sampo_gm), "gm_ratings", "ratings", **ratings, **params, reason="the Sampo's guard")
    doctrine = sampo.nations.get(code="KAL").attributes["doctrine"]
    assert doctrine == {"name": "cautious", "retreat_when_helpless": False, "sacrifice_max_die": 12}


def test_the_dashboard_offers_no_weather_or_kta_modifier_that_would_do_nothing(sampo_gm, sampo):
    """§2, §16: weather and Iron Fist's GM modifiers have no effect in this system, so the dashboard does not
    offer them (it points to GM advantages), and a post to them changes nothing."""
    client = _client(sampo_gm)
    page = _text(client.get(reverse("frontend:gm", args=["sampo"])))
    assert "Set weather" not in page and "Set modifier" not in page
    assert "Weather and KTA modifiers have no effect in this system" in page
    response = client.post(
        reverse("frontend:gm_weather", args=["sampo"]),
        {"weather": "storm", "region_weather": "", "reason": "x"},
    )
    assert response.status_code == 404
    assert sampo.turns.get(number=1).weather != "storm"


def test_the_order_page_lets_artillery_and_air_attack_and_offers_no_stand_down_on_the_map(poh, sampo):
    """§4: every role may attack and stand_down is invalid; the page's script enabled unit counts by Iron
    Fist's table (attack: ground only), so a TY or IV count was greyed out for an attack."""
    import html
    import json

    page = _client(poh).get(reverse("frontend:campaign", args=["sampo"])).content.decode()
    data = json.loads(html.unescape(re.search(r"data-json='([^']*)'", page).group(1)))
    assert data["kind_roles"]["attack"] == ["ground", "artillery", "air"]
    assert "stand_down" not in data["kind_roles"]
    assert 'data-menu-kind="stand_down"' not in page
    assert 'data-menu-kind="hold"' in page
