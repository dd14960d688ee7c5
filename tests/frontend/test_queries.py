"""Pages use a fixed number of queries, whatever the size of the map: the same ceiling on the demo's 26
regions and on a generated campaign of 900."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules.services import turn_process

# The campaign page: session, user, campaign, membership, turn, regions, nations, stacks in sight, orders,
# borders, relations (for the legal targets), the last turn, its reports and changes of hands (for the banner
# and the battle markers) (18); the GM dashboard: its turn inputs,
# relations, players, missed turns, audit log, whether there is a preview (17); a turn page: its reports,
# support rolls and §7.2 settlements.
CEILING = 18


def _pages(slug, turn_number):
    return [
        reverse("frontend:campaign", args=[slug]),
        reverse("frontend:turns", args=[slug]),
        reverse("frontend:turn", args=[slug, turn_number]),
    ]


def _gm_pages(slug, turn_number):
    return [
        reverse("frontend:gm", args=[slug]),
        reverse("frontend:gm_turn", args=[slug, turn_number]),
        reverse("frontend:gm_turn_status", args=[slug, turn_number]),
    ]


@pytest.mark.parametrize("who", ["player", "gm"])
def test_it_serves_the_demo_pages_in_a_fixed_number_of_queries(
    client, request, conquest_played, django_assert_max_num_queries, who
):
    client.force_login(request.getfixturevalue(who))
    pages = _pages("demo", 1) + (_gm_pages("demo", 1) if who == "gm" else [])
    for url in pages:
        with django_assert_max_num_queries(CEILING):
            assert client.get(url).status_code == 200, url


def test_it_serves_a_large_campaign_in_as_many_queries_as_the_demo(
    client, large_campaign, place_orders, django_assert_max_num_queries
):
    campaign, player, gm = large_campaign
    turn = campaign.turns.get(number=1)
    nation = player.memberships.get().nation
    origin = campaign.regions.filter(owner=nation).order_by("code").first()
    place_orders(turn, [(nation.code, "hold", origin.code, None, {"JV": 1})])
    assert turn_process(turn_id=turn.pk).status == "resolved"
    for user, pages in ((player, _pages("large", 1)), (gm, _pages("large", 1) + _gm_pages("large", 1))):
        client.force_login(user)
        for url in pages:
            with django_assert_max_num_queries(CEILING):
                assert client.get(url).status_code == 200, url
