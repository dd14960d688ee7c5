"""Every write path of company_d20 bounded (issue 24): what the security review found, each refused as a 400
(or the page's refusal) before it reaches a column, a service's loop or the permanent dice log.

A NUL is refused before any view (config/middleware.py, config/parsers.py); the shapes and forms of
rules/company bound the rest: numbers within their column, text within the spec's or the column's limit,
a body's shape (`"to"` a region code, `units` whole numbers), the targets of an attack within the battle.
"""

from __future__ import annotations

import pytest
from django.test import Client

from campaign.bounds import INT_MAX
from rules.company import models
from tests.company.conftest import at

A = "/api/campaigns/demo"


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _roll(clients, battle) -> int:
    roll = {"function": "roll", "inputs": {"expression": "1d20"}}
    [entry] = clients["player"].post(f"{A}/{at(battle)}/rolls/", roll, format="json").json()
    return entry["seq"]


# -- NUL: a unit's name, a GM's reason, a dice purpose, a GM's roll note -----------------------------------


def test_a_nul_in_a_company_text_is_refused_before_any_view_by_the_api(clients, battle, company):
    seq = _roll(clients, battle)
    events, rolls = models.RosterEvent.objects.count(), models.DiceRoll.objects.count()
    sent = [
        ("player", "companies/NOR/buy/", {"type": "JR", "name": "Ryhmä\x003", "group": 1, "region": "N4"}),
        ("gm", "companies/NOR/adjust-tp/", {"delta": 5, "reason": "prize\x00"}),
        ("player", f"{at(battle)}/rolls/", {"function": "roll", "inputs": {}, "purpose": "a\x00"}),
        ("gm", f"{at(battle)}/rolls/{seq}/note/", {"text": "noted\x00"}),
    ]
    for role, path, body in sent:
        response = clients[role].post(f"{A}/{path}", body, format="json")
        assert response.status_code == 400, (path, response.content)
    assert models.RosterEvent.objects.count() == events and models.DiceRoll.objects.count() == rolls
    assert models.DiceRoll.objects.get(battle=battle, seq=seq).note == ""


def test_a_nul_in_a_company_text_is_refused_before_any_view_by_the_pages(clients, battle, gm, player):
    seq = _roll(clients, battle)
    events, rolls = models.RosterEvent.objects.count(), models.DiceRoll.objects.count()
    sent = [
        (player, "/c/demo/kasarmi/NOR/act/", {"action": "buy", "type": "JR", "name": "R\x003", "group": "1"}),
        (gm, "/c/demo/kasarmi/NOR/gm/", {"form": "tp", "tp-delta": "5", "tp-reason": "prize\x00"}),
        (player, f"/c/demo/{at(battle)}/", {"function": "roll", "purpose": "a\x00"}),
        (gm, f"/c/demo/{at(battle)}/", {"roll_mark": "note", "seq": str(seq), "text": "noted\x00"}),
    ]
    for user, path, data in sent:
        assert login(user).post(path, data).status_code == 400, path
    assert models.RosterEvent.objects.count() == events and models.DiceRoll.objects.count() == rolls
    assert models.DiceRoll.objects.get(battle=battle, seq=seq).note == ""


# -- numbers past their column, text past its column ------------------------------------------------------


@pytest.mark.parametrize(
    "role, action, body, field",
    [
        ("player", "buy", {"type": "JR", "name": "Ryhmä 3", "group": 2**63, "region": "N4"}, "group"),
        ("gm", "adjust-tp", {"delta": 2**31, "reason": "prize"}, "delta"),
        ("gm", "adjust-tp", {"delta": 2**63, "reason": "prize"}, "delta"),
        ("gm", "adjust-tp", {"delta": 5, "reason": "x" * 100_000}, "reason"),
    ],
)
def test_a_number_or_a_text_past_its_column_is_a_400_naming_its_field(
    clients, company, role, action, body, field
):
    events = models.RosterEvent.objects.count()
    response = clients[role].post(f"{A}/companies/NOR/{action}/", body, format="json")
    assert response.status_code == 400, response.content
    assert [e["field"] for e in response.json()["errors"]] == [field]
    assert models.RosterEvent.objects.count() == events
    assert models.Balance.objects.get(nation=company.nor).tp == 30


def test_a_balance_is_never_adjusted_past_its_column(clients, company):
    models.Balance.objects.filter(nation=company.nor).update(tp=INT_MAX - 5)
    adjust = {"delta": 10, "reason": "x"}
    response = clients["gm"].post(f"{A}/companies/NOR/adjust-tp/", adjust, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["code"] == "tp_too_large"
    assert models.Balance.objects.get(nation=company.nor).tp == INT_MAX - 5


# -- shapes: an order's `to`, the orders page's units -----------------------------------------------------


def test_an_order_whose_target_is_not_a_region_code_is_a_400(clients, company):
    squad = company.units["Ryhmä 1"].number
    orders = {"orders": [{"kind": "attack", "from": "N5", "to": {"a": 1}, "units": [squad]}]}
    response = clients["player"].put(f"{A}/companies/NOR/orders/", orders, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"] == "orders[0].to"
    assert not models.OrderSet.objects.exists()


def test_the_orders_page_refuses_units_that_are_no_whole_numbers(company, player):
    client = login(player)
    response = client.post("/c/demo/kasarmi/NOR/orders/", {"kind": "hold", "from": "N5", "units": ["²"]})
    assert response.status_code == 302
    assert not models.OrderSet.objects.exists()
    page = client.get(response["Location"]).content.decode()
    assert "Enter a whole number." in page


# -- the cost of a roll: an attack's targets ----------------------------------------------------------------


def test_an_attack_names_no_more_targets_than_the_battle_has_units(clients, battle, company):
    u = company.units
    many = [{"unit": u["MG"].number}] * (len(battle.data["units"]) + 1)
    attack = {"function": "attack", "inputs": {"attacker": u["Ryhmä 1"].number, "targets": many}}
    response = clients["player"].post(f"{A}/{at(battle)}/rolls/", attack, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["code"] == "too_many_targets"
    assert not models.DiceRoll.objects.exists(), "refused before any die, and nothing logged"
    attack["inputs"]["targets"] = many[:2]
    assert clients["player"].post(f"{A}/{at(battle)}/rolls/", attack, format="json").status_code == 201


# -- OPTIONS on every company endpoint -------------------------------------------------------------------


COMPANY_PATHS = [
    "companies/NOR/roster/",
    "companies/NOR/events/",
    "companies/NOR/orders/",
    "companies/NOR/buy/",
    "contacts/",
    "map/",
    "turns/1/company-battles/",
    "turns/1/company-preview/",
    "battles/{pk}/",
    "battles/{pk}/rolls/",
    "battles/{pk}/rolls/1/note/",
    "battles/{pk}/kp/",
    "battles/{pk}/kp/spend/",
    "battles/{pk}/verify/",
    "battles/{pk}/table-turn/",
    "battles/{pk}/result/",
    "battles/{pk}/result/dispute/",
    "battles/{pk}/void/",
]


@pytest.mark.parametrize("path", COMPANY_PATHS)
def test_options_answers_on_every_company_endpoint(clients, battle, path):
    response = clients["gm"].options(f"{A}/{path.format(pk=battle.pk)}")
    assert response.status_code == 200, response.content


def test_the_gm_pages_refuse_a_number_past_its_column_and_write_nothing(company, gm):
    from tests.company.forms_html import form_fields

    client = login(gm)
    events = models.RosterEvent.objects.count()
    size = client.post("/c/demo/kasarmi/NOR/gm/", {"form": "size", "size-size": "40000", "size-reason": "x"})
    assert size.status_code == 400
    which = f"edit-{company.units['Ryhmä 1'].number}"
    data = form_fields(client.get("/c/demo/kasarmi/NOR/").content.decode(), which)
    data.update({f"{which}-m": "999999999", f"{which}-reason": "a hero"})
    edit = client.post("/c/demo/kasarmi/NOR/gm/", data)
    assert edit.status_code == 400 and "less than or equal to 32767" in edit.content.decode()
    assert models.Balance.objects.get(nation=company.nor).company_size is None
    assert models.Unit.objects.get(pk=company.units["Ryhmä 1"].pk).m == 2
    assert models.RosterEvent.objects.count() == events
