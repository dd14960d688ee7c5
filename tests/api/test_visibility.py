"""What each role sees in lists: only its nation's orders, stacks per fog of war, the battles it was in."""

from __future__ import annotations

import pytest

from campaign.models import Border, Stack
from rules.models import Report
from tests.errors import fields as error_fields

A = "/api/campaigns/demo"


def get(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.content
    return response.json()


def test_it_lists_only_the_campaigns_one_plays_in_or_runs(world, clients) -> None:
    slugs = {
        role: [c["slug"] for c in get(clients[role], "/api/campaigns/")]
        for role in clients
        if role != "anonymous"
    }

    assert slugs == {
        "gm": ["demo"],
        "player": ["demo"],
        "rival": ["demo"],
        "outsider": [],
        "other_gm": ["other"],
    }


def test_it_tells_each_member_who_they_are_and_which_turn_is_open(world, clients) -> None:
    home = get(clients["player"], f"{A}/")

    assert home["you"] == {"role": "player", "nation": "NOR"}
    assert home["current_turn"]["number"] == 2 and home["current_turn"]["status"] == "open"
    assert [n["code"] for n in home["nations"]] == ["NOR", "KAR", "EST", "WES", "SUD"]
    assert get(clients["gm"], f"{A}/")["you"] == {"role": "gm", "nation": None}


def test_a_player_never_sees_a_rivals_orders_in_lists(world, clients) -> None:
    for turn in ("", "?turn=1", "?turn=2"):
        assert {o["nation"] for o in get(clients["player"], f"{A}/orders/{turn}")} <= {"NOR"}
        assert {o["nation"] for o in get(clients["rival"], f"{A}/orders/{turn}")} <= {"EST"}

    assert [o["id"] for o in get(clients["player"], f"{A}/orders/")] == [world.own_order.pk]
    assert [o["description"] for o in get(clients["player"], f"{A}/orders/?turn=1")] == [
        "N5 → M1: attack with 3 JV, 2 PA"
    ]


def test_the_gm_sees_every_nations_orders_of_its_campaign_only(world, clients) -> None:
    ids = {o["id"] for o in get(clients["gm"], f"{A}/orders/")}

    assert ids == {world.own_order.pk, world.rival_order.pk}
    assert len(get(clients["gm"], f"{A}/orders/?turn=1")) == 6
    assert [o["id"] for o in get(clients["other_gm"], "/api/campaigns/other/orders/")] == [
        world.other_order.pk
    ]


def test_it_rejects_a_turn_filter_that_is_not_a_number(world, clients) -> None:
    response = clients["player"].get(f"{A}/orders/?turn=last")

    assert response.status_code == 400 and error_fields(response) == {"turn"}


def _in_sight_of(nation, campaign) -> set[str]:
    """Regions the nation owns or has units in, and their neighbours: fog of war as the rules put it."""
    present = set(campaign.regions.filter(owner=nation).values_list("code", flat=True))
    present |= set(Stack.objects.filter(nation=nation, count__gt=0).values_list("region__code", flat=True))
    seen = set(present)
    for a, b in Border.objects.filter(region_a__campaign=campaign).values_list(
        "region_a__code", "region_b__code"
    ):
        if a in present or b in present:
            seen |= {a, b}
    return seen


def test_a_player_sees_stacks_only_in_sight_under_fog_of_war(world, clients, nations) -> None:
    stacks = get(clients["player"], f"{A}/stacks/")
    in_sight = _in_sight_of(nations["NOR"], world.campaign)

    assert {s["region"] for s in stacks if s["nation"] != "NOR"} <= in_sight
    assert any(s["nation"] == "KAR" and s["region"] == "K1" for s in stacks), "K1 borders N3: in sight"
    assert not any(s["nation"] == "EST" for s in stacks), "no EST region is next to NOR"
    own = Stack.objects.filter(nation=nations["NOR"], count__gt=0).count()
    assert sum(s["nation"] == "NOR" for s in stacks) == own


def test_the_gm_sees_every_stack_and_without_fog_so_does_a_player(world, clients) -> None:
    everything = Stack.objects.filter(region__campaign=world.campaign, count__gt=0).count()

    assert len(get(clients["gm"], f"{A}/stacks/")) == everything
    world.campaign.fog_of_war = False
    world.campaign.save()
    assert len(get(clients["player"], f"{A}/stacks/")) == everything


def test_a_player_reads_only_the_battles_its_nation_fought_in_or_supported(world, clients) -> None:
    reports = Report.objects.filter(turn=world.resolved).prefetch_related("nations")
    fought = {
        code: {r.position for r in reports if code in {n.code for n in r.nations.all()}}
        for code in ("NOR", "EST")
    }

    seen = {
        role: {r["position"] for r in get(clients[role], f"{A}/turns/1/reports/")}
        for role in ("gm", "player", "rival")
    }

    assert seen["gm"] == {r.position for r in reports} and len(seen["gm"]) >= 3
    assert seen["player"] == fought["NOR"] and seen["player"]
    assert seen["rival"] == fought["EST"] and seen["rival"]
    assert not seen["player"] & seen["rival"]


def test_a_report_carries_the_engines_numbers(world, clients) -> None:
    position = next(iter(get(clients["player"], f"{A}/turns/1/reports/")))["position"]

    report = get(clients["player"], f"{A}/turns/1/reports/{position}/")

    assert report["region"] == "M1" and report["nations"] == ["NOR"]
    assert report["data"] == Report.objects.get(turn=world.resolved, position=position).data


@pytest.mark.parametrize("role", ["player", "gm"])
def test_it_never_shows_a_turns_seed_result_or_error_on_the_turn_endpoints(world, clients, role) -> None:
    for url in (f"{A}/turns/", f"{A}/turns/1/"):
        text = clients[role].get(url).content.decode()
        assert "result" not in text and "seed" not in text and world.resolved.seed not in text


def test_a_turn_tells_everyone_which_regions_changed_hands(world, clients) -> None:
    turn = get(clients["rival"], f"{A}/turns/1/")

    assert {"region": "M1", "from": None, "to": "NOR"} in turn["changed_hands"]


def test_the_gm_reads_a_failed_turns_error(world, clients) -> None:
    world.open.status, world.open.error = "failed", "Traceback: the engine fell over"
    world.open.save()

    status = get(clients["gm"], f"{A}/turns/2/status/")

    assert (status["status"], status["error"]) == ("failed", "Traceback: the engine fell over")
    assert "error" not in get(clients["player"], f"{A}/turns/2/")
