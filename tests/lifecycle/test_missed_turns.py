"""Missed turns: a nation with a player and no orders holds; after enough in a row, civil disorder."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from campaign.gm.access import GMInputError
from campaign.gm.roster import nation_assign
from campaign.lifecycle import nations_missed
from campaign.models import Campaign, Membership, Nation
from rules.services import turn_process


def _play(campaign, orders_by_turn, place_orders):
    for orders in orders_by_turn:
        turn = campaign.turns.get(status="open")
        place_orders(turn, orders)
        assert turn_process(turn_id=turn.pk).status == "resolved"


def _missed(campaign):
    return {
        row["nation"].code: (row["turns_missed"], row["turns_missed_in_row"], row["civil_disorder"])
        for row in nations_missed(campaign=campaign, turn=None)
    }


def test_it_counts_missed_turns_of_nations_with_a_player_in_the_turns_transaction(
    demo, player, rival, place_orders
):
    hold = ("NOR", "hold", "N2", None, {"JV": 4})
    _play(demo, [[hold], [], [hold]], place_orders)
    missed = _missed(demo)
    assert missed["NOR"] == (1, 0, False), "a turn with orders ends the run"
    assert missed["EST"] == (3, 3, True), "three in a row: civil disorder"
    assert missed["KAR"] == (0, 0, False), "no player, nothing to miss"


def test_it_follows_the_campaigns_own_number_of_turns_before_civil_disorder(demo, rival, place_orders):
    Campaign.objects.filter(pk=demo.pk).update(civil_disorder_after=0)
    _play(demo, [[], [], [], []], place_orders)
    assert _missed(demo)["EST"] == (4, 4, False), "0: never"


def test_it_does_not_count_a_turn_that_failed(demo, rival, place_orders, monkeypatch):
    monkeypatch.setattr("rules.engine.resolve_turn", lambda *a: 1 / 0)
    turn = demo.turns.get(number=1)
    assert turn_process(turn_id=turn.pk).status == "failed"
    assert _missed(demo)["EST"] == (0, 0, False)


def test_it_shows_the_gm_who_submitted_and_how_close_each_nation_is_to_disorder(
    demo, player, rival, place_orders
):
    _play(demo, [[]], place_orders)
    turn = demo.turns.get(number=2)
    place_orders(turn, [("NOR", "hold", "N2", None, {"JV": 4})])
    rows = {r["nation"].code: r for r in nations_missed(campaign=demo, turn=turn)}
    assert rows["NOR"]["submitted"] and not rows["EST"]["submitted"]
    assert rows["NOR"]["players"] == ["player"] and rows["KAR"]["players"] == []
    assert (rows["EST"]["turns_missed_in_row"], rows["EST"]["disorder_in"]) == (1, 2)


def test_it_ends_civil_disorder_when_the_gm_assigns_a_new_player(
    demo, nations, gm, rival, outsider, django_user_model
):
    Nation.objects.filter(pk=nations["EST"].pk).update(civil_disorder=True, turns_missed_in_row=3)
    membership = nation_assign(campaign=demo, nation=nations["EST"], user=outsider, by=gm)
    assert (membership.user, membership.nation, membership.role) == (outsider, nations["EST"], "player")
    assert not Membership.objects.filter(user=rival, campaign=demo).exists(), "the absent player is out"
    est = Nation.objects.get(pk=nations["EST"].pk)
    assert (est.civil_disorder, est.turns_missed_in_row, est.turns_missed) == (False, 0, 0)
    assert demo.audit_entries.first().summary == "EST: played by outsider in place of rival"


def test_it_assigns_only_for_the_gm_and_not_a_player_of_another_nation(demo, nations, gm, player, rival):
    with pytest.raises(PermissionDenied):
        nation_assign(campaign=demo, nation=nations["EST"], user=player, by=rival)
    with pytest.raises(GMInputError, match="already plays NOR"):
        nation_assign(campaign=demo, nation=nations["EST"], user=player, by=gm)
    with pytest.raises(GMInputError, match="already runs"):
        nation_assign(campaign=demo, nation=nations["EST"], user=gm, by=gm)


def test_it_refuses_the_orders_of_a_nation_in_civil_disorder_on_every_channel(demo, nations, rival):
    from orders.services import OrderDraft, OrderError, order_submit

    Nation.objects.filter(pk=nations["EST"].pk).update(civil_disorder=True)
    with pytest.raises(OrderError, match="Ostland Federation is in civil disorder"):
        order_submit(
            user=rival,
            turn=demo.turns.get(number=1),
            draft=OrderDraft(kind="hold", origin="E1", target=None, units={"JV": 4}),
        )
