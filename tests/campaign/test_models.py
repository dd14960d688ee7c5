"""The world's invariants hold in the database itself, whatever code writes to it."""

from __future__ import annotations

import hashlib

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from campaign.models import Border, Campaign, Membership, Region, Relation, Stack, Turn, turn_seed
from campaign.services import turn_create


def refused(create) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


def test_it_refuses_a_negative_stack(nations, regions):
    refused(
        lambda: Stack.objects.create(nation=nations["NOR"], region=regions["N3"], unit_type="PA", count=-1)
    )


def test_it_refuses_a_second_stack_of_one_type_for_one_nation_in_one_region(nations, regions):
    refused(
        lambda: Stack.objects.create(nation=nations["NOR"], region=regions["N1"], unit_type="JV", count=1)
    )


def test_it_refuses_a_border_twice_or_backwards(regions):
    a, b = sorted([regions["N1"], regions["N2"]], key=lambda r: r.pk)
    refused(lambda: Border.objects.create(region_a=a, region_b=b))
    refused(lambda: Border.objects.create(region_a=b, region_b=a))


def test_it_refuses_a_relation_twice(nations):
    a, b = sorted([nations["NOR"], nations["WES"]], key=lambda n: n.pk)
    refused(lambda: Relation.objects.create(nation_a=a, nation_b=b, kind="war"))


def test_it_refuses_a_fort_above_level_three_and_an_unknown_terrain(regions):
    refused(lambda: Region.objects.filter(pk=regions["N1"].pk).update(fort=4))
    refused(lambda: Region.objects.filter(pk=regions["N1"].pk).update(terrain="swamp"))


def test_it_refuses_two_turns_in_play_at_once(demo):
    refused(lambda: turn_create(campaign=demo, number=2))


def test_it_refuses_a_gm_with_a_nation_and_a_player_without_one(demo, nations, outsider):
    refused(lambda: Membership.objects.create(user=outsider, campaign=demo, role="gm", nation=nations["NOR"]))
    refused(lambda: Membership.objects.create(user=outsider, campaign=demo, role="player", nation=None))


def test_it_gives_the_cast_their_roles(gm, player, rival, outsider, demo):
    assert Membership.objects.get(user=gm, campaign=demo).role == Membership.Role.GM
    assert Membership.objects.get(user=player).nation.code == "NOR"
    assert Membership.objects.get(user=rival).nation.code == "EST"
    assert not Membership.objects.filter(user=outsider).exists()


def test_it_checks_ruleset_overrides_against_the_engine(db):
    campaign = Campaign(name="Bad", slug="bad", seed=1, ruleset_overrides={"conquest_threshold": -1})
    with pytest.raises(ValidationError) as error:
        campaign.full_clean()
    assert "conquest_threshold" in str(error.value.message_dict["ruleset_overrides"])
    Campaign(name="Good", slug="good", seed=1, ruleset_overrides={"kta_die": None}).full_clean()


def test_it_derives_the_turn_seed_from_the_first_8_bytes_of_sha256():
    expected = int.from_bytes(hashlib.sha256(b"1939:4").digest()[:8], "big")
    assert turn_seed(campaign_seed=1939, number=4) == expected


def test_it_keeps_turn_seeds_beyond_a_signed_64_bit_integer_exactly(demo):
    big = next(n for n in range(2, 100) if turn_seed(campaign_seed=demo.seed, number=n) >= 2**63)
    Turn.objects.filter(campaign=demo).update(status="resolved")
    stored = turn_create(campaign=demo, number=big)
    stored.refresh_from_db()
    assert stored.seed_value == turn_seed(campaign_seed=demo.seed, number=big)


def test_it_checks_unit_types_against_the_campaigns_ruleset(nations, regions):
    stack = Stack(nation=nations["NOR"], region=regions["N3"], unit_type="XX", count=1)
    with pytest.raises(ValidationError, match="not a unit type of this campaign's ruleset"):
        stack.full_clean()
    stack.unit_type = "TY"
    stack.full_clean()


def test_it_refuses_a_nation_of_another_campaign(demo, regions, db):
    from campaign.scenario import scenario_parse
    from campaign.services import scenario_import
    from tests.campaign.test_scenario import SMALL

    other = scenario_import(scenario=scenario_parse(SMALL), slug="other").nations.get(code="RED")
    region = regions["N1"]
    region.owner = other
    with pytest.raises(ValidationError, match="plays in another campaign"):
        region.full_clean()
    with pytest.raises(ValidationError, match="plays in another campaign"):
        Stack(nation=other, region=regions["N3"], unit_type="JV", count=1).full_clean()


def test_it_checks_the_weather_of_each_region(demo):
    turn = demo.turns.get()
    turn.region_weather = {"N1": "snow"}
    turn.full_clean()
    turn.region_weather = {"N1": "fog"}
    with pytest.raises(ValidationError, match="N1: expected one of clear, rain, snow, storm"):
        turn.full_clean()
    turn.region_weather = {"Q9": "snow"}
    with pytest.raises(ValidationError, match="Q9: not a region of this campaign"):
        turn.full_clean()
