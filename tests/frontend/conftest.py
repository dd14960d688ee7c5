"""The cast for the page tests: the shared demo cast, a second campaign with its own GM, a resolved turn."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaign.generate import scenario_generate
from campaign.scenario import scenario_parse
from campaign.services import membership_set, scenario_import


def demo_url(name, *args) -> str:
    """The address of the demo campaign's page "frontend:<name>", `args` after the campaign's slug."""
    return reverse(f"frontend:{name}", args=["demo", *args])


@pytest.fixture
def other_campaign(db):
    """Campaign B, run by another GM: nobody of the demo is in it."""
    campaign = scenario_import(
        scenario=scenario_parse(scenario_generate(regions=20, nations=2, seed=3)), slug="b"
    )
    membership_set(campaign=campaign, username="gm-b", password="gm-b-password-1", nation=None)
    return campaign


@pytest.fixture
def other_gm(other_campaign):
    return other_campaign.memberships.get(role="gm").user


@pytest.fixture
def as_gm(client, gm):
    """The test client logged in as the GM."""
    client.force_login(gm)
    return client


@pytest.fixture
def as_player(client, player):
    """The test client logged in as the player (NOR)."""
    client.force_login(player)
    return client


@pytest.fixture
def turn1(demo):
    return demo.turns.get(number=1)


@pytest.fixture
def conquest_played(demo, turn1, player, rival, gm, place_orders):
    """Turn 1 resolved: NOR attacked the empty M2 from N5 and took it; turn 2 is open."""
    from rules.services import turn_process

    place_orders(turn1, [("NOR", "attack", "N5", "M2", {"JV": 4, "PA": 3})])
    turn = turn_process(turn_id=turn1.pk)
    assert turn.status == "resolved", turn.error
    return turn


@pytest.fixture
def large_campaign(db):
    """A generated campaign of 900 regions, with a player of its first nation and a GM."""
    campaign = scenario_import(
        scenario=scenario_parse(scenario_generate(regions=900, nations=12, seed=7)), slug="large"
    )
    nation = campaign.nations.order_by("position").first()
    player = membership_set(
        campaign=campaign, username="large-player", password="pw-large-1", nation=nation
    ).user
    gm = membership_set(campaign=campaign, username="large-gm", password="pw-large-gm-1", nation=None).user
    return campaign, player, gm
