"""The GM's power over the roster: units by hand, and who plays a nation."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from campaign.gm.access import Clock, User, audit_write, gm_check, same_campaign
from campaign.models import Campaign, Membership, Nation, Region, Stack
from rules.engine.messages import InputError, Message


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
        raise InputError.of("unit_type", "unknown_unit_type", unit_type=unit_type)
    if count < 0:
        raise InputError.of("count", "count_negative")
    if not reason.strip():
        raise InputError.of("reason", "reason_required")
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
            Message(
                "audit.roster",
                {
                    "unit_type": unit_type,
                    "nation": nation.code,
                    "region": region.code,
                    "before": before,
                    "count": count,
                },
            ),
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
        raise InputError.of("nation", "not_in_campaign", code=nation.code)
    with transaction.atomic():
        other = Membership.objects.filter(campaign=campaign, user=user).exclude(nation=nation).first()
        if other is not None:
            if other.role == Membership.Role.GM:
                raise InputError.of("user", "user_runs", user=str(user))
            raise InputError.of("user", "user_plays", user=str(user), nation=other.nation.code)
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
        summary = Message(
            "audit.assigned_instead" if before else "audit.assigned",
            {"nation": nation.code, "user": str(user), "before": ", ".join(before)},
        )
        audit_write(by, campaign, "roster", summary, "", now)
    return membership
