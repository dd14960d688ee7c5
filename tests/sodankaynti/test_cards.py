"""The battle card says every fate and every end of SODANKAYNTI.md §9.4 and §11.1 in words, never a code."""

from __future__ import annotations

from rules.engine.sodankaynti.ruleset import ruleset_build
from rules.sodankaynti.cards import sodankaynti_card
from tests.rules.sodankaynti.battles import Force, battle_in_b, side_setup


def test_a_battle_ended_by_politics_with_deserters_is_told_in_words() -> None:
    """§7 steps 4-5: RED's one politics success takes BLUE's only die, which deserts; the battle ends."""
    ruleset = ruleset_build({"politics": {"removed_fate": "deserted"}})

    red = side_setup("attacker", [Force("RED", "A", {"CAV": 1})], ruleset, {"RED": 1})
    blue = side_setup("defender", [Force("BLUE", "B", {"JV": 1})], ruleset)
    report = battle_in_b(ruleset, red, blue, [6])
    assert (report["end"]["cause"], report["fates"]["BLUE/B/JV/1"]) == ("politics", "deserted")
    card = sodankaynti_card({"system": "sodankaynti", **report}, names={"RED": "Red", "BLUE": "Blue"})
    assert card["end"] == "Blue had no dice left after the politics roll: Red wins"
    fates = [d["fate"] for s in card["sides"] for d in s["dice"]]
    assert fates == ["on the board", "deserted"]


def test_every_fate_and_every_end_cause_has_its_words() -> None:
    """§11.1's seven fates and §9.4's five causes: a missing one would show its code on the card."""
    from rules.engine.messages import CATALOGUE
    from rules.engine.sodankaynti import board

    fates = (
        board.BOARD,
        board.SPENT,
        board.WITHDRAWN,
        board.ABSENT,
        board.REMOVED,
        board.DESTROYED,
        board.DESERTED,
    )
    causes = ("retreat", "board_empty", "standoff", "max_actions", "politics")
    missing = [f"sk.fate.{f}" for f in fates] + [f"sk.end.{c}" for c in causes]
    assert [code for code in missing if code not in CATALOGUE] == []


def test_the_when_needed_doctrine_is_described_by_its_rule() -> None:
    """§10.4 step 4: `when_needed` sacrifices when no die of the side can attack the enemy's highest alone."""
    from rules.sodankaynti.cards import doctrine_line

    line = doctrine_line(ruleset_build({}).doctrines["steady"].report())
    assert "sacrifices dice up to d10 when none of its dice can beat the enemy's highest" in line
