"""The battles fought at the table, whatever the table system (BATTLE_SYSTEMS.md, "Results entry"): the turn's
list, and each battle at one address, `c/<slug>/turns/<number>/battles/<id>/`, whose page and parts are its
system's (frontend.systems.TableBattles). A battle's earlier address by its key leads there. Names no
system."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from campaign.models import Turn
from campaign.selectors import Viewer
from frontend.forms import BattleDeadlineForm
from frontend.systems import TableBattles, battle_visible, pages_of
from frontend.terms import said
from frontend.views.common import topbar, viewer_for
from rules.models import TableBattle
from rules.results_flow import BattleError
from rules.table_api import table_battle_result, table_battles_visible
from rules.table_deadlines import battle_deadline_move


def _turn(viewer: Viewer, number: int) -> Turn:
    return get_object_or_404(Turn.objects.defer("result"), campaign=viewer.campaign, number=number)


@login_required
def battle_list(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The turn's battles the viewer may see, in battle order: state, current result and deadline (the
    GM's queue, A12)."""
    viewer = viewer_for(request, slug)
    turn = _turn(viewer, number)
    now = timezone.now()
    rows = []
    for battle in table_battles_visible(viewer=viewer, turn=turn):
        rows.append(
            {
                "battle": battle,
                "result": table_battle_result(battle),
                "overdue": battle.state == TableBattle.State.OPEN
                and battle.deadline is not None
                and battle.deadline < now,
            }
        )
    table = pages_of(viewer.campaign.battle_system).table_battles
    context = {
        "bar": topbar(viewer, turn),
        "turn": turn,
        "rows": rows,
        "is_gm": viewer.is_gm,
        "links": table.links(viewer, turn) if table is not None and table.links is not None else [],
    }
    return render(request, "frontend/battle_list.html", context)


def _battle(
    request: HttpRequest, slug: str, number: int, pk: int
) -> tuple[Viewer, TableBattle, TableBattles]:
    """The battle at its address, for a viewer who may see it, and its system's pages; else a 404."""
    viewer = viewer_for(request, slug)
    turn = _turn(viewer, number)
    battle = TableBattle.objects.filter(turn=turn, pk=pk).first()
    table = pages_of(viewer.campaign.battle_system).table_battles
    if battle is None or table is None or not battle_visible(viewer, battle):
        raise Http404("no such battle")
    battle.turn = turn
    return viewer, battle, table


@login_required
@require_http_methods(["GET", "POST"])
def battle_page(request: HttpRequest, slug: str, number: int, battle: int) -> HttpResponse:
    viewer, found, table = _battle(request, slug, number, battle)
    return table.page(request, viewer, found)


@login_required
@require_http_methods(["GET", "POST"])
def battle_part(request: HttpRequest, slug: str, number: int, battle: int, part: str) -> HttpResponse:
    viewer, found, table = _battle(request, slug, number, battle)
    view = dict(table.parts).get(part)
    if view is None:
        raise Http404("no such page")
    return view(request, viewer, found)


@login_required
@require_POST
def battle_deadline_post(request: HttpRequest, slug: str, number: int, battle: int) -> HttpResponse:
    """The GM sets or moves a battle's result deadline (TABLETOP A8.1, COMPANY §5.2), from its page or the
    dashboard's overdue battles: back where it was asked, the refusal said there."""
    viewer, found, _table = _battle(request, slug, number, battle)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("frontend:battle", args=[slug, number, found.pk])
    form = BattleDeadlineForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(back)
    try:
        battle_deadline_move(
            viewer=viewer,
            battle=found,
            deadline=form.cleaned_data["deadline"],
            reason=form.cleaned_data["reason"],
        )
    except BattleError as refused:
        for error in refused.errors:
            messages.error(request, said(error.message))
    else:
        messages.success(request, _("The battle's deadline is moved."))
    return redirect(back)


@login_required
def battle_by_key(request: HttpRequest, slug: str, number: int, key: str, part: str = "") -> HttpResponse:
    """A battle's earlier address, by its key (`.../battles/<key>/`, `.../battles/<key>/round/`): to its
    address now, for links in mails already sent."""
    viewer = viewer_for(request, slug)
    turn = _turn(viewer, number)
    battle = TableBattle.objects.filter(turn=turn, key=key, archived=False).first()
    if battle is None or not battle_visible(viewer, battle):
        raise Http404("no such battle")
    return battle_redirect(request, battle, part)


def battle_redirect(request: HttpRequest, battle: TableBattle, part: str = "") -> HttpResponse:
    """To the battle's address (or one of its parts), the query kept: a permanent move."""
    args = [battle.turn.campaign.slug, battle.turn.number, battle.pk]
    url = (
        reverse("frontend:battle_part", args=[*args, part]) if part else reverse("frontend:battle", args=args)
    )
    query = request.META.get("QUERY_STRING")
    return redirect(f"{url}?{query}" if query else url, permanent=True)
