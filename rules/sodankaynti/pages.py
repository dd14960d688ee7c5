"""Sodankäynti's pages (SODANKAYNTI.md), as the presentation registry gives them: its card, the campaign
page's doctrine and ambush panel, and the GM dashboard's ratings and advantages, where its battles read no
weather and no KTA modifiers (§2); and the mails' part, its doctrine and ambush lines in an orders mail
(rules.sodankaynti.mails)."""

from __future__ import annotations

from frontend.systems import Card, MailParts, SystemPages, pages_register
from rules.sodankaynti.cards import sodankaynti_card
from rules.sodankaynti.forms import SYSTEM
from rules.sodankaynti.mails import order_line
from rules.sodankaynti.urls import urlpatterns
from rules.sodankaynti.views import gm_forms, player_panel

pages_register(
    SystemPages(
        SYSTEM,
        card=Card(sodankaynti_card, "sodankaynti/card.html", "sodankaynti/card.txt"),
        player_panel=player_panel,
        gm_forms=gm_forms,
        weather=False,
        urls=tuple(urlpatterns),
        mail=MailParts(order_line=order_line),
    )
)
