"""The company pages and who may open them (COMPANY.md §11.2): the Kasarmi per nation, a battle with its
dice panel, and "verify the dice"; what a viewer may not see is a 404, as in the API."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from rules.company import models
from tests.company.conftest import at, own_nation_and_gm, result_final


def login(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def pages(company, gm, player, rival, outsider):
    return {
        "gm": login(gm),
        "player": login(player),
        "rival": login(rival),
        "outsider": login(outsider),
        "anonymous": login(None),
    }


@pytest.mark.parametrize("role, nor, est", own_nation_and_gm(anonymous=302))
def test_a_kasarmi_page_is_its_nations_and_the_gms(pages, role, nor, est):
    assert pages[role].get("/c/demo/kasarmi/NOR/").status_code == nor
    assert pages[role].get("/c/demo/kasarmi/EST/").status_code == est


def test_the_top_bar_leads_each_player_to_its_own_kasarmi(pages):
    assert pages["player"].get("/c/demo/kasarmi/").url == "/c/demo/kasarmi/NOR/"
    assert pages["rival"].get("/c/demo/kasarmi/").url == "/c/demo/kasarmi/EST/"
    assert 'href="/c/demo/kasarmi/"' in pages["player"].get("/c/demo/kasarmi/NOR/").content.decode()
    assert pages["outsider"].get("/c/demo/kasarmi/").status_code == 404


def test_the_kasarmi_shows_cards_a_table_costs_and_the_audit_trail(pages, company):
    models.Unit.objects.filter(pk=company.units["Ryhmä 1"].pk).update(tk=6)
    html = pages["player"].get("/c/demo/kasarmi/NOR/").content.decode()
    assert "Ryhmä 1" in html and "Chef" not in html, "the rival's units are not on the player's page"
    assert "Repair Ryhmä 1: +2 TK for 1 TP (balance after 29)" in html
    assert "Repair Ryhmä 1: +4 TK for 2 TP (balance after 28)" in html
    client = pages["player"]
    client.cookies["django_language"] = "fi"
    finnish = client.get("/c/demo/kasarmi/NOR/").content.decode()
    assert "Korjaa Ryhmä 1: +2 TK hintaan 1 TP (saldo jälkeen 29)" in finnish
    assert "Buy JR for 15 TP (balance after 15)" in html
    assert "unit created" in html and 'class="tk-bar' in html and "next TT at 10" in html
    assert "unit_created" not in html, "the trail names an event's kind in words, not by its code"
    assert "yksikkö luotu" in finnish


def test_a_player_buys_and_repairs_from_the_page_and_the_trail_names_them(pages, company, player):
    models.Unit.objects.filter(pk=company.units["Ryhmä 1"].pk).update(tk=6)
    client = pages["player"]
    client.post(
        "/c/demo/kasarmi/NOR/act/", {"action": "repair", "unit": company.units["Ryhmä 1"].number, "tp": 2}
    )
    client.post(
        "/c/demo/kasarmi/NOR/act/",
        {"action": "buy", "type": "KK", "group": "1", "name": "Konekivääri", "region": "N4"},
    )
    assert models.Unit.objects.get(pk=company.units["Ryhmä 1"].pk).tk == 10
    assert models.Unit.objects.filter(name="Konekivääri", nation=company.nor, type="KK").exists()
    assert models.Balance.objects.get(nation=company.nor).tp == 30 - 2 - 18
    kinds = list(models.RosterEvent.objects.filter(actor=player).values_list("kind", flat=True))
    assert kinds == ["tk_repaired", "tp_spent", "unit_purchased", "tp_spent"]
    assert pages["rival"].post("/c/demo/kasarmi/NOR/act/", {"action": "buy", "type": "KK"}).status_code == 404
    assert (
        pages["player"].post("/c/demo/kasarmi/NOR/act/", {"action": "adjust_tp", "delta": "9"}).status_code
        == 404
    )


def test_the_finnish_kasarmi_speaks_finnish_in_its_refusals(pages, company):
    client = pages["player"]
    client.cookies["django_language"] = "fi"
    page = client.post(
        "/c/demo/kasarmi/NOR/act/",
        {"action": "buy", "type": "JR", "group": "1", "name": "Ryhmä 1", "region": "N4"},
        follow=True,
    )
    assert "Komppanian toisen yksikön nimi on Ryhmä 1." in page.content.decode()


@pytest.mark.parametrize("role, code", [("gm", 200), ("player", 200), ("rival", 200), ("outsider", 404)])
def test_a_battle_page_is_its_sides_and_the_gms(pages, battle, role, code):
    assert pages[role].get(f"/c/demo/{at(battle)}/").status_code == code


def test_the_battle_page_says_its_kind_state_terrain_and_roles_in_words(pages, battle):
    """Issue on reports: words, never codes (`normal`, `open`, `proposed` were shown as stored)."""
    page = pages["player"].get(f"/c/demo/{at(battle)}/").content.decode()
    assert "Battle M1 (normal battle), turn 1" in page and "Status: Open" in page
    assert "NOR · attacker" in page and "EST · defender" in page and "M1: rough" in page


def test_a_roll_from_the_page_is_logged_and_shown_and_verified_when_final(pages, battle, company, gm):
    mg = company.units["MG"].number
    pages["rival"].post(
        f"/c/demo/{at(battle)}/",
        {"function": "morale", "unit": mg, "inputs": '{"reason": "indirect_fire"}'},
    )
    [roll] = models.DiceRoll.objects.filter(battle=battle)
    assert roll.requested_by.username == "rival" and roll.side == "EST" and roll.inputs["unit"] == mg
    page = pages["player"].get(f"/c/demo/{at(battle)}/").content.decode()
    assert f"d20={roll.dice[0][1]}" in page
    assert pages["player"].get(f"/c/demo/{at(battle)}/verify/").status_code == 404, "not before final"
    result_final(battle, {"units": [{"unit": int(u)} for u in battle.data["units"]]}, gm)
    verify = pages["player"].get(f"/c/demo/{at(battle)}/verify/").content.decode()
    assert "1 roll replayed: every die and every result matches." in verify
    assert ":1:M1" in verify
    report = pages["player"].get(f"/c/demo/{at(battle)}/").content.decode()
    assert "Battle report" in report and "0 + 0 = 0" in report


def test_each_player_gets_the_post_battle_mail_of_its_own_battles(
    battle, company, gm, player, rival, outsider, django_capture_on_commit_callbacks
):
    from django.core import mail

    for user in (gm, player, rival):
        user.email = f"{user.username}@example.org"
        user.save()
    u = company.units
    entry = {
        "units": [
            {"unit": int(n), "vp": 3 if int(n) == u["Ryhmä 1"].number else 0} for n in battle.data["units"]
        ]
    }
    with django_capture_on_commit_callbacks(execute=True):
        result_final(battle, entry, gm)
    by = {m.to[0]: m for m in mail.outbox}
    assert set(by) == {"gm@example.org", "player@example.org", "rival@example.org"}
    text = by["player@example.org"].body
    assert by["player@example.org"].subject == "[The Grenzwald Crisis] Turn 1 battles — Kingdom of Nordmark"
    assert "NOR: 3 VP × 1 = 3 TP" in text and "Battle M1" in text
    assert "/c/demo/kasarmi/NOR/" in text


def test_a_player_proposes_on_the_battle_page_the_rival_agrees_and_the_gm_confirms(pages, battle, company):
    url = f"/c/demo/{at(battle)}/"
    entry = json.dumps({"units": [{"unit": int(u), "vp": 1} for u in battle.data["units"]]})
    bad = (
        pages["player"].post(url, {"result": "save", "entry": '{"units": []}'}, follow=True).content.decode()
    )
    assert "No entry for" in bad and not battle.versions.exists(), "every §5.3 error shown, nothing saved"
    pages["player"].post(url, {"result": "save", "entry": entry})
    [version] = battle.versions.all()
    assert version.state == "proposed" and version.nation == company.nor
    assert "Agree with version 1" not in pages["player"].get(url).content.decode(), "its saver agrees"
    assert pages["outsider"].post(url, {"result": "agree"}).status_code == 404
    page = pages["rival"].get(url).content.decode()
    assert "Agree with version 1" in page and "Confirm version 1" not in page
    pages["rival"].post(url, {"result": "agree", "version": "1"})
    version.refresh_from_db()
    assert version.state == "agreed", "the GM confirms agreed versions by default (§5.2)"
    assert "Agree with version 1" not in pages["rival"].get(url).content.decode(), "agreed already"
    refused = pages["player"].post(url, {"result": "confirm", "version": "1"}, follow=True).content.decode()
    assert "Only the GM may do this." in refused
    battle.refresh_from_db()
    assert battle.status == "open"
    pages["gm"].post(url, {"result": "confirm", "version": "1"})
    battle.refresh_from_db()
    assert battle.status == "resolved" and battle.turn.status == "resolved"


def test_the_kasarmi_lists_the_nations_own_recon_contacts_and_the_targets_page_does_not(
    pages, battle, company
):
    [snapshot] = models.ReconSnapshot.objects.filter(viewer="NOR", region="M1")
    nor = pages["player"].get("/c/demo/kasarmi/NOR/").content.decode()
    est = pages["rival"].get("/c/demo/kasarmi/EST/").content.decode()
    assert "Recon contacts" in nor and "Recon contacts" not in est
    for unit, level in snapshot.levels.items():
        name = snapshot.units[unit]["name"]
        assert (name in nor) == (level == "observed"), f"{name} is {level}: named only when observed"


def test_the_kasarmi_and_the_battle_page_read_in_finnish(pages, battle, company):
    client = pages["player"]
    client.cookies["django_language"] = "fi"
    models.Unit.objects.filter(pk=company.units["Ryhmä 2"].pk).update(tk=8)
    html = client.get("/c/demo/kasarmi/NOR/").content.decode()
    assert "TP-saldo: 30" in html
    assert "Ei korjattavaa, tai TP ei riitä." in html, "the Kasarmi is closed while the battles are fought"
    assert "Historia ja muutosloki" in html and "History and audit trail" not in html
    page = client.get(f"/c/demo/{at(battle)}/").content.decode()
    assert "Noppaloki" in page and "Dice log" not in page


def test_a_player_gives_orders_from_its_kasarmi_and_a_bad_one_is_refused(pages, company):
    scout = company.units["Tiedustelu"].number
    client = pages["player"]
    client.post("/c/demo/kasarmi/NOR/orders/", {"kind": "recon", "from": "N5", "to": "M1", "units": [scout]})
    bad = client.post(
        "/c/demo/kasarmi/NOR/orders/",
        {"kind": "move", "from": "N5", "to": "M1", "units": [scout]},
        follow=True,
    )
    [orders] = models.OrderSet.objects.filter(nation=company.nor).values_list("orders", flat=True)
    assert orders == [{"nation": "NOR", "kind": "recon", "from": "N5", "to": "M1", "units": [scout]}]
    assert "#orders" in bad.redirect_chain[-1][0] and "recon N5 → M1" in bad.content.decode()
    assert pages["rival"].post("/c/demo/kasarmi/NOR/orders/", {"clear": "1"}).status_code == 404
    assert pages["gm"].post("/c/demo/kasarmi/NOR/orders/", {"clear": "1"}).status_code == 404
    client.post("/c/demo/kasarmi/NOR/orders/", {"clear": "1"})
    assert models.OrderSet.objects.get(nation=company.nor).orders == []


def test_a_new_battles_nations_and_the_gm_are_told_of_it_with_their_own_units_only(
    company, gm, player, rival, outsider, django_capture_on_commit_callbacks
):
    """COMPANY.md §4.5: "When a battle is created, its participants (the members of its nations) and the GM
    are notified." The rival's units stay on the sheet, behind recon."""
    from django.core import mail

    from campaign.lifecycle import language_set
    from rules.services import turn_process
    from tests.company.conftest import attack_and_scout

    for user in (gm, player, rival, outsider):
        user.email = f"{user.username}@example.org"
        user.save()
    language_set(user=rival, language="fi")
    turn = attack_and_scout(company)
    with django_capture_on_commit_callbacks(execute=True):
        turn_process(turn_id=turn.pk)
    by = {m.to[0]: m for m in mail.outbox}
    assert set(by) == {"gm@example.org", "player@example.org", "rival@example.org"}, "not the outsider"
    battle = models.Battle.objects.get(turn=turn, table__archived=False)
    mine = by["player@example.org"]
    assert mine.subject == "[The Grenzwald Crisis] Turn 1: battles to fight — Kingdom of Nordmark"
    assert "Battle M1" in mine.body and "EST defends" in mine.body
    assert f"/c/demo/{at(battle)}/" in mine.body
    assert "Ryhmä 1 (JR, TK" in mine.body, "the reader's own units in the battle"
    rivals = [u["name"] for u in battle.data["units"].values() if u["nation"] == "EST"]
    assert rivals and not any(name in mine.body for name in rivals), "no enemy unit in the mail"
    finnish = by["rival@example.org"]
    assert "käytävät taistelut" in finnish.subject and "Taistelulomake" in finnish.body, "in Finnish"


def test_the_gms_battle_list_says_where_each_result_stands(pages, battle, company, clients):
    """§11.2: the GM's list gives each battle's status: awaiting result, draft (approved by ...), disputed,
    final or void."""
    from campaign.models import Campaign

    A = "/api/campaigns/demo"
    overrides = {**company.campaign.ruleset_overrides, "turn": {"auto_complete": False}}
    Campaign.objects.filter(pk=company.campaign.pk).update(ruleset_overrides=overrides)

    def shown():
        return pages["gm"].get("/c/demo/kasarmi/NOR/").content.decode()

    assert "M1 (awaiting result)" in shown()
    entry = {"units": [{"unit": int(u)} for u in battle.data["units"]]}
    clients["player"].put(f"{A}/{at(battle)}/result/", entry, format="json")
    assert "M1 (draft, approved by NOR)" in shown()
    clients["rival"].post(f"{A}/{at(battle)}/result/dispute/", {"comment": "MG lost 2"}, format="json")
    assert "M1 (disputed by EST)" in shown()
    clients["gm"].post(f"{A}/{at(battle)}/void/", {"reason": "not played"}, format="json")
    assert "M1 (void)" in shown()


def test_the_buy_form_offers_the_companys_own_groups_and_a_new_one_beyond_them(pages, company):
    """§3.5: a group is any whole number; the form offers 0, every group the company has and the next one,
    where the type may stand (a platoon leader not in group 0, the HQ: `group_invalid`)."""
    import re

    models.Unit.objects.filter(pk=company.units["Ryhmä 2"].pk).update(group=5)
    html = pages["player"].get("/c/demo/kasarmi/NOR/").content.decode()
    offered = {
        re.search(r"<strong>(\w+)</strong>", form).group(1): re.findall(r"<option>(\d+)</option>", form)
        for form in re.findall(r'class="buy-form".*?</form>', html, re.S)
    }
    assert offered["JR"] == ["0", "1", "5", "6"], offered
    assert offered["JOJO"] == ["1", "5", "6"], offered
