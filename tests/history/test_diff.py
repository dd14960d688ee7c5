"""rules.diff: what changed between two results of a turn, in lines a GM reads. No database."""

from __future__ import annotations

from rules.diff import result_diff


def _lines(diff):
    """The lines in English, as the GM's pages and the replay command write them."""
    return [str(line) for line in diff.lines]


def _result(*, battles=(), owners=None, stacks=(), rolls=()):
    return {
        "battles": list(battles),
        "owners": owners or {},
        "stacks": [{"nation": n, "region": r, "unit_type": t, "count": c} for r, n, t, c in stacks],
        "support_rolls": list(rolls),
    }


def _battle(region, *, winner, conquest=False, losses=None, kind="normal"):
    return {"kind": kind, "region": region, "winner": winner, "conquest": conquest, "losses": losses or {}}


def test_it_finds_nothing_between_a_result_and_itself():
    result = _result(
        battles=[_battle("A1", winner="RED")], owners={"A1": "RED"}, stacks=[("A1", "RED", "JV", 3)]
    )
    diff = result_diff(result, result)
    assert diff.same
    assert (diff.lines, diff.battles, diff.owners, diff.stacks) == ([], [], [], [])


def test_it_names_the_battle_whose_winner_and_conquest_changed():
    before = _result(battles=[_battle("A1", winner="RED", conquest=True, losses={"BLU": {"JV": 2}})])
    after = _result(battles=[_battle("A1", winner="BLU", losses={"RED": {"JV": 1, "PA": 1}})])
    diff = result_diff(before, after)
    assert _lines(diff) == [
        "A1 (normal): won by RED, now by BLU; no longer a conquest; losses BLU 2 JV → RED 1 JV 1 PA"
    ]
    assert diff.battles[0]["before"]["winner"] == "RED"
    assert diff.battles[0]["after"]["winner"] == "BLU"


def test_it_tells_battles_that_are_new_or_no_longer_fought():
    before = _result(battles=[_battle("A1", winner="RED")])
    after = _result(battles=[_battle("B2", winner=None, kind="meeting")])
    assert _lines(result_diff(before, after)) == [
        "A1 (normal): no longer fought (was won by RED, losses none)",
        "B2 (meeting): a new battle, no winner, losses none",
    ]


def test_it_keeps_two_battles_of_one_kind_in_one_region_apart():
    before = _result(battles=[_battle("A1", winner="RED"), _battle("A1", winner="RED")])
    after = _result(battles=[_battle("A1", winner="RED"), _battle("A1", winner="BLU")])
    assert _lines(result_diff(before, after)) == ["A1 (normal) #2: won by RED, now by BLU"]


def test_it_lists_owners_and_stacks_that_changed():
    before = _result(
        owners={"A1": "RED", "B2": None}, stacks=[("A1", "RED", "JV", 3), ("B2", "BLU", "PA", 1)]
    )
    after = _result(owners={"A1": "BLU", "B2": None}, stacks=[("A1", "BLU", "JV", 2), ("B2", "BLU", "PA", 1)])
    diff = result_diff(before, after)
    assert diff.owners == [{"region": "A1", "before": "RED", "after": "BLU"}]
    assert _lines(diff) == ["A1: owner RED → BLU", "A1: JV of BLU 0 → 2", "A1: JV of RED 3 → 0"]


def test_it_says_when_only_other_details_differ():
    diff = result_diff(_result(rolls=[{"roll": 3}]), _result(rolls=[{"roll": 4}]))
    assert not diff.same
    assert _lines(diff) == [
        "the battles, owners and stacks agree; other details differ "
        "(support rolls, movements, rejected orders)"
    ]
