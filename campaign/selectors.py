"""Reads for the pages and the API: who is looking, and what their nation may see (fog of war).

Permissions live here, in the querysets: every read for a user goes through a `Viewer`, so an object of
another nation is not reachable by id from any page or endpoint.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Exists, Q, QuerySet
from rest_framework.authtoken.models import Token

from campaign.models import Border, Campaign, Membership, Nation, Region, Stack, Turn
from campaign.sql import User, token_viewer_rows, viewer_rows
from orders.models import Order
from rules.models import Report


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
    # Two lookups by index: one query joining regions to stacks with OR walked the whole map.
    present = set(Region.objects.filter(owner=nation).values_list("id", flat=True))
    present.update(Stack.objects.filter(nation=nation, count__gt=0).values_list("region_id", flat=True))
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


def reports_visible(*, viewer: Viewer, turn: Turn) -> QuerySet[Report]:
    """Battle reports of the turn the viewer may read: all for the GM; for a player, the battles its
    nation fought in or supported (the report's nations). Never the turn's whole result."""
    reports = Report.objects.filter(turn=turn).order_by("position")
    if viewer.is_gm:
        return reports
    if viewer.nation is None:
        return reports.none()
    return reports.filter(reportnation__nation=viewer.nation)


def regions_changed_hands(*, turn: Turn) -> list[dict[str, str | None]]:
    """The public list of regions that changed hands in a resolved turn: region, from, to.

    Everyone in the campaign may read it (the map shows the owners anyway); it comes from the reports of
    conquests, which record the owner before the battle and after the turn. Only those keys of each
    report are read, not the whole report: its sides' every term made this most of the campaign page's
    time after a turn of 400 battles. (Its region is the report row's own column, written from the same
    key: each key read from the report unpacks the report again.)
    """
    changes: dict[str, dict[str, str | None]] = {}
    rows = (
        Report.objects.filter(turn=turn, conquest=True)
        .order_by("position")
        .values_list(
            "region",
            "data__owner_after",
            "data__defender",
            "data__sides__0__role",
            "data__sides__0__nations__0",
            "data__sides__1__role",
            "data__sides__1__nations__0",
        )
    )
    for region, after, defender, role_a, nation_a, role_b, nation_b in rows:
        # A report names its defender (an unopposed conquest, a company battle), or the one of its two
        # sides (rules.engine.seam.BattleCall) that defended names its nations, the defender first.
        if defender is None:
            defender = {role_a: nation_a, role_b: nation_b}.get("defender")
        before = changes.get(region, {}).get("from", defender)
        if after != before:
            changes[region] = {"region": region, "from": before, "to": after}
        else:
            changes.pop(region, None)
    return list(changes.values())


# --- For the REST API (campaign/api.py, orders/api.py, rules/api.py) --------------------------------------


def viewer_of(*, user: AbstractBaseUser | AnonymousUser, slug: str) -> tuple[Viewer, Turn | None] | None:
    """The user as a member of campaign `slug`, and the campaign's current turn (turn_current); None when
    the user is not in it. One plain statement: every API request under a campaign begins with it.

    The API answers 404 for None, so a campaign one does not play in looks like one that does not exist.
    """
    if not user.is_authenticated:
        return None
    found = viewer_rows(user_id=user.pk, slug=slug)
    return _seat(found, user) if found is not None else None


def token_viewer_of(*, key: str, slug: str) -> tuple[Token, tuple[Viewer, Turn | None] | None] | None:
    """The API token `key` (its user as `token.user`), and what viewer_of gives for that user in campaign
    `slug`, in one statement; None for a key that is no token. The token's authentication under a
    campaign (campaign.api.SeatTokenAuthentication) reads the two together."""
    found = token_viewer_rows(key=key, slug=slug)
    if found is None:
        return None
    token = found[Token]
    token.user = found[User]
    return token, _seat(found, token.user) if found[Membership] is not None else None


def _seat(found: dict, user: AbstractBaseUser) -> tuple[Viewer, Turn | None]:
    """The viewer and the turn in play from the instances campaign.sql read."""
    membership = found[Membership]
    membership.campaign, membership.nation = found[Campaign], found[Nation]
    turn = found[Turn]
    if turn is not None:
        turn.campaign = found[Campaign]
    return Viewer(campaign=found[Campaign], user=user, membership=membership), turn


def regions_of(*, campaign: Campaign) -> QuerySet[Region]:
    """The whole map: everyone in the campaign sees every region and its owner (only stacks are fogged)."""
    return Region.objects.filter(campaign=campaign).select_related("owner", "home").order_by("code")


def borders_of(*, campaign: Campaign) -> QuerySet[Border]:
    return (
        Border.objects.filter(region_a__campaign=campaign)
        .select_related("region_a", "region_b")
        .order_by("region_a__code", "region_b__code")
    )


def turns_of(*, campaign: Campaign) -> QuerySet[Turn]:
    return Turn.objects.filter(campaign=campaign).order_by("number")


def orders_visible(*, viewer: Viewer, turn: Turn | None = None) -> QuerySet[Order]:
    """Orders the viewer may read: the GM all of the campaign's; a player only its own nation's.

    Another nation's order is not in the queryset, so it is a 404 by id, never a 403 that confirms it.
    """
    orders = Order.objects.filter(turn__campaign=viewer.campaign).select_related(
        "turn", "nation", "origin", "target"
    )
    if turn is not None:
        orders = orders.filter(turn=turn)
    if viewer.is_gm:
        return orders.order_by("turn__number", "sequence")
    if viewer.nation is None:
        return orders.none()
    return orders.filter(nation=viewer.nation).order_by("turn__number", "sequence")


# A battle system whose orders are rows of its own adds its condition here, from its app's ready()
# (company_d20: an order set with at least one order, COMPANY.md §4.2).
ORDERS_GIVEN: list[Callable[..., Q]] = []


def orders_given_register(condition: Callable[..., Q]) -> None:
    """Add `condition(turn=, nation=) -> Q`: a nation gave orders in a system's own rows."""
    if condition not in ORDERS_GIVEN:
        ORDERS_GIVEN.append(condition)


def orders_given(*, turn, nation) -> Q:
    """Whether a nation gave orders for a turn, as a condition (turn and nation may be OuterRefs): an order
    row (Iron Fist and the systems on its orders), or what a system registered (`orders_given_register`).
    What counts as a missed turn, and what early processing waits for."""
    given = Q(Exists(Order.objects.filter(turn=turn, nation=nation)))
    for condition in ORDERS_GIVEN:
        given |= condition(turn=turn, nation=nation)
    return given
