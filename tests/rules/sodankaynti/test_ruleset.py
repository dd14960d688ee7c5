"""The Sodankäynti ruleset (§15) and turn inputs (§5, §6.4, §7, §16): defaults, merging, errors by key."""

from __future__ import annotations

import pytest

from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.sodankaynti.inputs import inputs_build
from rules.engine.world import TurnInputError

BASE = {"battle_system": "sodankaynti"}
STUBBORN = {
    "retreat_below": None,
    "retreat_when_helpless": False,
    "sacrifice": "never",
    "sacrifice_max_die": 1,
    "attack_priority": "value",
}


def _build(**overrides):
    return ruleset_build(BASE | overrides)


def test_the_defaults_are_the_tables_of_the_spec() -> None:
    ruleset = _build()
    assert ruleset.battle_system == "sodankaynti"
    dice = {code: t.die for code, t in ruleset.unit_types.items()}
    assert dice == {
        "LEVY": "d6", "JV": "d6", "MUSK": "d8", "CAV": "d8", "ELITE": "d8", "GREN": "d10", "CUIR": "d10",
        "TY": "d10", "PA": "d10", "SPIRIT": "d12", "ANGEL": "d20", "MACH": "2d4", "IV": "2d4",
    }  # fmt: skip
    assert (ruleset.unit_types["MACH"].dice, ruleset.unit_types["MACH"].size) == (2, 4)
    assert ruleset.unit_types["TY"].role == "artillery" and ruleset.unit_types["IV"].role == "air"
    assert ruleset.removal_order == (6, 8, 10, 4)
    assert ruleset.fort == {1: 3, 2: 3, 3: 3} and ruleset.terrain == {"open": 0, "rough": 1, "city": 1}
    assert (ruleset.ambush, ruleset.surprise, ruleset.pincer, ruleset.home) == (3, 1, 1, 0)
    assert ruleset.max_bonus is None and ruleset.max_actions == 1000 and ruleset.default_rating == 3
    assert ruleset.doctrines["steady"].retreat_below == 50 and ruleset.doctrines["bold"].retreat_below is None
    assert ruleset.doctrines["cautious"].sacrifice_max_die == 8
    # §2: every role fights; §4: artillery and air attack; only air rebases, within rebase_range.
    assert set(ruleset.ground_types) == set(ruleset.unit_types)
    assert ruleset.kind_roles["attack"] == ("ground", "artillery", "air")
    assert ruleset.ranges == {"IV": 2}


def test_overrides_merge_key_by_key_and_a_null_type_is_dropped() -> None:
    ruleset = _build(
        politics={"count": "net"},
        doctrines={"steady": {"retreat_below": 75}, "stubborn": STUBBORN},
        unit_types={"ANGEL": None, "CAV": {"die": "d10"}},
    )
    assert ruleset.politics_count == "net" and ruleset.removal_order == (6, 8, 10, 4)
    steady = ruleset.doctrines["steady"]
    assert steady.retreat_below == 75 and steady.sacrifice == "when_needed"
    assert ruleset.doctrines["stubborn"].sacrifice == "never"
    assert "ANGEL" not in ruleset.unit_types
    assert ruleset.unit_types["CAV"].size == 10 and ruleset.unit_types["CAV"].role == "ground"


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"tactics": {"max_bonus": 0}}, "tactics.max_bonus"),
        ({"tactics": {"count": "most"}}, "tactics.count"),
        ({"tactics": {"tie_first": "attacker"}}, "tactics.tie_first"),
        ({"unit_types": {"MACH": {"die": "2d0"}}}, "unit_types.MACH.die"),
        ({"unit_types": {"X": {"die": "d6", "role": "navy"}}}, "unit_types.X.role"),
        ({"orders_by_role": {"air": ["fly"]}}, "orders_by_role.air"),
        ({"rebase_range": -1}, "rebase_range"),
        ({"default_rating": 1.5}, "default_rating"),
        ({"success_on": 7}, "success_on"),
        ({"joint_ratings": "worst"}, "joint_ratings"),
        ({"advantages": {"fort": {0: 3}}}, "advantages.fort"),
        ({"advantages": {"terrain": {"swamp": -1}}}, "advantages.terrain.swamp"),
        ({"advantages": {"ambush": -3}}, "advantages.ambush"),
        ({"politics": {"enabled": "yes"}}, "politics.enabled"),
        ({"politics": {"removal_order": [6, 6]}}, "politics.removal_order"),
        ({"politics": {"removed_fate": "gone"}}, "politics.removed_fate"),
        ({"sacrifice_target_fate": "absent"}, "sacrifice_target_fate"),
        ({"retreat": {"destroy_below": -1}}, "retreat.destroy_below"),
        ({"retreat": {"safe_dice": [0]}}, "retreat.safe_dice"),
        ({"retreat": {"scope": "nation"}}, "retreat.scope"),
        ({"standoff": "draw"}, "standoff"),
        ({"max_actions": -1}, "max_actions"),
        ({"doctrines": {"bold": {"sacrifice": "sometimes"}}}, "doctrines.bold.sacrifice"),
        ({"doctrines": {"bold": {"retreat_below": 1001}}}, "doctrines.bold.retreat_below"),
        ({"doctrines": {"new": {"sacrifice": "first"}}}, "doctrines.new."),
        ({"default_doctrine": "heroic"}, "default_doctrine"),
        ({"machine_lost_when": "half"}, "machine_lost_when"),
        ({"veterans": {"above": -1}}, "veterans.above"),
        ({"meeting_winner_continues": 1}, "meeting_winner_continues"),
        ({"kta_die": "1d6"}, "kta_die"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_a_bad_value_is_refused_with_its_key(overrides, key) -> None:
    with pytest.raises(RulesetError, match=key.replace(".", r"\.")):
        _build(**overrides)


@pytest.mark.parametrize(
    ("inputs", "entry"),
    [
        ({"skip_politics": "B"}, "skip_politics"),
        ({"skip_politics": ["A|C"]}, "skip_politics[0]"),
        ({"skip_politics": ["Z"]}, "skip_politics[0]"),
        ({"gm_advantages": {"region": "B"}}, "gm_advantages"),
        ({"gm_advantages": [{"region": "Z", "nation": "RED", "roll": "tactics", "dice": 1}]}, "region"),
        ({"gm_advantages": [{"region": "B", "nation": "GOLD", "roll": "tactics", "dice": 1}]}, "nation"),
        ({"gm_advantages": [{"region": "B", "nation": "RED", "roll": "battle", "dice": 1}]}, "roll"),
        ({"gm_advantages": [{"region": "B", "nation": "RED", "roll": "tactics", "dice": -1}]}, "dice"),
        ({"nation_attributes": {"GOLD": {"politics": 1}}}, "nation_attributes.GOLD"),
        ({"nation_attributes": {"RED": {"tactics": 2.5}}}, "nation_attributes.RED.tactics"),
        ({"nation_attributes": {"RED": {"charisma": 2}}}, "nation_attributes.RED.charisma"),
        ({"nation_attributes": {"RED": {"doctrine": "heroic"}}}, "nation_attributes.RED.doctrine"),
    ],
)
def test_a_bad_turn_input_is_refused_naming_the_entry(inputs, entry) -> None:
    adjacency = {"A": ["B"], "B": ["A", "C"], "C": ["B"]}
    with pytest.raises(TurnInputError, match=entry.replace(".", r"\.").replace("[", r"\[")):
        inputs_build(inputs, _build(), ("RED", "BLUE"), adjacency)
