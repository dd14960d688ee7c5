"""The GM's power over the roster: units by hand, and who plays a nation."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaign.gm.access import Clock, GMInputError, User, audit_write, gm_check, same_campaign
from campaign.models import Campaign, Membership, Nation, Region, Stack


def roster_change(
    *,
    by: User,
    region: Region,
    nation: Nation,
    unit_type: str,
    count: int,
    reason: str,
    now: Clock = timezone.now,
) -> Stack:
    """Set a stack's count by hand (a correction, reinforcements); the reason is required."""
    campaign = region.campaign
    gm_check(by=by, campaign=campaign)
    same_campaign(campaign, region=region, nation=nation)
    if unit_type not in campaign.ruleset().unit_types:
        raise GMInputError("unit_type", f"unknown unit type {unit_type!r}")
    if count < 0:
        raise GMInputError("count", "a count cannot be negative")
    if not reason.strip():
        raise GMInputError("reason", "say why: the players will ask")
    with transaction.atomic():
        stack, created = Stack.objects.select_for_update().get_or_create(
            region=region, nation=nation, unit_type=unit_type, defaults={"count": count}
        )
        before = 0 if created else stack.count
        if not created:
            stack.count = count
            stack.save(update_fields=["count"])
        audit_write(
            by,
            campaign,
            "roster",
            f"{unit_type} of {nation.code} in {region.code}: {before} → {count}",
            reason,
            now,
        )
    return stack


def nation_assign(
    *, campaign: Campaign, nation: Nation, user: AbstractBaseUser, by: User, now: Clock = timezone.now
) -> Membership:
    """Make `user` the player of `nation`, in place of its players; this ends its civil disorder."""
    gm_check(by=by, campaign=campaign)
    if nation.campaign_id != campaign.pk:
        raise GMInputError("nation", f"{nation.code} is not in this campaign")
    with transaction.atomic():
        other = Membership.objects.filter(campaign=campaign, user=user).exclude(nation=nation).first()
        if other is not None:
            role = "runs" if other.role == Membership.Role.GM else f"plays {other.nation.code} in"
            raise GMInputError("user", f"{user} already {role} this campaign")
        before = list(
            Membership.objects.filter(nation=nation)
            .exclude(user=user)
            .values_list("user__username", flat=True)
        )
        Membership.objects.filter(nation=nation).exclude(user=user).delete()
        membership, _ = Membership.objects.get_or_create(
            campaign=campaign, user=user, defaults={"role": Membership.Role.PLAYER, "nation": nation}
        )
        Nation.objects.filter(pk=nation.pk).update(civil_disorder=False, turns_missed_in_row=0)
        nation.civil_disorder, nation.turns_missed_in_row = False, 0
        summary = f"{nation.code}: played by {user}" + (f" in place of {', '.join(before)}" if before else "")
        audit_write(by, campaign, "roster", summary, "", now)
    return membership
