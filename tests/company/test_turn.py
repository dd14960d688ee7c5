"""A company turn through the database: the Kasarmi, orders, processing into table battles, the GM's result,
completion with XP and TP on the roster, and a rollback that puts everything back."""

from __future__ import annotations

import pytest

from campaign.models import Turn
from rules.company import models
from rules.company.services import kasarmi_act
from rules.engine.company_d20.problems import Problem
from rules.history import turn_rollback
from rules.results_flow import BattleError
from rules.services import turn_process
from tests.company.conftest import attack_and_scout, result_final


def _turn(world) -> Turn:
    return world.campaign.turns.exclude(status="resolved").get()


def _roster(world) -> dict:
    return {
        u.number: (u.nation_id, u.tk, u.xp, u.region, u.status)
        for u in models.Unit.objects.filter(campaign=world.campaign)
    }


def _nor_acts(world, player, action, params):
    """The player's Kasarmi action for its own NOR, as a player (not the GM)."""
    return kasarmi_act(
        campaign=world.campaign, nation=world.nor, action=action, params=params, actor=player, by_gm=False
    )


def _fight(world, gm):
    """NOR attacks M1 with two squads and scouts it; EST holds; the turn waits for the battle."""
    turn = attack_and_scout(world)
    turn_process(turn_id=turn.pk)
    turn.refresh_from_db()
    return turn


def test_a_kasarmi_action_is_stored_with_its_audit_entry_and_a_refusal_changes_nothing(company, player):
    unit = company.units["Ryhmä 1"]
    models.Unit.objects.filter(pk=unit.pk).update(tk=5)
    done = _nor_acts(company, player, "repair", {"unit": unit.number, "tp": 2})
    assert not isinstance(done, Problem)
    unit.refresh_from_db()
    assert unit.tk == 9
    assert models.Balance.objects.get(nation=company.nor).tp == 28
    kinds = list(models.RosterEvent.objects.filter(unit=unit.number).values_list("kind", "actor__username"))
    assert kinds[-2:] == [("tk_repaired", "player"), ("tp_spent", "player")]

    before = _roster(company)
    refused = _nor_acts(company, player, "buy", {"type": "JR", "name": "Ryhmä 2", "group": 1, "region": "N4"})
    assert isinstance(refused, Problem) and refused.code == "name_taken"
    assert _roster(company) == before and models.Balance.objects.get(nation=company.nor).tp == 28


def test_a_player_cannot_take_the_gms_actions(company, player):
    refused = _nor_acts(company, player, "adjust_tp", {"delta": 100, "reason": "gift"})
    assert isinstance(refused, Problem) and refused.code == "gm_only"
    assert models.Balance.objects.get(nation=company.nor).tp == 30


def test_processing_creates_the_table_battle_and_waits_for_its_result(company, gm):
    turn = _fight(company, gm)
    assert turn.status == Turn.Status.BATTLES_PENDING
    battle = models.Battle.objects.get(turn=turn)
    assert (battle.key, battle.kind, battle.status) == ("M1", "normal", "open")
    assert sorted(battle.data["sides"]) == ["EST", "NOR"]
    assert turn.result["recon"], "the scout rolled against the units in M1"


def test_completion_applies_xp_and_tp_from_the_vp_entered_and_rollback_restores_it_all(company, gm):
    before = _roster(company)
    balances = dict(models.Balance.objects.values_list("nation__code", "tp"))
    turn = _fight(company, gm)
    battle = models.Battle.objects.get(turn=turn)
    u = company.units
    entry = {
        "units": [
            {"unit": u["Ryhmä 1"].number, "tk_lost": 3, "vp": 4},
            {"unit": u["Ryhmä 2"].number, "vp": 2},
            {"unit": u["Chef"].number, "tk_lost": 6, "destroyed": True},
            {"unit": u["Gruppe 1"].number, "tk_lost": 2, "vp": 1},
            {"unit": u["MG"].number},
        ],
        "sides": {"NOR": {"objective_vp": 0}},
    }
    result_final(battle, entry, gm)
    turn.refresh_from_db()
    assert turn.status == Turn.Status.RESOLVED
    r1 = models.Unit.objects.get(pk=u["Ryhmä 1"].pk)
    r2 = models.Unit.objects.get(pk=u["Ryhmä 2"].pk)
    assert r1.tk == 7 and r1.xp + r2.xp == 6, "XP awarded equals NOR's VP"
    tp = dict(models.Balance.objects.values_list("nation__code", "tp"))
    assert tp["NOR"] - balances["NOR"] == 6 and tp["EST"] - balances["EST"] == 1
    assert models.Unit.objects.get(pk=u["Chef"].pk).status == "destroyed"
    assert battle.__class__.objects.get(pk=battle.pk).report["final"]["xp"]

    turn_rollback(turn_id=turn.pk, by=gm)
    assert _roster(company) == before
    assert dict(models.Balance.objects.values_list("nation__code", "tp")) == balances
    assert models.Battle.objects.get(pk=battle.pk).archived, "archived, not deleted"
    assert _turn(company).number == turn.number and _turn(company).status == "open"
    assert not models.RosterEvent.objects.filter(archived_by=None, seq__gt=7).exists(), (
        "the turn's entries archived"
    )
    assert models.RosterEvent.objects.filter(archived_by=turn).exists(), "kept, not deleted"


def test_an_invalid_result_is_refused_with_every_problem(company, gm):
    turn = _fight(company, gm)
    battle = models.Battle.objects.get(turn=turn)
    with pytest.raises(BattleError) as refused:
        result_final(battle, {"units": [{"unit": 999}]}, gm)
    codes = [e.code for e in refused.value.errors]
    assert codes[0] == "unit_not_in_battle" and "unit_missing" in codes, "every problem, in §5.3's order"
    battle.refresh_from_db()
    assert battle.status == "open"


def test_rollback_undoes_the_kasarmi_actions_taken_during_the_turn(company, player, gm):
    before, balances = _roster(company), dict(models.Balance.objects.values_list("nation__code", "tp"))
    bought = _nor_acts(company, player, "buy", {"type": "KK", "name": "Uusi KK", "group": 1, "region": "N4"})
    assert not isinstance(bought, Problem)
    turn = _turn(company)
    turn_process(turn_id=turn.pk)  # no orders: no battle, the turn completes at once
    turn.refresh_from_db()
    assert turn.status == Turn.Status.RESOLVED
    turn_rollback(turn_id=turn.pk, by=gm)
    assert _roster(company) == before
    assert dict(models.Balance.objects.values_list("nation__code", "tp")) == balances
