"""The GM's preview with hypothetical results, as a page and through the API (TABLETOP.md A10.1 (b)): the
GM's alone; a player gets 403, an outsider 404; nothing is written."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.lifecycle import language_set
from rules.models import ResultVersion
from tests.api.conftest import client_for

NOR_WINS = {"winner": "NOR", "decisive": True, "losses": {"NOR": {"JV": 1}, "KAR": {"JV": 3, "PA": 1}}}


def _page(turn) -> str:
    return reverse("frontend:gm_battles_preview", args=[turn.campaign.slug, turn.number])


def _api(turn) -> str:
    return reverse("api:battles-preview", kwargs={"slug": turn.campaign.slug, "number": turn.number})


def _logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _form(**fields) -> dict:
    """The form with K1 set to NOR's decisive win (losses NOR JV 1, KAR JV 3 PA 1)."""
    key = "region:K1"
    data = {
        "battle": key,
        f"nations-{key}": ["NOR", "KAR"],
        f"mode-{key}": "result",
        f"winner-{key}": "NOR",
        f"decisive-{key}": "1",
        f"loss-{key}-NOR-JV": "1",
        f"loss-{key}-KAR-JV": "3",
        f"loss-{key}-KAR-PA": "1",
    }
    return {**data, **fields}


def test_it_shows_the_gm_the_turn_completed_with_the_typed_result(tabletop_turn, gm) -> None:
    response = _logged_in(gm).get(_page(tabletop_turn), _form())
    assert response.status_code == 200
    page = response.content.decode()
    assert "The turn completes: 1 battle." in page
    assert "Kaarnala: Karelian Republic → Kingdom of Nordmark" in page
    assert 'name="mode-region:K1" value="result" checked' in page, "the form keeps what the GM typed"


def test_without_a_typed_result_the_battle_is_auto_resolved(tabletop_turn, gm) -> None:
    page = _logged_in(gm).get(_page(tabletop_turn)).content.decode()
    assert "The turn completes: 1 battle." in page
    assert 'name="mode-region:K1" value="auto" checked' in page


def test_a_wrong_result_is_shown_with_its_code_beside_its_battle(tabletop_turn, gm) -> None:
    response = _logged_in(gm).get(_page(tabletop_turn), _form(**{"loss-region:K1-NOR-JV": "x"}))
    assert response.status_code == 200
    assert "losses_not_whole:NOR:JV" in response.content.decode()


def test_it_speaks_finnish_to_a_finnish_gm(tabletop_turn, gm) -> None:
    language_set(user=gm, language="fi")
    client = _logged_in(gm)
    client.cookies["django_language"] = "fi"
    page = client.get(_page(tabletop_turn), _form(), HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Vuoro päättyy: 1 taistelu." in page and "oletetuilla tuloksilla" in page


@pytest.mark.parametrize("who", ["player", "karelian"])
def test_a_player_may_not_preview(tabletop_turn, who, request) -> None:
    user = request.getfixturevalue(who)
    assert _logged_in(user).get(_page(tabletop_turn), _form()).status_code == 403
    assert client_for(user).post(_api(tabletop_turn), {"hypotheses": {}}, format="json").status_code == 403


def test_an_outsider_finds_no_such_campaign(tabletop_turn, outsider) -> None:
    assert _logged_in(outsider).get(_page(tabletop_turn)).status_code == 404
    assert client_for(outsider).post(_api(tabletop_turn), {}, format="json").status_code in (403, 404)


def test_the_page_and_the_api_write_nothing(tabletop_turn, gm) -> None:
    client, api = _logged_in(gm), client_for(gm)
    with CaptureQueriesContext(connection) as queries:
        client.get(_page(tabletop_turn), _form())
        api.post(_api(tabletop_turn), {"hypotheses": {"region:K1": NOR_WINS}}, format="json")
    # The session and the login stamp are the client's own; the turn's world must not change.
    tables = ("rules_", "campaign_", "orders_")
    writes = [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().split(" ", 1)[0] in ("INSERT", "UPDATE", "DELETE")
        and any(f'"{t}' in q["sql"] for t in tables)
    ]
    assert writes == []
    assert ResultVersion.objects.count() == 0
    tabletop_turn.refresh_from_db()
    assert tabletop_turn.status == "battles_pending"


def test_the_api_gives_the_outcome_with_the_hypothetical_result(tabletop_turn, gm) -> None:
    response = client_for(gm).post(
        _api(tabletop_turn), {"hypotheses": {"region:K1": NOR_WINS}}, format="json"
    )
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["complete"] is True and data["auto_resolved"] == []
    assert {"region": "K1", "before": "KAR", "after": "NOR"} in data["owners_changed"]
    assert [b["key"] for b in data["battles"]] == ["region:K1"]


def test_the_api_reports_a_wrong_result_and_a_wrong_body(tabletop_turn, gm) -> None:
    api = client_for(gm)
    wrong = {**NOR_WINS, "decisive": None}
    data = api.post(_api(tabletop_turn), {"hypotheses": {"region:K1": wrong}}, format="json").json()
    assert [e["code"] for e in data["errors"]["region:K1"]] == ["decisive_missing"]
    assert data["auto_resolved"] == ["region:K1"]
    refused = api.post(_api(tabletop_turn), {"hypotheses": ["region:K1"]}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "hypotheses_shape"


def test_the_api_says_when_the_turn_is_not_waiting_for_battles(demo, gm) -> None:
    turn = demo.turns.get(number=1)
    response = client_for(gm).post(_api(turn), {"hypotheses": {}}, format="json")
    assert response.status_code == 409
    assert response.json()["errors"][0]["code"] == "tabletop.preview_not_pending"


def test_anonymous_is_sent_to_log_in(tabletop_turn) -> None:
    response = Client().get(_page(tabletop_turn))
    assert response.status_code == 302 and response["Location"].startswith(reverse("frontend:login"))
    assert client_for(None).post(_api(tabletop_turn), {}, format="json").status_code in (401, 403)
