"""The Kasarmi's cards and table show every stat of a unit's record (COMPANY.md §3.1) and the values derived
from it (§3.3), computed from the record as it stands; the page prints without its forms."""

from __future__ import annotations

import re

from django.test import Client

from rules.company import models


def test_the_table_has_every_stat_and_the_derived_values(company, player):
    unit = company.units["Ryhmä 1"]
    models.Unit.objects.filter(pk=unit.pk).update(tk=4, xp=45, abilities=["tarkka_tuli"])
    client = Client()
    client.force_login(player)
    html = client.get("/c/demo/kasarmi/NOR/").content.decode()
    table = re.search(r'<table class="grid roster-table">.*?</table>', html, re.S).group(0)
    for heading in ("Role", "TK", "M", "K", "XP", "TT", "L", "S", "H", "TI", "Veteran slots", "Abilities"):
        assert f"<th>{heading}</th>" in table
    row = re.search(rf"<tr><td>{unit.number}</td>.*?</tr>", table, re.S).group(0)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    # 4 of 10 is damaged: L halved to 7.5; TT = K 1 + ⌊45/10⌋ = 5; slots ⌊45/20⌋ = 2, one held, 1 free.
    assert cells[5].startswith("4/10") and "damaged" in cells[5]
    assert (cells[9], cells[10], cells[14]) == ("5", "7.5", "2 (1)")
    assert "tarkka_tuli" in cells[15] and "fire_direction" in cells[15]
    card = html[html.index(f'id="unit-{unit.number}"') :]
    assert "veteran slots 2 (1 free)" in card[:3000] and "TT 5" in card[:3000]


def test_the_print_stylesheet_leaves_out_forms_and_keeps_cards_and_table(client):
    from django.contrib.staticfiles import finders

    css = open(finders.find("frontend/company.css"), encoding="utf-8").read()
    media = css[css.index("@media print") :]
    assert "form" in media and ".no-print" in media and "break-inside:avoid" in media
    assert ".scroll{overflow:visible}" in media, "the wide table is not clipped on paper"


def test_with_its_commander_fallen_a_nation_appoints_a_platoon_leader_from_the_page(company, gm, player):
    """§7.5: the Kasarmi offers each platoon leader who may take the command, and only then."""
    from rules.company.services import roster_unit_create

    leader = roster_unit_create(
        campaign=company.campaign,
        nation=company.nor,
        type="JOJO",
        name="Jojo",
        region="N5",
        group=1,
        actor=gm,
    )
    client = Client()
    client.force_login(player)
    assert "appoint-form" not in client.get("/c/demo/kasarmi/NOR/").content.decode(), "NOR has its commander"
    models.Unit.objects.filter(pk=company.units["Päällikkö"].pk).update(status="destroyed", tk=0)
    html = client.get("/c/demo/kasarmi/NOR/").content.decode()
    assert "appoint-form" in html and "Jojo (platoon 1) takes command in group 0" in html
    client.post("/c/demo/kasarmi/NOR/act/", {"action": "appoint_commander", "unit": leader.number})
    leader.refresh_from_db()
    assert (leader.role, leader.group) == ("company_commander", 0)
    assert "appoint-form" not in client.get("/c/demo/kasarmi/NOR/").content.decode()
