"""Reads for the pages and the API: who is looking, and what their nation may see (fog of war).

Permissions live here, in the querysets: every read for a user goes through a `Viewer`, so an object of
another nation is not reachable by id from any page or endpoint.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from campaign.models import Border, Campaign, Membership, Nation, Region, Stack, Turn


@dataclass(frozen=True)
class Viewer:
    """A user looking at one campaign: its GM, a player of one nation, or nobody of it."""

    campaign: Campaign
    user: AbstractBaseUser | AnonymousUser
    membership: Membership | None

    @property
    def is_gm(self) -> bool:
        return self.membership is not None and self.membership.role == Membership.Role.GM

    @property
    def nation(self) -> Nation | None:
        return self.membership.nation if self.membership is not None else None

    @property
    def is_member(self) -> bool:
        return self.membership is not None


def campaigns_of(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Campaign]:
    """The campaigns the user plays in or runs."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=user).distinct().order_by("name")


def viewer_get(*, user: AbstractBaseUser | AnonymousUser, campaign: Campaign) -> Viewer:
    membership = None
    if user.is_authenticated:
        membership = Membership.objects.select_related("nation").filter(user=user, campaign=campaign).first()
    return Viewer(campaign=campaign, user=user, membership=membership)


def turn_current(*, campaign: Campaign) -> Turn | None:
    """The turn orders go to: the campaign's one unresolved turn."""
    return campaign.turns.exclude(status=Turn.Status.RESOLVED).order_by("-number").first()


def visible_region_ids(*, viewer: Viewer) -> set[int] | None:
    """Regions whose stacks the viewer may see; None means all of them (the GM, or no fog of war).

    A player sees stacks in and next to every region its nation owns or has units in (UX.md, issue 4).
    """
    if viewer.is_gm or not viewer.campaign.fog_of_war:
        return None
    nation = viewer.nation
    if nation is None:
        return set()
    present = set(
        Region.objects.filter(campaign=viewer.campaign)
        .filter(Q(owner=nation) | Q(stacks__nation=nation, stacks__count__gt=0))
        .values_list("id", flat=True)
    )
    seen = set(present)
    for a, b in Border.objects.filter(Q(region_a_id__in=present) | Q(region_b_id__in=present)).values_list(
        "region_a_id", "region_b_id"
    ):
        seen.add(a)
        seen.add(b)
    return seen


def stacks_visible(*, viewer: Viewer) -> QuerySet[Stack]:
    """The stacks the viewer may see: everything for the GM; for a player its own and those in sight."""
    stacks = Stack.objects.filter(region__campaign=viewer.campaign, count__gt=0).select_related(
        "nation", "region"
    )
    if not viewer.is_member:
        return stacks.none()
    regions = visible_region_ids(viewer=viewer)
    if regions is None:
        return stacks
    return stacks.filter(Q(nation=viewer.nation) | Q(region_id__in=regions))
