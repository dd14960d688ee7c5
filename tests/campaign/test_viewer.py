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


def test_a_token_reads_its_user_and_the_same_viewer_in_one_statement(
    demo, player, gm, outsider, django_assert_num_queries
) -> None:
    from rest_framework.authtoken.models import Token

    from campaign.selectors import token_viewer_of

    first = Turn.objects.get(campaign=demo, number=1)
    Turn.objects.filter(pk=first.pk).update(status=Turn.Status.RESOLVED)
    Turn.objects.create(campaign=demo, number=2, deadline=first.deadline)  # the turn in play: unresolved
    for user in (player, gm, outsider):
        key = Token.objects.create(user=user).key
        with django_assert_num_queries(1):
            token, seat = token_viewer_of(key=key, slug="demo")
        assert token.key == key and fields(token.user) == fields(type(user).objects.get(pk=user.pk))
        plain = viewer_of(user=user, slug="demo")
        if plain is None:
            assert seat is None
            continue
        (viewer, turn), (plain_viewer, plain_turn) = seat, plain
        assert fields(viewer.membership) == fields(plain_viewer.membership)
        assert fields(viewer.campaign) == fields(plain_viewer.campaign)
        assert (viewer.nation and fields(viewer.nation)) == (
            plain_viewer.nation and fields(plain_viewer.nation)
        )
        assert fields(turn) == fields(plain_turn) and turn.number == 2
        assert viewer.user is token.user and turn.campaign is viewer.campaign

    assert token_viewer_of(key="no-such-token", slug="demo") is None
    assert token_viewer_of(key=Token.objects.get(user=player).key, slug="no-such-campaign")[1] is None
