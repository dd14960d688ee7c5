"""Why a result version is in its state is a message (rules.results_flow `decision`): it reads in the
reader's language on the battle's page, in English through the API; the GM's own words stay as typed; and
the English sentences stored before decisions were kept become their codes (migration 0011)."""

from __future__ import annotations

import importlib

import pytest
from django.test import Client
from django.urls import reverse

from campaign.selectors import viewer_get
from rules.engine.messages import CATALOGUE, Message
from rules.models import TableBattle
from rules.tabletop import battles
from tests.conftest import tabletop_result

migration = importlib.import_module("rules.migrations.0011_result_decision")


def _viewer(user, campaign):
    return viewer_get(user=user, campaign=campaign)


@pytest.fixture
def disputed(tabletop_turn, demo, player, karelian):
    """NOR's result of K1, disputed by KAR."""
    battle = TableBattle.objects.get(turn=tabletop_turn, key="region:K1")
    version = battles.battle_result_save(
        viewer=_viewer(player, demo), battle=battle, result=tabletop_result(battle)
    )
    battles.battle_result_dispute(viewer=_viewer(karelian, demo), version=version, comment="K1 had a fort")
    return version


def _page(user, version, language: str) -> str:
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    battle = version.battle
    url = reverse("frontend:battle", args=[battle.turn.campaign.slug, battle.turn.number, battle.pk])
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_gm_s_confirmation_reads_in_finnish_on_the_battle_page(disputed, demo, gm, player) -> None:
    battles.battle_result_confirm(viewer=_viewer(gm, demo), version=disputed)
    disputed.refresh_from_db()
    assert disputed.decision["code"] == "results.decided.confirmed_not_agreed_disputed"
    assert str(disputed.reason_message()) == "confirmed by the GM; not agreed by KAR; disputed by KAR"
    finnish = _page(player, disputed, "fi")
    assert "pelinjohtaja vahvisti; eivät hyväksyneet: KAR; kiistivät: KAR" in finnish
    # The version's state and origin, the answers and the battle's state are words too.
    assert "Versio 1: vahvistettu" in finnish and "pelaaja · NOR" in finnish
    assert "NOR: hyväksyy" in finnish and "KAR: kiistää" in finnish and ">ratkaistu<" in finnish
    assert "confirmed by the GM; not agreed by KAR; disputed by KAR" in _page(player, disputed, "en")


def test_a_void_keeps_the_gm_s_own_words_and_drops_an_earlier_decision(disputed, demo, gm, player) -> None:
    disputed.decision = {"code": "results.decided.forces_changed", "params": {}}
    disputed.save(update_fields=["decision"])
    battles.battle_result_void(viewer=_viewer(gm, demo), version=disputed, reason="väärä linnoitus")
    disputed.refresh_from_db()
    assert (disputed.decision, disputed.reason_message()) == (None, "väärä linnoitus")
    assert "väärä linnoitus" in _page(player, disputed, "fi")


# What the workflow wrote before it kept decisions, and what each became.
STORED_BEFORE = [
    ("entered by the GM", "entered_by_gm", {}),
    ("agreed by every nation of the battle", "agreed_by_all", {}),
    ("confirmed by the GM", "confirmed_by_gm", {}),
    ("confirmed by the GM; not agreed by EST", "confirmed_not_agreed", {"missing": ["EST"], "disputed": []}),
    ("confirmed by the GM; disputed by KAR", "confirmed_disputed", {"missing": [], "disputed": ["KAR"]}),
    (
        "confirmed by the GM; not agreed by A, B; disputed by C",
        "confirmed_not_agreed_disputed",
        {"missing": ["A", "B"], "disputed": ["C"]},
    ),
    ("confirmed at the deadline", "confirmed_at_deadline", {}),
    ("archived at the deadline: not agreed", "not_agreed_at_deadline", {}),
    ("auto-resolved at the deadline: no agreed result", "auto_resolved_at_deadline", {}),
    ("auto-resolved by the GM", "auto_resolved_by_gm", {}),
    ("auto-resolved by the GM: nobody came", "auto_resolved_by_gm_why", {"why": "nobody came"}),
    ("reopened: MG's TK was wrong", "reopened", {"why": "MG's TK was wrong"}),
    ("battle void: rain", "battle_void", {"why": "rain"}),
    ("forces changed", "forces_changed", {}),
    ("battle no longer exists", "battle_gone", {}),
    ("replayed from the campaign's export", "replayed", {}),
    (
        "carried over: version 2 of the result rolled back at 2026-11-30 18:05 UTC",
        "carried_over",
        {"number": 2, "archived_at": "2026-11-30 18:05"},
    ),
]


@pytest.mark.parametrize(("sentence", "code", "params"), STORED_BEFORE)
def test_a_sentence_stored_before_becomes_its_code_and_reads_the_same(sentence, code, params) -> None:
    assert migration._decision(sentence) == (code, params)
    stored = Message("results.decided." + code, params)
    assert stored.code in CATALOGUE
    assert str(stored) == sentence


def test_a_gm_s_own_words_stay_as_they_were_typed() -> None:
    assert migration._decision("the dice rolled off the table") is None


def test_the_battle_list_names_each_battle_s_kind_and_state_in_finnish(disputed, gm) -> None:
    client = Client(headers={"accept-language": "fi"})
    client.force_login(gm)
    turn = disputed.battle.turn
    page = client.get(reverse("frontend:battles", args=[turn.campaign.slug, turn.number])).content.decode()
    assert "<td>taistelu</td>" in page and "<td>normal</td>" not in page
    assert ">avoin<" in page and "versio 1: kiistetty" in page
