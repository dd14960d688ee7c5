"""How the engine plays a side (SODANKAYNTI.md §9.3, §10.4, §10.5): available actions, the choice.

Values never change during a battle and dice only leave the board, so every choice is a function of the two
boards and the doctrine; nothing here draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Die, Side
from .ruleset import Doctrine


@dataclass
class Action:
    kind: str  # attack | sacrifice | retreat | pass
    rule: str  # the doctrine step that chose it (§10.4), or standoff.board_value (§9.5)
    by: Die | None = None
    targets: tuple[Die, ...] = ()


def _best_of_class(dice: list[Die], k: int) -> list[Die]:
    """The k preferred dice of one value: the larger die first, then canonical order (§10.5)."""
    return sorted(dice, key=lambda d: (-d.size, d.pos))[:k]


def _by_value(board: list[Die]) -> dict[int, list[Die]]:
    classes: dict[int, list[Die]] = {}
    for die in board:
        classes.setdefault(die.value, []).append(die)
    return classes


def _attacker(board: list[Die], value: int) -> Die:
    """Among the side's dice of this value, the larger die (spent units are safe), then canonical order."""
    return min((d for d in board if d.value == value), key=lambda d: (-d.size, d.pos))


def _smallest_above(board: list[Die], total: int) -> int | None:
    above = [d.value for d in board if d.value > total]
    return min(above) if above else None


def finishing_attack(own: list[Die], enemy: list[Die]) -> Action | None:
    """An attack that takes every enemy die off the board (one or two of them), by the smallest attacker."""
    if not 1 <= len(enemy) <= 2:
        return None
    value = _smallest_above(own, sum(d.value for d in enemy))
    if value is None:
        return None
    return Action("attack", "finish", _attacker(own, value), tuple(sorted(enemy, key=lambda d: d.pos)))


def best_attack(own: list[Die], enemy: list[Die], priority: str, rule: str) -> Action | None:
    """The least candidate by §10.5's key, found from the enemy's value classes instead of every pair."""
    if not own or not enemy:
        return None
    top = max(d.value for d in own)
    classes = _by_value(enemy)
    values = sorted(classes)
    singles = [v for v in values if v < top]
    pairs: dict[int, tuple[int, int]] = {}  # sum -> (higher, lower), the pair with the highest target
    for i, high in enumerate(values):
        for low in values[: i + 1]:
            if low == high and len(classes[low]) < 2:
                continue
            total = low + high
            if total < top and (total not in pairs or pairs[total][0] < high):
                pairs[total] = (high, low)
    if not singles:
        return None
    best_pair = max(pairs) if pairs else None
    best_single = singles[-1]
    if priority == "count" and best_pair is not None:
        total, two = best_pair, True
    elif priority == "count":
        total, two = best_single, False
    else:
        total = max(best_single, best_pair or 0)
        two = total in pairs  # two dice before one at the same value
    value = _smallest_above(own, total)
    if two:
        high, low = pairs[total]
        targets = (
            _best_of_class(classes[high], 2)
            if high == low
            else (_best_of_class(classes[high], 1) + _best_of_class(classes[low], 1))
        )
    else:
        targets = _best_of_class(classes[total], 1)
    return Action("attack", rule, _attacker(own, value), tuple(sorted(targets, key=lambda d: d.pos)))


def sacrificer(side: Side, doctrine: Doctrine) -> Die | None:
    """A die showing 1 of size <= sacrifice_max_die: the smallest die; then the nation with most dice on the
    board (it can best spare one), the lower nation id, canonical order (§10.5)."""
    if doctrine.sacrifice == "never":
        return None
    ones = [d for d in side.board if d.value == 1 and d.size <= doctrine.sacrifice_max_die]
    if not ones:
        return None
    on_board: dict[str, int] = {}
    for d in side.board:
        on_board[d.nation] = on_board.get(d.nation, 0) + 1
    return min(ones, key=lambda d: (d.size, -on_board[d.nation], side.nations.index(d.nation), d.pos))


def sacrifice_target(enemy: list[Die]) -> Die:
    """The enemy's highest die; ties: the larger die, then canonical order."""
    return min(enemy, key=lambda d: (-d.value, -d.size, d.pos))


def has_available(side: Side, enemy: Side) -> bool:
    """Does the side have an available attack or sacrifice (§9.3) under its doctrine?"""
    own, theirs = side.board, enemy.board
    if not own or not theirs:
        return False
    if finishing_attack(own, theirs) is not None:
        return True
    one = sacrificer(side, side.doctrine) is not None
    if len(theirs) == 1 and one:
        return True  # a finishing sacrifice
    if len(own) == 1:
        return False  # the last die leaves the board only to finish
    return one or max(d.value for d in own) > min(d.value for d in theirs)


def decide(side: Side, enemy: Side) -> Action:
    """§10.4: the first step that applies decides; its name is the action's rule."""
    doctrine = side.doctrine
    own, theirs = side.board, enemy.board
    action = finishing_attack(own, theirs)
    if action is not None:
        return action
    one = sacrificer(side, doctrine)
    if one is not None and len(theirs) == 1:
        return Action("sacrifice", "finish", one, (theirs[0],))
    if doctrine.retreat_below and 100 * side.board_value() < doctrine.retreat_below * enemy.board_value():
        return Action("retreat", "retreat_below")
    can_attack = len(own) > 1 and max(d.value for d in own) > min(d.value for d in theirs)
    can_sacrifice = len(own) > 1 and one is not None
    if not can_attack and not can_sacrifice:
        return (
            Action("retreat", "helpless") if doctrine.retreat_when_helpless else Action("pass", "no_action")
        )
    attack_rule = f"attack.{doctrine.attack_priority}"
    mode = doctrine.sacrifice
    if can_sacrifice and mode == "first":
        return Action("sacrifice", "sacrifice.first", one, (sacrifice_target(theirs),))
    if can_sacrifice and mode == "when_needed":
        if max(d.value for d in theirs) >= max(d.value for d in own):
            return Action("sacrifice", "sacrifice.when_needed", one, (sacrifice_target(theirs),))
    if can_attack:
        action = best_attack(own, theirs, doctrine.attack_priority, attack_rule)
        assert action is not None
        return action
    return Action("sacrifice", "sacrifice.no_attack", one, (sacrifice_target(theirs),))
