"""What the campaign page takes from the map it has loaded instead of asking again
(frontend.selectors.own_stacks_shown) against the plain query (own_stacks)."""

from __future__ import annotations

import pytest

from campaign.selectors import viewer_of
from frontend.selectors import map_load, own_stacks, own_stacks_shown


@pytest.mark.parametrize("fog", [True, False])
def test_the_own_stacks_on_the_map_are_the_nations_stacks(large_campaign, fog) -> None:
    campaign, player, _gm = large_campaign
    campaign.fog_of_war = fog
    campaign.save(update_fields=["fog_of_war"])
    viewer, turn = viewer_of(user=player, slug=campaign.slug)
    nation = viewer.nation
    # A stack of none of a type is no stack: neither says it.
    region = campaign.regions.filter(owner=nation).order_by("code").first()
    nation.stacks.update_or_create(region=region, unit_type="IV", defaults={"count": 0})
    data = map_load(viewer=viewer, turn=turn, unit_order=list(campaign.ruleset().unit_types))
    shown = own_stacks_shown(data=data, nation=nation.code)
    assert shown and shown == dict(own_stacks(nation=nation))
