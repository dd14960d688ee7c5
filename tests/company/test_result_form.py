"""The result form on a company battle's page (COMPANY.md §5.1–§5.3): one row per snapshot unit, built into
exactly the §5.1 JSON and saved by the same service as the JSON entry; a refused entry comes back with each
error beside its row and what was typed kept; an enemy unit the viewer has not observed is its id only."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.company.conftest import at
from tests.company.forms_html import form_fields


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def url(battle):
    return f"/c/demo/{at(battle)}/"


def _row(html: str, unit: int) -> str:
    match = re.search(rf'<tr id="unit-{unit}"[^>]*>.*?</tr>(\s*<tr class="row-errors">.*?</tr>)?', html, re.S)
    assert match, f"no row for unit {unit}"
    return match.group(0)


def test_the_form_saves_the_same_entry_as_the_json(battle, company, player, gm, url):
    u = company.units
    squad, chef = u["Ryhmä 1"].number, u["Chef"].number
    page = login(player).get(url).content.decode()
    data = form_fields(page, "result")
    data.update(
        {
            f"u-{squad}-tk_lost": "2",
            f"u-{squad}-states": ["pinned"],
            f"u-{squad}-vp": "3",
            f"s-{company.nor.code}-objective_vp": "4",
            "notes": "held the bridge",
            "result": "save",
        }
    )
    assert login(player).post(url, data).status_code == 302
    [by_form] = battle.versions.all()
    rows = {
        int(k): {"unit": int(k), "tk_lost": 0, "destroyed": False, "states": [], "vp": 0}
        for k in battle.data["units"]
    }
    rows[squad].update(tk_lost=2, states=["pinned"], vp=3)
    expected = {
        "units": list(rows.values()),
        "sides": {
            n: {"objective_vp": 4 if n == "NOR" else 0, "field_promotion": None} for n in battle.data["sides"]
        },
        "notes": "held the bridge",
    }
    assert by_form.payload == expected
    # The same entry as JSON, through the advanced text, makes an equal version.
    login(player).post(url, {"result": "save", "entry": json.dumps(expected)})
    assert battle.versions.order_by("number").last().payload == by_form.payload
    # The next visit shows the current version in the form.
    again = form_fields(login(player).get(url).content.decode(), "result")
    assert again[f"u-{squad}-tk_lost"] == "2" and again[f"u-{squad}-states"] == "pinned"
    assert again[f"s-{company.nor.code}-objective_vp"] == "4" and f"u-{chef}-destroyed" not in again


def test_a_refused_entry_shows_each_error_by_its_row_and_keeps_the_input(battle, company, player, url):
    squad, other = company.units["Ryhmä 1"].number, company.units["Ryhmä 2"].number
    data = form_fields(login(player).get(url).content.decode(), "result")
    start = battle.data["units"][str(squad)]["tk"]
    data.update(
        {
            f"u-{squad}-tk_lost": str(start + 1),
            f"u-{other}-vp": "2.5",
            f"u-{other}-states": ["pinned", "retreating"],
            "notes": "x" * 2001,
            "result": "save",
        }
    )
    response = login(player).post(url, data)
    assert response.status_code == 400 and not battle.versions.exists(), "nothing saved"
    html = response.content.decode()
    assert f"started with {start} TK and cannot lose {start + 1}" in _row(html, squad)
    other_row = _row(html, other)
    assert (
        "must be a whole number, not 2.5" in other_row and "cannot be both retreating and pinned" in other_row
    )
    assert "cannot lose" not in other_row, "each error beside its own row"
    assert "at most 2000" in html
    kept = form_fields(html, "result")
    assert kept[f"u-{squad}-tk_lost"] == str(start + 1) and kept[f"u-{other}-vp"] == "2.5"
    assert kept[f"u-{other}-states"] == ["pinned", "retreating"]
    assert ">" + "x" * 2001 + "</textarea>" in html


def test_the_refused_form_in_finnish(battle, company, player, url):
    squad = company.units["Ryhmä 1"].number
    client = login(player)
    client.cookies["django_language"] = "fi"
    data = form_fields(client.get(url).content.decode(), "result")
    data.update({f"u-{squad}-tk_lost": "-1", "result": "save"})
    html = client.post(url, data, HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    start = battle.data["units"][str(squad)]["tk"]
    row = _row(html, squad)
    assert f"Ryhmä 1: menetetty TK on -1; taistelu ei voi nostaa TK:ta alkuarvon ({start}) yli." in row
    assert "TK menetetty" in html and "Tallenna versio" in html and "lamautunut" in html
    assert "Save a version" not in html and "cannot raise" not in html
    assert form_fields(html, "result")[f"u-{squad}-tk_lost"] == "-1"


def test_an_enemy_unit_not_observed_is_its_id_only(battle, company, player, url):
    html = login(player).get(url).content.decode()
    form = html[html.index('id="entry-form"') : html.index("</form>", html.index('id="entry-form"'))]
    # The CSRF token is random letters: "MG" stood in one now and then.
    form = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken"[^>]*>', "", form)
    for name in ("Chef", "Gruppe 1", "MG"):
        unit = company.units[name]
        assert name not in form, "no enemy name the page did not show before"
        row = _row(form, unit.number)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
        assert cells[:4] == [str(unit.number), "", "", ""], "id only: no name, nation or TK"
    assert "Ryhmä 1" in form


def test_the_field_promotion_comes_from_the_kp_ledger(battle, company, rival, gm, url):
    from campaign.models import Campaign
    from rules.company.kp import kp_operate

    Campaign.objects.filter(pk=company.campaign.pk).update(
        ruleset_overrides={"tp": {"starting": 30}, "kp": {"tracking": True}}
    )
    u = company.units
    leader, chief = u["Gruppe 1"].number, u["Chef"].number
    battle.data["units"][str(leader)]["role"] = "platoon_leader"  # the snapshot as a platoon leader fought
    battle.save(update_fields=["data"])
    before = form_fields(login(rival).get(url).content.decode(), "result")
    assert before["s-EST-field_promotion"] == "", "no promotion in the ledger: none"
    for op, params in [
        ("turn_start", {"declarations": {}}),
        ("eliminate", {"unit": chief}),
        ("turn_start", {"declarations": {"EST": {"promote": leader}}}),
    ]:
        done = kp_operate(battle=battle, user=gm, side=None, op=op, params=params)
        assert not hasattr(done, "code"), done
    data = form_fields(login(rival).get(url).content.decode(), "result")
    assert data["s-EST-field_promotion"] == str(leader)


@pytest.mark.parametrize("role, code", [("outsider", 404), ("gm", 302), ("rival", 302)])
def test_who_may_post_the_form(battle, company, player, rival, gm, outsider, url, role, code):
    data = form_fields(login(player).get(url).content.decode(), "result")
    data["result"] = "save"
    user = {"outsider": outsider, "gm": gm, "rival": rival}[role]
    assert login(user).post(url, data).status_code == code
    assert battle.versions.exists() == (code == 302)


def test_the_dice_buttons_name_the_function_once(battle, player, url):
    html = login(player).get(url).content.decode()
    buttons = re.findall(
        r'<input type="hidden" name="function" value="([^"]+)">.*?<button[^>]*>([^<]*)</button>', html, re.S
    )
    assert buttons and all(label == "Roll" for _, label in buttons), buttons
    assert "Roll roll" not in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
