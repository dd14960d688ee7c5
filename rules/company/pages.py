"""The company_d20 pages (COMPANY.md §11.2), as the presentation registry gives them: the Kasarmi in the top
bar; on the campaign page the company's units on the map and, in place of stack orders, the way to its
Kasarmi (§11.3); the GM's preview of the battles processing would assign, and completion by hand (§2.3).
Its mails are its own (rules.company.mails): loading its pages registers their tasks (rules.company.tasks)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from frontend.systems import ApiUrls, SystemPages, TableBattles, pages_register
from rules.company import api_urls
from rules.company.api import battle_detail
from rules.company.page_data import company_map
from rules.company.results import company_turn_complete_by_gm
from rules.company.urls import urlpatterns
from rules.company.views import battle_of_table, battle_page, company_preview_page, verify_page
from rules.engine.company_d20 import SYSTEM


def _links(viewer: Any, turn: Any) -> list[tuple[str, str]]:
    links = [(_("Kasarmi"), reverse("frontend:company_home", args=[viewer.campaign.slug]))]
    if turn is not None:
        links.append((_("Battles"), reverse("frontend:battles", args=[viewer.campaign.slug, turn.number])))
    return links


def _orders_panel(viewer: Any) -> dict[str, Any]:
    """Where the nation's company takes its orders: its Kasarmi."""
    url = reverse("frontend:company_kasarmi", args=[viewer.campaign.slug, viewer.nation.code])
    return {"template": "company/_orders_panel.html", "kasarmi_url": url}


def _battle_detail(viewer: Any, table: Any, *, as_text: bool = False) -> dict[str, Any]:
    """A battle through the API at its address (§11.3); its text is its JSON."""
    return battle_detail(viewer, battle_of_table(viewer, table))


pages_register(
    SystemPages(
        SYSTEM.name,
        links=_links,
        orders_panel=_orders_panel,
        map_add=lambda viewer, data: company_map(viewer=viewer, data=data),
        preview_page=company_preview_page,
        complete=company_turn_complete_by_gm,
        urls=tuple(urlpatterns),
        table_battles=TableBattles(
            page=battle_page,
            detail=_battle_detail,
            parts=(("verify", verify_page),),
        ),
        api_urls=ApiUrls(
            campaign=tuple(api_urls.campaign_urls),
            turn=tuple(api_urls.turn_urls),
            battle=tuple(api_urls.battle_urls),
        ),
    )
)
