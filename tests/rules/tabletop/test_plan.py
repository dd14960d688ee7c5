"""The battle plan's rules that the case files do not pin: settings, derived seeds, auto control battles."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules.engine import resolve_turn
from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.tabletop import Complete, derive_seed, plan

from .test_plan_properties import SEED, TURN


def test_derive_seed_is_the_first_eight_bytes_of_the_labelled_sha256() -> None:
    assert derive_seed(4242, "auto:region:C") == 18337785430194079036


@pytest.mark.parametrize(
    ("block", "named"),
    [
        ({"conquest_needs_decisiv": True}, "tabletop.conquest_needs_decisiv"),
        ({"result_entry": "players_only"}, "tabletop.result_entry"),
        ({"gm_confirms_agreed": "yes"}, "tabletop.gm_confirms_agreed"),
        ({"result_deadline_hours": 0}, "tabletop.result_deadline_hours"),
        (
            {"sheet_points": {"per_unit": {"XX": 1}, "larger_side_points": 10}},
            "tabletop.sheet_points.per_unit.XX",
        ),
        (
            {"sheet_points": {"per_unit": {}, "larger_side_points": 0}},
            "tabletop.sheet_points.larger_side_points",
        ),
        ({"close_combat": {"overkill_cap": -1}}, "tabletop.close_combat.overkill_cap"),
    ],
)
def test_it_refuses_a_bad_setting_naming_the_key(block, named) -> None:
    with pytest.raises(RulesetError, match=named.replace(".", r"\.")):
        ruleset_build({"battle_system": "tabletop", "tabletop": block})


def test_a_tabletop_ruleset_keeps_the_iron_fist_settings_for_auto_resolution() -> None:
    ruleset = ruleset_build({"battle_system": "tabletop", "conquest_threshold": 4})
    assert ruleset.battle_system == "tabletop"
    assert ruleset.conquest_threshold == 4
    assert ruleset.tabletop.result_deadline_hours == 168


def test_with_control_battles_auto_a_control_battle_resolves_as_soon_as_it_exists() -> None:
    ruleset = ruleset_build({"battle_system": "tabletop", "tabletop": {"control_battles": "auto"}})
    entries = {
        "meeting:A|B": {"winner": None, "losses": {"RED": {}, "BLUE": {}}},
        "region:X": {
            "winner": "GREEN+RED",
            "decisive": True,
            "losses": {"RED": {}, "GREEN": {}, "BLUE": {"JV": 3}},
        },
    }
    state = plan(TURN, ruleset, SEED, entries)
    assert "control:X:1" in state.resolved
    assert "control:X:1" not in state.open
    control = next(r for r in state.reports if r["key"] == "control:X:1")
    assert control["resolution"] == "auto_resolved"
    assert "kta" in control and control["decisive"] == control["past_threshold"]


def test_resolve_turn_of_a_tabletop_campaign_waits_with_the_world_unchanged() -> None:
    ruleset = ruleset_build({"battle_system": "tabletop"})
    result = resolve_turn(TURN, ruleset, SEED)
    assert result.pending == ("meeting:A|B", "region:X")
    assert result.stacks == TURN.stacks
    assert result.support_rolls == ()


def test_resolve_turn_gives_the_plan_with_the_result_and_keeps_it_out_of_the_stored_result() -> None:
    """Processing writes the Battle rows from `result.plan` (rules.system_shells), not from a second plan."""
    ruleset = ruleset_build({"battle_system": "tabletop"})
    auto = {"auto_resolve": True}
    waiting = resolve_turn(TURN, ruleset, SEED)
    assert waiting.plan == plan(TURN, ruleset, SEED, {})
    assert waiting.plan.open == waiting.pending
    entries = {key: auto for key in ("meeting:A|B", "region:X", "region:A", "region:B", "control:X:1")}
    complete = resolve_turn(replace(TURN, system_inputs={"entries": entries}), ruleset, SEED)
    assert isinstance(complete.plan, Complete)
    assert complete.plan.turn_result.battles == complete.battles
    assert "plan" not in complete.to_dict()


def test_an_auto_resolution_draws_nothing_from_the_turn_seed() -> None:
    """A9.1: the support rolls of a turn are the same whether a battle was entered or auto-resolved."""
    ruleset = ruleset_build({"battle_system": "tabletop"})
    auto = {"auto_resolve": True}
    state = plan(
        TURN,
        ruleset,
        SEED,
        {"meeting:A|B": auto, "region:X": auto, "region:A": auto, "region:B": auto, "control:X:1": auto},
    )
    while not isinstance(state, Complete):
        state = plan(
            TURN, ruleset, SEED, {**{k: auto for k in state.open}, **{k: auto for k in state.resolved}}
        )
    rolls = [roll.roll for roll in state.turn_result.support_rolls]
    generator = random.Random(SEED)
    assert rolls == [generator.randint(1, 100) for _ in rolls]


@pytest.mark.parametrize(
    ("block", "decisive", "code", "conquest"),
    [
        ({}, True, "tabletop.entered_decisive", True),
        ({}, False, "tabletop.entered_not_decisive", False),
        ({"conquest_needs_decisive": False}, False, "tabletop.entered_any_win", True),
    ],
)
def test_the_report_says_how_an_entered_win_was_read(block, decisive, code, conquest) -> None:
    """A7.0, A11.1 "how it was read": a decisive win passes the conquest threshold, a win that is not
    does not, unless conquest_needs_decisive is false, and the report says which rule decided it."""
    ruleset = ruleset_build({"battle_system": "tabletop", "tabletop": block})
    entries = {
        "meeting:A|B": {"winner": None, "losses": {"RED": {}, "BLUE": {}}},
        "region:X": {
            "winner": "GREEN+RED",
            "decisive": decisive,
            "losses": {"RED": {}, "GREEN": {}, "BLUE": {}},
        },
    }
    state = plan(TURN, ruleset, SEED, entries)
    report = next(r for r in state.reports if r["key"] == "region:X")
    assert report["decided_by"]["code"] == code
    assert report["decided_by"]["params"]["rule"] == "TABLETOP A7.0"
    assert report["conquest"] is conquest
