"""The API's viewer: the member, the campaign, the nation and the turn in play, read in one statement
with the values the ORM would give (campaign.selectors.viewer_of, campaign.sql)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser

from campaign.models import Campaign, Membership, Turn
from campaign.selectors import viewer_of


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_it_reads_a_player_its_nation_and_the_turn_in_play_as_the_orm_does(
    demo, player, django_assert_num_queries
) -> None:
    demo.paused_remaining = demo.turn_length / 3  # a duration, a JSON field and dates to convert
    demo.ruleset_overrides = {"conquest_threshold": 12}
    demo.save()

    with django_assert_num_queries(1):
        viewer, turn = viewer_of(user=player, slug="demo")
        assert viewer.nation.code == "NOR" and turn.campaign is viewer.campaign

    assert fields(viewer.campaign) == fields(Campaign.objects.get(slug="demo"))
    assert fields(viewer.membership) == fields(Membership.objects.get(user=player))
    assert fields(viewer.nation) == fields(Membership.objects.get(user=player).nation)
    assert fields(turn) == fields(Turn.objects.get(campaign=demo, number=1))
    assert viewer.campaign.ruleset().conquest_threshold == 12


def test_the_gm_has_no_nation_and_a_finished_campaign_no_turn(demo, gm) -> None:
    Turn.objects.filter(campaign=demo).update(status=Turn.Status.RESOLVED)

    viewer, turn = viewer_of(user=gm, slug="demo")

    assert viewer.is_gm and viewer.nation is None and turn is None


def test_an_outsider_and_anonymous_are_nobody_in_the_campaign(demo, outsider) -> None:
    assert viewer_of(user=outsider, slug="demo") is None
    assert viewer_of(user=AnonymousUser(), slug="demo") is None
