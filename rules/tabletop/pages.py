"""Tabletop's pages (TABLETOP.md), as the presentation registry gives them: its card, the turn's battles in
the top bar and on the map while the turn waits for them (A11.3), and the GM's completion by hand (A9.4)
and rollback to the battles or to the orders (A10.4). Its mails are its own (rules.tabletop.mails,
mails_results): loading its pages registers their tasks (rules.tabletop.tasks)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from frontend.systems import ApiUrls, Card, SystemPages, TableBattles, pages_register
from rules.engine.tabletop import SYSTEM
from rules.selectors import battle_sheet_for
from rules.tabletop import api_urls
from rules.tabletop.api import battle_detail
from rules.tabletop.cards import history_attach, rounds_attach, tabletop_card
from rules.tabletop.rollback import tabletop_rollback, tabletop_turn_complete
from rules.tabletop.sheets import battles_pending_rows
from rules.tabletop.urls import site_urlpatterns, urlpatterns
from rules.tabletop.views import battle_page
from rules.tabletop.views_rounds import battle_round_page


def _links(viewer: Any, turn: Any) -> list[tuple[str, str]]:
    """The turn's battles, and the close-combat calculator (Part B): linked in tabletop campaigns only."""
    calculator = (_("Combat calculator"), reverse("frontend:calculator"))
    if turn is None:
        return [calculator]
    return [(_("Battles"), reverse("frontend:battles", args=[viewer.campaign.slug, turn.number])), calculator]


def _list_links(viewer: Any, turn: Any) -> list[tuple[str, str]]:
    """The GM's preview of a turn waiting for its battles, above their list (A8.5)."""
    if not viewer.is_gm or turn.status != "battles_pending":
        return []
    url = reverse("frontend:gm_battles_preview", args=[viewer.campaign.slug, turn.number])
    return [(_("Preview the turn with hypothetical results"), url)]


def _cards_attach(cards: list[dict[str, Any]], *, viewer: Any, turn: Any, names: dict[str, str]) -> None:
    """A tabletop card's story: its saved rounds (B9) and how its result was agreed (A11.1)."""
    rounds_attach(cards, viewer=viewer, turn=turn, names=names)
    history_attach(cards, viewer=viewer, turn=turn)


def _visible(viewer: Any, battle: Any) -> bool:
    """The GM sees every battle, a nation those it fights in or supports (A5.4, A11.2)."""
    return battle_sheet_for(viewer=viewer, battle=battle) is not None


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
        cards_attach=_cards_attach,
        table_battles=TableBattles(
            page=battle_page,
            detail=battle_detail,
            visible=_visible,
            parts=(("round", battle_round_page),),
            links=_list_links,
            auto_resolves=True,
        ),
        api_urls=ApiUrls(
            turn=tuple(api_urls.turn_urls),
            battle=tuple(api_urls.battle_urls),
            site=tuple(api_urls.site_urls),
        ),
    )
)
