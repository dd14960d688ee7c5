"""The mails of a tabletop battle's results workflow (TABLETOP.md A11.3): a new version waiting for your
answer, a dispute, a result confirmed or voided, a battle reopened, an entry made stale by changed forces.
Queued once per event by rules.tabletop.mail (on commit, by task name), rendered and sent here by the task
of rules.tabletop.tasks, with the sheet's parts of rules.tabletop.mails.

To the players of the battle's nations (a dispute: the GM too; a new version: the other nations than its
author's), each in their own language and zone; every sheet in a mail is cut to what the reader's nation
may see (rules.selectors.battle_sheet_for), so a mail never shows more than the web shows its reader.
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from campaign.lifecycle import language_of
from campaign.models import Membership
from campaign.selectors import Viewer
from frontend.mail.turns import mail_send, member_message
from rules.models import ResultVersion, TableBattle
from rules.tabletop.mail import EVENTS
from rules.tabletop.mails import battle_mailed, battle_readers, sheet_context
from rules.tabletop.sheets import battle_title


def _subject(event: str, number: int | None) -> str:
    """The subject's end, in the active language."""
    if event == "version":
        return _("version %(number)s waits for your answer") % {"number": number}
    if event == "disputed":
        return _("version %(number)s disputed") % {"number": number}
    if event == "confirmed":
        return _("result confirmed")
    if event == "voided":
        return _("result voided")
    if event == "reopened":
        return _("battle reopened")
    return _("result set aside: the forces changed")


def _losses(version: ResultVersion | None) -> list[str]:
    if version is None:
        return []
    losses = version.payload.get("losses") or {}
    return [
        f"{nation}: " + (", ".join(f"{t} {n}" for t, n in sorted(units.items()) if n) or "0")
        for nation, units in losses.items()
    ]


def battle_event_send(
    *, battle_id: int, event: str, version_id: int | None = None, old_sheet: dict[str, Any] | None = None
) -> int:
    """Mail the readers of one event of the battle's results; returns how many mails went out."""
    if event not in EVENTS:
        raise ValueError(f"no such battle event: {event}")
    battle = battle_mailed(battle_id)
    if battle is None:
        return 0
    version = (
        ResultVersion.objects.filter(pk=version_id).select_related("nation").first() if version_id else None
    )
    disputes = []
    if version is not None and event == "disputed":
        disputes = list(version.answers.filter(answer="dispute").select_related("nation"))
    before = None
    if old_sheet is not None:
        before = copy.copy(battle)
        before.sheet, before.nations = old_sheet, list(old_sheet.get("nations", []))
    names = {n.code: n.name for n in battle.turn.campaign.nations.all()}
    messages = []
    for membership, context in battle_readers(battle, with_gm=event == "disputed"):
        is_gm = membership.role == Membership.Role.GM
        if event == "version" and version is not None and membership.nation_id == version.nation_id:
            continue  # the author's nation agreed by saving it
        old = None
        if before is not None:
            viewer = Viewer(campaign=battle.turn.campaign, user=membership.user, membership=membership)
            old = sheet_context(before, viewer, names)
        with translation.override(language_of(user=membership.user)):
            subject = "[{campaign}] {turn} — {battle}: {what}".format(
                campaign=battle.turn.campaign.name,
                turn=_("Turn %(number)s") % {"number": battle.turn.number},
                battle=battle_title(battle.turn.campaign, battle),
                what=_subject(event, version.number if version else None),
            )
        context = {
            **context,
            "event": event,
            "version": version,
            "losses": _losses(version),
            "disputes": disputes,
            "is_gm": is_gm,
            "old": old,
            "gone": battle.state == TableBattle.State.GONE,
        }
        messages.append(
            member_message(membership, battle.turn, subject, "tabletop/email/battle_event", context)
        )
    return mail_send(messages)
