"""The GM's preview of a tabletop turn with hypothetical results (TABLETOP.md A10.1 (b)): for each battle
without an entry, auto-resolve or a result typed in; the turn as it would complete, as cards. A GET form:
a preview stores nothing (rules.tabletop.preview), so it can be reloaded and bookmarked."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from campaign.models import Turn
from campaign.selectors import turn_current
from frontend.gm_selectors import nation_names
from frontend.reports import battle_card
from frontend.terms import said
from frontend.views.common import gm_for, topbar
from rules.engine.messages import InputError
from rules.models import Battle
from rules.tabletop.preview import AUTO, BattlesPreview, turn_battles_preview
from rules.tabletop.sheets import battle_title, sheet_sides
from rules.tabletop.views import form_number

GROUND_TYPES = ("JV", "PA", "TY")


def hypotheses_from_form(query: QueryDict) -> dict[str, dict[str, Any] | str]:
    """Each battle of the form (`battle` lists their keys) as "auto", or the result typed in for it: the
    winner (empty: a draw), decisive, and the losses of each of its nations (`nations-<key>`)."""
    hypotheses: dict[str, dict[str, Any] | str] = {}
    for key in query.getlist("battle"):
        if query.get(f"mode-{key}") != "result":
            hypotheses[key] = AUTO
            continue
        losses: dict[str, dict[str, Any]] = {}
        for nation in query.getlist(f"nations-{key}"):
            mine = losses.setdefault(nation, {})
            for unit_type in GROUND_TYPES:
                text = query.get(f"loss-{key}-{nation}-{unit_type}", "").strip()
                if text:
                    mine[unit_type] = form_number(text)
        hypotheses[key] = {
            "winner": query.get(f"winner-{key}") or None,
            "decisive": bool(query.get(f"decisive-{key}")),
            "losses": losses,
        }
    return hypotheses


def _battles(preview: BattlesPreview, query: QueryDict, names: dict[str, str]) -> list[dict[str, Any]]:
    """The form's battles: each one without an entry, in plan order, with its sheet in this preview."""
    titles = {b.key: b for b in Battle.objects.filter(turn=preview.turn)}
    rows = []
    for key in preview.state.battle_keys():
        if key in preview.entered or key not in preview.sheets:
            continue
        sheet = preview.sheets[key]
        battle = titles.get(key) or Battle(turn=preview.turn, key=key, kind=sheet["kind"])
        rows.append(
            {
                "key": key,
                "title": battle_title(preview.turn.campaign, battle),
                "sheet": sheet,
                "sides": sheet_sides(dict(sheet), names),
                "mode": "result" if key in preview.assumed or key in preview.errors else "auto",
                "errors": [(str(e), said(e.message)) for e in preview.errors.get(key, ())],
                "winner": query.get(f"winner-{key}", ""),
                "decisive": bool(query.get(f"decisive-{key}")),
                "losses": {
                    nation: {t: query.get(f"loss-{key}-{nation}-{t}", "") for t in GROUND_TYPES}
                    for nation in sheet["nations"]
                },
            }
        )
    return rows


@login_required
@require_GET
def battles_preview_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    viewer = gm_for(request, slug)
    turn = get_object_or_404(Turn.objects.defer("result"), campaign=viewer.campaign, number=number)
    context: dict[str, Any] = {"bar": topbar(viewer, turn_current(campaign=viewer.campaign)), "turn": turn}
    try:
        preview = turn_battles_preview(
            turn_id=turn.pk, by=request.user, hypotheses=hypotheses_from_form(request.GET)
        )
    except InputError as error:
        context["refused"] = said(error.message)
        return render(request, "tabletop/gm_battles_preview.html", context, status=400)
    names = nation_names(campaign=viewer.campaign)
    regions = dict(viewer.campaign.regions.values_list("code", "name"))
    settlements = [dict(s) for s in preview.state.turn_result.settlements] if preview.complete else []
    context.update(
        preview=preview,
        battles=_battles(preview, request.GET, names),
        entered=[
            {"key": b.key, "title": battle_title(viewer.campaign, b)}
            for b in Battle.objects.filter(turn=turn, key__in=preview.entered).order_by("position")
        ],
        cards=[
            battle_card(dict(r), names=names, settlements=settlements)
            for r in preview.reports
            if r.get("kind") != "unopposed"
        ],
        changes=[
            {"region": regions.get(code, code), "before": names.get(was, was), "after": names.get(now, now)}
            for code, was, now in preview.owners_changed()
        ],
        ground_types=GROUND_TYPES,
        asked=bool(request.GET.getlist("battle")),
    )
    return render(request, "tabletop/gm_battles_preview.html", context)
