"""Reads for the GM's pages, so that the views (frontend/views/gm/) parse, check, call and render only.

Each returns plain values or model instances already loaded; a view never builds a query.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q

from campaign.models import Campaign, Nation, Region, Turn
from campaign.selectors import Viewer, reports_visible
from rules.models import TurnPreview


def nations_list(*, campaign: Campaign) -> list[Nation]:
    """The campaign's nations in nation-id order, for the GM's forms."""
    return list(campaign.nations.all())


def nation_names(*, campaign: Campaign) -> dict[str, str]:
    """Code -> name of every nation of the campaign, for report cards."""
    return {n.code: n.name for n in campaign.nations.all()}


def nation_by_code(*, campaign: Campaign, code: str) -> Nation | None:
    return Nation.objects.filter(campaign=campaign, code=code).first()


def region_by_code(*, campaign: Campaign, code: str) -> Region | None:
    """The region the GM typed, in any case and with spaces around."""
    return Region.objects.filter(campaign=campaign, code=code.strip().upper()).first()


def user_by_name(*, username: str) -> AbstractBaseUser | None:
    return get_user_model().objects.filter(username=username).first()


def turn_by_number(*, campaign: Campaign, number: int) -> Turn | None:
    """A turn of the campaign, without its (large) result."""
    return Turn.objects.defer("result").filter(campaign=campaign, number=number).first()


def turn_last_resolved(*, campaign: Campaign) -> Turn | None:
    return (
        Turn.objects.filter(campaign=campaign, status=Turn.Status.RESOLVED)
        .defer("result")
        .order_by("-number")
        .first()
    )


def report_counts(*, viewer: Viewer, turn: Turn) -> dict[str, int]:
    """{"battles": n, "conquests": m} of the reports the viewer may read."""
    return reports_visible(viewer=viewer, turn=turn).aggregate(
        battles=Count("id"), conquests=Count("id", filter=Q(conquest=True))
    )


def report_rows(*, viewer: Viewer, turn: Turn) -> list[Any]:
    """The reports the viewer may read, in resolution order, loaded."""
    return list(reports_visible(viewer=viewer, turn=turn))


def turn_previewed(*, turn: Turn | None) -> bool:
    """Whether the GM has a dry run of the turn to look at again."""
    return turn is not None and TurnPreview.objects.filter(turn=turn).exists()
