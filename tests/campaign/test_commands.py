"""The commands `make run` and benchmarks rely on."""

from __future__ import annotations

import re

from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from campaign.models import Campaign, Membership


def test_it_loads_the_demo_once_and_prints_logins_that_work(db, capsys):
    call_command("load_demo")
    call_command("load_demo")
    output = capsys.readouterr().out
    assert Campaign.objects.filter(slug="demo").count() == 1
    assert Campaign.objects.get(slug="sampo").battle_system == "sodankaynti"
    logins = re.findall(r"(\w+) / ([\w-]+)", output)
    assert len(logins) == 2 * ((1 + 5) + (1 + 2)), "twice: the Iron Fist demo and the Sodankäynti one"
    for username, password in logins:
        login = RequestFactory().post("/accounts/login/")  # a login comes with its request (django-axes)
        assert authenticate(login, username=username, password=password) is not None, username
    gm = Membership.objects.get(role=Membership.Role.GM, campaign__slug="demo")
    assert gm.user.is_staff
    assert Membership.objects.filter(role=Membership.Role.PLAYER, campaign__slug="demo").count() == 5
    assert Membership.objects.filter(role=Membership.Role.PLAYER, campaign__slug="sampo").count() == 2


def test_it_benchmarks_a_turn_and_cleans_up(db, capsys):
    call_command("bench_turn", regions=60, nations=4, seed=2)
    output = capsys.readouterr().out
    for stage in ("load", "resolve", "write", "total"):
        assert re.search(rf"{stage}\s+\d+\.\d+ s\s+\d+ queries", output), output
    assert re.search(r"load\s+\S+ s\s+7 queries", output)
    assert not Campaign.objects.exists()
