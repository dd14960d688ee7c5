"""Who may read and write what: every page for the GM, a player, a rival player, an outsider and anonymous.

An object of another nation or another campaign is not found (404), never forbidden (403), so that its
existence is not confirmed; a player of the campaign asking for a GM page is told it is forbidden (403).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from orders.models import Order
from tests.frontend.conftest import demo_url

ROLES = ("gm", "player", "rival", "outsider", "anonymous")


@pytest.fixture
def player_order(demo, conquest_played, player, place_orders):
    """An order of the player (NOR) in the open turn 2."""
    turn = demo.turns.get(number=2)
    return place_orders(turn, [("NOR", "move", "N4", "N5", {"JV": 1})])[0]


# page -> the status each role gets; "login" is a redirect to the login page.
READS = {
    "campaign": {"gm": 200, "player": 200, "rival": 200, "outsider": 404, "anonymous": "login"},
    "turns": {"gm": 200, "player": 200, "rival": 200, "outsider": 404, "anonymous": "login"},
    "turn": {"gm": 200, "player": 200, "rival": 200, "outsider": 404, "anonymous": "login"},
    "order_edit": {"gm": 404, "player": 200, "rival": 404, "outsider": 404, "anonymous": "login"},
    "gm": {"gm": 200, "player": 403, "rival": 403, "outsider": 404, "anonymous": "login"},
    "gm_turn": {"gm": 200, "player": 403, "rival": 403, "outsider": 404, "anonymous": "login"},
    "gm_turn_status": {"gm": 200, "player": 403, "rival": 403, "outsider": 404, "anonymous": "login"},
    "gm_preview": {"gm": 200, "player": 403, "rival": 403, "outsider": 404, "anonymous": "login"},
    "gm_export": {"gm": 200, "player": 403, "rival": 403, "outsider": 404, "anonymous": "login"},
}


def _args(page, order):
    return {
        "turn": [1],
        "order_edit": [order.pk],
        "gm_turn": [1],
        "gm_turn_status": [1],
        "gm_preview": [2],
    }.get(page, [])


def _check(response, expected):
    if expected == "login":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("frontend:login"))
    else:
        assert response.status_code == expected, response.content[:500]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", list(READS))
def test_it_shows_each_page_only_to_those_who_may_read_it(as_role, player_order, page, role):
    response = as_role(role).get(demo_url(page, *_args(page, player_order)))
    _check(response, READS[page][role])


GM_WRITES = {
    "gm_deadline": {"deadline": "2099-01-01T12:00"},
    "gm_weather": {"weather": "rain", "region_weather": "M1 snow", "reason": "autumn"},
    "gm_modifier": {"region": "M1", "nation": "NOR", "value": "2", "reason": "supply"},
    "gm_relation": {"nation_a": "NOR", "nation_b": "EST", "kind": "peace", "reason": "treaty"},
    "gm_roster": {
        "region": "N5",
        "nation": "NOR",
        "unit_type": "JV",
        "count": "9",
        "reason": "reinforcements",
    },
    "gm_process": {"confirm": "yes"},
    "gm_pause": {"pause-reason": "holiday"},
    "gm_extend": {"extend-extra": "24", "extend-reason": "holiday"},
    "gm_lifecycle": {
        "lifecycle-process_early": "on",
        "lifecycle-reminder_before": "6",
        "lifecycle-civil_disorder_after": "2",
    },
    "gm_assign": {"assign-nation": "EST", "assign-user": "outsider"},
}
GM_WRITE_STATUS = {"gm": 302, "player": 403, "rival": 403, "outsider": 404, "anonymous": "login"}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", list(GM_WRITES))
def test_it_lets_only_the_gm_write_gm_inputs(as_role, demo, player_order, page, role):
    from campaign.models import AuditEntry

    response = as_role(role).post(demo_url(page), GM_WRITES[page])
    _check(response, GM_WRITE_STATUS[role])
    assert AuditEntry.objects.filter(campaign=demo).exists() == (role == "gm")


@pytest.mark.parametrize("page", list(GM_WRITES))
def test_it_hides_campaign_a_from_the_gm_of_campaign_b(client, other_gm, demo, page):
    client.force_login(other_gm)
    assert client.get(demo_url("gm")).status_code == 404
    assert client.get(demo_url("campaign")).status_code == 404
    assert client.post(demo_url(page), GM_WRITES[page]).status_code == 404


def test_it_hides_campaign_b_from_the_gm_of_the_demo(client, gm, other_campaign):
    client.force_login(gm)
    assert client.get(reverse("frontend:campaign", args=["b"])).status_code == 404
    assert client.get(reverse("frontend:gm", args=["b"])).status_code == 404


@pytest.mark.parametrize("role", ["rival", "gm", "outsider"])
def test_it_does_not_let_others_change_or_delete_a_players_order_by_id(as_role, player_order, role):
    client = as_role(role)
    changed = client.post(
        demo_url("order_edit", player_order.pk),
        {"origin": "N4", "kind": "move", "target": "N5", "units_JV": "2"},
    )
    deleted = client.post(demo_url("order_delete", player_order.pk))
    assert (changed.status_code, deleted.status_code) == (404, 404)
    player_order.refresh_from_db()
    assert player_order.units == {"JV": 1}


@pytest.mark.parametrize("role", ROLES)
def test_it_takes_new_orders_only_from_players_of_the_campaign(as_role, turn1, role):
    origin = {"rival": "E2"}.get(role, "N5")
    target = {"rival": "M3"}.get(role, "M2")
    response = as_role(role).post(
        demo_url("order_create"), {"origin": origin, "kind": "attack", "target": target, "units_JV": "1"}
    )
    expected = {"gm": 404, "player": 302, "rival": 302, "outsider": 404, "anonymous": "login"}[role]
    _check(response, expected)
    assert Order.objects.filter(turn=turn1).count() == (1 if role in ("player", "rival") else 0)


def test_it_lets_a_player_read_only_its_own_battle_reports(as_role, conquest_played):
    assert "Battle of M2" in as_role("player").get(demo_url("turn", 1)).content.decode()
    rival_page = as_role("rival").get(demo_url("turn", 1)).content.decode()
    assert "Battle of M2" not in rival_page
    # The change of owner is public: everyone in the campaign sees M2 went to Nordmark.
    assert "Kingdom of Nordmark" in rival_page
