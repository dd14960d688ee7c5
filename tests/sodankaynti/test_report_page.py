"""A player reads a Sodankäynti battle on the turn page: every pool, die and action with its doctrine rule,
in English and Finnish, and only the battles its nation fought (fog of war)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from orders.services import OrderDraft, order_submit
from rules.models import Report
from rules.services import turn_process


@pytest.fixture
def fought(sampo, sampo_turn, poh, kal):
    """Turn 1: POH attacks V2 from P2 by a bold doctrine; KAL lies in ambush facing P2."""
    order_submit(user=poh, turn=sampo_turn, draft=OrderDraft("attack", "P2", "V2", {"CAV": 3, "LEVY": 2}))
    params = {"doctrine": "bold", "params": {}}
    order_submit(user=poh, turn=sampo_turn, draft=OrderDraft("doctrine", "V2", None, {}, params))
    order_submit(user=kal, turn=sampo_turn, draft=OrderDraft("ambush", "V2", "P2", {}))
    processed = turn_process(turn_id=sampo_turn.pk)
    assert processed.status == "resolved", processed.error
    return Report.objects.get(turn=sampo_turn, region="V2").data


def _page(user, sampo, language="en"):
    client = Client(headers={"accept-language": language})
    client.force_login(user)
    url = reverse("frontend:turn", kwargs={"slug": sampo.slug, "number": 1})
    response = client.get(url)
    assert response.status_code == 200
    return re.sub(r"\s+", " ", response.content.decode())


def test_the_attacker_reads_the_battle_die_by_die_and_action_by_action(fought, poh, sampo):
    page = _page(poh, sampo)
    assert "Battle of V2" in page
    assert "bold" in page and "never retreats while it can act" in page, "the doctrine in one line"
    politics = fought["politics"]["pools"]["POH"]
    assert f"{' '.join(map(str, politics['dice']))} → {politics['successes']} successes" in page
    assert "ambush 3" in page, "the defender's ambush is in its tactics pool"
    units = {u["id"]: u for side in fought["sides"] for u in side["units"]}
    for unit_id, unit in units.items():
        value = fought["roll"].get(unit_id, "—")  # a die removed by politics is not rolled
        row = f'{unit["type"]} {unit["die"]}</th><td>{unit["origin"]}</td><td class="num">{value}</td>'
        assert row in page
    for action in fought["actions"]:
        rule = action["rule"]
        assert {
            "retreat_below": "retreat below",
            "finish": "finish:",
            "helpless": "helpless:",
            "no_action": "no action:",
            "sacrifice.first": "sacrifice first:",
            "sacrifice.when_needed": "sacrifice when needed:",
            "sacrifice.no_attack": "sacrifice: no attack",
            "attack.value": "attack by value:",
            "attack.count": "attack by count:",
        }[rule] in page
    assert "Result:" in page and "takes V2" in page


def test_a_finnish_reader_reads_it_in_finnish(fought, poh, sampo):
    page = _page(poh, sampo, "fi")
    assert "Politiikkaheitto" in page and "Taktiikkaheitto" in page
    assert "ei koskaan vetäydy" in page
    for english in ("successes", "never retreats", "The battle, action by action", "sat out"):
        assert english not in page


def test_an_outsider_sees_nothing_of_it_and_the_gm_sees_it(fought, sampo, django_user_model):
    from campaign.services import membership_set

    # A third reader with no nation in the battle: the GM sees it, an outsider not.
    outsider = django_user_model.objects.create_user(username="nobody", password="nobody-password-1")
    client = Client()
    client.force_login(outsider)
    response = client.get(reverse("frontend:turn", kwargs={"slug": sampo.slug, "number": 1}))
    assert response.status_code in (403, 404)
    gm = membership_set(campaign=sampo, username="gm2", password="gm2-password-1", nation=None).user
    assert "Battle of V2" in _page(gm, sampo)
