"""The battle report (SODANKAYNTI.md §14): everything a player needs to check the battle, messages as data."""

from __future__ import annotations

import json

from rules.engine import resolve_turn, ruleset_build
from rules.engine.casefile import case_turn
from rules.engine.messages import CATALOGUE, Message
from rules.engine.seam import ScriptedDice
from tests.rules.sodankaynti.battles import meeting_case

# A meeting A|B that RED wins, then the region battle in B (shared case 26, with a fort and rough terrain).
TURN = meeting_case(
    {"LEVY": 1, "CAV": 1},
    {"JV": 1, "CAV": 2},
    {"JV": 1, "CAV": 1},
    {"nation": "RED", "kind": "doctrine", "doctrine": "bold", "params": {"attack_priority": "value"}},
    regions={"B": {"terrain": "rough", "owner": "BLUE", "fort": 1}},
)
INPUTS = {
    "nation_attributes": {"RED": {"politics": 1, "tactics": 1}, "BLUE": {"politics": 1, "tactics": 0}},
    "gm_advantages": [{"region": "B", "nation": "RED", "roll": "tactics", "dice": 1, "reason": "scouts"}],
}
ROLLS = [[6], [3], [6, 1], [7, 5], [6], [2], [6], [4, 4], [1, 2, 3, 4], [8], [3, 2]]


def _battles():
    ruleset = ruleset_build({"battle_system": "sodankaynti"})
    dice = ScriptedDice(ROLLS)
    result = resolve_turn(case_turn(TURN, INPUTS), ruleset, 0, dice=dice)
    dice.finish()
    return result.battles


def test_the_report_is_json_and_names_its_system_place_and_sides() -> None:
    meeting, battle = _battles()
    assert json.loads(json.dumps(battle)) == battle
    assert (battle["system"], battle["format"], battle["kind"], battle["region"]) == (
        "sodankaynti",
        1,
        "normal",
        "B",
    )
    assert (battle["terrain"], battle["fort"]) == ("rough", 1)
    # a meeting: the terrain of both regions in the label's order, no fort
    assert (meeting["region"], meeting["terrain"], meeting["fort"]) == ("A|B", ["open", "rough"], 0)
    red, blue = battle["sides"]
    assert (red["name"], red["role"], red["nations"], red["commander"]) == ("RED", "attacker", ["RED"], "RED")
    assert red["doctrine"] == {
        "name": "bold", "from": "order", "retreat_below": None, "retreat_when_helpless": False,
        "sacrifice": "first", "sacrifice_max_die": 20, "attack_priority": "value",
    }  # fmt: skip
    assert blue["doctrine"]["from"] == "ruleset default"
    assert red["units"] == [
        {"id": "RED/A/CAV/1", "nation": "RED", "type": "CAV", "die": "d8", "origin": "A"},
        {"id": "RED/A/LEVY/1", "nation": "RED", "type": "LEVY", "die": "d6", "origin": "A"},
    ]


def test_the_rolls_carry_ratings_advantages_and_every_die() -> None:
    _, battle = _battles()
    politics, tactics = battle["politics"], battle["tactics"]
    assert politics["pools"]["BLUE"] == {
        "rating": 1, "rating_of": "BLUE", "advantages": [], "dice": [6], "successes": 1,
    }  # fmt: skip
    assert (politics["winner"], politics["count_rule"], politics["count"]) == ("BLUE", "winner", 1)
    assert (politics["removed"], politics["unused"], politics["skipped"]) == (["RED/A/LEVY/1"], 0, False)
    assert tactics["pools"]["RED"]["advantages"] == [
        {"name": "gm", "dice": 1, "nation": "RED", "reason": "scouts"}
    ]
    assert tactics["pools"]["BLUE"]["advantages"] == [
        {"name": "fort", "dice": 3},
        {"name": "terrain", "dice": 1},
    ]
    assert tactics["pools"]["BLUE"]["dice"] == [1, 2, 3, 4]
    assert (tactics["winner"], tactics["bonus"], tactics["first"]) == (None, 0, "RED")
    reason = Message.from_dict(tactics["first_reason"])
    assert reason.code == "sodankaynti.first.fewer_dice" and reason.params == {
        "dice": 1,
        "other": 2,
        "side": "RED",
    }
    assert battle["roll"] == {"RED/A/CAV/1": 8, "BLUE/B/CAV/1": 3, "BLUE/B/JV/1": 2}


def test_actions_end_fates_and_veterans_are_reported() -> None:
    _, battle = _battles()
    assert battle["actions"] == [
        {"n": 1, "side": "RED", "nation": "RED", "bonus": False, "kind": "attack", "rule": "finish",
         "by": {"id": "RED/A/CAV/1", "value": 8},
         "targets": [{"id": "BLUE/B/CAV/1", "value": 3}, {"id": "BLUE/B/JV/1", "value": 2}],
         "board_value_after": {"RED": 0, "BLUE": 0}},
    ]  # fmt: skip
    assert battle["end"] == {"cause": "board_empty", "winner": "RED", "loser": "BLUE", "actions": 1}
    assert battle["fates"] == {
        "RED/A/CAV/1": "spent", "RED/A/LEVY/1": "absent",
        "BLUE/B/CAV/1": "destroyed", "BLUE/B/JV/1": "destroyed",
    }  # fmt: skip
    assert battle["veterans"] == {
        "BLUE": [{"pair": ["BLUE/B/CAV/1", "BLUE/B/JV/1"], "die": "d6", "roll": "impossible", "new": None}]
    }
    assert battle["losses"] == {"RED": {}, "BLUE": {"CAV": 1, "JV": 1}}
    assert battle["survivors"] == {"RED": {"A": {"CAV": 1, "LEVY": 1}}}
    assert battle["new_units"] == {} and battle["conquest"] is True
    # where the survivors went: RED's spent CAV and absent LEVY move into the conquered region
    assert sorted((m["nation"], m["unit_type"], m["origin"], m["destination"]) for m in battle["moves"]) == [
        ("RED", "CAV", "A", "B"),
        ("RED", "LEVY", "A", "B"),
    ]


def test_every_message_code_in_a_report_is_registered_and_renders() -> None:
    for battle in _battles():
        message = Message.from_dict(battle["tactics"]["first_reason"])
        assert message.code in CATALOGUE
        assert "{" not in message.render()
    for code in [c for c in CATALOGUE if c.startswith("sodankaynti.")]:
        assert CATALOGUE[code].strip(), code


def test_an_unopposed_occupation_reports_the_system_and_draws_nothing() -> None:
    turn = dict(TURN, units={"A": {"RED": {"CAV": 1}}}, orders=[TURN["orders"][0] | {"units": {"CAV": 1}}])
    dice = ScriptedDice([])
    ruleset = ruleset_build({"battle_system": "sodankaynti"})
    result = resolve_turn(case_turn(turn, INPUTS), ruleset, 0, dice=dice)
    (report,) = result.battles
    assert {k: report[k] for k in ("system", "kind", "region", "winner", "conquest")} == {
        "system": "sodankaynti", "kind": "unopposed", "region": "B", "winner": "RED", "conquest": True,
    }  # fmt: skip
    assert dice.left() == 0 and dice.used == 0


def test_a_turn_with_rejected_sodankaynti_orders_is_json() -> None:
    orders = TURN["orders"] + [
        {"nation": "RED", "kind": "stand_down", "from": "A", "units": {"CAV": 1}},
        {"nation": "BLUE", "kind": "ambush", "from": "A", "to": "B"},
        {"nation": "BLUE", "kind": "doctrine", "doctrine": "heroic"},
    ]
    dice = ScriptedDice(ROLLS)
    ruleset = ruleset_build({"battle_system": "sodankaynti"})
    result = resolve_turn(case_turn(dict(TURN, orders=orders), INPUTS), ruleset, 0, dice=dice)
    assert [r.index for r in result.rejected_orders] == [3, 4, 5]
    assert json.loads(json.dumps(result.to_dict()))["rejected_orders"][0]["field"] == "kind"
