"""Ruleset keys that no adjudication case changes (SODANKAYNTI.md §15): each one, set away from its default,
changes the battle or the turn the way its section says. Every battle here is small enough to check by hand.
"""

from __future__ import annotations

from rules.engine.sodankaynti.board import SideSetup
from rules.engine.sodankaynti.inputs import inputs_build
from rules.engine.sodankaynti.ruleset import ruleset_build
from tests.rules.sodankaynti.battles import Force, battle_in_b, meeting_case, side_setup, turn_resolved


def _fight(overrides: dict, red: dict[str, int], blue: dict[str, int], rolls: list, ratings=(1, 0)):
    """RED attacks BLUE's region B from A; RED's and BLUE's politics and tactics ratings are `ratings`."""
    ruleset = ruleset_build(overrides)

    def side(role: str, nation: str, origin: str, units: dict[str, int], rating: int) -> SideSetup:
        forces = [Force(nation, origin, units)]
        return side_setup(role, forces, ruleset, {nation: rating}, doctrine=ruleset.default_doctrine)

    attacker = side("attacker", "RED", "A", red, ratings[0])
    defender = side("defender", "BLUE", "B", blue, ratings[1])
    return battle_in_b(ruleset, attacker, defender, rolls)


def test_politics_enabled_false_skips_every_politics_roll() -> None:
    """§7 step 1: no politics dice are drawn; RED's 1 success would have removed BLUE's d6."""
    rolls = [[6], [7], [3]]  # tactics RED 1 die, BLUE none; RED CAV, BLUE JV
    report = _fight({"politics": {"enabled": False}}, {"CAV": 1}, {"JV": 1}, rolls)
    assert report["politics"] == {"skipped": True}
    assert report["roll"] == {"RED/A/CAV/1": 7, "BLUE/B/JV/1": 3}


def test_removal_order_decides_which_size_goes_first() -> None:
    """§7 step 3: with [8, 6] RED's one success removes BLUE's d8, not its d6; sizes not listed never go."""
    rolls = [[6], [6], [5], [2]]  # politics RED 6, tactics RED 6, RED CAV 5, BLUE JV 2
    report = _fight({"politics": {"removal_order": [8, 6]}}, {"CAV": 1}, {"JV": 1, "MUSK": 1}, rolls)
    assert report["politics"]["removed"] == ["BLUE/B/MUSK/1"]
    assert report["fates"]["BLUE/B/MUSK/1"] == "absent"
    report = _fight({"politics": {"removal_order": [20]}}, {"CAV": 1}, {"JV": 1}, [[6], [6], [5], [2]])
    assert (report["politics"]["removed"], report["politics"]["unused"]) == ([], 1)


def test_removed_fate_deserted_loses_the_unit_without_veterans() -> None:
    """§7 step 4: a deserted unit is lost to the army but not destroyed: no loss, no veteran pair."""
    # RED's one politics success removes BLUE's only die: the battle ends by politics (no more draws).
    report = _fight({"politics": {"removed_fate": "deserted"}}, {"CAV": 1}, {"JV": 1}, [[6]])
    assert report["end"]["cause"] == "politics" and report["end"]["winner"] == "RED"
    assert report["fates"]["BLUE/B/JV/1"] == "deserted"
    assert report["losses"]["BLUE"] == {} and report["deserted"] == {"BLUE": {"JV": 1}}


def test_success_on_counts_lower_pool_dice_as_successes() -> None:
    """§6.2: with success_on 5 a pool die showing 5 is a success (and with the default it is not)."""
    rolls = [[5], [5], [7], [3]]  # politics RED 5, tactics RED 5, RED CAV 7, BLUE JV 3
    report = _fight({"success_on": 5}, {"CAV": 1}, {"JV": 1, "LEVY": 1}, rolls)
    assert report["politics"]["pools"]["RED"]["successes"] == 1
    assert report["politics"]["removed"] == ["BLUE/B/JV/1"]
    assert report["tactics"]["winner"] == "RED"


def test_retreat_destroy_below_and_safe_dice() -> None:
    """§9.2: with destroy_below 6 a retreating 5 is destroyed; with safe_dice [] a d20 showing 2 is too."""
    # No ratings: RED (fewer dice) acts first; 100 x 7 < 50 x 24, so it retreats at once (retreat_below).
    overrides = {"retreat": {"destroy_below": 6, "safe_dice": []}}
    rolls = [[2, 5], [8, 8, 8]]  # RED ANGEL 2, CAV 5 (canonical order); BLUE CAV 8, 8, 8
    # the pair (ANGEL, CAV) draws a d8 for a veteran: 3, none
    report = _fight(overrides, {"CAV": 1, "ANGEL": 1}, {"CAV": 3}, [*rolls, [3]], ratings=(0, 0))
    retreat = report["actions"][-1]
    assert (retreat["side"], retreat["kind"], retreat["rule"]) == ("RED", "retreat", "retreat_below")
    assert retreat["destroyed"] == [{"id": "RED/A/ANGEL/1", "value": 2}, {"id": "RED/A/CAV/1", "value": 5}]
    assert retreat["withdrawn"] == []
    # the defaults: the 5 withdraws (not below 4), the d20 is safe
    report = _fight({}, {"CAV": 1, "ANGEL": 1}, {"CAV": 3}, rolls, ratings=(0, 0))
    assert report["actions"][-1]["destroyed"] == []


def test_veterans_enabled_false_draws_no_veteran_die() -> None:
    """§11.2: no pairs and no draws; the same battle with veterans on draws a d8 for the CAV pair."""
    rolls = [[1, 1], [12]]  # RED CAV 1, CAV 1; BLUE SPIRIT 12 (fewer dice, first) destroys both at once
    report = _fight({"veterans": {"enabled": False}}, {"CAV": 2}, {"SPIRIT": 1}, rolls, ratings=(0, 0))
    assert report["losses"]["RED"] == {"CAV": 2}
    assert report["veterans"] == {} and report["new_units"] == {}
    report = _fight({}, {"CAV": 2}, {"SPIRIT": 1}, [*rolls, [7]], ratings=(0, 0))
    assert report["veterans"]["RED"][0]["roll"] == 7 and report["new_units"] == {"RED": {"A": {"CAV": 1}}}


def test_default_doctrine_and_default_rating_apply_to_a_nation_without_attributes() -> None:
    """§5: a nation without attributes has `default_rating` dice and follows `default_doctrine`."""
    ruleset = ruleset_build({"default_doctrine": "bold", "default_rating": 1})
    inputs = inputs_build({"nation_attributes": {"RED": {"politics": 4}}}, ruleset, ("RED", "BLUE"), {})
    assert inputs.ratings == {"RED": {"politics": 4, "tactics": 1}, "BLUE": {"politics": 1, "tactics": 1}}
    assert inputs.doctrine("BLUE", "B").name == "bold" and inputs.doctrine("RED", "B").name == "bold"


MEETING = meeting_case(
    {"CAV": 2}, {"JV": 3}, {"JV": 2}, regions={"B": {"terrain": "rough", "owner": "BLUE", "fort": 2}}
)
# Shared case 13's meeting: RED wins it with a bonus action, then BLUE retreats (no politics: ratings 0).
MEETING_INPUTS = {
    "nation_attributes": {"RED": {"politics": 0, "tactics": 1}, "BLUE": {"politics": 0, "tactics": 0}}
}
MEETING_ROLLS = [[6], [7, 6], [5, 4]]


def test_meeting_winner_continues_false_sends_the_winner_home() -> None:
    """§12.2: with false the meeting's winner returns to its origin at once; no region battle in B."""
    # The meeting's rolls only, every one drawn: no second battle drew anything.
    result = turn_resolved(MEETING, MEETING_INPUTS, MEETING_ROLLS, meeting_winner_continues=False)
    assert [b["kind"] for b in result.battles] == ["meeting"]
    assert result.battles[0]["end"]["winner"] == "RED"
    assert result.owners["B"] == "BLUE"
    red = {(s.region, s.unit_type): s.count for s in result.stacks if s.nation == "RED"}
    assert red == {("A", "CAV"): 2}
