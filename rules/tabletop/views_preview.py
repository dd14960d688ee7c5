"""The GM's preview of a tabletop turn with hypothetical results (TABLETOP.md A10.1 (b)): for each battle
without an entry, auto-resolve or a result typed in; the turn as it would complete, as cards. A GET form:
a preview stores nothing (rules.tabletop.preview), so it can be reloaded and bookmarked."""

from __future__ import annotations

from typing import Any

from django import forms
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
from rules.models import TableBattle
from rules.tabletop.forms import GROUND_TYPES, BattlesAskedForm, HypothesisForm, LossesForm, form_errors
from rules.tabletop.preview import AUTO, BattlesPreview, turn_battles_preview
from rules.tabletop.sheets import battle_title, sheet_sides


def hypotheses_from_form(query: QueryDict) -> dict[str, dict[str, Any] | str]:
    """Each battle of the form (`battle` lists their keys) as "auto", or the result typed in for it: the
    winner (empty: a draw), decisive, and the losses of each of its nations (`nations-<key>`). Raises
    OutOfBounds for the first field out of its bounds."""
    asked = BattlesAskedForm(query)
    _bounded(asked)
    hypotheses: dict[str, dict[str, Any] | str] = {}
    for key in asked.cleaned_data["battle"]:
        form = HypothesisForm(query, key=key)
        _bounded(form)
        if form.cleaned_data["mode"] != "result":
            hypotheses[key] = AUTO
            continue
        losses = LossesForm(query, prefix=f"loss-{key}", nations=form.cleaned_data["nations"])
        _bounded(losses)
        hypotheses[key] = {
            "winner": form.cleaned_data["winner"] or None,
            "decisive": form.cleaned_data["decisive"],
            "losses": losses.losses(),
        }
    return hypotheses


class OutOfBounds(Exception):
    """A field of the form out of its bounds: its name and what is wrong, in the reader's language."""


def _bounded(form: forms.Form) -> None:
    if not form.is_valid():
        code, text = form_errors(form)[0]
        raise OutOfBounds(f"{code.rpartition(':')[0]}: {text}")


def _battles(preview: BattlesPreview, query: QueryDict, names: dict[str, str]) -> list[dict[str, Any]]:
    """The form's battles: each one without an entry, in plan order, with its sheet in this preview."""
    titles = {b.key: b for b in TableBattle.objects.filter(turn=preview.turn)}
    rows = []
    for key in preview.state.battle_keys():
        if key in preview.entered or key not in preview.sheets:
            continue
        sheet = preview.sheets[key]
        typed = HypothesisForm(query, key=key)
        battle = titles.get(key) or TableBattle(turn=preview.turn, key=key, kind=sheet["kind"])
        rows.append(
            {
                "key": key,
                "title": battle_title(preview.turn.campaign, battle),
                "sheet": sheet,
                "sides": sheet_sides(dict(sheet), names),
                "mode": "result" if key in preview.assumed or key in preview.errors else "auto",
                "errors": [(str(e), said(e.message)) for e in preview.errors.get(key, ())],
                "winner": typed["winner"].value() or "",
                "decisive": bool(typed["decisive"].value()),
                "losses": LossesForm(query, prefix=f"loss-{key}", nations=list(sheet["nations"])).typed(),
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
        hypotheses = hypotheses_from_form(request.GET)
        preview = turn_battles_preview(turn_id=turn.pk, by=request.user, hypotheses=hypotheses)
    except InputError as error:
        context["refused"] = said(error.message)
        return render(request, "tabletop/gm_battles_preview.html", context, status=400)
    except OutOfBounds as error:
        context["refused"] = str(error)
        return render(request, "tabletop/gm_battles_preview.html", context, status=400)
    names = nation_names(campaign=viewer.campaign)
    regions = dict(viewer.campaign.regions.values_list("code", "name"))
    settlements = [dict(s) for s in preview.state.turn_result.settlements] if preview.complete else []
    context.update(
        preview=preview,
        battles=_battles(preview, request.GET, names),
        entered=[
            {"key": b.key, "title": battle_title(viewer.campaign, b)}
            for b in TableBattle.objects.filter(turn=turn, key__in=preview.entered).order_by("position")
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
        asked=bool(hypotheses),
    )
    return render(request, "tabletop/gm_battles_preview.html", context)
