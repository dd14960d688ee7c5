"""The doctrine's choices (SODANKAYNTI.md §10.5) against a plain reading of the spec's keys.

`best_attack` finds the best attack from the enemy's value classes; here every candidate (attacker, one or two
targets) is enumerated and ordered by the key exactly as §10.5 writes it, and both must pick the same dice.
"""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.sodankaynti.board import Die
from rules.engine.sodankaynti.doctrine import best_attack, sacrifice_target, sacrificer
from rules.engine.sodankaynti.ruleset import ruleset_build
from tests.conftest import examples

SIZES = (4, 6, 8, 10, 12, 20)


@st.composite
def boards(draw: st.DrawFn, side: str, most: int = 8) -> list[Die]:
    dice = []
    for pos in range(draw(st.integers(1, most))):
        size = draw(st.sampled_from(SIZES))
        nation = draw(st.sampled_from((f"{side}1", f"{side}2")))
        die = Die(
            f"{nation}/A/T{size}/{pos}", f"{nation}/A/T{size}/{pos}", nation, "A", f"T{size}", size, pos
        )
        die.value = draw(st.integers(1, size))
        dice.append(die)
    return dice


def _key(priority: str, attacker: Die, targets: tuple[Die, ...]):
    """§10.5's key, element by element, targets listed in canonical order."""
    targets = tuple(sorted(targets, key=lambda d: d.pos))
    total = sum(t.value for t in targets)
    rest = (
        -max(t.value for t in targets),
        -attacker.size,
        tuple(sorted(-t.size for t in targets)),
        attacker.pos,
        tuple(t.pos for t in targets),
    )
    if priority == "value":
        return (-total, attacker.value, -len(targets), *rest)
    return (-len(targets), -total, attacker.value, *rest)


def _brute(own: list[Die], enemy: list[Die], priority: str):
    candidates = [
        (a, targets)
        for a in own
        for n in (1, 2)
        for targets in combinations(enemy, n)
        if sum(t.value for t in targets) < a.value
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda c: _key(priority, *c))


@settings(max_examples=examples(400), deadline=None, derandomize=True, database=None)
@given(boards("R"), boards("B"), st.sampled_from(("value", "count")))
def test_the_best_attack_is_the_least_candidate_by_the_key(own, enemy, priority) -> None:
    found = best_attack(own, enemy, priority, f"attack.{priority}")
    expected = _brute(own, enemy, priority)
    if expected is None:
        assert found is None
        return
    attacker, targets = expected
    assert found is not None
    assert (found.by.id, [t.id for t in found.targets]) == (
        attacker.id,
        [t.id for t in sorted(targets, key=lambda d: d.pos)],
    )


@settings(max_examples=examples(200), deadline=None, derandomize=True, database=None)
@given(boards("R"), boards("B"))
def test_the_sacrifice_target_is_the_highest_die_then_the_larger_then_the_first(own, enemy) -> None:
    target = sacrifice_target(enemy)
    assert target == min(enemy, key=lambda d: (-d.value, -d.size, d.pos))
    assert all(target.value >= d.value for d in enemy)


class _Side:
    def __init__(self, board: list[Die]) -> None:
        self.board = board
        self.nations = tuple(sorted({d.nation for d in board}))


@settings(max_examples=examples(200), deadline=None, derandomize=True, database=None)
@given(boards("R", most=10), st.sampled_from(sorted(ruleset_build({}).doctrines)))
def test_the_sacrificer_is_a_one_of_the_smallest_allowed_die_of_the_nation_with_most_dice(
    board, name
) -> None:
    doctrine = ruleset_build({}).doctrines[name]
    chosen = sacrificer(_Side(board), doctrine)
    ones = [d for d in board if d.value == 1 and d.size <= doctrine.sacrifice_max_die]
    if not ones or doctrine.sacrifice == "never":
        assert chosen is None
        return
    assert chosen in ones and chosen.size == min(d.size for d in ones)
    on_board = {n: sum(1 for d in board if d.nation == n) for n in {d.nation for d in board}}
    rivals = [d for d in ones if d.size == chosen.size]
    assert on_board[chosen.nation] == max(on_board[d.nation] for d in rivals)
