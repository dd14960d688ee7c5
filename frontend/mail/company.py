"""The post-battle mail of a company turn (COMPANY.md §11.1): each player gets the reports of the battles
its nation fought, with each unit's before and after and the XP and TP arithmetic, and a link to its
Kasarmi; the GM gets every battle. In the reader's own language, plain text and HTML."""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from campaign.lifecycle import language_of
from campaign.models import Turn
from frontend.company_pages import report_rows
from frontend.mail.turns import _members, _message, mail_send, reader_subject, site_url
from rules.company import models
from rules.company.services import company_ruleset


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
