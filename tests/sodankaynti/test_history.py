"""Preview, rollback, export and replay of a Sodankäynti campaign, as for Iron Fist (tests/history): the
doctrine and ambush orders, the nations' ratings and the GM's advantages are part of what a turn is
resolved from, so they must come back, be compared and be carried in the file."""

from __future__ import annotations

import json

import pytest

from campaign.generate import orders_generate
from campaign.models import Turn
from orders.services import orders_place
from rules.export import campaign_export, campaign_replay
from rules.history import turn_preview, turn_publish, turn_rollback
from rules.models import Report
from rules.selectors import turn_result
from rules.services import turn_process
from rules.sodankaynti.services import nation_attributes_set, turn_system_inputs_set
from tests.history.conftest import world_rows
from tests.history.test_replay import world_as_scenario, world_by_code
from tests.sodankaynti.conftest import tactics_advantage

TURNS = 4


def _orders(campaign, turn, seed):
    """Generated attacks, a doctrine each (one for a region), an ambush where a nation holds V2."""
    world = world_as_scenario(campaign) | {"ruleset": {"battle_system": "sodankaynti"}}
    orders = orders_generate(scenario=world, seed=seed)
    doctrines = ("bold", "steady", "cautious")
    orders += [
        {
            "nation": "POH",
            "kind": "doctrine",
            "origin": "",
            "units": {},
            "params": {"doctrine": doctrines[seed % 3], "params": {}, "region": None},
        },
        {
            "nation": "KAL",
            "kind": "doctrine",
            "origin": "",
            "units": {},
            "params": {
                "doctrine": doctrines[(seed + 1) % 3],
                "params": {"retreat_below": 40},
                "region": "V2",
            },
        },
    ]
    owner = {r["code"]: r["owner"] for r in world["regions"]}
    if owner.get("V2"):
        orders.append({"nation": owner["V2"], "kind": "ambush", "origin": "V2", "target": "P2", "units": {}})
    orders_place(turn=turn, orders=orders)


@pytest.fixture
def played(sampo, sampo_gm):
    """The Sampo War after four turns of doctrines, ambushes, changed ratings and GM advantages."""
    for number in range(1, TURNS + 2):
        turn = sampo.turns.get(number=number)
        if number == 2:
            nation_attributes_set(
                by=sampo_gm, nation=sampo.nations.get(code="POH"), politics=1, tactics=6, doctrine="bold"
            )
        if number == 3:
            fog = tactics_advantage("V2", "KAL", 3, "fog")
            turn_system_inputs_set(by=sampo_gm, turn=turn, gm_advantages=[fog], skip_politics=["V3"])
        _orders(sampo, turn, number)
        if number <= TURNS:
            processed = turn_process(turn_id=turn.pk)
            assert processed.status == Turn.Status.RESOLVED, processed.error
    assert Report.objects.filter(turn__campaign=sampo).exclude(data__kind="unopposed").count() >= 3
    return sampo


def _attack_v2(turn):
    attack = {
        "nation": "POH",
        "kind": "attack",
        "origin": "P2",
        "target": "V2",
        "units": {"LEVY": 2, "CAV": 3},
    }
    orders_place(turn=turn, orders=[attack])


def test_the_preview_is_what_publishing_writes_and_writes_nothing_itself(sampo, sampo_gm):
    turn = sampo.turns.get(number=1)
    _attack_v2(turn)
    _orders(sampo, turn, 7)
    before = world_rows(sampo)
    preview = turn_preview(turn_id=turn.pk, by=sampo_gm)
    assert world_rows(sampo) == before
    assert any(b.get("actions") for b in preview.result["battles"]), "a battle fought action by action"
    outcome = turn_publish(turn_id=turn.pk, by=sampo_gm)
    assert outcome.matched and not outcome.diff.lines
    assert [r.data for r in Report.objects.filter(turn=turn)] == preview.result["battles"]


def test_a_changed_rating_after_the_preview_is_noticed(sampo, sampo_gm):
    turn = sampo.turns.get(number=1)
    _attack_v2(turn)
    turn_preview(turn_id=turn.pk, by=sampo_gm)
    nation_attributes_set(
        by=sampo_gm, nation=sampo.nations.get(code="KAL"), politics=0, tactics=0, doctrine="bold"
    )
    outcome = turn_publish(turn_id=turn.pk, by=sampo_gm)
    assert outcome.matched is False, "the turn's input is not the previewed one"


def test_a_rolled_back_turn_resolves_again_to_the_same_result(sampo, sampo_gm):
    turn = sampo.turns.get(number=1)
    _attack_v2(turn)
    _orders(sampo, turn, 7)
    before = world_by_code(sampo)["stacks"]
    turn_process(turn_id=turn.pk)
    turn.refresh_from_db()
    result = turn_result(turn=turn)
    assert any(b.get("actions") for b in result["battles"]), "the turn fought"
    turn_rollback(turn_id=turn.pk, by=sampo_gm, force=True)
    turn.refresh_from_db()
    assert turn.status == Turn.Status.OPEN
    assert world_by_code(sampo)["stacks"] == before
    assert list(turn.orders.values_list("kind", flat=True)).count("doctrine") == 2, "its orders stay"
    turn_process(turn_id=turn.pk)
    turn.refresh_from_db()
    assert turn_result(turn=turn)["battles"] == result["battles"]


def test_the_export_replays_to_the_same_reports_and_world(played):
    data = json.loads(json.dumps(campaign_export(campaign=played, by=None)))
    assert data["scenario"]["ruleset"]["battle_system"] == "sodankaynti"
    assert data["turns"][1]["system_inputs"]["nation_attributes"]["POH"] == {
        "politics": 1,
        "tactics": 6,
        "doctrine": "bold",
    }
    assert data["turns"][2]["system_inputs"]["skip_politics"] == ["V3"]
    replay = campaign_replay(data=data, slug="sampo-again", keep=True)
    assert replay.matched, [t.lines for t in replay.turns]
    again = type(played).objects.get(slug="sampo-again")
    assert world_by_code(again)["stacks"] == world_by_code(played)["stacks"]


def test_a_file_with_other_ratings_replays_to_other_battles(played):
    data = json.loads(json.dumps(campaign_export(campaign=played, by=None)))
    for entry in data["turns"]:
        entry["system_inputs"]["nation_attributes"] = {"POH": {"politics": 0, "tactics": 0}}
    replay = campaign_replay(data=data)
    assert not replay.matched
