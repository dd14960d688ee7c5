"""The tie-breaks no case reaches (SODANKAYNTI.md §6.5, §7, §8, §10.4-§10.6, §11.3, §13), each on a board
small enough to check by hand, and `advantages.fort` read by fort level (§6.4)."""

from __future__ import annotations

from rules.engine.seam import ScriptedDice
from rules.engine.sodankaynti.battle import battle_fight
from rules.engine.sodankaynti.board import DESTROYED, BattleSetup, Side, SideSetup
from rules.engine.sodankaynti.doctrine import decide, sacrificer
from rules.engine.sodankaynti.fates import fates_settle
from rules.engine.sodankaynti.ruleset import ruleset_build
from rules.engine.sodankaynti.skills import politics_roll
from tests.rules.sodankaynti.battles import Force, side_setup, turn_resolved
from tests.rules.turns import duel_case

INDEX = {"RED": 0, "BLUE": 1, "GREEN": 2}
RULESET = ruleset_build({})


def _side(
    role: str, forces: list[Force], ruleset=RULESET, ratings: dict[str, int] | None = None
) -> SideSetup:
    return side_setup(role, forces, ruleset, ratings)


def _on_board(side: Side, values: list[int]) -> Side:
    side.board = side.to_roll()
    for die, value in zip(side.board, values, strict=True):
        die.value = value
    return side


def test_the_commander_of_equal_unit_counts_is_the_nation_with_the_larger_dice() -> None:
    """§10.6: one unit each; BLUE's d8 beats RED's d6 before the nation ids are compared."""
    side = Side(
        _side("attacker", [Force("RED", "A", {"LEVY": 1}), Force("BLUE", "C", {"CAV": 1})]), 0, RULESET, INDEX
    )
    assert side.commander == "BLUE"


def test_equal_best_ratings_name_the_lower_nation_id() -> None:
    """§6.5: RED and GREEN both have 2; the report names RED."""
    forces = [Force("RED", "A", {"LEVY": 1}), Force("GREEN", "C", {"LEVY": 1})]
    side = Side(_side("attacker", forces, ratings={"RED": 2, "GREEN": 2}), 0, RULESET, INDEX)
    assert side.rating("politics", RULESET) == (2, "RED")


def test_politics_removal_goes_to_the_lower_nation_id_on_equal_counts() -> None:
    """§7 step 3's example: RED and GREEN one 2d4 machine each, k = 2: RED's MACH/1:1, then GREEN's."""
    loser = Side(
        _side("attacker", [Force("RED", "A", {"MACH": 1}), Force("GREEN", "C", {"MACH": 1})]),
        0,
        RULESET,
        INDEX,
    )
    winner = Side(
        _side("defender", [Force("BLUE", "B", {"LEVY": 1})], ratings={"BLUE": 2}), 1, RULESET, INDEX
    )
    dice = ScriptedDice([6, 6])  # the loser's side is first in side order, with no dice; BLUE 6, 6
    report = politics_roll([loser, winner], RULESET, dice)
    assert report["removed"] == ["RED/A/MACH/1:1", "GREEN/C/MACH/1:1"]


def test_tie_first_defender_in_a_battle_without_a_defender_is_the_first_side_in_side_order() -> None:
    """§8 step 3: with `defender` and no defender (a meeting) the dice are not compared: RED, first in side
    order, acts first though it has more dice."""
    ruleset = ruleset_build({"tactics": {"tie_first": "defender"}})
    setup = BattleSetup(
        kind="meeting",
        label="A|B",
        terrain=["open", "open"],
        fort=0,
        sides=(
            _side("attacker", [Force("RED", "A", {"CAV": 2})], ruleset),
            _side("attacker", [Force("BLUE", "B", {"LEVY": 1})], ruleset),
        ),
        nation_index=INDEX,
    )
    dice = ScriptedDice([8, 8, 2])  # no ratings: no skill dice; RED CAV 8, 8; BLUE LEVY 2
    report = battle_fight(setup, ruleset, dice).report
    assert report["tactics"]["first"] == "RED"
    assert report["actions"][0]["side"] == "RED" and report["end"]["winner"] == "RED"


def test_when_needed_sacrifices_when_the_enemys_highest_equals_its_own() -> None:
    """§10.4 step 4: E's highest 5 >= S's highest 5 (no die of S can attack it alone): sacrifice the 1 on it,
    though the 5 could attack 2 + 2."""
    own = _on_board(
        Side(_side("attacker", [Force("RED", "A", {"LEVY": 1, "MUSK": 1})]), 0, RULESET, INDEX), [1, 5]
    )
    enemy = _on_board(Side(_side("defender", [Force("BLUE", "B", {"CAV": 3})]), 1, RULESET, INDEX), [5, 2, 2])
    action = decide(own, enemy)
    assert (action.kind, action.rule) == ("sacrifice", "sacrifice.when_needed")
    assert (action.by.id, action.targets[0].id) == ("RED/A/LEVY/1", "BLUE/B/CAV/1")


def test_the_sacrificer_of_equal_nations_is_the_lower_nation_ids() -> None:
    """§10.5: two d6s showing 1, RED's and GREEN's, each nation with two dice on the board: RED's."""
    forces = [Force("GREEN", "A", {"LEVY": 1, "CAV": 1}), Force("RED", "A", {"LEVY": 1, "CAV": 1})]
    side = _on_board(Side(_side("attacker", forces), 0, RULESET, INDEX), [5, 1, 5, 1])  # RED's dice first
    assert [d.id for d in side.board] == ["RED/A/CAV/1", "RED/A/LEVY/1", "GREEN/A/CAV/1", "GREEN/A/LEVY/1"]
    side.board.reverse()  # the choice does not depend on the board's listing
    assert sacrificer(side, RULESET.doctrines["steady"]).id == "RED/A/LEVY/1"


def test_veterans_draw_nation_by_nation_in_nation_id_order() -> None:
    """§13 step 2.5: RED's pair draws before GREEN's: the first draw, 7, is RED's."""
    forces = [Force("GREEN", "C", {"CAV": 2}), Force("RED", "A", {"CAV": 2})]
    losers = Side(_side("attacker", forces), 0, RULESET, INDEX)
    holders = Side(_side("defender", [Force("BLUE", "B", {"LEVY": 1})]), 1, RULESET, INDEX)
    for die in losers.dice:
        die.fate = DESTROYED
    report: dict = {}
    dice = ScriptedDice([7, 1])
    fates_settle([losers, holders], report, RULESET, dice, INDEX)
    assert report["new_units"] == {"RED": {"A": {"CAV": 1}}}
    assert [e["roll"] for e in report["veterans"]["RED"] + report["veterans"]["GREEN"]] == [7, 1]


FORT = duel_case({"CAV": 1}, {"JV": 1}, regions={"B": {"terrain": "open", "owner": "BLUE", "fort": 2}})


def test_the_fort_advantage_is_read_by_the_regions_fort_level() -> None:
    """§6.4: `advantages.fort[L]` for fort level L: with {1: 3, 2: 1, 3: 3} a fort 2 gives one die."""
    inputs = {
        "nation_attributes": {"RED": {"politics": 0, "tactics": 0}, "BLUE": {"politics": 0, "tactics": 0}}
    }
    rolls = [[1], [8], [3]]  # BLUE's fort die 1: a tie; RED CAV 8, BLUE JV 3
    result = turn_resolved(FORT, inputs, rolls, advantages={"fort": {2: 1}})
    (battle,) = result.battles
    assert battle["tactics"]["pools"]["BLUE"]["advantages"] == [{"name": "fort", "dice": 1}]
