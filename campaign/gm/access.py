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

from campaign.messages import said_in, status_word
from campaign.models import AuditEntry, Campaign, Membership, Nation, Region, Turn
from rules.engine.messages import InputError, Message

User = AbstractBaseUser | AnonymousUser
Clock = Callable[[], datetime]


# The one error class of the services (order entry raises it too): the field at fault and a Message.
GMInputError = InputError


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
        raise InputError.of("turn", "inputs_closed", number=turn.number, status=status_word(turn.status))


def fixable_check(turn: Turn) -> None:
    """What decides how the turn is resolved (its battle system, a system's inputs) changes while the turn
    is open, and after processing failed, so that the GM can fix what failed it, then retry."""
    if turn.status not in (Turn.Status.OPEN, Turn.Status.FAILED):
        raise InputError.of("turn", "inputs_closed", number=turn.number, status=status_word(turn.status))


def same_campaign(campaign: Campaign, *, region: Region, nation: Nation) -> None:
    if region.campaign_id != campaign.pk:
        raise InputError.of("region", "not_in_campaign", code=region.code)
    if nation.campaign_id != campaign.pk:
        raise InputError.of("nation", "not_in_campaign", code=nation.code)


def audit_write(by: User, campaign: Campaign, action: str, summary: Message, reason: str, now: Clock) -> None:
    """One line of the campaign's audit log; every GM-side change (pages, life cycle, history) writes here.

    The summary is kept as its code and parameters, shown in the reader's language; `summary` holds it in
    English too, for the admin and for exports."""
    AuditEntry.objects.create(
        campaign=campaign,
        user=by if by.is_authenticated else None,
        created_at=now(),
        action=action,
        summary=said_in("en", summary)[:300],
        code=summary.code,
        params=summary.to_dict()["params"],
        reason=reason[:300],
    )
