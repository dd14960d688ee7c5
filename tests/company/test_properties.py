"""Properties of the company shell over generated inputs (issue 12): XP and TP awarded equal the VP entered;
no TP balance below 0; a stored dice log, replayed from its seed, reproduces every roll."""

from __future__ import annotations

from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.company import models
from rules.company.dice import dice_roll, dice_verify
from rules.company.services import kasarmi_act
from rules.engine.company_d20.problems import Problem
from tests.company.conftest import result_final
from tests.conftest import examples

SETTINGS = settings(
    max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(vps=st.lists(st.integers(0, 12), min_size=5, max_size=5), objective=st.integers(0, 5))
def test_xp_and_tp_awarded_equal_the_vp_entered(battle, company, gm, vps, objective):
    """No unit damaged or destroyed: nothing is halved or forfeited, so XP = VP and TP = VP × tp.per_vp."""
    with transaction.atomic():
        units = sorted(int(u) for u in battle.data["units"])
        xp_before = dict(models.Unit.objects.filter(campaign=company.campaign).values_list("number", "xp"))
        tp_before = dict(models.Balance.objects.values_list("nation__code", "tp"))
        entry = {
            "units": [{"unit": u, "vp": vp} for u, vp in zip(units, vps, strict=True)],
            "sides": {"NOR": {"objective_vp": objective}},
        }
        result_final(battle, entry, gm)
        nation_of = {u: battle.data["units"][str(u)]["nation"] for u in units}
        xp_after = dict(models.Unit.objects.filter(campaign=company.campaign).values_list("number", "xp"))
        tp_after = dict(models.Balance.objects.values_list("nation__code", "tp"))
        for nation in ("NOR", "EST"):
            vp = sum(v for u, v in zip(units, vps, strict=True) if nation_of[u] == nation)
            vp += objective if nation == "NOR" else 0
            gained = sum(xp_after[u] - xp_before[u] for u in units if nation_of[u] == nation)
            assert gained == vp
            assert tp_after[nation] - tp_before[nation] == vp
        transaction.set_rollback(True)


@SETTINGS
@given(deltas=st.lists(st.integers(-60, 60), min_size=1, max_size=6))
def test_no_tp_balance_below_zero_whatever_the_gm_adjusts(company, gm, deltas):
    with transaction.atomic():
        for delta in deltas:
            kasarmi_act(
                campaign=company.campaign,
                nation=company.nor,
                action="adjust_tp",
                params={"delta": delta, "reason": "test"},
                actor=gm,
                by_gm=True,
            )
            assert models.Balance.objects.get(nation=company.nor).tp >= 0
        transaction.set_rollback(True)


REQUESTS = st.one_of(
    st.tuples(st.just("roll"), st.sampled_from(["1d20", "2d6+1", "1d8", "3d4"])),
    st.tuples(st.just("morale"), st.sampled_from(["indirect_fire", "casualties", "bogus"])),
)


@SETTINGS
@given(requests=st.lists(REQUESTS, min_size=1, max_size=8))
def test_a_stored_dice_log_replays_to_every_roll(battle, company, rival, requests):
    with transaction.atomic():
        mg = company.units["MG"].number
        made = 0
        for function, value in requests:
            inputs = {"expression": value} if function == "roll" else {"unit": mg, "reason": value}
            result = dice_roll(battle=battle, user=rival, side="EST", function=function, inputs=inputs)
            made += 0 if isinstance(result, Problem) else len(result)
        verify = dice_verify(battle=models.Battle.objects.get(pk=battle.pk))
        assert verify["entries"] == made == models.DiceRoll.objects.filter(battle=battle).count()
        assert verify["mismatches"] == [] and verify["dice_mismatches"] == []
        transaction.set_rollback(True)


KASARMI = st.one_of(
    st.tuples(st.just("repair"), st.fixed_dictionaries({"unit": st.integers(1, 4), "tp": st.integers(1, 3)})),
    st.tuples(
        st.just("choose_ability"),
        st.fixed_dictionaries(
            {"unit": st.integers(1, 4), "ability": st.sampled_from(["tarkka_tuli", "maastoutuja"])}
        ),
    ),
    st.tuples(
        st.just("adjust_tp"), st.fixed_dictionaries({"delta": st.integers(-20, 20), "reason": st.just("GM")})
    ),
    st.tuples(
        st.just("gm_edit"),
        st.fixed_dictionaries(
            {
                "unit": st.integers(1, 4),
                "changes": st.fixed_dictionaries({"xp": st.integers(0, 70)}),
                "reason": st.just("GM"),
            }
        ),
    ),
    st.tuples(
        st.just("gm_edit"),
        st.fixed_dictionaries(
            {
                "unit": st.integers(1, 4),
                "changes": st.fixed_dictionaries({"k": st.integers(0, 4)}),
                "reason": st.just("GM"),
            }
        ),
    ),
)


@SETTINGS
@given(actions=st.lists(KASARMI, min_size=1, max_size=10))
def test_tt_and_slots_fall_only_by_a_gm_edit_in_the_audit_trail(company, gm, player, actions):
    """Through the services, as stored: a unit's TT or veteran slots are lower after an action only when that
    action was the GM's edit of that unit, logged as `gm_edit`; a player's action never lowers them."""
    from rules.company.selectors import roster_view

    def derived():
        cards = roster_view(campaign=company.campaign, nation=company.nor)["units"]
        return {c["id"]: (c["tt"], c["veteran_slots"]) for c in cards}

    with transaction.atomic():
        for action, params in actions:
            before, last = derived(), models.RosterEvent.objects.count()
            by_gm = action in ("adjust_tp", "gm_edit")
            kasarmi_act(
                campaign=company.campaign,
                nation=company.nor,
                action=action,
                params=params,
                actor=gm if by_gm else player,
                by_gm=by_gm,
            )
            logged = list(models.RosterEvent.objects.order_by("seq")[last:])
            for unit, (tt, slots) in derived().items():
                if unit in before and (tt < before[unit][0] or slots < before[unit][1]):
                    assert [(e.kind, e.unit) for e in logged] == [("gm_edit", unit)]
        transaction.set_rollback(True)


ACTIONS = st.lists(
    st.tuples(
        st.sampled_from(["save", "agree", "dispute", "withdraw", "confirm", "void", "reopen"]),
        st.sampled_from(["gm", "player", "rival"]),
    ),
    min_size=1,
    max_size=8,
)


@SETTINGS
@given(steps=ACTIONS)
def test_whatever_anyone_does_a_battle_has_at_most_one_entry_and_is_final_exactly_with_it(
    battle, company, gm, player, rival, steps
):
    """The shared workflow's invariants (BATTLE_SYSTEMS.md, results entry) over any sequence of actions by
    anyone: one confirmed version at most; the battle final exactly while it has one; one current version
    at most, the newest; a refused action changes nothing."""
    from campaign.models import Campaign
    from campaign.selectors import viewer_get
    from rules.company.results import company_result_act, company_result_save, current_version
    from rules.models import ResultVersion
    from rules.results_flow import CURRENT, BattleError

    users = {"gm": gm, "player": player, "rival": rival}
    with transaction.atomic():
        Campaign.objects.filter(pk=company.campaign.pk).update(
            ruleset_overrides={"tp": {"starting": 30}, "turn": {"auto_complete": False}}
        )
        entry = {"units": [{"unit": int(u)} for u in battle.data["units"]]}
        for action, role in steps:
            viewer = viewer_get(user=users[role], campaign=company.campaign)
            before = list(ResultVersion.objects.order_by("pk").values_list("pk", "state"))
            try:
                with transaction.atomic():
                    if action == "save":
                        company_result_save(viewer=viewer, battle=battle, entry=entry)
                    else:
                        company_result_act(
                            viewer=viewer,
                            battle=battle,
                            action=action,
                            version=current_version(battle),
                            text="a reason",
                        )
            except BattleError:
                assert list(ResultVersion.objects.order_by("pk").values_list("pk", "state")) == before
            battle.refresh_from_db()
            versions = list(battle.versions.order_by("number"))
            confirmed = [v for v in versions if v.state == "confirmed"]
            current = [v for v in versions if v.state in CURRENT]
            assert len(confirmed) <= 1
            assert (battle.status == "resolved") == bool(confirmed)
            assert len(current) <= 1 and (not current or current[0] == versions[-1])
        transaction.set_rollback(True)
