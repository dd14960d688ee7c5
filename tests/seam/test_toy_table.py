"""A fifth, toy system's battle fought at the table: registered by the test through the registries alone
(its engine, its shell, its pages), its battle is a row of the one table-battle model, listed with every
table system's battles, at the one address of a table battle, its result entered through its own API
route there and agreed on its page, by the results workflow every table system shares. No product file
names it (tests/seam/test_system_names.py: a quoted key outside a system's own package fails)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

import pytest
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.utils import timezone
from rest_framework.response import Response

from campaign.models import Turn
from frontend.systems import ApiUrls, SystemPages, TableBattles, pages_register, pages_unregister
from rules import results_flow as flow
from rules.engine.seam import BattleCall, Pending
from rules.models import ResultVersion, TableBattle
from rules.system_shells import SystemShell, shell_register, shell_unregister
from rules.table_api import TableBattleScoped
from tests.api.conftest import client_for
from tests.seam.test_toy_api import _urlconf_again
from tests.seam.test_toy_system import registered

A = "/api/campaigns/demo"


def toy_table_fight(call: BattleCall) -> Pending:
    """Every battle is fought at the table."""
    return Pending(key=f"region:{call.label}")


class ToyTable(flow.Table):
    """The toy's battles for the results workflow: a result names the winner, one of the battle's nations;
    the GM's entry counts at once, the agreement of every nation confirms a player's."""

    def owner(self) -> dict[str, Any]:
        return {"battle": self.battle}

    def lock(self) -> Turn:
        return Turn.objects.select_for_update().get(pk=self.battle.turn_id)

    def nations(self) -> list[str]:
        return list(self.battle.nations)

    def place(self) -> str:
        return self.battle.key

    def check(self, viewer, turn, payload, fingerprint, now) -> list[str]:
        if payload.get("winner") not in self.battle.nations:
            raise flow.refuse("not_permitted", nations=", ".join(self.battle.nations), place=self.place())
        return []

    def entry_confirms(self, viewer, turn) -> bool:
        return viewer.is_gm

    def gm_confirms_agreed(self, turn) -> bool:
        return False

    def resolved(self, turn) -> bool:
        return self.battle.state == TableBattle.State.RESOLVED

    def changed(self, turn, now) -> None:
        confirmed = self.battle.versions.filter(state=ResultVersion.State.CONFIRMED).exists()
        self.battle.state = TableBattle.State.RESOLVED if confirmed else TableBattle.State.OPEN
        self.battle.save(update_fields=["state"])


def toy_battles_record(*, turn: Turn, state: Any, ruleset: Any, now: Any) -> None:
    """The turn's pending battles as table battles, with the nations their reports name."""
    reports = {r["key"]: r for r in turn.result["battles"]}
    for position, key in enumerate(turn.result["pending"]):
        TableBattle.objects.get_or_create(
            turn=turn,
            key=key,
            defaults={"kind": "toy", "position": position, "nations": reports[key]["nations"]},
        )


class ToyResult(TableBattleScoped):
    """The toy's own route under a table battle's address: a result entered."""

    def post(self, request, **route) -> Response:
        battle = self.table_battle_get()
        version = flow.result_save(
            ToyTable(battle),
            viewer=self.viewer,
            payload=dict(request.data),
            fingerprint="",
            now=timezone.now(),
        )
        return Response({"version": version.number, "state": version.state}, status=201)


def toy_page(request, viewer, battle) -> HttpResponse:
    """The toy battle's page: its versions, and an answer posted to it."""
    if request.method == "POST":
        version = battle.versions.get(number=int(request.POST["version"]))
        flow.result_agree(ToyTable(battle), viewer=viewer, version=version, now=timezone.now())
        return redirect(request.path)
    shown = ", ".join(f"v{v.number} {v.payload['winner']} {v.state}" for v in battle.versions.all())
    return HttpResponse(f"The toy battle of {battle.key}: {shown or 'no result yet'}")


@contextmanager
def toy_at_the_table():
    """The toy system with its battles at the table, registered as a system's package registers itself."""
    with registered("toy_table", toy_table_fight):
        shell_register("toy_table", SystemShell(battles_record=toy_battles_record))
        pages_register(
            SystemPages(
                "toy_table",
                table_battles=TableBattles(
                    page=toy_page,
                    detail=lambda viewer, battle, as_text=False: {
                        "toy": battle.key,
                        "nations": battle.nations,
                    },
                ),
                api_urls=ApiUrls(battle=(path("toy-result/", ToyResult.as_view(), name="toy-result"),)),
            )
        )
        _urlconf_again()
        try:
            yield
        finally:
            pages_unregister("toy_table")
            shell_unregister("toy_table")
            _urlconf_again()


@pytest.fixture
def toy_turn(demo, gm, player, karelian, rival, place_orders, django_capture_on_commit_callbacks):
    """NOR attacks KAR's K1 in a toy campaign: the turn waits for the battle, fought at the table."""
    from rules.services import turn_process

    with toy_at_the_table():
        demo.battle_system = "toy_table"
        demo.save(update_fields=["battle_system"])
        turn = demo.turns.get(number=1)
        place_orders(turn, [("NOR", "attack", "N3", "K1", {"JV": 2})])
        turn_process(turn_id=turn.pk)
        yield turn


def test_a_toy_table_battle_is_entered_through_the_api_and_agreed_on_its_page(
    toy_turn, gm, player, karelian, rival, client
) -> None:
    assert Turn.objects.get(pk=toy_turn.pk).status == Turn.Status.BATTLES_PENDING
    [listed] = client_for(player).get(f"{A}/turns/1/battles/").json()
    assert (listed["key"], listed["nations"], listed["state"], listed["result"]) == (
        "region:K1",
        ["NOR", "KAR"],
        "open",
        None,
    )
    at = f"turns/1/battles/{listed['id']}/"
    assert client_for(player).get(f"{A}/{at}").json() == {"toy": "region:K1", "nations": ["NOR", "KAR"]}

    entered = client_for(player).post(f"{A}/{at}toy-result/", {"winner": "NOR"}, format="json")
    assert entered.status_code == 201, entered.content
    assert entered.json() == {"version": 1, "state": "proposed"}
    client.force_login(karelian)
    assert "v1 NOR proposed" in client.get(f"/c/demo/{at}").content.decode()
    assert client.post(f"/c/demo/{at}", {"version": 1}).status_code == 302

    [listed] = client_for(gm).get(f"{A}/turns/1/battles/").json()
    assert (listed["state"], listed["result"]) == ("resolved", {"version": 1, "state": "confirmed"})
    assert "v1 NOR confirmed" in client.get(f"/c/demo/{at}").content.decode()
    page = client.get("/c/demo/turns/1/battles/").content.decode()
    assert f'href="/c/demo/{at}"' in page, "the one list links to the battle's address"


def test_a_nation_not_in_the_toy_battle_neither_sees_nor_enters_it(toy_turn, gm, rival, client) -> None:
    battle = TableBattle.objects.get(turn=toy_turn)
    at = f"turns/1/battles/{battle.pk}/"
    assert client_for(rival).get(f"{A}/turns/1/battles/").json() == []
    assert client_for(rival).get(f"{A}/{at}").status_code == 404
    assert client_for(rival).post(f"{A}/{at}toy-result/", {"winner": "NOR"}, format="json").status_code == 404
    client.force_login(rival)
    assert client.get(f"/c/demo/{at}").status_code == 404
    assert not battle.versions.exists()
