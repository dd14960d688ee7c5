"""The GM's per-nation company size (COMPANY.md §7.3, §12 "10 (per nation override)"): set or cleared
through the GM's edit (page and API), audit-logged, the GM's alone; the cap it sets is the one
`company_full` checks."""

from __future__ import annotations

import pytest

from rules.company import models
from tests.company.test_gm_pages import POST, _form, _trail, login

A = "/api/campaigns/demo"
NOR_BUY = {"type": "JR", "name": "Ryhmä 3", "group": 1, "region": "N4"}
EST_BUY = {"type": "JR", "name": "Gruppe 2", "group": 1, "region": "E1"}


def _buy(client, nation, body):
    return client.post(f"{A}/companies/{nation}/buy/", body, format="json")


def test_the_nations_override_is_the_cap_buying_meets_and_another_nation_keeps_the_default(clients, company):
    done = clients["gm"].post(
        f"{A}/companies/NOR/company-size/", {"size": 4, "reason": "small"}, format="json"
    )
    assert done.status_code == 200, done.content
    assert done.json()["roster"]["company_size"] == 4
    refused = _buy(clients["player"], "NOR", NOR_BUY)
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "company_full"
    assert not models.Unit.objects.filter(name="Ryhmä 3").exists()
    assert _buy(clients["rival"], "EST", EST_BUY).status_code == 200, "EST has the ruleset's 10"
    cleared = clients["gm"].post(f"{A}/companies/NOR/company-size/", {"reason": "back"}, format="json")
    assert cleared.json()["roster"]["company_size"] == 10
    assert models.Balance.objects.get(nation=company.nor).company_size is None
    assert _buy(clients["player"], "NOR", NOR_BUY).status_code == 200


# 1001: past the `company_size` setting's maximum, as a ruleset's own would be (§12).
@pytest.mark.parametrize("size", [0, -1, 2.5, "many", True, 1001])
def test_a_size_not_a_whole_number_within_the_settings_range_is_refused_with_its_code(clients, company, size):
    before = len(_trail())
    response = clients["gm"].post(
        f"{A}/companies/NOR/company-size/", {"size": size, "reason": "x"}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "company_size_invalid"
    assert models.Balance.objects.get(nation=company.nor).company_size is None and len(_trail()) == before


def test_a_player_cannot_set_its_own_company_size(clients, company):
    response = clients["player"].post(
        f"{A}/companies/NOR/company-size/", {"size": 20, "reason": "x"}, format="json"
    )
    assert response.json()["errors"][0]["code"] == "gm_only"
    assert models.Balance.objects.get(nation=company.nor).company_size is None


@pytest.mark.parametrize("role, code", [("player", 403), ("rival", 403), ("outsider", 404)])
def test_only_the_gm_sets_it_on_the_page(company, gm, player, rival, outsider, role, code):
    data = _form(login(gm), "size", size="3", reason="x")
    users = {"player": player, "rival": rival, "outsider": outsider}
    assert login(users[role]).post(POST, data).status_code == code
    assert models.Balance.objects.get(nation=company.nor).company_size is None


def test_the_gm_sets_and_clears_it_on_the_page_and_the_trail_and_the_page_show_it(company, gm):
    page = login(gm)
    assert "4 of 10 units" in page.get("/c/demo/kasarmi/NOR/").content.decode()
    response = page.post(POST, _form(page, "size", size="3", reason="lost the depot"), follow=True)
    html = response.content.decode()
    assert models.Balance.objects.get(nation=company.nor).company_size == 3
    assert "4 of 3 units" in html and "buying is refused until fewer are" in html
    last = _trail()[-1]
    assert (last.kind, last.before, last.after, last.cause, last.reason, last.actor.username) == (
        "company_size_set",
        10,
        3,
        "over_size",
        "lost the depot",
        "gm",
    )
    assert "company_size_set" in html[html.index('id="audit"') :]
    page.post(POST, _form(page, "size", size="", reason="restored"))
    assert models.Balance.objects.get(nation=company.nor).company_size is None
    assert (_trail()[-1].before, _trail()[-1].after, _trail()[-1].cause) == (3, 10, "ruleset")


def test_a_bad_size_on_the_page_is_said_in_finnish_beside_the_field(company, gm):
    page = login(gm, "fi")
    response = page.post(POST, _form(page, "size", size="nolla", reason="x"))
    assert response.status_code == 400
    assert "Komppanian koon on oltava kokonaisluku" in response.content.decode()
