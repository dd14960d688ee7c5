"""Missed turns, civil disorder and early processing for company orders (campaign.lifecycle, COMPANY.md §4.2):
a company nation with a player that gave no orders missed the turn, exactly as an Iron Fist nation does;
early processing waits for the company orders of every active nation."""

from __future__ import annotations

import pytest
from django.utils import timezone

from campaign.lifecycle import nations_missed
from campaign.models import Campaign, Nation
from campaign.queue import turns_early_queue
from rules.company.services import orders_submit
from rules.history import turn_rollback
from rules.services import turn_process


def _recon(company):
    scout = company.units["Tiedustelu"].number
    return [{"kind": "recon", "from": "N5", "to": "M1", "units": [scout]}]


def _hold(company):
    return [{"kind": "hold", "from": "M1", "units": [company.units["MG"].number]}]


def _counts(code):
    nation = Nation.objects.get(code=code)
    return nation.turns_missed, nation.turns_missed_in_row, nation.civil_disorder


def test_a_company_nation_without_orders_missed_the_turn_and_one_with_orders_did_not(company):
    turn = company.campaign.turns.get(number=1)
    assert orders_submit(turn=turn, nation=company.nor, orders=_recon(company)) == []
    turn_process(turn_id=turn.pk)
    assert _counts("NOR") == (0, 0, False)
    assert _counts("EST") == (1, 1, False)
    assert _counts("KAR") == (0, 0, False), "a nation without a player misses nothing"


def test_an_empty_order_set_is_no_orders(company):
    turn = company.campaign.turns.get(number=1)
    assert orders_submit(turn=turn, nation=company.nor, orders=_recon(company)) == []
    assert orders_submit(turn=turn, nation=company.nor, orders=[]) == []  # cleared again
    assert not [r for r in nations_missed(campaign=company.campaign, turn=turn) if r["submitted"]]
    turn_process(turn_id=turn.pk)
    assert _counts("NOR")[0] == 1


def test_the_gm_dashboard_says_who_gave_company_orders(company):
    turn = company.campaign.turns.get(number=1)
    assert orders_submit(turn=turn, nation=company.est, orders=_hold(company)) == []
    submitted = {
        r["nation"].code: r["submitted"] for r in nations_missed(campaign=company.campaign, turn=turn)
    }
    assert submitted["EST"] is True and not any(v for k, v in submitted.items() if k != "EST")


def test_misses_in_a_row_bring_civil_disorder_and_a_nation_in_it_takes_no_orders(company):
    Campaign.objects.filter(pk=company.campaign.pk).update(civil_disorder_after=2)
    for number in (1, 2):
        turn = company.campaign.turns.get(number=number)
        assert orders_submit(turn=turn, nation=company.nor, orders=_recon(company)) == []
        turn_process(turn_id=turn.pk)
        assert company.campaign.turns.get(number=number).status == "resolved", "no battle: it completes"
    assert _counts("EST") == (2, 2, True)
    assert _counts("NOR") == (0, 0, False)
    turn = company.campaign.turns.get(number=3)
    [problem] = orders_submit(turn=turn, nation=Nation.objects.get(code="EST"), orders=_hold(company))
    assert problem.code == "civil_disorder" and problem.ref == "EST"


def test_a_rollback_gives_back_the_missed_turn(company, gm):
    turn = company.campaign.turns.get(number=1)
    turn_process(turn_id=turn.pk)
    assert _counts("EST") == (1, 1, False)
    turn_rollback(turn_id=turn.pk, by=gm)
    assert _counts("EST") == (0, 0, False) and _counts("NOR") == (0, 0, False)


@pytest.fixture
def queued(monkeypatch):
    found = []
    monkeypatch.setattr("campaign.queue.turn_queue", lambda *, turn_id: found.append(turn_id))
    return found


def test_it_processes_a_company_turn_early_once_every_active_nation_has_orders_in(company, queued):
    clock = timezone.now
    Campaign.objects.filter(pk=company.campaign.pk).update(process_early=True, status=Campaign.Status.ACTIVE)
    turn = company.campaign.turns.get(number=1)
    assert orders_submit(turn=turn, nation=company.nor, orders=_recon(company)) == []
    assert turns_early_queue(now=clock) == 0, "EST has a player and no company orders yet"
    assert orders_submit(turn=turn, nation=company.est, orders=[]) == []
    assert turns_early_queue(now=clock) == 0, "an empty order set is no orders"
    assert orders_submit(turn=turn, nation=company.est, orders=_hold(company)) == []
    assert turns_early_queue(now=clock) == 1
    assert turns_early_queue(now=clock) == 0, "queued once"
    assert queued == [turn.pk]


@pytest.mark.parametrize("count_missed, est", [({}, (0, 0)), ({"count_missed": "on"}, (1, 1))])
def test_the_gm_processes_a_company_turn_early_and_says_whether_it_is_a_miss(
    company, gm, count_missed, est, django_capture_on_commit_callbacks
):
    from tests.company.test_pages import login

    turn = company.campaign.turns.get(number=1)
    assert orders_submit(turn=turn, nation=company.nor, orders=_recon(company)) == []
    page = login(gm).post("/c/demo/gm/process/").content.decode()
    assert "Ostland Federation" in page and "Their units will hold:" in page, "EST gave no company orders"
    assert "Kingdom of Nordmark" not in page.split("Their units will hold:")[1].split("</")[0]
    with django_capture_on_commit_callbacks(execute=True):
        login(gm).post("/c/demo/gm/process/", {"confirm": "yes", **count_missed})
    turn.refresh_from_db()
    assert turn.status == "resolved", "processed early: the recon rolled, no battle, the turn complete"
    assert turn.result["recon"]
    assert _counts("EST")[:2] == est and _counts("NOR") == (0, 0, False)
