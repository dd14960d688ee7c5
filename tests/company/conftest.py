"""A company campaign for the tests: the demo map with company_d20 rules, NOR (the player) facing EST (the
rival) across the border N5-M1, with named units on both sides."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from campaign.models import Campaign, Nation, Region, Stack


@dataclass
class World:
    campaign: Campaign
    nor: Nation
    est: Nation
    units: dict  # name -> company.models.Unit


@pytest.fixture
def company(demo, nations, regions, gm, player, rival, outsider) -> World:
    from rules.company.services import balances_ensure, roster_unit_create

    Campaign.objects.filter(pk=demo.pk).update(
        battle_system="company_d20", ruleset_overrides={"tp": {"starting": 30}}
    )
    demo.refresh_from_db()
    Stack.objects.filter(nation__campaign=demo).delete()
    Region.objects.filter(pk=regions["M1"].pk).update(owner=nations["EST"])
    balances_ensure(campaign=demo)
    nor, est = nations["NOR"], nations["EST"]
    units = {}
    for nation, name, kind, region, group in [
        (nor, "Päällikkö", "KOMP", "N5", 0),
        (nor, "Ryhmä 1", "JR", "N5", 1),
        (nor, "Ryhmä 2", "JR", "N5", 1),
        (nor, "Tiedustelu", "SISSI", "N5", 1),
        (est, "Chef", "KOMP", "M1", 0),
        (est, "Gruppe 1", "JR", "M1", 1),
        (est, "MG", "KK", "M1", 1),
    ]:
        units[name] = roster_unit_create(
            campaign=demo, nation=nation, type=kind, name=name, region=region, group=group, actor=gm
        )
    return World(demo, nor, est, units)


@pytest.fixture
def tracked(company) -> World:
    """`company` with the KP ledger turned on (COMPANY.md §9, `kp.tracking`)."""
    overrides = {**company.campaign.ruleset_overrides, "kp": {"tracking": True}}
    Campaign.objects.filter(pk=company.campaign.pk).update(ruleset_overrides=overrides)
    return company


def at(battle) -> str:
    """A company battle's address under its campaign: its table battle's, in its turn."""
    return f"turns/{battle.turn.number}/battles/{battle.table_id}"


def own_nation_and_gm(*, anonymous: int) -> list[tuple[str, int, int]]:
    """Who opens what belongs to a nation, (role, NOR's status, EST's status): the nation's own player and the
    GM, a 404 to everyone else; `anonymous`, what one not logged in gets (the API's 401, a page's 302)."""
    return [
        ("gm", 200, 200),
        ("player", 200, 404),
        ("rival", 404, 200),
        ("outsider", 404, 404),
        ("anonymous", anonymous, anonymous),
    ]


@pytest.fixture
def clients(company, gm, player, rival, outsider):
    from tests.api.conftest import client_for

    users = {"gm": gm, "player": player, "rival": rival, "outsider": outsider, "anonymous": None}
    return {role: client_for(user) for role, user in users.items()}


def attack_and_scout(world):
    """Turn 1's orders: NOR attacks M1 (EST) with two squads and scouts it; EST gives none."""
    from rules.company.services import orders_submit

    u = world.units
    turn = world.campaign.turns.get(number=1)
    squads = [u["Ryhmä 1"].number, u["Ryhmä 2"].number]
    orders = [
        {"kind": "attack", "from": "N5", "to": "M1", "units": squads},
        {"kind": "recon", "from": "N5", "to": "M1", "units": [u["Tiedustelu"].number]},
    ]
    assert orders_submit(turn=turn, nation=world.nor, orders=orders) == []
    return turn


@pytest.fixture
def battle(company, gm):
    """Turn 1 processed: NOR attacks M1 (EST) with two squads and scouts it; the battle awaits its result."""
    from rules.company import models
    from rules.services import turn_process

    turn = attack_and_scout(company)
    turn_process(turn_id=turn.pk)
    return models.Battle.objects.get(turn=turn, table__archived=False)


def result_final(battle, entry, gm):
    """The GM enters a version through the shared results entry: confirmed at once (COMPANY.md §5.2)."""
    from campaign.selectors import viewer_get
    from rules.company.results import company_result_save

    viewer = viewer_get(user=gm, campaign=battle.turn.campaign)
    version = company_result_save(viewer=viewer, battle=battle, entry=entry)
    assert version.state == "confirmed", "the GM's version is final as it is saved"
    return version
