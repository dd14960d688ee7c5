"""What every power of the GM shares: the check that the acting user runs the campaign, the error of an
input that cannot be accepted, and the audit log that records who changed what, when and why.

Every power takes the acting user as `by` and checks it first (PermissionDenied otherwise), so no page or
endpoint can forget it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied

from campaign.models import AuditEntry, Campaign, Membership, Nation, Region, Turn

User = AbstractBaseUser | AnonymousUser
Clock = Callable[[], datetime]


class GMInputError(ValueError):
    """A GM's input that cannot be accepted; `field` names the part at fault for the form."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def gm_check(*, by: User, campaign: Campaign) -> None:
    """Raise PermissionDenied unless the user runs this campaign."""
    if (
        not by.is_authenticated
        or not Membership.objects.filter(user=by, campaign=campaign, role=Membership.Role.GM).exists()
    ):
        raise PermissionDenied("only the campaign's game master may do this")


def open_check(turn: Turn) -> None:
    """The turn's inputs (deadline, weather, modifiers, processing) change only while it is open."""
    if turn.status != Turn.Status.OPEN:
        raise GMInputError("turn", f"turn {turn.number} is {turn.status}: its inputs are closed")


def same_campaign(campaign: Campaign, *, region: Region, nation: Nation) -> None:
    if region.campaign_id != campaign.pk:
        raise GMInputError("region", f"{region.code} is not in this campaign")
    if nation.campaign_id != campaign.pk:
        raise GMInputError("nation", f"{nation.code} is not in this campaign")


def audit_write(by: User, campaign: Campaign, action: str, summary: str, reason: str, now: Clock) -> None:
    """One line of the campaign's audit log; every GM-side change (pages, life cycle, history) writes here."""
    AuditEntry.objects.create(
        campaign=campaign,
        user=by if by.is_authenticated else None,
        created_at=now(),
        action=action,
        summary=summary[:300],
        reason=reason[:300],
    )
