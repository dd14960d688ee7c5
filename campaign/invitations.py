"""Invitations: a link per nation that lets a friend of the GM play it, made and revoked by the GM and
accepted by whoever opens it first with an account of their own (issue 27).

A link is single use, expires after the days the GM gives (DAYS_DEFAULT, at most DAYS_MAX), and can be
revoked while open. Accepting makes the user the nation's player (a Membership), once: two accepts of one
link at once find the link's row locked, and the second finds it used; two links of one nation accepted at
once meet at the nation's row, and the second finds the nation taken. Each step writes the audit log.

What a link that cannot be used says, and its kind (rules.engine.messages.ErrorKind, the API's status):
    invitation_unknown         404  no link like it (a guess, a typo)
    invitation_used            410  someone accepted it
    invitation_expired         410  its days ran out
    invitation_revoked         410  the GM took it back
    invitation_campaign_ended  410  the campaign is over
    invitation_user_plays      409  the user already plays a nation of the campaign
    invitation_user_runs       409  the user is the campaign's GM
    invitation_nation_taken    409  the nation has a player (replacing one is a later step: nation_assign)

and the GM's: a link for a nation with a player (409, invitation_nation_played), more than
OPEN_PER_NATION_MAX open links for one nation (409), days out of bounds (400), revoking a link not open
(409).

A nation may start without a player: a link is never required. Rate limits are the edge's
(campaign.throttles).
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone

from campaign.gm.access import Clock, User, audit_write, gm_check
from campaign.models import Campaign, Invitation, Membership, Nation
from campaign.queue import task_queue
from rules.engine.messages import (
    ErrorKind,
    Fault,
    InputError,
    Message,
    Refusal,
    gettext_noop,
    kinds_register,
    messages_register,
)

# How long a link stays open, in days: the GM's choice, within these.
DAYS_DEFAULT = 7
DAYS_MIN, DAYS_MAX = 1, 30
# Open links a nation may have at once: enough for every friend the GM asks, not a table that only grows.
OPEN_PER_NATION_MAX = 10
# The mail that carries a link (frontend.tasks), queued by name once the link is made.
SEND_INVITATION = "frontend.tasks.send_invitation"

PREFIX = "invitation."
messages_register(
    {
        "unknown": gettext_noop("No invitation has this link: check that it was copied whole."),
        "used": gettext_noop("This invitation link has been used: ask the game master for a new one."),
        "expired": gettext_noop(
            "This invitation link expired on {until} UTC: ask the game master for a new one."
        ),
        "revoked": gettext_noop("The game master revoked this invitation link."),
        "campaign_ended": gettext_noop("The campaign {campaign} has ended: it takes no new players."),
        "user_plays": gettext_noop("You already play {nation} in this campaign."),
        "user_runs": gettext_noop("You run this campaign: its game master plays no nation."),
        "nation_taken": gettext_noop(
            "{nation} already has a player. The game master can replace a player: ask them."
        ),
        "nation_played": gettext_noop(
            "{nation} already has a player: to replace them, use “Assign a player” on the dashboard"
        ),
        "days_range": gettext_noop("between {least} and {most} days"),
        "too_many": gettext_noop("{nation} has {count} open links already: revoke one first"),
        "not_open": gettext_noop("invitation link {id} is {state} already"),
        "state.used": gettext_noop("used"),
        "state.expired": gettext_noop("expired"),
        "state.revoked": gettext_noop("revoked"),
    },
    prefix=PREFIX,
)
messages_register(
    {
        "audit.invited": gettext_noop("{nation}: invitation link {id} made, open until {until} UTC"),
        "audit.invited_mailed": gettext_noop(
            "{nation}: invitation link {id} made and sent to {email}, open until {until} UTC"
        ),
        "audit.invitation_revoked": gettext_noop("{nation}: invitation link {id} revoked"),
        "audit.invitation_accepted": gettext_noop("{nation}: played by {user}, through invitation link {id}"),
    }
)
kinds_register(ErrorKind.NOT_VISIBLE, ["unknown"], prefix=PREFIX)
kinds_register(ErrorKind.GONE, ["used", "expired", "revoked", "campaign_ended"], prefix=PREFIX)
kinds_register(
    ErrorKind.CONFLICT,
    ["user_plays", "user_runs", "nation_taken", "nation_played", "too_many", "not_open"],
    prefix=PREFIX,
)


def refusal(field: str | None, code: str, /, **params: Any) -> Refusal:
    """A refused invitation step: the envelope's code `invitation_<code>`, its message and kind by `code`."""
    return Refusal([Fault(f"invitation_{code}", Message(PREFIX + code, params), field=field)])


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M}"


# -- reads ---------------------------------------------------------------------------------------------


def invitation_by_token(*, token: str) -> Invitation | None:
    """The invitation of a link, with its campaign and nation; None for a token that is none."""
    return Invitation.objects.select_related("campaign", "nation").filter(token=token).first()


def invitations_of(*, campaign: Campaign) -> QuerySet[Invitation]:
    """The campaign's invitations by nation, newest first, with their nation and who used them."""
    return (
        Invitation.objects.filter(campaign=campaign)
        .select_related("nation", "used_by")
        .order_by("nation__position", "-created_at", "-id")
    )


def invitation_gone(invitation: Invitation, *, now: datetime) -> Refusal | None:
    """Why the link lets no one in any more (410), or None while it is open."""
    if invitation.campaign.status == Campaign.Status.FINISHED:
        return refusal("token", "campaign_ended", campaign=invitation.campaign.name)
    state = invitation.state(now)
    if state == Invitation.State.EXPIRED:
        return refusal("token", "expired", until=_utc(invitation.expires_at))
    if state != Invitation.State.OPEN:
        return refusal("token", state)
    return None


def seat_conflict(*, user: AbstractBaseUser, invitation: Invitation) -> Refusal | None:
    """Why this user cannot take the invitation's nation (409): the user already has a seat in the campaign,
    or the nation has a player. None when the seat is free for them."""
    held = (
        Membership.objects.filter(user=user, campaign_id=invitation.campaign_id)
        .select_related("nation")
        .first()
    )
    if held is not None:
        if held.role == Membership.Role.GM:
            return refusal("token", "user_runs")
        return refusal("token", "user_plays", nation=held.nation.name)
    if Membership.objects.filter(nation_id=invitation.nation_id).exists():
        return refusal("nation", "nation_taken", nation=invitation.nation.name)
    return None


# -- writes --------------------------------------------------------------------------------------------


def invitation_create(
    *,
    by: User,
    campaign: Campaign,
    nation: Nation,
    days: int = DAYS_DEFAULT,
    email: str = "",
    now: Clock = timezone.now,
) -> Invitation:
    """GM: a new link to play `nation`, open for `days`; mailed to `email` if given, once it commits."""
    gm_check(by=by, campaign=campaign)
    if nation.campaign_id != campaign.pk:
        raise InputError.of("nation", "not_in_campaign", code=nation.code)
    if not DAYS_MIN <= days <= DAYS_MAX:
        raise refusal("days", "days_range", least=DAYS_MIN, most=DAYS_MAX)
    if campaign.status == Campaign.Status.FINISHED:
        raise refusal("nation", "campaign_ended", campaign=campaign.name)
    moment = now()
    with transaction.atomic():
        # The nation's row orders this against an accept of another of its links.
        Nation.objects.select_for_update().filter(pk=nation.pk).first()
        if Membership.objects.filter(nation=nation).exists():
            raise refusal("nation", "nation_played", nation=nation.name)
        open_links = Invitation.objects.filter(
            nation=nation, used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=moment
        ).count()
        if open_links >= OPEN_PER_NATION_MAX:
            raise refusal("nation", "too_many", nation=nation.name, count=open_links)
        invitation = Invitation.objects.create(
            campaign=campaign,
            nation=nation,
            token=secrets.token_urlsafe(32),
            email=email.strip(),
            created_by=by,
            created_at=moment,
            expires_at=moment + timedelta(days=days),
        )
        params = {"nation": nation.code, "id": invitation.pk, "until": _utc(invitation.expires_at)}
        if invitation.email:
            summary = Message("audit.invited_mailed", {**params, "email": invitation.email})
        else:
            summary = Message("audit.invited", params)
        audit_write(by, campaign, "roster", summary, "", lambda: moment)
        if invitation.email:
            # A mail that cannot be queued must not undo the link: the GM still has it to copy.
            task_queue(SEND_INVITATION, invitation.pk, robust=True)
    return invitation


def invitation_revoke(*, by: User, invitation: Invitation, now: Clock = timezone.now) -> Invitation:
    """GM: take an open link back; a used, expired or revoked one is refused (409)."""
    gm_check(by=by, campaign=invitation.campaign)
    moment = now()
    with transaction.atomic():
        locked = Invitation.objects.select_for_update().select_related("nation").get(pk=invitation.pk)
        state = locked.state(moment)
        if state != Invitation.State.OPEN:
            raise refusal(None, "not_open", id=locked.pk, state=Message(f"{PREFIX}state.{state}"))
        locked.revoked_at = moment
        locked.save(update_fields=["revoked_at"])
        summary = Message("audit.invitation_revoked", {"nation": locked.nation.code, "id": locked.pk})
        audit_write(by, invitation.campaign, "roster", summary, "", lambda: moment)
    return locked


def invitation_accept(*, user: AbstractBaseUser, token: str, now: Clock = timezone.now) -> Membership:
    """The signed-in `user` takes the link's nation: its player from now on. Single use: of two accepts at
    once exactly one wins (the link's row is locked, then the nation's); the other is refused."""
    if not user.is_authenticated:
        raise refusal("token", "unknown")  # the edges ask for a login first; never a seat for no one
    moment = now()
    try:
        with transaction.atomic():
            invitation = (
                Invitation.objects.select_for_update(of=("self",))
                .select_related("campaign", "nation")
                .filter(token=token)
                .first()
            )
            if invitation is None:
                raise refusal("token", "unknown")
            gone = invitation_gone(invitation, now=moment)
            if gone is not None:
                raise gone
            Nation.objects.select_for_update().filter(pk=invitation.nation_id).first()
            conflict = seat_conflict(user=user, invitation=invitation)
            if conflict is not None:
                raise conflict
            membership = Membership.objects.create(
                user=user, campaign=invitation.campaign, role=Membership.Role.PLAYER, nation=invitation.nation
            )
            # A nation that fell into civil disorder without a player takes orders again, as when the GM
            # assigns one (campaign.gm.roster.nation_assign).
            Nation.objects.filter(pk=invitation.nation_id).update(civil_disorder=False, turns_missed_in_row=0)
            invitation.used_by, invitation.used_at = user, moment
            invitation.save(update_fields=["used_by", "used_at"])
            summary = Message(
                "audit.invitation_accepted",
                {"nation": invitation.nation.code, "user": user.get_username(), "id": invitation.pk},
            )
            audit_write(user, invitation.campaign, "roster", summary, "", lambda: moment)
    except IntegrityError as error:
        # The user took a seat of the campaign through another link at the same moment: the one
        # membership per campaign held, and says which.
        raise seat_conflict(user=user, invitation=invitation) or refusal(
            "nation", "nation_taken", nation=invitation.nation.name
        ) from error
    return membership
