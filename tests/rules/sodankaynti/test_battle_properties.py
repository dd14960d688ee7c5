"""Invariants of one Sodankäynti battle, on any small random battle (SODANKAYNTI.md §7-§11, §13).

- conservation: every unit that came in either survives or is lost, and the only new units are veterans (§11);
- a battle ends within D + b + 2 actions, D the dice rolled and b the bonus actions (§9.4);
- the same setup and seed give the same report, whatever order the forces are listed in (§3.3, §13);
- a side acts only with dice it still has on the board, against enemy dice still on the board, and only
  legally (§9.2).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rules.engine.seam import SeededDice
from rules.engine.sodankaynti.battle import battle_fight
from tests.conftest import examples
from tests.rules.property_settings import property_settings

from .battles import RULESETS, battles

FAST = property_settings(examples(150), HealthCheck.data_too_large)
seeds = st.integers(0, 2**32)


def _fight(case, seed):
    name, setup = case
    return battle_fight(setup, RULESETS[name], SeededDice(seed))


@FAST
@given(battles(), seeds)
def test_units_are_conserved_and_only_veterans_are_new(case, seed) -> None:
    result = _fight(case, seed)
    _, setup = case
    came = Counter()
    for side in setup.sides:
        for force in side.forces:
            for unit_type, count in force.units.items():
                came[(force.nation, force.origin, unit_type)] += count
    left = Counter()
    for nation, by_origin in result.report["survivors"].items():
        for origin, counts in by_origin.items():
            for unit_type, count in counts.items():
                left[(nation, origin, unit_type)] += count
    lost = Counter()
    for (nation, origin), counts in result.fates.lost.items():
        for unit_type, count in counts.items():
            lost[(nation, origin, unit_type)] += count
    assert left + lost == came
    new = [e["new"] for entries in result.report["veterans"].values() for e in entries if e.get("new")]
    assert sum(sum(c.values()) for c in result.fates.added.values()) == len(new)
    destroyed = sum(sum(c.values()) for c in result.report["losses"].values())
    assert len(new) <= destroyed // 2


@FAST
@given(battles(), seeds)
def test_every_battle_ends_within_its_bound(case, seed) -> None:
    report = _fight(case, seed).report
    dice = len(report.get("roll", {}))
    bonus = report.get("tactics", {}).get("bonus", 0)
    assert report["end"]["actions"] <= dice + bonus + 2
    assert report["end"]["cause"] != "max_actions"
    assert len(report["actions"]) == report["end"]["actions"]


@FAST
@given(battles(), seeds, st.randoms(use_true_random=False))
def test_the_same_setup_and_seed_give_the_same_report_in_any_listing_order(case, seed, rng) -> None:
    name, setup = case
    first = _fight(case, seed).report
    sides = []
    for side in setup.sides:
        forces = list(side.forces)
        rng.shuffle(forces)
        sides.append(replace(side, forces=tuple(forces)))
    shuffled = replace(setup, sides=(sides[0], sides[1]))
    again = battle_fight(shuffled, RULESETS[name], SeededDice(seed)).report
    assert json.dumps(first, sort_keys=True) == json.dumps(again, sort_keys=True)


@FAST
@given(battles(), seeds)
def test_a_side_acts_only_with_dice_it_still_has(case, seed) -> None:
    replay_actions(_fight(case, seed).report)


def replay_actions(report) -> None:
    """Replay a report's actions on its rolled dice: every die acts or is hit only while on the board."""
    owner = {}
    for side in report["sides"]:
        for nation in side["nations"]:
            owner[nation] = side["name"]
    board = {name: set() for name in owner.values()}
    for die_id in report.get("roll", {}):
        board[owner[die_id.split("/")[0]]].add(die_id)
    removed = set(report.get("politics", {}).get("removed", []))
    assert not removed & set(report.get("roll", {}))
    for action in report["actions"]:
        mine = board[action["side"]]
        theirs = set().union(*(b for name, b in board.items() if name != action["side"]))
        if "by" in action:
            assert action["by"]["id"] in mine
            assert all(t["id"] in theirs for t in action["targets"])
            assert action["by"]["value"] == report["roll"][action["by"]["id"]]
            if action["kind"] == "attack":  # §9.2: strictly below the attacker's value, one or two dice
                assert 1 <= len(action["targets"]) <= 2
                assert sum(t["value"] for t in action["targets"]) < action["by"]["value"]
            else:
                assert action["by"]["value"] == 1 and len(action["targets"]) == 1
            mine.discard(action["by"]["id"])
            for name in board:
                if name != action["side"]:
                    board[name] -= {t["id"] for t in action["targets"]}
        if action["kind"] == "retreat":
            gone = {d["id"] for d in action["destroyed"] + action["withdrawn"]}
            assert gone == mine
            mine.clear()
