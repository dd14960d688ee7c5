"""Writes to the campaign's world: importing a scenario, opening turns, the demo campaign."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token

from campaign.models import Border, Campaign, Membership, Nation, Region, Relation, Stack, Turn, turn_seed
from campaign.scenario import Scenario
from campaign.sql import tables_analyze
from rules.engine.systems import DEFAULT_SYSTEM, system_get


def token_revoke(*, user) -> bool:
    """Revoke the user's API token; False when they had none. The next token is a new one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return deleted > 0


def token_renew(*, user) -> str:
    """A new API token for the user, the old one revoked: the key, to be shown to them once."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user).key


class ScenarioImportError(ValueError):
    """The scenario does not fit the campaign (for example the slug is taken)."""


def turn_create(*, campaign: Campaign, number: int, now: datetime | None = None) -> Turn:
    """Open turn `number`, with its seed derived from the campaign's (IRON_FIST.md §11)."""
    now = now or timezone.now()
    return Turn.objects.create(
        campaign=campaign,
        number=number,
        deadline=now + campaign.turn_length,
        status=Turn.Status.OPEN,
        seed=str(turn_seed(campaign_seed=campaign.seed, number=number)),
    )


@transaction.atomic
def scenario_import(
    *, scenario: Scenario, slug: str, name: str | None = None, now: Callable[[], datetime] = timezone.now
) -> Campaign:
    """Create campaign `slug` from a checked scenario, with turn 1 open. All or nothing."""
    if Campaign.objects.filter(slug=slug).exists():
        raise ScenarioImportError(f"--campaign: a campaign with the slug {slug!r} already exists")
    system = scenario.ruleset_overrides.get("battle_system", DEFAULT_SYSTEM)
    refused = map_refused(system, [r.code for r in scenario.regions])
    if refused:
        raise ScenarioImportError(
            f"{system} cannot use the region id {refused}: a region may not be gm or contain |"
        )
    campaign = Campaign(
        name=name or scenario.name,
        slug=slug,
        battle_system=scenario.ruleset_overrides.get("battle_system", DEFAULT_SYSTEM),
        ruleset_overrides={k: v for k, v in scenario.ruleset_overrides.items() if k != "battle_system"},
        seed=scenario.seed if scenario.seed is not None else secrets.randbits(63),
        status=Campaign.Status.ACTIVE,
    )
    campaign.full_clean()
    campaign.save()
    nations = Nation.objects.bulk_create(
        Nation(
            campaign=campaign,
            code=n.code,
            name=n.name,
            color=n.color,
            position=i,
            attributes=dict(n.attributes),
        )
        for i, n in enumerate(scenario.nations)
    )
    nation_ids = {n.code: n.pk for n in nations}
    regions = Region.objects.bulk_create(
        Region(
            campaign=campaign,
            code=r.code,
            name=r.name,
            terrain=r.terrain,
            fort=r.fort,
            home_id=nation_ids.get(r.home),
            owner_id=nation_ids.get(r.owner),
            geometry=dict(r.geometry),
        )
        for r in scenario.regions
    )
    region_ids = {r.code: r.pk for r in regions}
    Border.objects.bulk_create(
        Border(region_a_id=min(pair), region_b_id=max(pair))
        for pair in ((region_ids[a], region_ids[b]) for a, b in scenario.borders)
    )
    Relation.objects.bulk_create(
        Relation(nation_a_id=min(pair), nation_b_id=max(pair), kind=kind)
        for pair, kind in (((nation_ids[a], nation_ids[b]), kind) for a, b, kind in scenario.relations)
    )
    Stack.objects.bulk_create(
        Stack(nation_id=nation_ids[nation], region_id=region_ids[region], unit_type=unit_type, count=count)
        for region, nation, unit_type, count in scenario.units
    )
    turn_create(campaign=campaign, number=1, now=now())
    # A bulk load: the planner learns of the campaign once it is committed (campaign.sql.tables_analyze).
    transaction.on_commit(lambda: tables_analyze(Campaign, Nation, Region, Border, Relation, Stack, Turn))
    return campaign


def membership_set(
    *, campaign: Campaign, username: str, password: str | None, nation: Nation | None
) -> Membership:
    """Create or reset a user and make them a player of `nation`, or the GM when `nation` is None. A password
    of None leaves the user's as it is (a new user's then opens nothing until one is set)."""
    user_model = get_user_model()
    user, _ = user_model.objects.get_or_create(username=username)
    if password is not None:
        user.set_password(password)
        user.save()
    role = Membership.Role.GM if nation is None else Membership.Role.PLAYER
    membership, _ = Membership.objects.update_or_create(
        user=user, campaign=campaign, defaults={"role": role, "nation": nation}
    )
    return membership


def account_email_set(*, user: AbstractBaseUser, email: str) -> None:
    """The address reminders, results and password resets go to; empty: no mail."""
    user.email = email.strip()
    user.save(update_fields=["email"])


def map_refused(name: str, regions) -> str:
    """The region ids the system cannot use on its map (COMPANY.md §8.1: `gm`, or one with `|`), joined; empty
    when it takes them all or has no such rule."""
    check = system_get(name).extra.get("map_problems")
    return ", ".join(str(p.ref) for p in check(sorted(regions))) if check else ""
