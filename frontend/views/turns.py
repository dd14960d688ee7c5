"""After processing: the list of past turns and each turn's page (the reader's battle reports, the new map,
the public list of regions that changed hands)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from campaign.models import Turn
from campaign.selectors import regions_changed_hands, reports_visible, turn_current
from frontend.map_svg import map_svg
from frontend.reports import battle_card, support_block
from frontend.rules_doc import rules_html, rules_toc
from frontend.selectors import color_safe, map_at_turn, settlements_of, support_of, turns_resolved
from frontend.summary import turn_summary
from frontend.systems import cards_attach
from frontend.terms import system_title
from frontend.views.common import topbar, viewer_for
from rules.engine.systems import DEFAULT_SYSTEM, SystemUnavailable, system_get, system_names

CARDS_PER_PAGE = 50


@login_required
def turn_list(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = viewer_for(request, slug)
    context = {
        "bar": topbar(viewer, turn_current(campaign=viewer.campaign)),
        "turns": turns_resolved(viewer=viewer),
    }
    return render(request, "frontend/turn_list.html", context)


@login_required
def turn_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    viewer = viewer_for(request, slug)
    turn = get_object_or_404(
        Turn.objects.defer("result"), campaign=viewer.campaign, number=number, status=Turn.Status.RESOLVED
    )
    all_nations = list(viewer.campaign.nations.all())
    nations = {n.code: n.name for n in all_nations}
    colors = {n.code: color_safe(n.color) for n in all_nations}
    support = support_of(turn=turn, nation_code=viewer.nation.code) if viewer.nation else None
    settlements = settlements_of(turn=turn)
    # A big turn has hundreds of battles (the GM reads them all): a page of cards at a time.
    pages = Paginator(reports_visible(viewer=viewer, turn=turn), CARDS_PER_PAGE)
    page = pages.get_page(request.GET.get("page"))
    cards = [
        battle_card(r.data, names=nations, colors=colors, settlements=settlements) for r in page.object_list
    ]
    cards_attach(cards, viewer=viewer, turn=turn, names=nations)  # what a system tells beyond the card
    changes = [
        {
            **c,
            "from_name": nations.get(c["from"], _("unowned")),
            "to_name": nations.get(c["to"], _("unowned")),
        }
        for c in regions_changed_hands(turn=turn)
    ]
    data = map_at_turn(campaign_id=viewer.campaign.pk, turn=turn)
    before = request.GET.get("map") == "before"
    if before:
        # The owners before the turn are those after it, with every change of hands undone.
        by_code = {n["code"]: n["id"] for n in data.nations.values()}
        undo = {c["region"]: by_code.get(c["from"]) for c in changes}
        for region in data.regions:
            if region["code"] in undo:
                region["owner_id"] = undo[region["code"]]
    own = viewer.nation.code if viewer.nation else None
    context = {
        "bar": topbar(viewer, turn_current(campaign=viewer.campaign)),
        "turn": turn,
        "cards": cards,
        "support": support_block(support),
        "page": page,
        "summary": turn_summary(number=turn.number, battles=pages.count, changes=changes, own=own),
        "changes": changes,
        "map": map_svg(
            data=data,
            title=(_("Map before turn %(number)s") if before else _("Map after turn %(number)s"))
            % {"number": turn.number},
            marked=frozenset(c["region"] for c in changes),
            own=own or "",
            battles={code: f"#{card['anchor']}" for card in cards for code in card["region"].split("|")},
        ),
        "before": before,
        "previous": Turn.objects.filter(
            campaign=viewer.campaign, number=number - 1, status=Turn.Status.RESOLVED
        ).exists(),
        "next": Turn.objects.filter(
            campaign=viewer.campaign, number=number + 1, status=Turn.Status.RESOLVED
        ).exists(),
    }
    return render(request, "frontend/turn.html", context)


def rules_page(request: HttpRequest, system: str = DEFAULT_SYSTEM) -> HttpResponse:
    """A battle system's rules, which its reports link to; public, like a rulebook. The default system's
    page begins with how to play."""
    try:
        found = system_get(system)
    except SystemUnavailable:
        raise Http404("no such battle system") from None
    if found.rules is None:
        raise Http404("no rules document")
    context = {
        "rules": rules_html(found.name),
        "toc": rules_toc(found.name),
        "title": system_title(found.name),
        "how_to_play": found.name == DEFAULT_SYSTEM,
        "systems": [(s, system_title(s)) for s in system_names() if system_get(s).rules],
        "shown": found.name,
    }
    return render(request, "frontend/rules.html", context)
