"""Tabletop's pages (TABLETOP.md), as the presentation registry gives them: its card, the turn's battles in
the top bar and on the map while the turn waits for them (A11.3), and the GM's completion by hand (A9.4)
and rollback to the battles or to the orders (A10.4). Its mails are its own (rules.tabletop.mails,
mails_results): loading its pages registers their tasks (rules.tabletop.tasks)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from frontend.systems import ApiUrls, Card, SystemPages, pages_register
from rules.engine.tabletop import SYSTEM
from rules.tabletop import api_urls
from rules.tabletop.cards import tabletop_card
from rules.tabletop.rollback import tabletop_rollback, tabletop_turn_complete
from rules.tabletop.sheets import battles_pending_rows
from rules.tabletop.urls import site_urlpatterns, urlpatterns


def _links(viewer: Any, turn: Any) -> list[tuple[str, str]]:
    if turn is None:
        return []
    return [(_("Battles"), reverse("frontend:battles", args=[viewer.campaign.slug, turn.number]))]


pages_register(
    SystemPages(
        SYSTEM.name,
        card=Card(tabletop_card, "tabletop/card.html", "frontend/cards/plain.txt"),
        links=_links,
        battles_pending=battles_pending_rows,
        complete=tabletop_turn_complete,
        rollback=tabletop_rollback,
        urls=tuple(urlpatterns),
        site_urls=tuple(site_urlpatterns),
        api_urls=ApiUrls(turn=tuple(api_urls.turn_urls), site=tuple(api_urls.site_urls)),
    )
)
