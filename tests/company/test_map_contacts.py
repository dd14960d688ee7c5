"""Recon contacts on the campaign page's map and its table view (COMPANY.md §10.1, §10.3), as on the API's
map: the viewer's own units by type, another nation's only through its own valid snapshot, each unit at its
own level and never more, and nothing once the snapshot is older than `recon.duration`."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from rules.company import models

A = "/api/campaigns/demo"


def login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _page(user) -> str:
    """The campaign page's map and its table view, together."""
    client = login(user)
    return client.get("/c/demo/").content.decode() + client.get("/c/demo/?view=table").content.decode()


def _region_texts(html: str, code: str) -> str:
    """The map's counters of one region and its row of the table view."""
    svg = re.search(rf'<g class="region[^"]*" id="region-{code}".*?</g>', html, re.S)
    row = re.search(rf'<tr id="row-{code}">.*?</tr>', html, re.S)
    return (svg.group(0) if svg else "") + (row.group(0) if row else "")


@pytest.fixture
def levels(battle, company):
    """The snapshot NOR's scout made of M1 in turn 1, with one unit at each level (set for the test)."""
    from rules.company.mapping import unit_of
    from rules.company.services import company_ruleset
    from rules.engine.company_d20.recon import unit_card

    [snapshot] = models.ReconSnapshot.objects.filter(viewer="NOR", region="M1")
    ruleset = company_ruleset(company.campaign)
    rows = models.Unit.objects.filter(nation=company.est).order_by("number")
    snapshot.units = {str(r.number): unit_card(unit_of(r, "EST"), ruleset) for r in rows}
    ids = sorted(snapshot.units, key=int)
    snapshot.levels = dict(zip(ids, ["observed", "known", "suspicion"], strict=True))
    snapshot.save()
    return {level: snapshot.units[u] for u, level in snapshot.levels.items()}


def test_the_map_and_table_show_each_contact_at_its_level_and_no_more(battle, company, player, levels):
    html = _page(player)
    m1 = _region_texts(html, "M1")
    observed, known, suspected = levels["observed"], levels["known"], levels["suspicion"]
    assert f"{observed['name']} ({observed['type']} TK {observed['tk']}/{observed['tk_max']})" in m1
    assert "?" in m1 and "seen in turn 1" in m1
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)  # a random token may spell "MG"
    assert known["name"] not in text and suspected["name"] not in text, "known and suspected: never named"
    assert known["type"] in m1
    n5 = _region_texts(html, "N5")
    assert "KOMP" in n5 and "JR" in n5, "the viewer's own units by type"
    api = login(player).get(f"{A}/map/").json()
    contact = next(r for r in api if r["id"] == "M1")["contacts"]
    assert [o["name"] for o in contact["observed"]] == [observed["name"]]
    assert contact["known"] == [{"type": known["type"]}] and contact["suspected"] is True


def test_the_scouted_nation_and_a_third_see_no_trace_of_the_recon(battle, company, rival, levels):
    html = _page(rival)
    assert "seen in turn" not in html
    assert 'class="stack"' not in _region_texts(html, "N5"), "NOR's units are not on EST's map"
    assert "KOMP" in _region_texts(html, "M1"), "EST's own units, by type"


def test_a_contact_older_than_the_recon_duration_is_no_longer_shown(battle, company, player, levels):
    assert "seen in turn 1" in _page(player)
    turn = company.campaign.turns.order_by("-number").first()
    assert turn.number == 1
    type(turn).objects.filter(pk=turn.pk).update(number=2)
    assert "seen in turn 1" in _page(player), "valid through turn N + recon.duration"
    type(turn).objects.filter(pk=turn.pk).update(number=3)  # and not one turn longer
    html = _page(player)
    assert "seen in turn" not in html and f"{levels['observed']['name']} (" not in html
    assert all(r["contacts"] is None for r in login(player).get(f"{A}/map/").json())


def test_the_gm_map_shows_every_nations_units(battle, company, gm):
    html = _page(gm)
    assert "KOMP" in _region_texts(html, "N5") and "KK" in _region_texts(html, "M1")


def test_the_campaign_page_sends_a_company_player_to_the_kasarmi_not_to_stack_orders(company, player, gm):
    html = login(player).get("/c/demo/").content.decode()
    assert 'href="/c/demo/kasarmi/NOR/"' in html and "Open the Kasarmi" in html
    assert "no units left to give orders to" not in html, "the company's units are not stacks"
    assert 'id="roster"' not in html and "Save order" not in html
    finnish = login(player)
    finnish.cookies["django_language"] = "fi"
    assert "Avaa Kasarmi" in finnish.get("/c/demo/").content.decode()
    assert "Open the Kasarmi" not in login(gm).get("/c/demo/").content.decode(), "the GM has no company"
