"""The demo company campaign that `make run` loads: named units per nation, the same logins, a first turn
that can be played through (a battle at M1)."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import Client, RequestFactory

from campaign.models import Campaign
from company import models


def test_load_demo_loads_a_company_campaign_once_with_its_rosters(db, capsys):
    call_command("load_demo")
    call_command("load_demo")
    assert "Demo company campaign 'Grenzwald Company'" in capsys.readouterr().out
    campaign = Campaign.objects.get(slug="company")
    assert campaign.battle_system == "company_d20"
    assert models.Unit.objects.filter(campaign=campaign).count() == 14
    assert set(models.Balance.objects.filter(nation__campaign=campaign).values_list("tp", flat=True)) == {40}
    login = RequestFactory().post("/accounts/login/")  # a login comes with its request (django-axes)
    user = authenticate(login, username="nor", password="ironfist-player")
    assert user is not None
    client = Client()
    client.force_login(user)
    page = client.get("/c/company/kasarmi/NOR/")
    assert page.status_code == 200 and "Päällikkö Virta" in page.content.decode()
    assert client.get("/c/company/kasarmi/EST/").status_code == 404
