"""Turn completion's roster events (COMPANY.md §7.7): replaying them gives each nation's roster and TP."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from rules.engine.company_d20 import company_ruleset_build
from rules.engine.company_d20.cases import campaign_from_data
from rules.engine.company_d20.events import event, roster_replay
from rules.engine.company_d20.orders import Order
from rules.engine.company_d20.turn import complete_turn, process_turn
from rules.engine.seam import ScriptedDice

CASES = Path(__file__).resolve().parents[1] / "cases" / "company_d20"
CUT_OFF = "09_turn_void_peaceful_contested_cut_off"


def _processed(name: str):
    """The case `name` with its turn processed: (the state before, the processed turn, the completion call,
    the case's ruleset)."""
    case = yaml.safe_load((CASES / f"{name}.yaml").read_text())
    process, complete = case["calls"]
    ruleset = company_ruleset_build(complete.get("ruleset") or {})
    state = campaign_from_data(case["state"], ruleset)
    processed = process_turn(
        state, [Order.from_data(o) for o in process["orders"]], ruleset, ScriptedDice([])
    )
    return state, processed, complete, ruleset


@pytest.mark.parametrize("name", [CUT_OFF, "10_cut_off_nearest"])
def test_replaying_the_turns_events_gives_each_nations_roster_and_balance(name: str) -> None:
    state, processed, complete, ruleset = _processed(name)
    opening = [event("unit_created", u.nation, u.id, after=u.to_dict()) for u in state.units.values()]

    completed = complete_turn(processed.state, processed.battles, complete["results"], ruleset)

    events = opening + list(processed.events) + list(completed.events)
    kinds = {e["kind"] for e in completed.events}
    assert {"tk_lost", "xp_awarded", "tp_awarded"} <= kinds
    for nation in state.nations:
        units, tp = roster_replay([e for e in events if e["nation"] == nation], ruleset)
        expected = {u.id: u for u in completed.state.units.values() if u.nation == nation}
        assert {i: (u.tk, u.xp, u.status, u.region, u.role, u.group) for i, u in units.items()} == {
            i: (u.tk, u.xp, u.status, u.region, u.role, u.group) for i, u in expected.items()
        }
        assert tp == completed.state.tp[nation]


def test_a_cut_off_and_the_conquerors_moves_are_logged_with_their_cause() -> None:
    _, processed, complete, ruleset = _processed(CUT_OFF)
    completed = complete_turn(processed.state, processed.battles, complete["results"], ruleset)

    (cut,) = [e for e in completed.events if e["kind"] == "destroyed"]
    assert (cut["unit"], cut["cause"], cut["before"]) == (15, "cut_off", "G")
    moved = {e["unit"]: e["after"] for e in completed.events if e["kind"] == "moved"}
    assert moved == {21: "C", 22: "C", 23: "E", 32: "G"}


def test_completion_applies_the_battle_s_changes_over_a_gm_edit_made_meanwhile() -> None:
    _, processed, complete, ruleset = _processed(CUT_OFF)
    edited = replace(processed.state.units[23], xp=40)  # the GM's edit during the battles phase
    during = replace(processed.state, units={**processed.state.units, 23: edited})

    completed = complete_turn(during, processed.battles, complete["results"], ruleset)

    unit = completed.state.units[23]
    assert (unit.tk, unit.xp) == (8, 43)  # 2 TK lost and 3 XP won, on top of the edit
    (xp,) = [e for e in completed.events if e["kind"] == "xp_awarded" and e["unit"] == 23]
    assert (xp["before"], xp["after"]) == (40, 43)
