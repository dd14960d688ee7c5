"""The mails of accounts and invitations (issue 27): the link that confirms a new address, and an invitation
link the GM had mailed to a friend. Plain text first, HTML second, as every mail of the site.

A confirmation goes to the address being confirmed (not yet the account's), in the reader's language of now;
an invitation to an address that may have no account, so in the language of the GM who made it (the campaign
has no language of its own yet: the new-campaign wizard gives it one), in UTC.
"""

from __future__ import annotations

import logging
from datetime import UTC

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from campaign.accounts import EMAIL_CONFIRM_DAYS, email_confirm_token
from campaign.invitations import invitation_gone
from campaign.lifecycle import language_of
from campaign.models import Invitation, Membership
from frontend.mail.turns import mail_send, site_url

logger = logging.getLogger(__name__)


def invitation_url(token: str) -> str:
    """The whole address of an invitation link, as the site's players reach it (IRONFIST_SITE_URL)."""
    return site_url(reverse("frontend:join", args=[token]))


def invitation_mail_send(*, invitation_id: int) -> int:
    """Mail an invitation link to the address the GM gave; nothing once the link is no longer open (the GM
    revoked it before the mail went). How many mails went out."""
    invitation = (
        Invitation.objects.select_related("campaign", "nation", "created_by").filter(pk=invitation_id).first()
    )
    if invitation is None or not invitation.email or invitation_gone(invitation, now=timezone.now()):
        return 0
    campaign = invitation.campaign
    gms = list(
        Membership.objects.filter(campaign=campaign, role=Membership.Role.GM)
        .order_by("user__username")
        .values_list("user__username", flat=True)
    )
    language = language_of(user=invitation.created_by) if invitation.created_by else settings.LANGUAGE_CODE
    context = {
        "campaign": campaign,
        "nation": invitation.nation,
        "gm": invitation.created_by.get_username() if invitation.created_by else ", ".join(gms),
        "url": invitation_url(invitation.token),
        "expires_at": invitation.expires_at,
    }
    with translation.override(language), timezone.override(UTC):
        subject = _("[%(campaign)s] You are invited to play %(nation)s") % {
            "campaign": campaign.name,
            "nation": invitation.nation.name,
        }
        message = _message(subject, "frontend/email/invitation", context, invitation.email)
    return mail_send([message])


def email_confirm_send(*, user, email: str) -> int:
    """Mail the link that makes `email` the account's address, in the active language."""
    token = email_confirm_token(user=user, email=email)
    context = {
        "user": user,
        "email": email,
        "url": site_url(reverse("frontend:email_confirm", args=[token])),
        "days": EMAIL_CONFIRM_DAYS,
    }
    subject = _("[Iron Fist] Confirm your email address")
    return mail_send([_message(subject, "frontend/email/confirm", context, email)])


def _message(subject: str, template: str, context: dict, to: str) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=subject, body=render_to_string(f"{template}.txt", context), to=[to]
    )
    message.attach_alternative(render_to_string(f"{template}.html", context), "text/html")
    return message
