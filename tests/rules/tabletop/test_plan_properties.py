"""Invariants of the battle plan (TABLETOP.md A4.3, A9.1) on random results entered in random orders.

A turn with a meeting engagement, a joint attack by nations at war (so control battles follow) and supporting
artillery and air; results are drawn for each battle as it opens, always valid by A6.3, until the turn
completes. Whatever the order in which they were entered, the same entries give the same state.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rules.engine.casefile import case_turn
from rules.engine.ruleset import ruleset_build
from rules.engine.tabletop import BattlesPending, Complete, plan
from rules.engine.tabletop.results import Entrant, result_check
from tests.conftest import examples
from tests.rules.property_settings import property_settings

FAST = property_settings(examples(60))

TURN = case_turn(
    {
        "nations": ["RED", "GREEN", "BLUE"],
        "regions": {
            "A": {"owner": "RED"},
            "B": {"owner": "BLUE", "terrain": "rough", "fort": 1},
            "G": {"owner": "GREEN"},
            "X": {"owner": "BLUE", "terrain": "city"},
            "Y": {"owner": "BLUE"},
        },
        "borders": [["A", "B"], ["A", "X"], ["G", "X"], ["G", "A"], ["X", "Y"], ["B", "Y"]],
        "units": {
            "A": {"RED": {"JV": 5, "PA": 3, "IV": 1}},
            "B": {"BLUE": {"JV": 5, "TY": 1}},
            "G": {"GREEN": {"JV": 6, "TY": 1}},
            "X": {"BLUE": {"JV": 3}},
            "Y": {"BLUE": {"TY": 1, "IV": 1}},
        },
        "orders": [
            {"nation": "RED", "kind": "attack", "from": "A", "to": "B", "units": {"PA": 3}},
            {"nation": "BLUE", "kind": "attack", "from": "B", "to": "A", "units": {"JV": 3}},
            {"nation": "RED", "kind": "attack", "from": "A", "to": "X", "units": {"JV": 4}},
            {"nation": "GREEN", "kind": "attack", "from": "G", "to": "X", "units": {"JV": 5}},
            {"nation": "GREEN", "kind": "attack", "from": "G", "to": "A", "units": {"JV": 1}},
        ],
    }
)
RULESET = ruleset_build({"battle_system": "tabletop"})
SEED = 77


@st.composite
def results(draw: st.DrawFn, sheet: dict[str, Any]) -> dict[str, Any]:
    """A result that A6.3 accepts for this sheet: a side or a draw, losses up to each nation's forces."""
    sides = [side["id"] for side in sheet["sides"]]
    winner = draw(st.sampled_from([*sides, None]))
    losses = {
        nation: {t: draw(st.integers(0, count)) for t, count in units.items()}
        for nation, units in sheet["forces"].items()
    }
    result = {"winner": winner, "losses": losses, "fingerprint": sheet["fingerprint"]}
    if winner is not None:
        result["decisive"] = draw(st.booleans())
    if draw(st.booleans()):
        result = {"auto_resolve": True, "fingerprint": sheet["fingerprint"]}
    return result


@st.composite
def played_turns(draw: st.DrawFn) -> tuple[dict[str, Any], list[str]]:
    """Entries for every battle, each drawn when its battle opens, and the order they were made in."""
    entries: dict[str, Any] = {}
    made: list[str] = []
    state = plan(TURN, RULESET, SEED, entries)
    while isinstance(state, BattlesPending):
        key = draw(st.sampled_from(state.open))
        result = draw(results(state.sheets[key]))
        if "auto_resolve" not in result:
            check = result_check(state, key, result, by=Entrant(gm=True), ruleset=RULESET)
            assert check.accepted, [str(e) for e in check.errors]
        entries[key] = result
        made.append(key)
        state = plan(TURN, RULESET, SEED, entries)
    return entries, made


def _state(entries: dict[str, Any]) -> dict[str, Any]:
    state = plan(TURN, RULESET, SEED, entries)
    assert isinstance(state, Complete)
    return {"result": state.turn_result.to_dict(), "stale": state.stale}


@FAST
@given(played=played_turns(), data=st.data())
def test_the_plan_never_depends_on_the_order_results_were_entered(played, data) -> None:
    entries, made = played
    reordered = data.draw(st.permutations(made))
    assert _state({key: entries[key] for key in reordered}) == _state(entries)


@FAST
@given(played=played_turns())
def test_every_battle_of_a_completed_turn_is_listed_once_with_its_entry(played) -> None:
    entries, made = played
    state = plan(TURN, RULESET, SEED, entries)
    battles = [b["key"] for b in state.turn_result.battles if b["kind"] != "unopposed"]
    assert sorted(battles) == sorted(made)
    assert state.stale == ()
    for battle in state.turn_result.battles:
        assert battle["resolution"] in ("entered", "auto_resolved", "unopposed")
        assert isinstance(battle["decisive"], bool)


@FAST
@given(played=played_turns())
def test_no_stack_goes_negative_and_ground_units_are_only_lost(played) -> None:
    entries, _ = played
    state = plan(TURN, RULESET, SEED, entries)
    before = sum(s.count for s in TURN.stacks)
    after = sum(s.count for s in state.turn_result.stacks)
    assert all(s.count > 0 for s in state.turn_result.stacks)
    assert after <= before


@FAST
@given(played=played_turns(), data=st.data())
def test_a_partial_state_lists_each_battle_once_in_plan_order(played, data) -> None:
    entries, made = played
    kept = data.draw(st.integers(0, len(made)))
    state = plan(TURN, RULESET, SEED, {key: entries[key] for key in made[:kept]})
    if isinstance(state, Complete):
        return
    listed = [*state.open, *state.waiting, *state.resolved, *state.unopposed]
    assert len(listed) == len(set(listed))
    assert set(state.sheets) == set(state.open) | set(state.resolved)
    order = [r["key"] for r in state.reports]
    assert list(state.open) == [k for k in order if k in state.open]
