"""Email is the mail in play-by-mail: the reminder before a deadline and each reader's own turn results.

Every mail is built for one reader from what that reader may see on the web (campaign.selectors: a
player's results hold only the battle reports of `reports_visible` for its nation), in the reader's own
time zone and language (Profile.language: the one they last chose on the web; the site's default until
then). Plain text first, HTML second. Subjects sort in an inbox:
`[The Grenzwald Crisis] Turn 4 results — Kingdom of Nordmark`,
`[The Grenzwald Crisis] Turn 5 orders due in 12 hours`.

The rest of this module is every mail's: `members_mailed` (who has an address), `member_message` (one
reader's mail, in their language and zone), `reader_subject`, `mail_send`, `site_url`. A battle system's
own mails are its package's (`rules/<system>/mails.py`, with their tasks in its `tasks.py`) and build on
these; the generic mails name no system.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from campaign.durations import due_in_words
from campaign.lifecycle import language_of, time_zone_of
from campaign.models import Campaign, Membership, Nation, Turn
from campaign.selectors import Viewer, regions_changed_hands, reports_visible
from frontend.reports import battle_card, support_block
from frontend.selectors import settlements_of, support_of
from frontend.summary import turn_summary
from orders.models import Order

logger = logging.getLogger(__name__)


def turn_results_send(*, turn_id: int) -> int:
    """Mail every member with an address the results of a resolved turn, as they may read them.

    Returns how many mails went out. One reader's failed send is logged and does not stop the others,
    and nothing here writes to the turn: mail is sent after the turn has committed.
    """
    turn = Turn.objects.select_related("campaign").defer("result").get(pk=turn_id)
    if turn.status != Turn.Status.RESOLVED:
        logger.info("turn %s is %s: no results to send", turn_id, turn.status)
        return 0
    campaign = turn.campaign
    names = {n.code: n.name for n in campaign.nations.all()}
    changes = regions_changed_hands(turn=turn)
    settlements = settlements_of(turn=turn)
    messages = []
    for membership in members_mailed(campaign):
        viewer = Viewer(campaign=campaign, user=membership.user, membership=membership)
        nation = membership.nation
        support = support_of(turn=turn, nation_code=nation.code) if nation else None
        with translation.override(language_of(user=membership.user)):
            cards = [
                battle_card(r.data, names=names, settlements=settlements)
                for r in reports_visible(viewer=viewer, turn=turn)
            ]
            summary = turn_summary(
                number=turn.number,
                battles=len(cards),
                changes=changes,
                own=nation.code if nation else None,
                names=names,
            )
            subject = reader_subject(_("[%(campaign)s] Turn %(number)s results — %(reader)s"), turn, nation)
        context = {
            "cards": cards,
            "support": support_block(support),
            "summary": summary,
            "missed": nation is not None and nation.turns_missed_in_row > 0,
            "url": site_url(reverse("frontend:turn", args=[campaign.slug, turn.number])),
        }
        messages.append(member_message(membership, turn, subject, "frontend/email/results", context))
    return mail_send(messages)


def turn_reminders_send(*, turn_id: int, now: Callable[[], datetime] = timezone.now) -> int:
    """Remind each player whose nation has no orders in yet; the beat's claim makes this once per turn."""
    turn = Turn.objects.select_related("campaign").defer("result").get(pk=turn_id)
    if turn.status != Turn.Status.OPEN:
        return 0
    campaign = turn.campaign
    left = turn.deadline - now()
    if left <= timedelta(0):
        return 0
    submitted = set(Order.objects.filter(turn=turn).values_list("nation_id", flat=True).distinct())
    messages = []
    for membership in members_mailed(campaign, players_only=True):
        nation = membership.nation
        if nation.pk in submitted or nation.civil_disorder:
            continue
        with translation.override(language_of(user=membership.user)):
            due_in = due_in_words(left)
            subject = _("[%(campaign)s] Turn %(number)s orders due in %(due_in)s") % {
                "campaign": campaign.name,
                "number": turn.number,
                "due_in": due_in,
            }
        context = {"due_in": due_in, "url": site_url(reverse("frontend:campaign", args=[campaign.slug]))}
        messages.append(member_message(membership, turn, subject, "frontend/email/reminder", context))
    return mail_send(messages)


def reader_subject(subject: str, turn: Turn, nation: Nation | None) -> str:
    """A translated subject filled in for one reader: the campaign, the turn's number, and the reader's
    nation (or "game master"). Called in the reader's language."""
    reader = nation.name if nation else _("game master")
    return subject % {"campaign": turn.campaign.name, "number": turn.number, "reader": reader}


def mail_send(messages: Iterable[EmailMultiAlternatives]) -> int:
    """Send over one connection; a message that fails is logged and the rest still go."""
    sent = 0
    with get_connection() as connection:
        for message in messages:
            message.connection = connection
            try:
                sent += message.send()
            except Exception:
                logger.exception("mail to %s failed: %s", ", ".join(message.to), message.subject)
    return sent


def site_url(path: str) -> str:
    return settings.IRONFIST_SITE_URL.rstrip("/") + path


def members_mailed(campaign: Campaign, *, players_only: bool = False):
    """The campaign's members with an address (`players_only`: not the GM), in the order of its nations."""
    members = Membership.objects.filter(campaign=campaign).exclude(user__email="")
    if players_only:
        members = members.filter(role=Membership.Role.PLAYER)
    return members.select_related("user__profile", "nation").order_by("nation__position", "user__username")


def member_message(
    membership: Membership, turn: Turn, subject: str, template: str, context: dict[str, Any]
) -> EmailMultiAlternatives:
    """One reader's mail about `turn`, rendered in the reader's own time zone and language."""
    user = membership.user
    zone = time_zone_of(user=user)
    context = {
        **context,
        "campaign": turn.campaign,
        "turn": turn,
        "nation": membership.nation,
        "orders_address": settings.IRONFIST_ORDERS_EMAIL,
        "user": user,
        "time_zone": zone.key,
    }
    with timezone.override(zone), translation.override(language_of(user=user)):
        text = render_to_string(f"{template}.txt", context)
        # The web's battle cards link to the rules by path: a mail needs the whole address.
        html = render_to_string(f"{template}.html", context).replace('href="/', f'href="{site_url("/")}')
    reply_to = [settings.IRONFIST_ORDERS_EMAIL] if settings.IRONFIST_ORDERS_EMAIL else None
    message = EmailMultiAlternatives(subject=subject, body=text, to=[user.email], reply_to=reply_to)
    message.attach_alternative(html, "text/html")
    return message
