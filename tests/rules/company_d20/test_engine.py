"""GM edits (§7.6), the Kasarmi phase rule (§7), completion's refusals (§6), messages as data, and purity."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from rules.engine.company_d20 import company_ruleset_build
from rules.engine.company_d20.campaign import CampaignState, Region
from rules.engine.company_d20.kasarmi import (
    Company,
    Done,
    adjust_tp,
    buy,
    gm_edit,
    gm_remove_ability,
    gm_restore,
    repair,
)
from rules.engine.company_d20.problems import TEMPLATES, Problem
from rules.engine.company_d20.results import Battle
from rules.engine.company_d20.roster import DESTROYED, record_fault, unit_create, unit_tt
from rules.engine.company_d20.turn import CompletionError, complete_turn

RULESET = company_ruleset_build()
FOLDER = Path(__file__).resolve().parents[3] / "rules" / "engine" / "company_d20"


def _company(**changes) -> Company:
    units = {
        1: unit_create(RULESET, id=1, type="KOMP", name="Päällikkö", nation="BLUE", region="A"),
        2: unit_create(RULESET, id=2, type="JOJO", name="Jojo 1", nation="BLUE", group=1, region="A"),
        3: replace(
            unit_create(RULESET, id=3, type="JR", name="Ryhmä 1", nation="BLUE", group=1, region="A"), xp=25
        ),
        4: replace(
            unit_create(RULESET, id=4, type="JR", name="Kaatunut", nation="BLUE", region="A"),
            tk=0,
            status=DESTROYED,
        ),
    }
    return replace(Company("BLUE", 10, units, ("A",), ("A",), 10, 5), **changes)


def test_kasarmi_actions_are_refused_outside_the_orders_phase_before_any_other_check() -> None:
    company = _company(orders_phase=False)
    assert repair(company, RULESET, unit=99, tp=1).code == "not_orders_phase"
    assert buy(company, RULESET, type="XX").code == "not_orders_phase"
    assert isinstance(adjust_tp(company, RULESET, delta=1, reason="GM"), Done)  # GM edits are not bound


def test_the_gm_edits_a_field_within_the_constraints_and_must_give_a_reason() -> None:
    company = _company()
    assert gm_edit(company, RULESET, unit=3, changes={"xp": 5}).code == "reason_required"

    done = gm_edit(company, RULESET, unit=3, changes={"xp": 5}, reason="typo in turn 2")

    assert (
        done.company.units[3].xp == 5 and unit_tt(done.company.units[3], RULESET) == 1
    )  # only the GM lowers TT
    assert done.events[0]["kind"] == "gm_edit" and done.events[0]["before"] == {"xp": 25}


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"tk": 0}, "tk"),  # an active unit keeps 1 TK or more
        ({"tk": 11}, "tk"),
        ({"xp": -1}, "xp"),
        ({"xp": 2.5}, "xp"),
        ({"type": "TANK"}, "type"),
        ({"ti": "1d7"}, "ti"),
        ({"abilities": ["lentäjä"]}, "abilities"),
        ({"region": "Z"}, "region"),
        ({"name": "jojo 1"}, "name"),
        ({"role": "platoon_leader", "group": 0}, "group"),
        ({"role": "company_commander", "group": 0}, "role"),  # the commander's role is taken
        ({"colour": "red"}, "colour"),
    ],
)
def test_an_edit_outside_the_record_s_constraints_is_refused_naming_the_field(changes, field) -> None:
    problem = gm_edit(_company(), RULESET, unit=3, changes=changes, reason="GM")
    assert (problem.code, problem.ref) == ("edit_invalid", field)


def test_an_edit_reads_its_reason_in_the_readers_language() -> None:
    from campaign.messages import said_in

    problem = gm_edit(_company(), RULESET, unit=3, changes={"tk": 0}, reason="GM")
    assert str(problem.message) == "tk: an active unit has 1 TK or more, and at most its maximum"
    named = gm_edit(_company(), RULESET, unit=3, changes={"name": "jojo 1"}, reason="GM")
    assert str(named.message) == "name: Another unit of the company is called jojo 1."
    assert "toimivalla" in said_in("fi", problem.message)


def test_an_edit_of_a_value_changed_since_the_gm_saw_it_is_refused() -> None:
    company = _company()
    stale = gm_edit(company, RULESET, unit=3, changes={"xp": 30}, reason="GM", seen={"xp": 20})
    assert (stale.code, stale.ref, stale.params["now"], stale.params["seen"]) == ("edit_stale", "xp", 25, 20)
    fresh = gm_edit(company, RULESET, unit=3, changes={"xp": 30}, reason="GM", seen={"xp": 25})
    assert fresh.company.units[3].xp == 30
    assert gm_edit(company, RULESET, unit=3, changes={}, reason="GM").code == "edit_empty"
    assert gm_edit(company, RULESET, unit=3, changes=["xp"], reason="GM").ref == "changes"
    assert adjust_tp(company, RULESET, delta=1, reason="GM", seen=9).code == "tp_stale"
    assert adjust_tp(company, RULESET, delta=1, reason="GM", seen=10).company.tp == 11


def test_the_gm_restores_a_destroyed_unit_and_removes_an_ability() -> None:
    company = replace(
        _company(), units={**_company().units, 3: replace(_company().units[3], abilities=("tarkka_tuli",))}
    )

    assert gm_restore(company, RULESET, unit=3, tk=5, reason="GM").code == "unit_not_destroyed"
    assert gm_restore(company, RULESET, unit=4, tk=11, reason="GM").code == "edit_invalid"
    assert gm_restore(company, RULESET, unit=4, tk=5, region="Z", reason="GM").code == "edit_invalid"
    restored = gm_restore(company, RULESET, unit=4, tk=5, reason="a clerical error").company.units[4]
    assert (restored.status, restored.tk, restored.fell, restored.region) == ("active", 5, None, "A")
    commander = replace(company.units[1], status=DESTROYED, tk=0)
    with_fallen = replace(company, units={**company.units, 9: replace(commander, id=9, name="Vanha")})
    problem = gm_restore(with_fallen, RULESET, unit=9, tk=3, reason="GM")  # the role is taken meanwhile
    assert (problem.code, problem.ref) == ("edit_invalid", "role")

    assert (
        gm_remove_ability(company, RULESET, unit=3, ability="parannettu_sisu", reason="GM").code
        == "ability_not_held"
    )
    assert (
        gm_remove_ability(company, RULESET, unit=3, ability="tarkka_tuli", reason="GM")
        .company.units[3]
        .abilities
        == ()
    )


def _state() -> CampaignState:
    blue = unit_create(RULESET, id=1, type="JR", name="Ryhmä 1", nation="BLUE", region="A")
    red = unit_create(RULESET, id=11, type="MOT", name="Moto", nation="RED", region="B")
    regions = {"A": Region("A", "open", "BLUE"), "B": Region("B", "open", "RED")}
    return CampaignState(("BLUE", "RED"), regions, (("A", "B"),), {1: blue, 11: red}, turn=1)


def test_completion_refuses_a_missing_or_invalid_result_and_changes_nothing() -> None:
    state = _state()
    battle = Battle(
        "B",
        "normal",
        "RED",
        ("BLUE", "RED"),
        {1: state.units[1], 11: state.units[11]},
        {1: "A", 11: "B"},
        region="B",
    )

    with pytest.raises(CompletionError) as missing:
        complete_turn(state, [battle], {}, RULESET)
    assert [p.code for p in missing.value.problems] == ["result_missing"]

    with pytest.raises(CompletionError) as invalid:
        complete_turn(state, [battle], {"B": {"units": [{"unit": 1, "tk_lost": 11}]}}, RULESET)
    (problem,) = invalid.value.problems
    assert problem.code == "result_invalid"
    assert [e["code"] for e in problem.params["errors"]] == ["tk_lost_too_high", "unit_missing"]


def _emitted_codes() -> set[str]:
    codes = set()
    for path in FOLDER.glob("*.py"):
        codes |= set(re.findall(r'(?:Problem|refuse)\(\s*"([a-z_]+)"', path.read_text()))
    return codes


def test_every_code_the_engine_emits_has_an_english_template() -> None:
    codes = _emitted_codes()
    assert len(codes) > 80
    assert codes - set(TEMPLATES) == set()


def test_a_problem_renders_its_registered_template_with_its_parameters() -> None:
    problem = Problem("tk_lost_too_high", 3, {"name": "Ryhmä 3", "tk_start": 8, "value": 9})
    assert problem.message.code == "company_d20.tk_lost_too_high"
    assert str(problem.message) == "Ryhmä 3 started with 8 TK and cannot lose 9."
    assert problem.to_dict()["code"] == "tk_lost_too_high"


def test_the_company_engine_reads_no_django_clock_or_global_random() -> None:
    for path in FOLDER.glob("*.py"):
        source = path.read_text()
        assert "django" not in source, path.name
        assert "import time" not in source and "datetime" not in source, path.name
        for call in ("random.randint(", "random.choice(", "random.random(", "random.seed("):
            assert call not in source, f"{path.name} uses the global generator: {call}"
        assert len(source.splitlines()) < 500, path.name


def test_a_unit_record_is_checked_field_by_field() -> None:
    unit = unit_create(RULESET, id=7, type="JR", name="Ryhmä 7", nation="BLUE", region="A")

    assert record_fault(unit, RULESET) is None
    assert record_fault(replace(unit, status=DESTROYED, tk=0), RULESET) is None  # 0 TK only when destroyed
    assert record_fault(replace(unit, tk=0), RULESET)[0] == "tk"
    assert record_fault(replace(unit, name=" " * 3), RULESET)[0] == "name"
    assert record_fault(replace(unit, name="x" * 41), RULESET)[0] == "name"
    assert record_fault(replace(unit, status="missing"), RULESET)[0] == "status"
    assert record_fault(replace(unit, role="general"), RULESET)[0] == "role"
    assert record_fault(replace(unit, m=True), RULESET)[0] == "m"  # true is not a whole number
