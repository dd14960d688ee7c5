"""The commands `make run` and benchmarks rely on."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.db import connection
from django.test import RequestFactory

from campaign.models import Campaign, Membership, Turn


def test_it_loads_the_demo_once_and_prints_logins_that_work(db, capsys):
    call_command("load_demo")
    call_command("load_demo")
    output = capsys.readouterr().out
    assert Campaign.objects.filter(slug="demo").count() == 1
    assert Campaign.objects.get(slug="sampo").battle_system == "sodankaynti"
    logins = re.findall(r"(\w+) / ([\w-]+)", output)
    assert len(logins) == 2 * ((1 + 5) + 2), "twice: the demo's and the Sodankäynti demo's players"
    for username, password in logins:
        login = RequestFactory().post("/accounts/login/")  # a login comes with its request (django-axes)
        assert authenticate(login, username=username, password=password) is not None, username
    gm = Membership.objects.get(campaign__slug="demo", role=Membership.Role.GM)
    assert gm.user.is_staff
    assert Membership.objects.filter(campaign__slug="demo", role=Membership.Role.PLAYER).count() == 5
    assert Membership.objects.filter(campaign__slug="sampo", role=Membership.Role.PLAYER).count() == 2
    first = Campaign.objects.get(slug="sampo").turns.get(number=1)
    assert list(first.orders.values_list("nation__code", "kind")) == [("KAL", "ambush")]


def test_it_loads_a_tabletop_demo_whose_first_turn_waits_for_its_battles(db, capsys):
    from rules.models import TableBattle

    call_command("load_demo")
    tabletop = Campaign.objects.get(slug="tabletop")
    assert tabletop.battle_system == "tabletop"
    turn = tabletop.turns.get(number=1)
    assert turn.status == Turn.Status.BATTLES_PENDING, turn.error
    open_battles = list(TableBattle.objects.filter(turn=turn, state="open").values_list("key", flat=True))
    assert open_battles == ["meeting:E2|K4", "region:E4", "region:K1"]
    assert Membership.objects.filter(campaign=tabletop, user__username="nor").exists()


def test_it_benchmarks_a_turn_and_cleans_up(db, capsys):
    call_command("bench_turn", regions=60, nations=4, seed=2)
    output = capsys.readouterr().out
    for stage in ("load", "resolve", "write", "total"):
        assert re.search(rf"{stage}\s+\d+\.\d+ s\s+\d+ queries", output), output
    assert re.search(r"load\s+\S+ s\s+7 queries", output)
    assert re.search(r"battles; goal < 0\.8 s: (MET|MISSED)", output), output
    if connection.vendor == "postgresql":
        assert re.search(r"COPY\s+\d+\.\d+ s .* the write stage takes \d+\.\d×", output), output
        assert re.search(
            r"best of 3: write \d+\.\d+ s, COPY \d+\.\d+ s: "
            r"the write stage takes \d+\.\d× \(goal ≤ 2×: (MET|MISSED)\)",
            output,
        ), output
    assert len(re.findall(r"round \d: load", output)) == 2, "two rounds rolled back before the last"
    assert not Campaign.objects.exists()


def test_the_demos_first_turn_has_orders_of_two_nations_and_reset_starts_over(db, capsys):
    from orders.models import Order

    call_command("load_demo")
    turn = Campaign.objects.get(slug="demo").turns.get(number=1)
    assert sorted(Order.objects.filter(turn=turn).values_list("nation__code", flat=True)) == ["EST", "WES"]
    # A player's order, then a reset: the demo as new, the player's order gone, the logins working.
    Order.objects.filter(turn=turn, nation__code="WES").delete()
    call_command("load_demo", reset=True)
    output = capsys.readouterr().out
    assert "The demo campaign was deleted." in output
    campaign = Campaign.objects.get(slug="demo")
    assert Order.objects.filter(turn__campaign=campaign).count() == 2
    login = RequestFactory().post("/accounts/login/")
    assert authenticate(login, username="wes", password="ironfist-player") is not None


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_it_benchmarks_turns_on_two_real_workers_against_one_and_cleans_up(capsys):
    if connection.vendor != "postgresql":
        pytest.skip("bench_workers reads PostgreSQL's backends")
    call_command("bench_workers", campaigns=2, regions=40, nations=3, rounds=1)
    output = capsys.readouterr().out
    for workers in ("1 worker", "2 workers"):
        line = re.search(
            rf"round 1, {workers}: +\d+\.\d+ s; CPU per turn: PostgreSQL \d\.\d+ s.*backends read: (\d+)",
            output,
        )
        # The workers' backends were found and read (a 40-region turn may take under a clock tick of CPU).
        assert line and int(line.group(1)) >= 1, output
    assert re.search(
        r"best of 1: .*: (\d+\.\d+)× as fast .*PostgreSQL CPU per turn (\d\.\d+) s with 1", output
    )
    assert not Campaign.objects.exists()
