"""A system's own kind of order comes from its registry entry alone: a toy system that declares `muster`
(naming no units) takes it through the API, its turn reads it through the system's own turn inputs, and
no product file names it; a campaign of another system refuses it, listing its own kinds."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import contextmanager
from typing import Any

import pytest

from campaign.models import Turn
from rules.engine.systems import IRON_FIST_KINDS, BattleSystem, Policies, system_register, system_unregister
from tests.api.conftest import client_for
from tests.seam.test_toy_system import ruleset_of, toy_fight

A = "/api/campaigns/demo"
MUSTER = {"kind": "muster", "origin": "N3", "target": "K1", "units": {}}


def musters(world: Any, ruleset: Any, turn_input: Any, orders: list[Any]) -> Mapping[str, Any]:
    """The toy's turn inputs: each nation's bonus is how many musters it ordered."""
    bonus: dict[str, int] = {}
    for order in orders:
        if order.kind == "muster":
            bonus[order.nation] = bonus.get(order.nation, 0) + 1
    return {"bonus": bonus}


@contextmanager
def mustering():
    system_register(
        BattleSystem(
            name="muster_toy",
            ruleset_build=ruleset_of("muster_toy"),
            fight=toy_fight,
            policies=Policies(support_from_range=False, support_losses=False),
            kinds=(*IRON_FIST_KINDS, "muster"),
            unitless_kinds=frozenset({"muster"}),
            inputs_prepare=musters,
        )
    )
    try:
        yield
    finally:
        system_unregister("muster_toy")


@pytest.fixture
def muster_toy():
    with mustering():
        yield


def test_a_systems_own_kind_is_taken_and_read_by_its_turn(
    muster_toy, demo, gm, player, django_capture_on_commit_callbacks
) -> None:
    demo.battle_system = "muster_toy"
    demo.save(update_fields=["battle_system"])
    api = client_for(player)
    attack = {"kind": "attack", "origin": "N3", "target": "K1", "units": {"JV": 2}}

    assert api.post(f"{A}/orders/", attack, format="json").status_code == 201
    for _ in range(3):  # NOR's 2 JV and 3 musters against KAR's 4 units: NOR wins, 5 to 4
        mustered = api.post(f"{A}/orders/", MUSTER, format="json")
        assert mustered.status_code == 201, mustered.content
    assert mustered.json()["kind"] == "muster" and mustered.json()["units"] == {}
    with django_capture_on_commit_callbacks(execute=True):
        assert client_for(gm).post(f"{A}/turns/1/process/").status_code == 202

    assert demo.turns.get(number=1).status == Turn.Status.RESOLVED
    listed = api.get(f"{A}/turns/1/reports/").json()
    battle = api.get(next(r for r in listed if r["region"] == "K1")["url"]).json()["data"]
    assert battle["winner"] == "NOR"


def test_another_systems_campaign_refuses_the_kind_listing_its_own(muster_toy, demo, player) -> None:
    response = client_for(player).post(f"{A}/orders/", {**MUSTER, "units": {"JV": 1}}, format="json")

    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == ("kind", "unknown_order_kind_of")
    assert error["params"]["kinds"] == ", ".join(IRON_FIST_KINDS)
