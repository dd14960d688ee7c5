"""The API's cast: the shared users of tests/conftest.py with tokens, plus a second campaign and its GM.

`world` is the demo campaign after a busy first turn (battle reports exist) with turn 2 open and one
order each from the player (NOR) and the rival (EST); campaign "other" is a second copy of the demo,
run by another GM, with a player of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from campaign.models import Campaign, Turn
from orders.models import Order
from orders.services import OrderDraft, order_submit
from rules.services import turn_process
from tests.campaign.test_turn_processing import ORDERS

# Turn 1 of the demo: NOR occupies M1 (its only battle); KAR and EST meet between K4 and E2; SUD attacks
# EST in E4; WES and SUD occupy M4 together. NOR fights in none of EST's battles.
TURN_1 = ORDERS[:6]  # the busy first turn of the processing tests, without its stand-down and rejected order

ROLES = ("gm", "player", "rival", "outsider", "anonymous", "other_gm")


@dataclass
class World:
    campaign: Campaign
    other: Campaign
    resolved: Turn
    open: Turn
    own_order: Order  # the player's (NOR), turn 2
    rival_order: Order  # the rival's (EST), turn 2
    other_order: Order  # a player's in the other campaign


def client_for(user) -> APIClient:
    """A client that authenticates with the user's token, as scripts do; anonymous without one."""
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def other(db):
    from campaign.scenario import scenario_read
    from campaign.services import scenario_import
    from tests.conftest import DEMO

    return scenario_import(scenario=scenario_read(DEMO), slug="other", name="Another Crisis")


@pytest.fixture
def other_gm(other):
    from campaign.services import membership_set

    return membership_set(
        campaign=other, username="other-gm", password="other-gm-password-1", nation=None
    ).user


@pytest.fixture
def other_player(other):
    from campaign.services import membership_set

    nation = other.nations.get(code="NOR")
    return membership_set(
        campaign=other, username="other-player", password="other-player-1", nation=nation
    ).user


@pytest.fixture
def world(demo, other, gm, player, rival, outsider, other_gm, other_player, place_orders) -> World:
    first = demo.turns.get(number=1)
    place_orders(first, TURN_1)
    resolved = turn_process(turn_id=first.pk)
    assert resolved is not None and resolved.status == Turn.Status.RESOLVED, resolved and resolved.error
    second = demo.turns.get(number=2)
    own = order_submit(user=player, turn=second, draft=OrderDraft("hold", "N2", None, {"JV": 1}))
    rival_order = order_submit(user=rival, turn=second, draft=OrderDraft("hold", "E1", None, {"JV": 1}))
    other_order = order_submit(
        user=other_player,
        turn=other.turns.get(number=1),
        draft=OrderDraft("attack", "N5", "M2", {"JV": 2}),
    )
    return World(demo, other, resolved, second, own, rival_order, other_order)


@pytest.fixture
def clients(gm, player, rival, outsider, other_gm) -> dict[str, APIClient]:
    users = {"gm": gm, "player": player, "rival": rival, "outsider": outsider, "other_gm": other_gm}
    return {role: client_for(users.get(role)) for role in ROLES}
