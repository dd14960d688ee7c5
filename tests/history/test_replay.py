"""A campaign exported to one file and replayed from its first turn: the same reports, the same world."""

from __future__ import annotations

import json

import pytest
import yaml
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import F

from campaign.generate import orders_generate
from campaign.gm import diplomacy, inputs, roster
from campaign.models import Border, Campaign, Region, Relation, Stack, Turn
from rules.export import ExportError, campaign_export, campaign_replay
from rules.models import Report, TurnSnapshot
from rules.services import turn_process

RESOLVED_TURNS = 6


def world_as_scenario(campaign) -> dict:
    """The world as it stands, in the shape campaign.generate.orders_generate reads."""
    units: dict = {}
    for region, nation, unit_type, count in Stack.objects.filter(
        region__campaign=campaign, count__gt=0
    ).values_list("region__code", "nation__code", "unit_type", "count"):
        units.setdefault(region, {}).setdefault(nation, {})[unit_type] = count
    return {
        "regions": [
            {"code": code, "owner": owner}
            for code, owner in Region.objects.filter(campaign=campaign).values_list("code", "owner__code")
        ],
        "borders": [
            list(pair)
            for pair in Border.objects.filter(region_a__campaign=campaign).values_list(
                "region_a__code", "region_b__code"
            )
        ],
        "relations": [
            {"nations": list(pair)}
            for pair in Relation.objects.filter(nation_a__campaign=campaign)
            .exclude(kind="war")
            .values_list("nation_a__code", "nation_b__code")
        ],
        "units": units,
    }


@pytest.fixture
def played(demo, gm, nations, regions, place_orders):
    """The demo after six turns of generated orders and GM inputs of every kind, turn 7 open with orders."""
    for number in range(1, RESOLVED_TURNS + 2):
        turn = demo.turns.get(number=number)
        if number > 1:
            # Reinforcements, set by hand as a GM would: they keep the war going and the export must
            # carry them as corrections between turns.
            Stack.objects.filter(region__campaign=demo, unit_type="JV").update(count=F("count") + 2)
        if number == 2:
            inputs.weather_set(by=gm, turn=turn, weather="rain", region_weather={"M1": "snow"})
        if number == 3:
            inputs.gm_modifier_set(
                by=gm, turn=turn, region=regions["E2"], nation=nations["EST"], value=2, reason="dug in"
            )
        if number == 4:
            roster.roster_change(
                by=gm, region=regions["N2"], nation=nations["NOR"], unit_type="JV", count=9, reason="levy"
            )
        if number == 5:
            diplomacy.relation_set(by=gm, nation_a=nations["NOR"], nation_b=nations["EST"], kind="peace")
        # Two draws of orders on one world: where both send units out of one region, the engine rejects
        # the later order, so the replay must match rejected orders too.
        world = world_as_scenario(demo)
        orders = orders_generate(scenario=world, seed=number) + orders_generate(
            scenario=world, seed=number + 50
        )
        place_orders(turn, [(o["nation"], o["kind"], o["origin"], o["target"], o["units"]) for o in orders])
        if number <= RESOLVED_TURNS:
            assert turn_process(turn_id=turn.pk).status == Turn.Status.RESOLVED
    assert Report.objects.filter(turn__campaign=demo).count() > 10, "the turns should fight battles"
    return demo


def rows(queryset, *fields) -> list:
    """The queryset's `fields`, sorted, so that no order of the database's choosing decides a comparison."""
    return sorted(queryset.values_list(*fields))


def world_by_code(campaign) -> dict:
    stacks = Stack.objects.filter(region__campaign=campaign)
    relations = Relation.objects.filter(nation_a__campaign=campaign)
    return {
        "stacks": rows(stacks, "region__code", "nation__code", "unit_type", "count"),
        "owners": rows(Region.objects.filter(campaign=campaign), "code", "owner__code"),
        "relations": rows(relations, "nation_a__code", "nation_b__code", "kind"),
        "turns": list(
            campaign.turns.order_by("number").values_list(
                "number", "status", "seed", "weather", "region_weather"
            )
        ),
        "reports": [
            list(Report.objects.filter(turn=turn).values_list("kind", "region", "conquest", "data"))
            for turn in campaign.turns.order_by("number")
        ],
        "orders": [
            list(turn.orders.values_list("nation__code", "kind", "origin__code", "target__code", "units"))
            for turn in campaign.turns.order_by("number")
        ],
    }


def test_it_replays_an_exported_campaign_to_the_same_reports_and_state(played, tmp_path, capsys):
    path = tmp_path / "demo.json"
    call_command("export_campaign", "demo", output=str(path))
    data = json.loads(path.read_text())
    assert [t["status"] for t in data["turns"]] == ["resolved"] * RESOLVED_TURNS + ["open"]
    assert data["turns"][1]["region_weather"] == {"M1": "snow"}
    # The roster change of turn 4, among the reinforcements.
    assert {"region": "N2", "nation": "NOR", "unit_type": "JV", "count": 9} in data["turns"][3][
        "corrections"
    ]["stacks"]
    assert data["turns"][4]["corrections"]["relations"] == [{"a": "NOR", "b": "EST", "kind": "peace"}]
    campaigns = Campaign.objects.count()

    call_command("replay_campaign", str(path))

    out = capsys.readouterr().out
    assert [f"turn {n}: same reports" for n in range(1, RESOLVED_TURNS + 1)] == [
        line for line in out.splitlines() if line.startswith("turn ")
    ]
    assert "final state: the same" in out
    assert Campaign.objects.count() == campaigns, "a replay without --slug leaves nothing behind"


def test_it_recreates_the_campaign_as_a_new_slug_row_for_row(played, tmp_path):
    path = tmp_path / "demo.yaml"
    call_command("export_campaign", "demo", output=str(path))
    assert yaml.safe_load(path.read_text())["format"] == "iron-fist-campaign/1"

    call_command("replay_campaign", str(path), slug="demo-again")

    again = Campaign.objects.get(slug="demo-again")
    assert world_by_code(again) == world_by_code(played)


def test_it_names_the_turn_whose_reports_differ_when_the_file_was_changed(played):
    data = json.loads(json.dumps(campaign_export(campaign=played, by=None)))
    # One order fewer in turn 3: the replay fights other battles from there on.
    dropped = data["turns"][2]["orders"].pop(0)

    replay = campaign_replay(data=data)

    assert [t.matched for t in replay.turns][:2] == [True, True]
    assert replay.turns[2].matched is False
    assert any(dropped["target"] in line or dropped["origin"] in line for line in replay.turns[2].lines)
    assert not replay.matched


def test_it_lets_only_the_gm_export_and_refuses_turns_without_a_snapshot(played, player):
    with pytest.raises(PermissionDenied):
        campaign_export(campaign=played, by=player)
    TurnSnapshot.objects.filter(turn__number=2).delete()
    with pytest.raises(ExportError, match="turn 2 was processed before snapshots were kept"):
        campaign_export(campaign=played, by=None)


def test_it_refuses_a_file_that_is_not_a_campaign_export(db, tmp_path):
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps({"name": "a scenario"}))
    with pytest.raises(CommandError, match="not a campaign export"):
        call_command("replay_campaign", str(path))
