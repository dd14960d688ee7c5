"""The calculator for a round of a tabletop battle (TABLETOP.md B1, B9): the close-combat calculator's page,
with the battle's sides to assign, a label and a game turn, and **Save and roll**, which keeps the round
with the battle (rules.tabletop.rounds). Preview stores nothing, as on the standalone calculator."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from campaign.selectors import Viewer
from frontend.terms import said
from frontend.views.common import topbar
from rules.models import TableBattle
from rules.selectors import battle_sheet_for
from rules.tabletop.battles import BattleError
from rules.tabletop.calculator import round_work_out
from rules.tabletop.forms import (
    MAX_ROWS,
    BattleSidesForm,
    RoundAboutForm,
    RoundForms,
    form_errors,
    rows_wanted,
)
from rules.tabletop.rounds import close_combat_round_save, round_permitted
from rules.tabletop.views_calculator import STATES, _labelled, round_words


def battle_round_page(request: HttpRequest, viewer: Viewer, battle: TableBattle) -> HttpResponse:
    """The battle's round calculator, a part of its page (frontend.views.battles: `.../<id>/round/`)."""
    turn = battle.turn
    if battle_sheet_for(viewer=viewer, battle=battle) is None:
        raise Http404("no such battle")
    if not round_permitted(viewer=viewer, battle=battle):
        raise Http404("no round to save here")
    rows = rows_wanted(request.POST, request.GET)
    bound = RoundForms(request.POST, rows)
    about, sides = RoundAboutForm(request.POST), BattleSidesForm(request.POST, prefix="battle_side")
    page = reverse("frontend:battle", args=[viewer.campaign.slug, turn.number, battle.pk])
    context: dict[str, Any] = {
        "bar": topbar(viewer, turn, battle=battle),
        "sides": _labelled(bound.shown()),
        "units": rows,
        "more": min(rows + 2, MAX_ROWS),
        "states": STATES.items(),
        "dice_mode": bound.main["dice_mode"].value() or "entered",
        "rolls": bound.main["rolls"].value() or "",
        "seed": "",
        "break_test_order": bound.main["break_test_order"].value() or "",
        "battle": {
            "key": battle.key,
            "page": page,
            "url": request.path,
            "sides": [side["id"] for side in battle.sheet.get("sides", [])],
            "label": about["label"].value() or "",
            "game_turn": about["game_turn"].value() or "",
            "chosen": [sides[str(s)].value() or "" for s in (0, 1)],
        },
    }
    if request.method == "POST":
        errors = bound.errors() + form_errors(*(f for f in (about, sides) if not f.is_valid()))
        if errors:
            context["errors"] = errors
        else:
            _round(request, context, bound, about.about(sides), viewer=viewer, battle=battle)
            if "saved" in context:
                return redirect(page + "#rounds")
    return render(request, "tabletop/calculator.html", context, status=400 if "errors" in context else 200)


def _round(
    request: HttpRequest, context: dict[str, Any], bound: RoundForms, about: dict[str, Any], **where: Any
) -> None:
    """Save and roll (B9), or preview (B6: no dice, and no seed to print: the battle's own is drawn only on
    saving); the outcome into the page's `context`."""
    data = bound.round()
    if bound.main.cleaned_data["dice_mode"] == "seeded":
        data["dice"] = {"seed": 0}  # the battle's own seed is used (B6): the value does not count
    if bound.main.cleaned_data["action"] == "save":
        try:
            saved = close_combat_round_save(
                viewer=where["viewer"], battle=where["battle"], data=data, **about
            )
        except BattleError as error:
            context["errors"] = [(str(e), said(e.message)) for e in error.errors]
        else:
            messages.success(
                request, _("Round %(sequence)s saved to the battle.") % {"sequence": saved.sequence}
            )
            context["saved"] = saved
        return
    outcome = round_work_out({**data, "dice": {"rolls": []}}, preview=True)
    if outcome.output is None:
        context["errors"] = [(str(e), said(e.message)) for e in outcome.errors]
    else:
        context["round"] = round_words(outcome.output)
