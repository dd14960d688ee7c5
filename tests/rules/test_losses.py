"""Ground losses in exact integer arithmetic, and how they are shared (IRON_FIST.md §5.2, §7, §10)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.engine.iron_fist.losses import side_losses, winners_cap
from rules.engine.ruleset import ruleset_build
from rules.engine.sharing import share

RULESET = ruleset_build()


def losses(percent: int, counts: dict, enemy: dict, *, superior: bool = False) -> dict:
    larger = max(sum(counts.values()), sum(enemy.values()))
    return side_losses(
        ruleset=RULESET, percent=percent, counts=counts, enemy=enemy, larger=larger, superior=superior
    ).losses


def test_it_computes_30_percent_of_10_as_3_not_4() -> None:
    assert losses(30, {"JV": 10}, {"JV": 10}) == {"JV": 3}


def test_it_rounds_up_to_the_next_whole_unit() -> None:
    assert losses(35, {"JV": 10}, {"JV": 10}) == {"JV": 4}


def test_it_scales_the_smaller_side_by_the_larger_sides_units() -> None:
    # The source's example: 50% of the defender's 4 JV and 2 PA, scaled by 10/6.
    assert losses(50, {"JV": 4, "PA": 2}, {"JV": 7, "PA": 3}) == {"JV": 4, "PA": 2}


def test_it_caps_a_loss_at_the_units_the_side_has() -> None:
    assert losses(40, {"JV": 1}, {"JV": 10}) == {"JV": 1}


def test_superiority_rounds_down_at_exactly_three_times_the_enemys_type() -> None:
    assert losses(35, {"JV": 3}, {"JV": 1}, superior=True) == {"JV": 1}  # 1.05 down
    assert losses(35, {"JV": 3}, {"JV": 1}, superior=False) == {"JV": 2}  # not the winner: up


def test_superiority_needs_three_times_not_less() -> None:
    assert losses(35, {"JV": 5}, {"JV": 2}, superior=True) == {"JV": 2}  # 5 < 6: 1.75 up


def test_superiority_counts_against_an_enemy_with_none_of_the_type() -> None:
    assert losses(15, {"JV": 1, "PA": 10}, {"JV": 14}, superior=True) == {"JV": 1, "PA": 1}


def test_artillery_in_the_battle_takes_ground_losses() -> None:
    assert losses(40, {"JV": 4, "TY": 3}, {"JV": 9}) == {"JV": 3, "TY": 2}


def test_winners_cap_takes_from_the_largest_loss_first_then_in_type_order() -> None:
    assert winners_cap({"JV": 3, "PA": 3}, 4, ("JV", "PA", "TY")) == {"JV": 2, "PA": 2}
    assert winners_cap({"JV": 1, "PA": 3, "TY": 3}, 3, ("JV", "PA", "TY")) == {"JV": 1, "PA": 1, "TY": 1}
    assert winners_cap({"JV": 2}, 5, ("JV", "PA", "TY")) == {"JV": 2}


def test_share_gives_the_remainder_to_the_largest_fractions() -> None:
    # Case 11: 5 lost, shared 3:4 -> 2.14 / 2.86.
    assert share(5, [("RED", 3), ("GREEN", 4)], lambda n, w: (-w, n)) == {"RED": 2, "GREEN": 3}


def test_share_breaks_equal_remainders_by_the_tie_key() -> None:
    order = {"RED": 0, "GREEN": 1, "BLUE": 2}
    assert share(1, [("GREEN", 2), ("RED", 2)], lambda n, w: (-w, order[n])) == {"RED": 1, "GREEN": 0}
    assert share(1, [("B", 2), ("A", 2), ("C", 4)], lambda n, w: (-w, n)) == {"A": 0, "B": 0, "C": 1}
    assert share(1, [("C", 1), ("A", 1)], lambda region, _: region) == {"A": 1, "C": 0}


@given(st.integers(0, 60), st.lists(st.integers(0, 30), min_size=1, max_size=6))
def test_share_hands_out_exactly_the_total_and_never_more_than_a_weight(
    total: int, weights: list[int]
) -> None:
    total = min(total, sum(weights))
    shares = share(total, list(enumerate(weights)), lambda k, w: (-w, k))

    assert sum(shares.values()) == total
    assert all(0 <= shares[k] <= w for k, w in enumerate(weights))
