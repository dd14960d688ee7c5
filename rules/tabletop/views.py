"""A tabletop turn's battles (TABLETOP.md A5, A6, A8, A12): the list (the GM's queue), the printable sheet,
and the result form with the answers and the GM's decisions. Plain HTML forms; views parse, check who is
looking, call one service of rules.tabletop.battles and render."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from campaign.models import Turn
from campaign.selectors import Viewer
from frontend.forms import DeadlineForm
from frontend.terms import said
from frontend.views.common import topbar
from rules.models import ResultVersion, TableBattle
from rules.results_flow import refuse
from rules.selectors import battle_sheet_for
from rules.table_deadlines import battle_deadline_move
from rules.tabletop import battles as services
from rules.tabletop.archive import archived_for_reference
from rules.tabletop.cards import rounds_grouped
from rules.tabletop.forms import GROUND_TYPES, LossesForm, ResultForm, form_errors
from rules.tabletop.rounds import round_permitted, rounds_visible
from rules.tabletop.sheets import battle_title, nation_players, result_meaning, sheet_sides, who_agrees


def _act(
    viewer: Viewer, battle: TableBattle, form: ResultForm, losses: LossesForm, deadline: DeadlineForm
) -> None:
    """One action of the form, by its button; raises BattleError when the service refuses it."""
    given = form.cleaned_data
    action = given["action"]
    version = None
    if given["version"] is not None:
        version = battle.versions.filter(number=given["version"]).first()
        if version is None:
            raise Http404("no such version")
    if action == "save":
        services.battle_result_save(viewer=viewer, battle=battle, result=form.result(losses))
    elif action == "auto_resolve":
        services.battle_auto_resolve(viewer=viewer, battle=battle, why=given["why"])
    elif action == "reopen":
        services.battle_reopen(viewer=viewer, battle=battle, reason=given["reason"])
    elif action == "deadline":
        if not deadline.is_valid():
            raise refuse("deadline_not_future")
        battle_deadline_move(
            viewer=viewer, battle=battle, deadline=deadline.cleaned_data["deadline"], reason=given["reason"]
        )
    elif version is not None and action == "agree":
        services.battle_result_agree(viewer=viewer, version=version)
    elif version is not None and action == "dispute":
        services.battle_result_dispute(viewer=viewer, version=version, comment=given["comment"])
    elif version is not None and action == "withdraw":
        services.battle_result_withdraw(viewer=viewer, version=version)
    elif version is not None and action == "confirm":
        services.battle_result_confirm(viewer=viewer, version=version)
    elif version is not None and action == "void":
        services.battle_result_void(viewer=viewer, version=version, reason=given["reason"])
    else:
        raise Http404("no such action")


def _typed(form: ResultForm) -> dict[str, Any]:
    """The result form's fields as typed, for the form shown again."""
    return {name: form[name].value() for name in ("winner", "decisive", "score", "notes")}


def battle_page(request: HttpRequest, viewer: Viewer, battle: TableBattle) -> HttpResponse:
    """A battle's page at its address (frontend.views.battles): its sheet, its results and their forms."""
    turn = battle.turn
    sheet = battle_sheet_for(viewer=viewer, battle=battle)
    if sheet is None:
        raise Http404("no such battle")
    errors = []
    checked = None
    form = ResultForm(request.POST)
    types = tuple(sorted({t for n in sheet.get("forces", {}).values() for t in n} | set(GROUND_TYPES)))
    # The loss rows in the order of the sides, as the sheet shows them (issue on table play), then any other.
    in_sides = [n for side in sheet.get("sides", []) for n in side.get("nations", [])]
    nations = list(dict.fromkeys([*in_sides, *sheet.get("nations", [])]))
    losses = LossesForm(request.POST, prefix="loss", nations=nations, types=types)
    if request.method == "POST" and not (form.is_valid() and losses.is_valid()):
        if "action" in form.errors:
            raise Http404("no such action")
        errors = form_errors(form, losses)
    elif request.method == "POST" and form.cleaned_data["action"] == "check":
        # Check the typed result without saving it (A6.4): its warnings, or its errors, and the form kept.
        try:
            warnings = services.battle_result_check(viewer=viewer, battle=battle, result=form.result(losses))
        except services.BattleError as error:
            errors = [(str(e), said(e.message)) for e in error.errors]
        else:
            checked = [(str(w), said(w.message)) for w in warnings]
    elif request.method == "POST":
        try:
            _act(viewer, battle, form, losses, DeadlineForm(request.POST))
        except services.BattleError as error:
            errors = [(str(e), said(e.message)) for e in error.errors]
        else:
            return redirect(request.path)
    full = viewer.is_gm or (viewer.nation is not None and viewer.nation.code in battle.nations)
    versions = (
        list(battle.versions.select_related("nation", "author").prefetch_related("answers__nation"))
        if full
        else []
    )
    current = next((v for v in reversed(versions) if v.state in ResultVersion.CURRENT), None)
    names = {n.code: n.name for n in viewer.campaign.nations.all()}
    calculator = reverse("frontend:battle_part", args=[viewer.campaign.slug, turn.number, battle.pk, "round"])
    context = {
        "rounds": rounds_grouped(rounds_visible(viewer=viewer, battle=battle), names) if full else [],
        "may_save_round": round_permitted(viewer=viewer, battle=battle),
        "calculator_url": calculator,
        "bar": topbar(viewer, turn, battle=battle),
        "turn": turn,
        "battle": battle,
        "sheet": sheet,
        "sides": sheet_sides(sheet, names, nation_players(viewer.campaign)),
        "place_name": battle_title(viewer.campaign, battle),
        "who_agrees": who_agrees(viewer.campaign.ruleset().tabletop, list(battle.nations)),
        "meaning": result_meaning(viewer.campaign, battle, sheet, viewer.campaign.ruleset().tabletop, names)
        if full
        else [],
        "full": full,
        "versions": versions,
        "current": current,
        "errors": errors,
        "form": _typed(form) if errors or checked is not None else None,
        "checked": checked,
        "loss_rows": [
            {"nation": nation, "cells": [(t, row[t]) for t in GROUND_TYPES]}
            for nation, row in losses.typed().items()
        ],
        "may_enter": battle.state == TableBattle.State.OPEN
        and turn.status == Turn.Status.BATTLES_PENDING
        and (viewer.is_gm or (viewer.nation is not None and viewer.nation.code in battle.nations)),
        "is_gm": viewer.is_gm,
        "my_nation": viewer.nation.code if viewer.nation else None,
        "ground_types": ["JV", "PA", "TY"],
        # The blank close-combat tallies of the printed sheet: every term of B3, then the total (A5.1).
        "tally_terms": [
            _("Wounds"),
            _("Overkill"),
            _("Charge"),
            _("Ranks"),
            _("Standards"),
            _("Battle standard"),
            _("Flank"),
            _("Rear"),
            _("Other"),
            _("Total"),
        ],
        "overdue": battle.deadline is not None and battle.deadline < timezone.now(),
        "archived": archived_for_reference(battle=battle) if viewer.is_gm else None,
        "auto_preview": services.battle_auto_preview(battle=battle)
        if viewer.is_gm and battle.state == TableBattle.State.OPEN
        else None,
    }
    return render(request, "tabletop/battle.html", context, status=400 if errors else 200)
