"""A company turn's mails, in the reader's own language, plain text and HTML.

company_battles_send   the battles a turn's processing created (COMPANY.md §4.5): each participating
                       nation's members hear of its battles, with its own units in each and a link to the
                       battle's sheet; the GM of every battle
company_results_send   after the battles (§11.1): each player gets the reports of the battles its nation
                       fought, with each unit's before and after and the XP and TP arithmetic, and a link to
                       its Kasarmi; the GM gets every battle
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from campaign.lifecycle import language_of
from campaign.models import Turn
from frontend.company_pages import report_rows
from frontend.mail.turns import _members, _message, mail_send, reader_subject, site_url
from frontend.terms import word
from rules.company import models
from rules.company.services import company_ruleset


def company_battles_send(*, turn_id: int) -> int:
    """§4.5: "When a battle is created, its participants (the members of its nations) and the GM are
    notified." The battles still open when the mail goes; the opposing units stay on the sheet, where
    recon decides what a nation sees of them."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    if turn.status != Turn.Status.BATTLES_PENDING:
        return 0
    campaign = turn.campaign
    battles = list(
        models.Battle.objects.filter(turn=turn, archived=False, status=models.Battle.Status.OPEN).order_by(
            "position"
        )
    )
    messages = []
    for membership in _members(campaign):
        nation = membership.nation
        code = nation.code if nation else None
        mine = [b for b in battles if code is None or code in b.data["sides"]]
        if not mine:
            continue
        with translation.override(language_of(user=membership.user)):
            title = _("[%(campaign)s] Turn %(number)s: battles to fight — %(reader)s")
            subject = reader_subject(title, turn, nation)
            context = {"battles": [_battle_told(b, campaign.slug, code) for b in mine]}
        messages.append(_message(membership, turn, subject, "frontend/email/company_battles", context))
    return mail_send(messages)


def _battle_told(battle: models.Battle, slug: str, reader: str | None) -> dict:
    """One battle as its mail tells it: kind, sides (the defender named), the reader's own units in it (the
    GM's: none listed), and the link to its sheet."""
    data = battle.data
    units = [u for u in data["units"].values() if reader is not None and u.get("nation") == reader]
    return {
        "key": battle.key,
        "kind": word("battle", battle.kind),
        "sides": list(data["sides"]),
        "defender": data.get("defender"),
        "units": [f"#{u['id']} {u['name']} ({u['type']}, TK {u['tk']}/{u['tk_max']})" for u in units],
        "url": site_url(reverse("frontend:company_battle", args=[slug, battle.pk])),
    }


def company_results_send(*, turn_id: int) -> int:
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    if turn.status != Turn.Status.RESOLVED:
        return 0
    campaign = turn.campaign
    ruleset = company_ruleset(campaign)
    battles = [
        b for b in models.Battle.objects.filter(turn=turn, archived=False).order_by("position") if b.report
    ]
    messages = []
    for membership in _members(campaign):
        nation = membership.nation
        code = nation.code if nation else None
        mine = [b for b in battles if code is None or code in b.data["sides"]]
        with translation.override(language_of(user=membership.user)):
            subject = reader_subject(_("[%(campaign)s] Turn %(number)s battles — %(reader)s"), turn, nation)
        context = {
            "reports": [
                {"key": b.key, "kind": b.kind, **report_rows(b.report, ruleset=ruleset, viewer=code)}
                for b in mine
            ],
            "url": site_url(reverse("frontend:company_kasarmi", args=[campaign.slug, code]))
            if code
            else site_url(reverse("frontend:campaign", args=[campaign.slug])),
        }
        messages.append(_message(membership, turn, subject, "frontend/email/company_results", context))
    return mail_send(messages)
