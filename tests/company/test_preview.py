"""The GM's preview of a company turn (UX "Preview (dry run)"): the battles processing would assign on the
orders of now, with the turn's own dice, written nowhere; the GM's alone."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules.company import models
from rules.services import turn_process
from tests.company.conftest import attack_and_scout
from tests.company.test_pages import login

A = "/api/campaigns/demo"
WRITES = ("INSERT", "UPDATE", "DELETE")


@pytest.fixture
def ordered(company):
    return attack_and_scout(company)


def test_the_preview_is_what_processing_then_assigns_and_writes_nothing(clients, company, ordered):
    with CaptureQueriesContext(connection) as queries:
        response = clients["gm"].get(f"{A}/turns/1/company-preview/")
    assert response.status_code == 200
    writes = [q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(WRITES)]
    assert writes == [], "a preview stores nothing"
    assert not models.Battle.objects.exists()
    preview = response.json()
    [battle] = preview["battles"]
    u = company.units
    assert battle["key"] == "M1" and battle["kind"] == "normal" and battle["defender"] == "EST"
    assert battle["units"][str(u["Ryhmä 1"].number)]["name"] == "Ryhmä 1"
    ordered.refresh_from_db()
    assert ordered.status == "open"

    turn_process(turn_id=ordered.pk)
    created = models.Battle.objects.get(turn=ordered)
    assert (created.key, created.kind, created.data["sides"]) == (
        battle["key"],
        battle["kind"],
        battle["sides"],
    )
    assert sorted(created.data["units"]) == sorted(battle["units"])
    ordered.refresh_from_db()
    assert ordered.result["recon"] == preview["recon"], "the same dice: the turn's own stream"


@pytest.mark.parametrize(
    "role, code", [("gm", 200), ("player", 403), ("rival", 403), ("outsider", 404), ("anonymous", 401)]
)
def test_only_the_gm_previews_through_the_api(clients, ordered, role, code):
    assert clients[role].get(f"{A}/turns/1/company-preview/").status_code == code


@pytest.mark.parametrize("role, code", [("gm", 200), ("player", 403), ("rival", 403), ("outsider", 404)])
def test_only_the_gm_opens_the_preview_page(company, ordered, gm, player, rival, outsider, role, code):
    users = {"gm": gm, "player": player, "rival": rival, "outsider": outsider}
    response = login(users[role]).get("/c/demo/gm/turns/1/preview/")
    assert response.status_code == code
    if code == 200:
        page = response.content.decode()
        assert "Battle M1 (normal)" in page and "Ryhmä 1" in page and "Nothing of it is written" in page


def test_a_post_to_the_page_stores_no_preview_either(company, ordered, gm):
    from rules.models import TurnPreview

    client = login(gm)
    assert client.post("/c/demo/gm/turns/1/preview/").status_code == 302
    assert not TurnPreview.objects.exists() and not models.Battle.objects.exists()


def test_a_turn_waiting_for_its_battles_has_nothing_to_preview(clients, battle):
    response = clients["gm"].get(f"{A}/turns/1/company-preview/")
    assert response.status_code == 409 and response.json()["errors"][0]["code"] == "not_orders_phase"
