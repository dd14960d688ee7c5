"""One round of one close combat (TABLETOP.md Part B): the combat result, the winner and the break tests.

`close_combat_round(data, settings, roll=...)` is the calculator: the input as entered (B2) in, the output of
B8 or the errors of B7 out. It is a pure function of its arguments: seeded dice come from their own
`random.Random(seed)`, so the same input always gives the same round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .close_combat_errors import RoundError, round_error
from .close_combat_input import ARCS, RoundInput, Side, Unit, round_parse
from .close_combat_settings import DEFAULTS, CloseCombatSettings

TERMS = ("wounds", "overkill", "charge", "ranks", "standards", "battle_standard", "flank", "rear", "other")


@dataclass(frozen=True)
class RoundOutcome:
    """The calculator's answer: the output of B8, or the errors that refused the round (B7)."""

    output: dict[str, Any] | None
    errors: tuple[RoundError, ...] = ()


def close_combat_round(
    data: Any, settings: CloseCombatSettings = DEFAULTS, *, roll: bool = True
) -> RoundOutcome:
    """The round worked out; `roll=False` is the Preview (B1): every test's target, no dice drawn."""
    parsed = round_parse(data, settings)
    if not isinstance(parsed, RoundInput):
        return RoundOutcome(None, tuple(parsed))
    sides = [side_result(parsed, index, settings) for index in (0, 1)]
    totals = [side["total"] for side in sides]
    tie = totals[0] == totals[1]
    winner = 0 if totals[0] > totals[1] else 1
    difference = abs(totals[0] - totals[1])
    loser = None if tie else 1 - winner
    by_id = {unit.id: unit for unit in parsed.units}
    if loser is not None:  # check 7; on a tie the order is ignored
        wrong = [uid for uid in parsed.break_test_order if by_id[uid].side == winner]
        if wrong:
            errors = (round_error("break_test_order_not_losing_side", U=uid) for uid in wrong)
            return RoundOutcome(None, tuple(errors))
    order = order_of_tests(parsed, loser)
    testing = [unit for unit in order if unit.state == "engaged"]
    missing = [unit.id for unit in testing if unit.discipline is None]
    if missing:  # check 8
        return RoundOutcome(None, tuple(round_error("discipline_missing", U=u) for u in missing))
    dice = Dice(parsed.rolls, parsed.seed)
    enemy = opponents(parsed.sides[winner], settings)
    tests = []
    for unit in testing:
        test = break_test(unit, enemy, difference, settings)
        if roll:
            rolled = _roll(test, unit, dice, settings)
            if rolled is None:  # check 9
                return RoundOutcome(None, (round_error("dice_missing", U=unit.id),))
        tests.append(test)
    if roll and dice.left:  # check 10
        return RoundOutcome(None, (round_error("dice_unused", N=dice.left),))
    return RoundOutcome(
        {
            "sides": sides,
            "result": {
                "winners": [parsed.sides[i].name for i in ((0, 1) if tie else (winner,))],
                "losers": [] if loser is None else [parsed.sides[loser].name],
                "difference": difference,
                "tie": tie,
            },
            "units": [
                {
                    "id": unit.id,
                    "name": unit.name,
                    "side": parsed.sides[unit.side].name,
                    "state": unit.state,
                    "ranks": unit.ranks,
                    "full_ranks": unit.full_ranks,
                    "derived": None if unit.derived is None else dict(unit.derived),
                }
                for unit in parsed.units
            ],
            "break_tests": tests,
            "no_test": {unit.id: unit.state for unit in order if unit.state != "engaged"},
            "ignored_relations": ignored_relations(parsed.units, by_id, settings),
            "dice": {
                "mode": "entered" if parsed.seed is None else "seeded",
                "seed": parsed.seed,
                "used": list(dice.used),
            },
            "preview": not roll,
            "settings": settings.to_dict(),
        }
    )


def relation_ignored(unit: Unit, target: Unit, settings: CloseCombatSettings) -> str | None:
    """Why the flank or rear relation of `unit` on `target` does not count (B3), the first that applies."""
    if unit.state != "engaged":
        return unit.state
    if target.state != "engaged":
        return f"target_{target.state}"
    if settings.flank_and_rear_count == "charged_this_round" and not unit.charged:
        return "not_charged"
    return None


def ignored_relations(
    units: Sequence[Unit], by_id: Mapping[str, Unit], settings: CloseCombatSettings
) -> list[dict[str, str]]:
    return [
        {"unit": unit.id, "target": target, "arc": arc, "why": why}
        for unit in units
        for arc in ARCS
        for target in unit.targets(arc)
        if (why := relation_ignored(unit, by_id[target], settings))
    ]


def side_result(parsed: RoundInput, index: int, settings: CloseCombatSettings) -> dict[str, Any]:
    """B3: one side's result, term by term."""
    side: Side = parsed.sides[index]
    by_id = {unit.id: unit for unit in parsed.units}

    def giving(term: str) -> list[Unit]:
        return [unit for unit in side.units if term in settings.counts(unit.state)]

    overkill_raw = sum(unit.overkill for unit in giving("overkill"))
    rank_units = [unit for unit in giving("ranks") if not unit.line_formation]

    def rank_count(unit: Unit) -> int:
        return unit.full_ranks if settings.rank_bonus_counts == "full_ranks" else unit.ranks

    best = max(map(rank_count, rank_units), default=0)
    ranks = min(settings.rank_bonus_cap, settings.rank_bonus_per_rank * max(0, best - 1))
    bearers = sum(unit.battle_standard for unit in giving("battle_standard"))
    terms = {
        "wounds": sum(unit.wounds for unit in giving("wounds")),
        "overkill": min(settings.overkill_cap, overkill_raw),
        "charge": settings.charge_bonus if any(unit.charged for unit in giving("charge")) else 0,
        "ranks": ranks,
        "standards": settings.standard_bonus * sum(unit.standards for unit in giving("standards")),
        "battle_standard": settings.battle_standard_bonus
        * (bearers if settings.battle_standard_counts == "per_bearer" else min(1, bearers)),
        "flank": 0,
        "rear": 0,
        "other": sum(modifier.value for modifier in side.other),
    }
    for arc in ARCS:
        attackers = [
            unit
            for unit in side.units
            if any(relation_ignored(unit, by_id[t], settings) is None for t in unit.targets(arc))
        ]
        if attackers:
            extra = any(unit.full_ranks >= settings.full_ranks_for_flank_rear_extra for unit in attackers)
            terms[arc] = getattr(settings, f"{arc}_bonus_with_full_rank" if extra else f"{arc}_bonus")
    ranks_from = next((u.id for u in rank_units if rank_count(u) == best), None) if ranks else None
    return {
        "name": side.name,
        "terms": terms,
        "overkill_raw": overkill_raw,
        "ranks_from": ranks_from,
        "total": sum(terms.values()),
        "other_modifiers": [{"value": m.value, "reason": m.reason} for m in side.other],
    }


def order_of_tests(parsed: RoundInput, loser: int | None) -> list[Unit]:
    """B5.1: the losing side's units, those named in the break-test order first, then the others as listed."""
    if loser is None:
        return []
    units = parsed.sides[loser].units
    by_id = {unit.id: unit for unit in units}
    named = [by_id[uid] for uid in parsed.break_test_order if uid in by_id]
    first = {unit.id for unit in named}
    return named + [unit for unit in units if unit.id not in first]


@dataclass(frozen=True)
class Opponents:
    """What the losing side's tests need of the winning side (B5.2, B5.3), worked out once for all tests."""

    most: int  # M: the most full ranks among the engaged enemy units
    most_units: list[str]  # the engaged enemy units with M full ranks, in listed order
    disrupting: Mapping[str, list[dict[str, Any]]]  # unit id -> the enemy units that disrupt it, listed order


def opponents(side: Side, settings: CloseCombatSettings) -> Opponents:
    """The winning `side` as its enemies' break tests see it: only its engaged units count."""
    engaged = [enemy for enemy in side.units if enemy.state == "engaged"]
    most = max((enemy.full_ranks for enemy in engaged), default=0)
    disrupting: dict[str, list[dict[str, Any]]] = {}
    for enemy in engaged:
        if enemy.full_ranks < settings.disrupting_full_ranks:
            continue
        if settings.flank_and_rear_count == "charged_this_round" and not enemy.charged:
            continue  # its flank and rear relations do not count (B3.7), so they do not disrupt either
        for arc in ARCS:
            for target in enemy.targets(arc):
                disrupting.setdefault(target, []).append(
                    {"unit": enemy.id, "arc": arc, "full_ranks": enemy.full_ranks}
                )
    return Opponents(most, [e.id for e in engaged if e.full_ranks == most], disrupting)


def break_test(
    unit: Unit, enemy: Opponents, difference: int, settings: CloseCombatSettings
) -> dict[str, Any]:
    """B5.2-B5.4 for one engaged unit of the losing side: Steadfast or not, and why; the target."""
    disrupted_by = list(enemy.disrupting.get(unit.id, []))
    if not settings.steadfast:
        reason = "off"
    elif unit.full_ranks <= enemy.most:
        reason = "not_more_full_ranks"
    elif disrupted_by:
        reason = "disrupted"
    else:
        reason = "more_full_ranks"
    steadfast = reason == "more_full_ranks"
    modifier = 0 if steadfast else -difference
    return {
        "unit": unit.id,
        "discipline": unit.discipline,
        "difference": difference,
        "steadfast": steadfast,
        "steadfast_reason": reason,
        "full_ranks": unit.full_ranks,
        "most_enemy_full_ranks": enemy.most,
        "most_enemy_units": list(enemy.most_units),
        "disrupted_by": disrupted_by,
        "modifier": modifier,
        "target": max(settings.discipline_range[0], unit.discipline + modifier),
        "dice": None,
        "total": None,
        "reroll": None,
        "result": None,
    }


class Dice:
    """B6: the dice entered at the table, consumed in order, or d6s drawn from `random.Random(seed)`."""

    def __init__(self, rolls: Sequence[int] | None, seed: int | None) -> None:
        self._rolls = list(rolls or ())
        self._rng = None if seed is None else random.Random(seed)
        self.used: list[int] = []

    @property
    def left(self) -> int:
        return 0 if self._rng else len(self._rolls) - len(self.used)

    def draw(self, count: int) -> list[int] | None:
        """`count` dice, or None when the entered dice run out."""
        if self._rng is None:
            if self.left < count:
                return None
            dice = self._rolls[len(self.used) : len(self.used) + count]
        else:
            dice = [self._rng.randint(1, 6) for _ in range(count)]
        self.used.extend(dice)
        return dice


def _roll(test: dict[str, Any], unit: Unit, dice: Dice, settings: CloseCombatSettings) -> bool | None:
    """B5.4-B5.5: roll the test (and its one re-roll) into `test`; None when the dice ran out."""
    first = dice.draw(settings.discipline_dice)
    if first is None:
        return None
    test["dice"], test["total"] = first, sum(first)
    passed = test["total"] <= test["target"]
    if not passed and unit.reroll:
        second = dice.draw(settings.discipline_dice)
        if second is None:
            return None
        passed = sum(second) <= test["target"]
        test["reroll"] = {"dice": second, "total": sum(second), "passed": passed}
    test["result"] = "holds" if passed else "broken"
    return passed
