"""The battle page's dice panel (COMPANY.md §8.5, §11.2): a form for every function, posted as the page fills
it in, logged with who asked before the answer is shown; the forms offer the viewer's own units with their
bonuses, and as targets never a unit the viewer has not observed."""

from __future__ import annotations

import pytest
from django.test import Client

from rules.company import models
from rules.engine.company_d20.log import FUNCTIONS
from tests.company.conftest import at
from tests.company.forms_html import form_fields


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _dice_form(html: str, function: str) -> dict:
    data = form_fields(html.replace('name="function"', 'name="form"'), function)
    data["function"] = data.pop("form")
    data.pop("csrfmiddlewaretoken", None)
    return data


def test_every_function_of_the_dice_service_has_its_form(battle, rival):
    html = login(rival).get(f"/c/demo/{at(battle)}/").content.decode()
    for function in [*FUNCTIONS, "scatter_decide"]:
        assert f'id="dice-{function}"' in html, function


@pytest.mark.parametrize(
    "function, fields, output",
    [
        ("roll", {"expression": "2d6+1"}, "total"),
        ("test", {"unit": "MG", "stat": "M", "dc": "12", "advantage": ["flank"]}, "success"),
        ("opposed", {"active": "MG", "passive": "Ryhmä 1"}, "winner"),
        ("attack", {"attacker": "MG", "targets": ["Ryhmä 1"], "cover": "forest"}, "targets"),
        ("damage", {"weapon": "MG", "band": "heavy", "attacker_damaged": "1"}, "damage"),
        ("morale", {"unit": "MG", "reason": "first_damage", "state": "pinned"}, "result"),
        ("recon", {"scout": "MG", "target": "Ryhmä 2", "cover": "buildings"}, "level"),
        ("fire_request", {"support": "organic_81", "caller": "Chef", "observer": "Chef"}, "result"),
        ("danger_close", {"strike_damage": "6", "units": ["MG", "Chef"]}, "units"),
    ],
)
def test_a_roll_from_each_form_is_logged_with_who_asked(battle, company, rival, function, fields, output):
    client = login(rival)
    html = client.get(f"/c/demo/{at(battle)}/").content.decode()
    data = _dice_form(html, function)
    names = {name: str(unit.number) for name, unit in company.units.items()}
    for key, value in fields.items():
        data[f"{function}-{key}"] = (
            [names.get(v, v) for v in value] if isinstance(value, list) else names.get(value, value)
        )
    response = client.post(f"/c/demo/{at(battle)}/", data, follow=True)
    page = response.content.decode()
    assert 'class="error"' not in page, page[page.find('class="error"') - 200 :][:600]
    [roll] = models.DiceRoll.objects.filter(battle=battle)
    assert (roll.function, roll.side, roll.requested_by.username) == (function, "EST", "rival")
    assert output in roll.output
    if function == "attack":
        assert roll.inputs["targets"] == [{"unit": company.units["Ryhmä 1"].number, "cover": "forest"}]
    if function == "damage":
        assert roll.inputs["attacker_damaged"] is True and len(roll.dice) == 2, "heavy: one extra die"


def test_a_refused_roll_draws_nothing_and_says_why(battle, company, rival):
    client = login(rival)
    data = _dice_form(client.get(f"/c/demo/{at(battle)}/").content.decode(), "roll")
    data["roll-expression"] = "1d7"
    page = client.post(f"/c/demo/{at(battle)}/", data, follow=True).content.decode()
    assert "is not a dice expression like 2d6+1" in page
    assert not models.DiceRoll.objects.exists()


def test_the_forms_offer_own_units_with_their_bonuses_and_every_enemy_unit_as_a_target(
    battle, company, player, gm
):
    """§4.5 as amended: from the battle's creation its participants see every unit of the battle by id, name
    and type, so the dice panel offers each enemy unit as a target and a passive side (its stats only
    through recon), and none of the roller's own (§8.2 `target_own_side`)."""
    html = login(player).get(f"/c/demo/{at(battle)}/").content.decode()
    ryhma = company.units["Ryhmä 1"]
    assert f"#{ryhma.number} Ryhmä 1 (JR · TT 1 · M 2 · S 12 · H 2 · TI 1d6)" in html
    attack = html[html.index('id="dice-attack"') :]
    attack = attack[: attack.index("</form>")]
    for number, unit in battle.data["units"].items():
        offered = f'value="{number}"> #{number} {unit["name"]} ({unit["type"]})</label>' in attack
        assert offered == (unit["nation"] == "EST"), (unit["name"], unit["nation"])
    gm_html = login(gm).get(f"/c/demo/{at(battle)}/").content.decode()
    chef = company.units["Chef"]
    assert f'value="{chef.number}">#{chef.number} Chef' in gm_html, "the GM names every unit"


def test_the_gm_marks_a_roll_void_on_the_page_and_every_side_sees_it_struck_through(
    battle, company, gm, rival
):
    page = f"/c/demo/{at(battle)}/"
    data = _dice_form(login(rival).get(page).content.decode(), "roll")
    login(rival).post(page, {**data, "roll-expression": "1d6"})
    assert models.DiceRoll.objects.filter(battle=battle, seq=1).exists()
    assert 'class="roll-mark"' not in login(rival).get(page).content.decode(), "the form is the GM's"
    assert 'class="roll-mark"' in login(gm).get(page).content.decode()
    login(rival).post(page, {"roll_mark": "void", "seq": "1", "text": "nobody"})
    assert not models.DiceRoll.objects.get(battle=battle, seq=1).void_reason, "a player cannot"
    login(gm).post(page, {"roll_mark": "void", "seq": "1", "text": "rolled for the wrong squad"})
    html = login(rival).get(page).content.decode()
    assert '<tr class="void"><td><s>1</s>' in html and "void: rolled for the wrong squad" in html


def test_a_side_begins_the_next_table_turn_on_the_page_and_the_log_says_who(battle, company, rival):
    page = f"/c/demo/{at(battle)}/"
    assert 'class="table-turn"' in login(rival).get(page).content.decode()
    login(rival).post(page, {"table_turn_next": "1"})
    assert models.Battle.objects.get(pk=battle.pk).table_turn == 1
    assert "Table turn 1 begins (rival)" in login(rival).get(page).content.decode()
