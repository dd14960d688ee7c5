"""The mails of a tabletop battle (TABLETOP.md A8, A11.3): the sheet when the battle opens, the
reminder before its result is due, and the word that it is overdue (to the GM too). When each goes is the
service layer's (rules.tabletop.mail claims it once and queues its task by name; rules.tabletop.battles the
overdue one); rendered and sent here, in the interface layer, by the tasks of rules.tabletop.tasks. The
results workflow's mails are rules.tabletop.mails_results; the templates are the package's own
(tabletop/email/), built on every mail's parts (frontend.mail.turns).

To the players of the battle's nations, each in their own language and time zone, plain text first; the
sheet is cut to what the reader's nation may see (rules.selectors.battle_sheet_for, A5.4), so a mail
never shows more than the web shows its reader. Subjects sort in an inbox:
`[The Grenzwald Crisis] Turn 4 — Battle of Karelia: sheet, result due 12 Dec`,
`[The Grenzwald Crisis] Turn 4 — Battle of Karelia: result due in 24 hours`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from campaign.durations import due_in_words
from campaign.lifecycle import language_of, time_zone_of
from campaign.models import Membership, Turn
from campaign.selectors import Viewer
from frontend.mail.turns import mail_send, member_message, site_url
from rules.models import ResultVersion, TableBattle
from rules.selectors import battle_sheet_for
from rules.tabletop.forms import GROUND_TYPES
from rules.tabletop.sheets import battle_title, nation_players, result_meaning, sheet_sides, who_agrees

logger = logging.getLogger(__name__)


def battle_sheet_send(*, battle_id: int, fingerprint: str, changed: bool = False) -> int:
    """Mail the battle's players its sheet; nothing when the battle is no longer open with that sheet (a
    newer sheet has a mail of its own). `changed`: the battle's forces changed since its last sheet.
    Returns how many mails went out."""
    battle = battle_mailed(battle_id)
    if battle is None or battle.state != TableBattle.State.OPEN or battle.fingerprint != fingerprint:
        logger.info("battle %s: no longer open with sheet %s, not mailed", battle_id, fingerprint[:8])
        return 0
    messages = []
    for membership, context in battle_readers(battle):
        with translation.override(language_of(user=membership.user)), timezone.override(context["zone"]):
            due = date_format(
                timezone.localtime(battle.deadline), pgettext("date format of a day in a mail subject", "j M")
            )
            subject = _("[%(campaign)s] Turn %(number)s — %(battle)s: sheet, result due %(due)s") % {
                "campaign": battle.turn.campaign.name,
                "number": battle.turn.number,
                "battle": battle_title(battle.turn.campaign, battle),
                "due": due,
            }
        context["changed"] = changed
        messages.append(
            member_message(membership, battle.turn, subject, "tabletop/email/battle_sheet", context)
        )
    return mail_send(messages)


def battle_reminder_send(*, battle_id: int, now: Callable[[], datetime] = timezone.now) -> int:
    """Remind the battle's players that its result is due; nothing once it has its entry or its
    deadline has passed (the deadline's own step takes over, A8.2-A8.3)."""
    battle = battle_mailed(battle_id)
    if battle is None or battle.state != TableBattle.State.OPEN or battle.deadline is None:
        return 0
    left = battle.deadline - now()
    if left <= timedelta(0) or battle.turn.status != Turn.Status.BATTLES_PENDING:
        return 0
    current = (
        battle.versions.filter(state__in=ResultVersion.CURRENT)
        .select_related("nation")
        .prefetch_related("answers__nation")
        .order_by("-number")
        .first()
    )
    messages = []
    for membership, context in battle_readers(battle, active_only=True):
        with translation.override(language_of(user=membership.user)):
            due_in = due_in_words(left)
            subject = _("[%(campaign)s] Turn %(number)s — %(battle)s: result due in %(due_in)s") % {
                "campaign": battle.turn.campaign.name,
                "number": battle.turn.number,
                "battle": battle_title(battle.turn.campaign, battle),
                "due_in": due_in,
            }
        context = {
            **context,
            "due_in": due_in,
            "current": current,
            "waiting_for": _waiting_for(battle, current),
        }
        messages.append(
            member_message(membership, battle.turn, subject, "tabletop/email/battle_reminder", context)
        )
    return mail_send(messages)


def battle_overdue_send(*, battle_id: int) -> int:
    """Tell the battle's players and the GM that its deadline has passed, and what follows: the GM decides
    (A8.2), or the deadline has confirmed the agreed result or auto-resolved the battle (A8.3)."""
    battle = battle_mailed(battle_id)
    if battle is None or battle.overdue_at is None:
        return 0
    decided = battle.versions.filter(
        state=ResultVersion.State.CONFIRMED, decided_at=battle.overdue_at
    ).first()
    if decided is None and battle.state != TableBattle.State.OPEN:
        return 0  # decided some other way since: nothing overdue to tell
    if decided is None:
        outcome = "gm_decides"
    else:
        outcome = "auto_resolved" if decided.origin == ResultVersion.Origin.DEADLINE else "confirmed"
    may_still_enter = battle.turn.campaign.ruleset().tabletop.players_may_enter_after_deadline
    messages = []
    for membership, context in battle_readers(battle, with_gm=True):
        with translation.override(language_of(user=membership.user)):
            subject = _("[%(campaign)s] Turn %(number)s — %(battle)s: result overdue") % {
                "campaign": battle.turn.campaign.name,
                "number": battle.turn.number,
                "battle": battle_title(battle.turn.campaign, battle),
            }
        context = {
            **context,
            "outcome": outcome,
            "is_gm": membership.role == Membership.Role.GM,
            "may_still_enter": may_still_enter,
        }
        messages.append(
            member_message(membership, battle.turn, subject, "tabletop/email/battle_overdue", context)
        )
    return mail_send(messages)


def battle_mailed(battle_id: int) -> TableBattle | None:
    """The battle to mail about, with its turn and campaign; None when it is gone."""
    return TableBattle.objects.select_related("turn__campaign").filter(pk=battle_id).first()


def battle_readers(
    battle: TableBattle, *, active_only: bool = False, with_gm: bool = False
) -> Iterator[tuple[Membership, dict[str, Any]]]:
    """Each player of the battle's nations with an address (and the GM, `with_gm`), and the sheet as the
    reader may see it."""
    campaign = battle.turn.campaign
    readers = Q(role=Membership.Role.PLAYER, nation__code__in=battle.nations)
    if with_gm:
        readers |= Q(role=Membership.Role.GM)
    members = (
        Membership.objects.filter(readers, campaign=campaign)
        .exclude(user__email="")
        .select_related("user__profile", "nation")
        .order_by("nation__position", "user__username")
    )
    if active_only:
        members = members.exclude(nation__civil_disorder=True)
    names = {n.code: n.name for n in campaign.nations.all()}
    for membership in members:
        viewer = Viewer(campaign=campaign, user=membership.user, membership=membership)
        context = sheet_context(battle, viewer, names)
        if context is not None:
            yield membership, context


def sheet_context(battle: TableBattle, viewer: Viewer, names: dict[str, str]) -> dict[str, Any] | None:
    """What the sheet's templates need, for this reader: the sheet as the reader's nation may see it
    (None: nothing of it), in the reader's language and zone."""
    sheet = battle_sheet_for(viewer=viewer, battle=battle)
    if sheet is None:
        return None
    campaign = battle.turn.campaign
    url = site_url(reverse("frontend:battle", args=[campaign.slug, battle.turn.number, battle.pk]))
    with translation.override(language_of(user=viewer.user)):
        return {
            "battle": battle,
            "sheet": sheet,
            "sides": sheet_sides(sheet, names, nation_players(campaign)),
            "title": battle_title(campaign, battle),
            "who_agrees": who_agrees(campaign.ruleset().tabletop, list(battle.nations)),
            "meaning": result_meaning(campaign, battle, sheet, campaign.ruleset().tabletop, names),
            "ground_types": GROUND_TYPES,
            "url": url,
            "zone": time_zone_of(user=viewer.user),
        }


def battle_sheet_text(*, viewer: Viewer, battle: TableBattle) -> str | None:
    """The battle's sheet as plain text, as its mail gives it (A11.3, A12), cut to what the viewer's
    nation may see, in the viewer's language and zone; None for a viewer who may see none of it."""
    names = {n.code: n.name for n in battle.turn.campaign.nations.all()}
    context = sheet_context(battle, viewer, names)
    if context is None:
        return None
    context = {**context, "turn": battle.turn, "campaign": battle.turn.campaign}
    with translation.override(language_of(user=viewer.user)), timezone.override(context["zone"]):
        return render_to_string("tabletop/email/battle_sheet_plain.txt", context)


def _waiting_for(battle: TableBattle, current: ResultVersion | None) -> list[str]:
    """The nations of the battle that have not agreed to the current version."""
    if current is None:
        return []
    agreed = {a.nation.code for a in current.answers.all() if a.answer == "agree"}
    return [n for n in battle.nations if n not in agreed]
