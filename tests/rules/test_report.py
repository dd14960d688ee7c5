"""Determinism (IRON_FIST.md §11) and the battle report (§12): every number, term and roll is in it."""

from __future__ import annotations

import json
import random

from rules.bench.turn import random_turn
from rules.engine import resolve_turn, ruleset_build
from tests.rules.turns import battle, garrisoned, play

KARELIA = {
    "seed": 4,
    "ruleset": {"kta_die": "1d6"},
    "weather": "clear",
    "nations": ["SUOMI", "NEUVOSTO"],
    "regions": {
        "VII": {"terrain": "city", "owner": "SUOMI"},
        "LAD": {"terrain": "open", "owner": "SUOMI"},
        "KAR": {"terrain": "rough", "owner": "NEUVOSTO", "fort": 1, "home": "NEUVOSTO", "weather": "rain"},
        "MUR": {"terrain": "open", "owner": "NEUVOSTO"},
    },
    "borders": [["VII", "KAR"], ["LAD", "KAR"], ["KAR", "MUR"], ["VII", "LAD"]],
    "units": {
        "VII": {"SUOMI": {"JV": 4, "PA": 3, "IV": 2}},
        "LAD": {"SUOMI": {"JV": 3, "TY": 1}},
        "KAR": {"NEUVOSTO": {"JV": 4, "PA": 2}},
        "MUR": {"NEUVOSTO": {"JV": 1}},
    },
    "orders": [
        {"nation": "SUOMI", "kind": "attack", "from": "VII", "to": "KAR", "units": {"JV": 4, "PA": 3}},
        {"nation": "SUOMI", "kind": "attack", "from": "LAD", "to": "KAR", "units": {"JV": 3}},
    ],
    "gm_modifiers": [{"region": "KAR", "nation": "NEUVOSTO", "value": -1, "reason": "supply"}],
}


def test_the_report_lists_every_term_of_every_kta_and_they_add_up() -> None:
    report = battle(play(**KARELIA))
    attacker, defender = report["sides"]
    terms = {side["name"]: {t["term"]: t["value"] for t in side["terms"]} for side in report["sides"]}

    assert (report["terrain"], report["weather"]) == ("rough", "rain")
    # JV 7 × 2; PA 3 × (2 − 1 for rain); IV 2 × (3 − 1); TY 1 from LAD in range; pincer from 2 regions.
    assert {k: v for k, v in terms["SUOMI"].items() if k != "fortune of war"} == {
        "JV": 14,
        "PA": 3,
        "IV support": 4,
        "TY support": 3,
        "pincer": 2,
    }
    assert {k: v for k, v in terms["NEUVOSTO"].items() if k != "fortune of war"} == {
        "JV": 8,
        "PA": 2,
        "fortification": 2,
        "home defence": 2,
        "GM modifier": -1,
    }
    for side in (attacker, defender):
        assert len(side["dice"]) == 1 and 1 <= side["dice"][0] <= 6
        assert sum(t["value"] for t in side["terms"]) == side["kta"] == report["kta"][side["name"]]
        assert all(t["rule"].startswith("§") and t["detail"] for t in side["terms"])
    assert report["difference"] == abs(attacker["kta"] - defender["kta"])
    assert set(report["losses"]["SUOMI"]) <= set(attacker["loss_notes"])  # each loss says how it was rounded
    assert report["decided_by"] and "owner_after" in report


def test_the_whole_result_is_json_serializable_and_shows_each_support_roll() -> None:
    result = play(**KARELIA)

    data = json.loads(json.dumps(result.to_dict()))
    rolls = data["support_rolls"]
    assert [(r["region"], r["unit_type"], r["unit"]) for r in rolls] == [
        ("LAD", "TY", 1),
        ("VII", "IV", 1),
        ("VII", "IV", 2),
    ]
    assert all(r["destroyed"] == (r["roll"] <= r["chance"]) for r in rolls)
    assert {c["region"]: c["chance"] for c in data["support_chances"]} == {
        "LAD": rolls[0]["chance"],
        "VII": rolls[1]["chance"],
    }


def test_the_same_input_and_seed_give_the_same_result_and_another_seed_may_not() -> None:
    turn = random_turn(regions=300, nations=6, seed=3)
    ruleset = ruleset_build()

    first = resolve_turn(turn, ruleset, 11).to_dict()

    assert resolve_turn(turn, ruleset, 11).to_dict() == first
    assert resolve_turn(turn, ruleset, 12).to_dict() != first


def test_the_order_in_which_nations_entered_their_orders_changes_nothing() -> None:
    turn = random_turn(regions=300, nations=6, seed=5)
    ruleset = ruleset_build()
    by_nation: dict[str, list] = {}
    for order in turn.orders:
        by_nation.setdefault(order.nation, []).append(order)
    nations = list(by_nation)
    random.Random(1).shuffle(nations)
    interleaved = [o for n in nations for o in by_nation[n]]
    shuffled = type(turn)(**{**vars(turn), "orders": tuple(interleaved)})

    first, second = resolve_turn(turn, ruleset, 7), resolve_turn(shuffled, ruleset, 7)

    assert second.owners == first.owners
    assert second.stacks == first.stacks
    assert second.battles == first.battles
    assert second.support_rolls == first.support_rolls


def test_dice_are_drawn_meeting_engagements_first_then_region_battles_in_region_order() -> None:
    # Case 17's numbers: random.Random(2026).randint(1, 6) gives 1, 3, 5, 5.
    result = play(
        seed=2026,
        ruleset={"kta_die": "1d6"},
        nations=["RED", "BLUE"],
        **garrisoned(
            A=("RED", {"JV": 4}), B=("BLUE", {"JV": 4}), C=("BLUE", {"JV": 2}), D=("RED", {"JV": 2})
        ),
        borders=[["A", "B"], ["D", "C"]],
        orders=[
            {"nation": "RED", "kind": "attack", "from": "D", "to": "C", "units": {"JV": 2}},
            {"nation": "BLUE", "kind": "attack", "from": "B", "to": "A", "units": {"JV": 4}},
            {"nation": "RED", "kind": "attack", "from": "A", "to": "B", "units": {"JV": 4}},
        ],
    )

    dice = [(b["region"], [s["dice"] for s in b["sides"]]) for b in result.battles]
    assert dice == [("A|B", [[1], [3]]), ("C", [[5], [5]])]
