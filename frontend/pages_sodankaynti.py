"""Sodankäynti's pages (SODANKAYNTI.md), as the presentation registry gives them: its card, the campaign
page's doctrine and ambush panel, and the GM dashboard's ratings and advantages, where its battles read no
weather and no KTA modifiers (§2)."""

from __future__ import annotations

from frontend.cards_sodankaynti import sodankaynti_card
from frontend.sodankaynti_forms import SYSTEM
from frontend.systems import Card, SystemPages, pages_register
from frontend.views.sodankaynti import gm_forms, player_panel

pages_register(
    SystemPages(
        SYSTEM,
        card=Card(sodankaynti_card, "frontend/cards/sodankaynti.html", "frontend/cards/sodankaynti.txt"),
        player_panel=player_panel,
        gm_forms=gm_forms,
        weather=False,
    )
)
