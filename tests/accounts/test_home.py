"""The home page, "My campaigns" (frontend.home): each campaign with the user's seat, its battle system in
the reader's language, its turn and deadline in the reader's time zone, and what waits on the user: orders
not in (whatever the system keeps them in), a table battle to settle, the GM's failed turn."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign, Turn
from tests.company.conftest import company  # noqa: F401 (a fixture)

HOME = reverse("frontend:home")


@pytest.fixture(autouse=True)
def _english_after():
    from django.utils import translation

    yield
    translation.activate("en")


def _rows(client):
    return {row["campaign"].slug: row for row in client.get(HOME).context["rows"]}


def test_a_player_sees_the_seat_the_system_the_turn_and_that_orders_are_due(
    client, player, demo, place_orders
):
    client.force_login(player)
    [row] = _rows(client).values()

    assert (row["nation"]["code"], row["is_gm"], row["turn"].number) == ("NOR", False, 1)
    assert (row["orders_due"], row["orders_in"]) == (True, False)
    page = client.get(HOME).content.decode()
    assert "You play <strong>Kingdom of Nordmark</strong>" in page and "Iron Fist" in page
    assert "Your orders for turn 1 are not in yet." in page

    place_orders(demo.turns.get(number=1), [("NOR", "hold", "N5", None, {"JV": 1})])

    row = _rows(client)["demo"]
    assert (row["orders_due"], row["orders_in"]) == (False, True)
    assert "Your orders for turn 1 are in." in client.get(HOME).content.decode()


def test_orders_a_system_keeps_in_rows_of_its_own_count_too(client, company, player):  # noqa: F811
    """company_d20's orders are sets (campaign.selectors.orders_given_register), not order rows."""
    from rules.company.models import OrderSet

    client.force_login(player)
    assert _rows(client)["demo"]["orders_due"] is True
    OrderSet.objects.create(turn=company.campaign.turns.get(number=1), nation=company.nor, orders=[{"x": 1}])

    row = _rows(client)["demo"]
    assert (row["orders_due"], row["orders_in"]) == (False, True)
    assert "Company d20" in client.get(HOME).content.decode()


def test_the_deadline_shows_in_the_readers_zone_and_the_system_in_the_readers_language(client, player, demo):
    from campaign.lifecycle import time_zone_set

    time_zone_set(user=player, time_zone="Europe/Helsinki")
    client.force_login(player)
    deadline = demo.turns.get(number=1).deadline

    page = client.get(HOME, HTTP_ACCEPT_LANGUAGE="fi").content.decode()

    from zoneinfo import ZoneInfo

    local = deadline.astimezone(ZoneInfo("Europe/Helsinki"))
    assert f"{local:%H:%M} EET" in page or f"{local:%H:%M} EEST" in page
    assert "Rautanyrkki" in page and "Valtiosi: <strong>Kingdom of Nordmark</strong>" in page


def test_the_gm_sees_a_failed_turn_and_the_table_battles_to_settle(client, gm, tabletop_turn):
    client.force_login(gm)
    row = _rows(client)["demo"]

    assert row["is_gm"] and row["nation"] is None and not row["orders_due"]
    assert [b["battle"].key for b in row["battles"]] == ["region:K1"]
    page = client.get(HOME).content.decode()
    assert "Turn 1 waits for its battles" in page and "region:K1" in page

    Turn.objects.filter(pk=tabletop_turn.pk).update(status=Turn.Status.FAILED)
    assert _rows(client)["demo"]["failed"] is True
    assert "Turn 1 failed: the dashboard says why." in client.get(HOME).content.decode()


def test_the_players_of_a_table_battle_see_their_next_step(client, player, tabletop_turn):
    client.force_login(player)
    [battle] = _rows(client)["demo"]["battles"]
    assert battle["next"] == "Enter the result."


def test_nothing_is_due_from_a_paused_campaign_or_a_nation_in_civil_disorder(client, player, demo, nations):
    client.force_login(player)
    Campaign.objects.filter(pk=demo.pk).update(paused_at=demo.created_at)
    assert _rows(client)["demo"]["orders_due"] is False
    Campaign.objects.filter(pk=demo.pk).update(paused_at=None)
    nations["NOR"].civil_disorder = True
    nations["NOR"].save()
    assert _rows(client)["demo"]["orders_due"] is False


def test_the_home_page_costs_the_same_queries_for_one_campaign_or_many(client, player, demo, nations):
    from campaign.scenario import scenario_read
    from campaign.services import membership_set, scenario_import
    from tests.conftest import DEMO

    client.force_login(player)
    client.get(HOME)
    with CaptureQueriesContext(connection) as one:
        client.get(HOME)
    for i in range(4):
        more = scenario_import(scenario=scenario_read(DEMO), slug=f"more-{i}")
        membership_set(
            campaign=more,
            username="player",
            password="player-password-1",
            nation=more.nations.get(code="NOR"),
        )
    player.refresh_from_db()  # membership_set set the password again: a new session
    client.force_login(player)
    client.get(HOME)
    with CaptureQueriesContext(connection) as five:
        assert len(client.get(HOME).context["rows"]) == 5

    assert len(five) == len(one)


def test_without_a_campaign_it_says_how_to_get_into_one(client, outsider):
    client.force_login(outsider)
    page = client.get(HOME).content.decode()
    assert "A game master invites you with a link: open it to join." in page
