"""The permission matrix: every endpoint, read and write, for the GM, a player, a rival player, an outsider,
anonymous, and the GM of another campaign; objects of other nations and other campaigns asked for by id.

Each row names the status every role gets. A refused write must leave every order and turn as it was.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from campaign.models import Turn
from orders.models import Order
from rules.models import Report
from tests.api.conftest import ROLES, client_for
from tests.errors import said

# Who gets what, in the order of ROLES: gm, player, rival, outsider, anonymous, other_gm.
MEMBERS_READ = (200, 200, 200, 404, 401, 404)
GM_ONLY = (200, 403, 403, 404, 401, 404)

A = "/api/campaigns/demo"
B = "/api/campaigns/other"

# (method, path, body, statuses); {own}, {rival}, {other_order}, {nor_battle}, {est_battle} are filled in.
MATRIX = [
    ("get", "/api/campaigns/", None, (200, 200, 200, 200, 401, 200)),
    ("get", f"{A}/", None, MEMBERS_READ),
    ("get", f"{B}/", None, (404, 404, 404, 404, 401, 200)),
    ("get", f"{A}/regions/", None, MEMBERS_READ),
    ("get", f"{A}/regions/N5/", None, MEMBERS_READ),
    ("get", f"{A}/borders/", None, MEMBERS_READ),
    ("get", f"{A}/stacks/", None, MEMBERS_READ),
    ("get", f"{A}/turns/", None, MEMBERS_READ),
    ("get", f"{A}/turns/1/", None, MEMBERS_READ),
    ("get", f"{A}/turns/1/status/", None, GM_ONLY),
    ("get", f"{A}/turns/1/reports/", None, MEMBERS_READ),
    ("get", f"{A}/turns/1/reports/{{nor_battle}}/", None, (200, 200, 404, 404, 401, 404)),
    ("get", f"{A}/turns/1/reports/{{est_battle}}/", None, (200, 404, 200, 404, 401, 404)),
    ("get", f"{A}/orders/", None, MEMBERS_READ),
    ("get", f"{A}/orders/?turn=1", None, MEMBERS_READ),
    ("get", f"{A}/orders/{{own}}/", None, (200, 200, 404, 404, 401, 404)),
    ("get", f"{A}/orders/{{rival}}/", None, (200, 404, 200, 404, 401, 404)),
    # Another campaign's order, through this campaign's URL and through its own.
    ("get", f"{A}/orders/{{other_order}}/", None, (404, 404, 404, 404, 401, 404)),
    ("get", f"{B}/orders/{{other_order}}/", None, (404, 404, 404, 404, 401, 200)),
    ("get", f"{B}/stacks/", None, (404, 404, 404, 404, 401, 200)),
    ("get", f"{B}/turns/1/status/", None, (404, 404, 404, 404, 401, 200)),
    # Writes. The rival's POST names a region of NOR's: the rules refuse it (400), nothing is written.
    (
        "post",
        f"{A}/orders/",
        {"kind": "hold", "origin": "N2", "units": {"JV": 1}},
        (403, 201, 400, 404, 401, 404),
    ),
    ("patch", f"{A}/orders/{{own}}/", {"units": {"JV": 2}}, (403, 200, 404, 404, 401, 404)),
    (
        "put",
        f"{A}/orders/{{own}}/",
        {"kind": "hold", "origin": "N2", "units": {"JV": 2}},
        (403, 200, 404, 404, 401, 404),
    ),
    ("delete", f"{A}/orders/{{own}}/", None, (403, 204, 404, 404, 401, 404)),
    ("patch", f"{A}/orders/{{rival}}/", {"units": {"JV": 2}}, (403, 404, 200, 404, 401, 404)),
    ("delete", f"{A}/orders/{{rival}}/", None, (403, 404, 204, 404, 401, 404)),
    ("delete", f"{B}/orders/{{other_order}}/", None, (404, 404, 404, 404, 401, 403)),
    ("post", f"{A}/turns/2/process/", None, (202, 403, 403, 404, 401, 404)),
    ("post", f"{A}/turns/1/process/", None, (409, 403, 403, 404, 401, 404)),
    ("post", f"{A}/turns/1/retry/", None, (409, 403, 403, 404, 401, 404)),
    ("post", f"{B}/turns/1/process/", None, (404, 404, 404, 404, 401, 202)),
    # Invitations (issue 27): the GM's to make, list and revoke; anyone signed in accepts one, unless they
    # have a seat in the campaign already (409). SUD has no player in either campaign.
    ("get", f"{A}/invitations/", None, GM_ONLY),
    ("get", f"{B}/invitations/", None, (404, 404, 404, 404, 401, 200)),
    ("post", f"{A}/invitations/", {"nation": "SUD"}, (201, 403, 403, 404, 401, 404)),
    ("post", f"{B}/invitations/", {"nation": "SUD"}, (404, 404, 404, 404, 401, 201)),
    ("post", f"{A}/invitations/{{invite}}/revoke/", None, (200, 403, 403, 404, 401, 404)),
    # Another campaign's link, through this campaign's URL.
    ("post", f"{B}/invitations/{{invite}}/revoke/", None, (404, 404, 404, 404, 401, 404)),
    ("post", "/api/invitations/{invite_token}/accept/", None, (409, 409, 409, 200, 401, 200)),
]


@pytest.fixture
def invite(world, gm):
    """An open link to play SUD in the demo; the accept throttle's counts (in the cache) start afresh."""
    from django.core.cache import cache

    from campaign.invitations import invitation_create

    cache.clear()
    return invitation_create(by=gm, campaign=world.campaign, nation=world.campaign.nations.get(code="SUD"))


def snapshot() -> tuple:
    orders = sorted(Order.objects.values_list("id", "turn_id", "nation_id", "kind", "origin_id", "units"))
    turns = sorted(Turn.objects.values_list("id", "status"))
    return orders, turns


def battle_of(turn, nation_code: str, without: str) -> int:
    """The position of a battle of the turn that `nation_code` was in and `without` was not."""
    for report in Report.objects.filter(turn=turn).prefetch_related("nations").order_by("position"):
        codes = {n.code for n in report.nations.all()}
        if nation_code in codes and without not in codes:
            return report.position
    raise AssertionError(f"turn {turn.number} has no battle of {nation_code} without {without}")


@pytest.mark.parametrize(
    ("method", "path", "body", "statuses"), MATRIX, ids=[f"{m} {p}" for m, p, *_ in MATRIX]
)
def test_it_answers_each_role_as_the_matrix_says(
    world, clients, invite, method, path, body, statuses
) -> None:
    url = path.format(
        invite=invite.pk,
        invite_token=invite.token,
        own=world.own_order.pk,
        rival=world.rival_order.pk,
        other_order=world.other_order.pk,
        nor_battle=battle_of(world.resolved, "NOR", without="EST"),
        est_battle=battle_of(world.resolved, "EST", without="NOR"),
    )
    before = snapshot()
    answered = {}
    for role in ROLES:
        # Each role meets the same world: whatever one role's request wrote is rolled back.
        with transaction.atomic():
            response = getattr(clients[role], method)(url, body, format="json")
            answered[role] = response.status_code
            if response.status_code >= 400 or method == "get":
                assert snapshot() == before, f"{role}: a {response.status_code} changed something"
            transaction.set_rollback(True)

    assert answered == dict(zip(ROLES, statuses, strict=True))


def test_it_tells_an_anonymous_client_how_to_authenticate(world, clients) -> None:
    response = clients["anonymous"].get(f"{A}/orders/")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


def test_a_token_it_does_not_accept_is_a_401_in_drfs_words_under_a_campaign_too(world, player) -> None:
    # Under a campaign the token is read with the viewer (campaign.api.SeatTokenAuthentication).
    client = client_for(player)
    assert client.get(f"{A}/orders/").status_code == 200
    player.is_active = False
    player.save()
    for path in (f"{A}/orders/", "/api/campaigns/"):
        refused = client.get(path)
        assert refused.status_code == 401 and said(refused) == [
            (None, "authentication_failed", "User inactive or deleted.")
        ]
    client.credentials(HTTP_AUTHORIZATION="Token 0123456789abcdef")
    for path in (f"{A}/orders/", "/api/campaigns/"):
        refused = client.get(path)
        assert refused.status_code == 401 and said(refused) == [
            (None, "authentication_failed", "Invalid token.")
        ]


def test_a_session_still_finds_its_viewer_under_a_campaign(world, player) -> None:
    client = APIClient()
    client.force_login(player)  # the API browser's way in

    assert client.get(f"{A}/orders/").status_code == 200
    assert [o["nation"] for o in client.get(f"{A}/orders/").json()] == ["NOR"]
