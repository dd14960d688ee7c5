"""The presentation registry: what each battle system shows in the pages and mails beyond what every system
shows, as rules.system_shells gives its shell hooks and rules.engine.systems its rules.

A system's pages register one `SystemPages` from a module of their own (`rules/tabletop/pages.py`, ...),
one line in `PAGE_MODULES`; the generic pages ask `pages_of(campaign.battle_system)` and name no system. A
system that registers nothing (an engine-only one) gets the plain card and the generic pages.

The mails are the same: the generic mails (frontend.mail: a turn's results and reminder, orders by email)
ask the registry for a system's `MailParts`; a system's own mails (its battles', its turn report) are its
package's `mails.py`, sent by the tasks of its `tasks.py`, which its services queue by name. Loading the
registry imports each system's pages, and they import those tasks, so that every process that starts the
frontend (frontend.tasks loads the registry) knows the tasks' names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# The modules that register the systems' pages, imported on first use so that each registers itself.
PAGE_MODULES = (
    "frontend.reports",  # the default system's card
    "rules.sodankaynti.pages",
    "rules.tabletop.pages",
    "rules.company.pages",
)


@dataclass(frozen=True)
class Card:
    """A report card: `lay_out(data, names=...)` makes the card's dict from the stored report; its page and
    mail templates show it."""

    lay_out: Callable[..., dict[str, Any]]  # (data, *, names) -> the card
    page: str
    mail: str


@dataclass(frozen=True)
class MailParts:
    """What a system adds to the generic mails. `order_line(line)` reads a line of an orders mail written
    in the system's own words (orders the generic syntax cannot say): its `OrderDraft`, or None where the
    line is not one of its own; the lines of every system are read before the generic syntax, whatever the
    campaign, so that order_submit, not the parser, says which orders a campaign takes."""

    order_line: Callable[[str], Any] | None = None


@dataclass(frozen=True)
class ApiUrls:
    """A system's own API routes: under a campaign (`campaigns/<slug>/`), under a turn
    (`campaigns/<slug>/turns/<number>/`), under one of its table battles
    (`campaigns/<slug>/turns/<number>/battles/<battle>/`, beside every other system's: no two systems
    may route the same path there) and at the API's top (`site`)."""

    campaign: tuple[Any, ...] = ()
    turn: tuple[Any, ...] = ()
    battle: tuple[Any, ...] = ()
    site: tuple[Any, ...] = ()


@dataclass(frozen=True)
class TableBattles:
    """A table system's battles (rules.models.TableBattle) in the one list and under the one address of
    every table battle, `c/<slug>/turns/<number>/battles/<id>/` (and the API's under /api/campaigns/).

    `visible(viewer, battle)` says who may list and open one (default: the GM and the battle's nations);
    `page(request, viewer, battle)` answers its page (GET and the page's own forms); `parts` its other
    pages by name (`.../<id>/<part>/`: tabletop's round, company's dice verification), each
    (request, viewer, battle) -> response; `detail(viewer, battle, as_text=)` is what the API answers
    for it, a dict, or (as_text) the plain text of its sheet; `links(viewer, turn)` the links above the
    turn's list, [(label, url)]."""

    page: Callable[[Any, Any, Any], Any]
    detail: Callable[..., Any]
    visible: Callable[[Any, Any], bool] | None = None
    parts: tuple[tuple[str, Callable[[Any, Any, Any], Any]], ...] = ()
    links: Callable[[Any, Any], list[tuple[str, str]]] | None = None
    # Whether the GM may auto-resolve one (tabletop, A8.4): the dashboard's overdue battles offer it.
    auto_resolves: bool = False


@dataclass(frozen=True)
class SystemPages:
    name: str
    card: Card | None = None
    # The campaign's own links in the top bar: (viewer, current turn) -> [(label, url)].
    links: Callable[[Any, Any], list[tuple[str, str]]] | None = None
    # The campaign page's panels, each a context with the `template` that shows it (as `panel`): below the
    # order form (`player_panel`), or in its place where the nation's units take their orders elsewhere
    # (`orders_panel`: company's Kasarmi, COMPANY.md §11.3); `map_add(viewer, data)` then puts the system's
    # own units on the map instead of stacks.
    player_panel: Callable[[Any], dict[str, Any] | None] | None = None
    orders_panel: Callable[[Any], dict[str, Any]] | None = None
    map_add: Callable[[Any, Any], None] | None = None
    # Whether its battles read the weather (the legend speaks of it; Sodankäynti's do not, its §2).
    weather: bool = True
    # The battles of a turn waiting for them, as the campaign page marks them: (viewer, turn) -> rows.
    battles_pending: Callable[[Any, Any], list[dict[str, Any]]] | None = None
    # The GM dashboard's forms of the system: (viewer, turn, bound) -> forms; a form set to None is taken
    # away (a generic form the system's battles ignore).
    gm_forms: Callable[[Any, Any, Callable[[str], Any]], dict[str, Any]] | None = None
    # The GM's preview of a turn, where the system's is its own page: (request, viewer, turn) -> response.
    preview_page: Callable[[Any, Any, Any], Any] | None = None
    # The GM completes a turn waiting for its table battles by hand (TABLETOP A9.4, COMPANY.md §2.3):
    # (turn_id=, by=) -> None; None where turns complete by themselves.
    complete: Callable[..., None] | None = None
    # The GM's rollback, where the system's goes back to its battles or to its orders (TABLETOP A10.4):
    # (turn_id=, by=, to=, force=, reason=) -> the outcome; None: the generic rollback of a turn.
    rollback: Callable[..., Any] | None = None
    # Its own pages under a campaign (c/<slug>/...), and outside any (`site_urls`: tabletop's calculator),
    # named in the frontend's namespace.
    urls: tuple[Any, ...] = ()
    site_urls: tuple[Any, ...] = ()
    # What it adds to the generic mails (MailParts).
    mail: MailParts = MailParts()
    # Its own API routes (ApiUrls), named in the API's namespace.
    api_urls: ApiUrls = ApiUrls()
    # Its battles fought at the table (TableBattles), where it has them.
    table_battles: TableBattles | None = None
    # What it adds to its cards on a turn's page once they are laid out, each card of its own (`system`):
    # (cards, viewer=, turn=, names=) -> None (tabletop: a battle's saved rounds and its result's history).
    cards_attach: Callable[..., None] | None = None


def system_api_urls(where: str) -> list[Any]:
    """Every registered system's own API routes at `where` ("campaign", "turn", "battle" or "site"), for
    config/api_urls.py."""
    _load()
    return [pattern for pages in _PAGES.values() for pattern in getattr(pages.api_urls, where)]


_PAGES: dict[str, SystemPages] = {}
_loaded = False


def pages_register(pages: SystemPages) -> None:
    _PAGES[pages.name] = pages


def pages_unregister(name: str) -> None:
    _PAGES.pop(name, None)


def pages_of(name: str) -> SystemPages:
    _load()
    return _PAGES.get(name) or SystemPages(name)


def mail_order_lines() -> list[Callable[[str], Any]]:
    """Every registered system's reader of its own order lines (MailParts.order_line), for
    frontend.mail.order_lines."""
    _load()
    return [pages.mail.order_line for pages in _PAGES.values() if pages.mail.order_line is not None]


def system_urls(*, site: bool = False) -> list[Any]:
    """Every registered system's own URL patterns, under a campaign or (`site`) outside any, for
    frontend/urls.py."""
    _load()
    return [pattern for pages in _PAGES.values() for pattern in (pages.site_urls if site else pages.urls)]


def cards_attach(cards: list[dict[str, Any]], *, viewer: Any, turn: Any, names: dict[str, str]) -> None:
    """Every registered system adds to its own cards of a turn (SystemPages.cards_attach): a turn's cards
    are of the system it was played under, which may not be the campaign's now."""
    _load()
    for pages in _PAGES.values():
        if pages.cards_attach is not None:
            pages.cards_attach(cards, viewer=viewer, turn=turn, names=names)


def battle_visible(viewer: Any, battle: Any) -> bool:
    """Whether the viewer may list and open a table battle: as its system says; by default the GM and a
    player of one of the battle's nations. Never one of a rolled-back turn."""
    if battle.archived:
        return False
    table = pages_of(viewer.campaign.battle_system).table_battles
    if table is not None and table.visible is not None:
        return table.visible(viewer, battle)
    return viewer.is_gm or (viewer.nation is not None and viewer.nation.code in battle.nations)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in PAGE_MODULES:
            importlib.import_module(module)
