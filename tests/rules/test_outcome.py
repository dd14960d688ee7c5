"""Outcome of a battle (IRON_FIST.md §5): threshold, draw and the three exceptions, read like the rules."""

from __future__ import annotations

from rules.engine.messages import Message
from tests.rules.turns import battle, duel, units


def modifier(value: int) -> dict:
    return {"gm_modifiers": [{"region": "B", "nation": "RED", "value": value, "reason": "test"}]}


def test_defender_wiped_out_below_threshold_loses_region() -> None:
    result = duel(
        {"JV": 7, "PA": 3},
        {"JV": 4, "PA": 2},
        gm_modifiers=[
            {"region": "B", "nation": "RED", "value": -5},
            {"region": "B", "nation": "BLUE", "value": -3},
        ],
    )

    assert battle(result)["difference"] == 8
    assert battle(result)["conquest"] is True
    assert "exception 2" in decided_by(result)
    assert result.owners["B"] == "RED"
    assert units(result, "B") == {"RED": {"JV": 4, "PA": 2}}


def test_win_by_exactly_the_threshold_does_not_conquer() -> None:
    result = duel({"JV": 10}, {"JV": 10}, **modifier(10))  # 30 against 20

    assert (battle(result)["difference"], battle(result)["winner"]) == (10, "RED")
    assert battle(result)["conquest"] is False
    assert result.owners["B"] == "BLUE"
    assert units(result, "A") == {"RED": {"JV": 7}}  # row 50/25: 25% of 10 = 2.5, up to 3; back home
    assert units(result, "B") == {"BLUE": {"JV": 5}}


def test_win_by_one_more_than_the_threshold_conquers_and_defenders_retreat_or_die() -> None:
    result = duel({"JV": 10}, {"JV": 10}, **modifier(11))  # 31 against 20

    assert battle(result)["difference"] == 11
    assert battle(result)["row"] == [60, 20]
    assert battle(result)["conquest"] is True
    assert result.owners["B"] == "RED"
    assert units(result, "B") == {"RED": {"JV": 8}}
    assert [m.reason for m in result.movements if m.nation == "BLUE"] == [
        "destroyed: no region of its own to retreat to"
    ]


def test_a_bigger_threshold_from_the_ruleset_is_respected() -> None:
    result = duel({"JV": 10}, {"JV": 10}, ruleset={"conquest_threshold": 11}, **modifier(11))

    assert battle(result)["conquest"] is False


def test_draw_keeps_the_region_with_the_defender_and_both_take_the_draw_row() -> None:
    result = duel({"JV": 5}, {"JV": 5})

    assert (battle(result)["winner"], battle(result)["row"]) == (None, [40, 40])
    assert battle(result)["losses"] == {"RED": {"JV": 2}, "BLUE": {"JV": 2}}
    assert result.owners["B"] == "BLUE"


def test_a_draw_gives_no_superiority() -> None:
    # 9 JV against 3 JV and 3 PA drawn at 18: each side 40% of the larger side's 9.
    result = duel({"JV": 9}, {"JV": 3, "PA": 3}, **modifier(0))

    assert battle(result)["winner"] is None
    assert battle(result)["losses"] == {"RED": {"JV": 4}, "BLUE": {"JV": 2, "PA": 2}}


def test_attacker_with_no_ground_units_left_conquers_nothing() -> None:
    # 1 JV + 30 against 10 JV: 32 to 20, won by 12, but the winner's 20% of 10 = 2 takes its only unit.
    result = duel({"JV": 1}, {"JV": 10}, **modifier(30))

    assert (battle(result)["winner"], battle(result)["difference"]) == ("RED", 12)
    assert battle(result)["losses"]["RED"] == {"JV": 1}
    assert battle(result)["conquest"] is False
    assert "exception 1" in decided_by(result)
    assert result.owners["B"] == "BLUE"


def test_when_neither_side_has_ground_units_left_the_region_stays_with_the_defender() -> None:
    result = duel({"JV": 1}, {"JV": 1}, **modifier(20))

    assert battle(result)["losses"] == {"RED": {"JV": 1}, "BLUE": {"JV": 1}}
    assert "exception 3" in decided_by(result)
    assert result.owners["B"] == "BLUE"


def test_a_defender_with_no_ground_units_left_loses_the_region_even_when_it_wins() -> None:
    # BLUE's 1 JV + 10 beats RED's 4 JV (12 to 8), but the larger side's 4 scale its 35% to 2: wiped out.
    result = duel({"JV": 4}, {"JV": 1}, gm_modifiers=[{"region": "B", "nation": "BLUE", "value": 10}])

    assert battle(result)["winner"] == "BLUE"
    assert battle(result)["losses"]["BLUE"] == {"JV": 1}
    assert battle(result)["conquest"] is True
    assert result.owners["B"] == "RED"


def test_an_undefended_region_is_occupied_without_a_battle_or_losses() -> None:
    result = duel({"JV": 3}, {"IV": 2}, regions={"C": {"owner": "BLUE"}}, borders=[["B", "C"]])

    assert [(b["kind"], b["conquest"]) for b in result.battles] == [("unopposed", True)]
    assert units(result, "B") == {"RED": {"JV": 3}}
    assert units(result, "C") == {"BLUE": {"IV": 2}}  # the air units based there rebase


def test_in_a_draw_both_sides_take_the_draw_rows_loser_percentage() -> None:
    table = [[0, 0, 50, 10], [1, None, 60, 20]]
    result = duel({"JV": 5}, {"JV": 5}, ruleset={"loss_table": table})

    assert battle(result)["row"] == [50, 10]
    assert battle(result)["losses"] == {"RED": {"JV": 3}, "BLUE": {"JV": 3}}  # 50% of 5, up


def test_an_attacker_wiped_out_by_a_defender_that_won_is_told_the_defender_won() -> None:
    # 1 JV against 10 JV: the defender wins; the attacker's loss of its only unit is not an exception.
    result = duel({"JV": 1}, {"JV": 10})

    assert battle(result)["winner"] == "BLUE"
    assert battle(result)["conquest"] is False
    assert decided_by(result) == "the defender won and holds the region (§5)"


def decided_by(result) -> str:
    """Why the battle ended as it did, as an English reader reads it."""
    return str(Message.from_dict(battle(result)["decided_by"]))
