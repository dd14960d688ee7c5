"""The GM's edits on the Kasarmi page (COMPANY.md §7.6, §7.7): the balance, a unit's record, its veteran
abilities, a fallen unit restored. Each form is posted as the page filled it in; each edit is an entry of the
audit trail on the same page; a refusal is the engine's code, said in English and Finnish beside its field,
and writes nothing; a form made stale by a change since is refused, not applied over it; only the GM."""

from __future__ import annotations

import pytest
from django.test import Client

from rules.company import models
from tests.company.forms_html import form_fields

PAGE = "/c/demo/kasarmi/NOR/"
POST = "/c/demo/kasarmi/NOR/gm/"


def login(user, language: str | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    if language:
        client.cookies["django_language"] = language
    return client


@pytest.fixture
def gm_page(company, gm):
    return login(gm)


def _form(client: Client, which: str, **changes):
    data = form_fields(client.get(PAGE).content.decode(), which)
    data.pop("csrfmiddlewaretoken", None)
    data.update({f"{which}-{k}" if k != "form" else k: v for k, v in changes.items()})
    return data


def _trail():
    return list(models.RosterEvent.objects.order_by("seq"))


@pytest.mark.parametrize(
    "role, code", [("player", 403), ("rival", 403), ("outsider", 404), ("anonymous", 302)]
)
def test_only_the_gm_edits_a_roster_and_nobody_else_changes_anything(
    company, gm, player, rival, outsider, role, code
):
    data = _form(login(gm), "tp", delta="5", reason="prize")
    users = {"player": player, "rival": rival, "outsider": outsider, "anonymous": None}
    before = len(_trail())
    assert login(users[role]).post(POST, data).status_code == code
    assert models.Balance.objects.get(nation=company.nor).tp == 30 and len(_trail()) == before
    page = login(users[role]).get(PAGE)
    assert "GM edits" not in page.content.decode()
    assert login(gm).post(POST, data).status_code == 302
    assert models.Balance.objects.get(nation=company.nor).tp == 35


def test_the_gm_sees_the_edit_forms_on_every_roster(gm_page):
    for nation in ("NOR", "EST"):
        html = gm_page.get(f"/c/demo/kasarmi/{nation}/").content.decode()
        assert "GM edits" in html and 'name="form" value="tp"' in html


def test_the_gm_adjusts_the_balance_with_a_reason_and_the_trail_shows_it(gm_page, company):
    response = gm_page.post(POST, _form(gm_page, "tp", delta="-12", reason="lost supply column"), follow=True)
    assert models.Balance.objects.get(nation=company.nor).tp == 18
    last = _trail()[-1]
    assert (last.kind, last.tp_delta, last.before, last.after, last.reason, last.actor.username) == (
        "tp_adjusted",
        -12,
        30,
        18,
        "lost supply column",
        "gm",
    )
    html = response.content.decode()
    assert "Saved. The audit trail below shows the change and its reason." in html
    audit = html[html.index('id="audit"') :]
    assert "TP adjusted" in audit and "lost supply column" in audit


@pytest.mark.parametrize(
    "delta, reason, field, english, finnish",
    [
        ("5", "", "reason", "Give a reason.", "Anna syy."),
        ("five", "x", "delta", "must be a whole number, not five", "kokonaisluku"),
        ("-31", "x", "delta", "The balance would fall to -1; it cannot go below 0.", "-1"),
    ],
)
def test_a_bad_balance_form_is_refused_beside_its_field_and_keeps_what_was_typed(
    gm_page, company, gm, delta, reason, field, english, finnish
):
    before = len(_trail())
    data = _form(gm_page, "tp", delta=delta, reason=reason)
    response = gm_page.post(POST, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert english in html and f'value="{delta}"' in html, "the typed value is shown again"
    assert models.Balance.objects.get(nation=company.nor).tp == 30 and len(_trail()) == before
    finnish_page = login(gm, "fi").post(POST, data).content.decode()
    assert finnish in finnish_page and english not in finnish_page


def test_a_stale_balance_form_is_refused_then_sent_again_on_purpose(gm_page, company):
    data = _form(gm_page, "tp", delta="-10", reason="fine")
    models.Balance.objects.filter(nation=company.nor).update(tp=20)  # a repair meanwhile
    response = gm_page.post(POST, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "The balance is 20 TP now, not 30 as on your form; nothing was changed." in html
    assert models.Balance.objects.get(nation=company.nor).tp == 20
    again = form_fields(html, "tp")
    assert again["tp-seen"] == "20" and again["tp-delta"] == "-10", "what the GM typed is kept"
    assert gm_page.post(POST, again).status_code == 302
    assert models.Balance.objects.get(nation=company.nor).tp == 10


def test_the_gm_edits_a_units_stats_and_only_the_changed_fields_are_logged(gm_page, company):
    unit = company.units["Ryhmä 1"]
    which = f"edit-{unit.number}"
    data = _form(gm_page, which, tk="6", xp="25", reason="the sheet of turn 0")
    assert gm_page.post(POST, data).status_code == 302
    row = models.Unit.objects.get(pk=unit.pk)
    assert (row.tk, row.xp, row.name, row.group) == (6, 25, "Ryhmä 1", 1)
    last = _trail()[-1]
    assert (last.kind, last.before, last.after, last.reason) == (
        "gm_edit",
        {"tk": 10, "xp": 0},
        {"tk": 6, "xp": 25},
        "the sheet of turn 0",
    )
    html = gm_page.get(PAGE).content.decode()
    card = html[html.index(f'id="unit-{unit.number}"') :]
    assert "TK 6/10" in card and "XP 25" in card and "TT 3" in card, "derived values follow the edit"


def test_the_gm_moves_a_unit_renames_it_and_gives_it_a_role(gm_page, company):
    unit = company.units["Ryhmä 2"]
    which = f"edit-{unit.number}"
    data = _form(gm_page, which, name="Jojo", role="platoon_leader", region="N4", reason="reorganised")
    assert gm_page.post(POST, data).status_code == 302
    row = models.Unit.objects.get(pk=unit.pk)
    assert (row.name, row.role, row.region) == ("Jojo", "platoon_leader", "N4")


@pytest.mark.parametrize(
    "changes, field, english, finnish",
    [
        ({"tk": "0"}, "tk", "tk: an active unit has 1 TK or more, and at most its maximum", "tk: "),
        ({"xp": "lots"}, "xp", "xp: must be a whole number", "xp: "),
        ({"ti": "1d7"}, "ti", "ti: must be a dice expression like 1d6", "ti: "),
        ({"name": "Ryhmä 2"}, "name", "Another unit of the company is called Ryhmä 2.", "Ryhmä 2"),
        ({"role": "company_commander", "group": "0"}, "role", "another active unit holds this role", "role"),
        ({"reason": ""}, "reason", "Give a reason.", "Anna syy."),
        ({}, None, "Ryhmä 1: the edit changes nothing.", "Ryhmä 1"),
    ],
)
def test_a_bad_unit_edit_is_refused_beside_its_field_in_both_languages(
    gm_page, company, gm, changes, field, english, finnish
):
    unit = company.units["Ryhmä 1"]
    which = f"edit-{unit.number}"
    data = _form(gm_page, which, **{"reason": "GM", **changes})
    before = [(u.pk, u.tk, u.xp, u.name, u.role, u.ti) for u in models.Unit.objects.all()]
    response = gm_page.post(POST, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert english in html
    if field is not None:
        beside = html[html.index(f'name="{which}-{field}"') :]
        assert english in beside[:2000], "the message stands beside the field"
        assert f'name="{which}-{field}"' in html
    sent = form_fields(html, which)
    for key, value in changes.items():
        if key != "reason":
            assert sent[f"{which}-{key}"] == value, "what the GM typed is shown again"
    assert [(u.pk, u.tk, u.xp, u.name, u.role, u.ti) for u in models.Unit.objects.all()] == before
    assert not models.RosterEvent.objects.filter(kind="gm_edit").exists()
    finnish_page = login(gm, "fi").post(POST, data).content.decode()
    assert finnish in finnish_page and english not in finnish_page


def test_a_unit_edit_made_stale_by_a_change_since_is_refused_and_not_applied(gm_page, company):
    unit = company.units["Ryhmä 1"]
    which = f"edit-{unit.number}"
    data = _form(gm_page, which, tk="7", reason="GM")
    models.Unit.objects.filter(pk=unit.pk).update(tk=4)  # a battle result meanwhile
    response = gm_page.post(POST, data)
    assert response.status_code == 400
    assert "Ryhmä 1: tk is 4 now, not 10 as on your form; nothing was changed." in response.content.decode()
    assert models.Unit.objects.get(pk=unit.pk).tk == 4
    again = form_fields(response.content.decode(), which)
    assert again[f"{which}-tk"] == "7"
    assert gm_page.post(POST, again).status_code == 302, "sent again, knowing the 4, it applies"
    assert models.Unit.objects.get(pk=unit.pk).tk == 7


def test_a_change_since_to_another_field_does_not_block_the_edit_nor_get_undone(gm_page, company):
    unit = company.units["Ryhmä 1"]
    data = _form(gm_page, f"edit-{unit.number}", name="Ryhmä Ykkönen", reason="GM")
    models.Unit.objects.filter(pk=unit.pk).update(xp=9)
    assert gm_page.post(POST, data).status_code == 302
    row = models.Unit.objects.get(pk=unit.pk)
    assert (row.name, row.xp) == ("Ryhmä Ykkönen", 9)


def test_the_gm_gives_and_removes_veteran_abilities_and_their_order_is_kept(gm_page, company):
    unit = company.units["Ryhmä 1"]
    models.Unit.objects.filter(pk=unit.pk).update(xp=40, abilities=["tarkka_tuli", "maastoutuja"])
    which = f"edit-{unit.number}"
    untouched = _form(gm_page, which, tk="9", reason="GM")
    assert gm_page.post(POST, untouched).status_code == 302
    assert models.Unit.objects.get(pk=unit.pk).abilities == ["tarkka_tuli", "maastoutuja"], "order kept"
    ticked = _form(gm_page, which, abilities=["maastoutuja", "tarkka_tuli", "tiedustelija"], reason="GM")
    assert gm_page.post(POST, ticked).status_code == 302
    assert models.Unit.objects.get(pk=unit.pk).abilities == ["tarkka_tuli", "maastoutuja", "tiedustelija"]
    remove = _form(gm_page, f"remove-{unit.number}", ability="maastoutuja", reason="not earned")
    assert gm_page.post(POST, remove).status_code == 302
    assert models.Unit.objects.get(pk=unit.pk).abilities == ["tarkka_tuli", "tiedustelija"]
    last = _trail()[-1]
    assert (last.kind, last.after, last.reason) == (
        "gm_edit",
        {"abilities": ["tarkka_tuli", "tiedustelija"]},
        "not earned",
    )
    stale = gm_page.post(POST, remove)
    assert stale.status_code == 400 and "Ryhmä 1 does not have maastoutuja." in stale.content.decode()


def test_the_gm_restores_a_fallen_unit_and_a_bad_restore_keeps_it_fallen(gm_page, company, gm):
    unit = company.units["Ryhmä 2"]
    models.Unit.objects.filter(pk=unit.pk).update(status="destroyed", tk=0, fell={"turn": 1, "battle": "M1"})
    which = f"restore-{unit.number}"
    bad = gm_page.post(POST, _form(gm_page, which, tk="11", reason="clerical error"))
    assert bad.status_code == 400 and "tk: an active unit has 1 TK or more" in bad.content.decode()
    assert models.Unit.objects.get(pk=unit.pk).status == "destroyed"
    assert gm_page.post(POST, _form(gm_page, which, tk="5", reason="clerical error")).status_code == 302
    row = models.Unit.objects.get(pk=unit.pk)
    assert (row.status, row.tk, row.fell, row.region) == ("active", 5, None, "N5")
    assert _trail()[-1].after == {"status": "active", "tk": 5, "region": "N5"}


def test_a_form_for_a_unit_fallen_since_says_so_and_keeps_what_was_typed(gm_page, company):
    unit = company.units["Ryhmä 1"]
    which = f"edit-{unit.number}"
    data = _form(gm_page, which, xp="12", reason="GM")
    models.Unit.objects.filter(pk=unit.pk).update(status="destroyed", tk=0, fell={"turn": 1, "battle": "M1"})
    response = gm_page.post(POST, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Ryhmä 1 was destroyed." in html and "Your last form" in html
    assert form_fields(html, which)[f"{which}-xp"] == "12"
    assert models.Unit.objects.get(pk=unit.pk).xp == 0
