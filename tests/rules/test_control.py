"""Who holds a jointly conquered region (IRON_FIST.md §7.2): the smallest party fights the rest."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.rules.turns import garrisoned, play, units


def test_a_tie_for_smallest_makes_the_party_later_in_nation_id_order_the_smallest() -> None:
    # Joint: 12 JV = 24 + pincer (3 origins) 4 = 28 against 2: BLUE wiped out, conquest. Then GREEN and
    # YELLOW tie for smallest with 3 JV; YELLOW, later in nation-id order, fights RED+GREEN (6 to 18, lost by
    # 12: wiped out), then RED 5 against GREEN 3 (10 to 6): RED wins and holds with 3 JV.
    result = play(
        nations=["RED", "GREEN", "YELLOW", "BLUE"],
        **garrisoned(
            A=("RED", {"JV": 6}), G=("GREEN", {"JV": 3}), Y=("YELLOW", {"JV": 3}), X=("BLUE", {"JV": 1})
        ),
        borders=[["A", "X"], ["G", "X"], ["Y", "X"]],
        orders=[
            {"nation": n, "kind": "attack", "from": o, "to": "X", "units": {"JV": c}}
            for n, o, c in (("RED", "A", 6), ("GREEN", "G", 3), ("YELLOW", "Y", 3))
        ],
    )

    controls = [b for b in result.battles if b["kind"] == "control"]
    assert [b["kta"] for b in controls] == [{"YELLOW": 6, "GREEN+RED": 18}, {"RED": 10, "GREEN": 6}]
    assert [b["conquest"] for b in controls] == [False, True]
    assert result.owners["X"] == "RED"
    assert units(result, "X") == {"RED": {"JV": 3}}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), tied=st.integers(2, 4), jv=st.integers(1, 9))
def test_a_settlement_tie_is_drawn_from_the_seed_and_recorded_with_its_roll(seed, tied, jv) -> None:
    # Allies with equal ground units occupy the empty U together: no battle dice, so the lot is the turn's
    # first draw, rng.choice over the tied in nation-id order (§7.2, §11), recorded as 1d<tied> and its roll.
    nations = ["RED", "GREEN", "BLUE", "GOLD"][:tied]
    case = {
        "seed": seed,
        "nations": nations,
        "relations": [[a, b, "alliance"] for i, a in enumerate(nations) for b in nations[i + 1 :]],
        "regions": {"U": {"owner": None}, **{n: {"owner": n} for n in nations}},
        "borders": [[n, "U"] for n in nations],
        "units": {n: {n: {"JV": jv}} for n in nations},
        "orders": [
            {"nation": n, "kind": "attack", "from": n, "to": "U", "units": {"JV": jv}} for n in nations
        ],
    }
    result = play(**case)
    (settlement,) = result.settlements
    assert settlement["die"] == f"1d{tied}"
    assert settlement["tied"] == nations
    assert settlement["roll"] == random.Random(seed).randint(1, tied)
    assert settlement["holder"] == random.Random(seed).choice(nations) == nations[settlement["roll"] - 1]
    assert result.owners["U"] == settlement["holder"]
    assert play(**case).settlements == result.settlements, "the same seed, the same draw"
