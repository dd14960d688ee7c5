"""The calculator for a round of a tabletop battle (TABLETOP.md B1, B9): the close-combat calculator's page,
with the battle's sides to assign, a label and a game turn, and **Save and roll**, which keeps the round
with the battle (rules.tabletop.rounds). Preview stores nothing, as on the standalone calculator."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from campaign.models import Turn
from frontend.terms import said
from frontend.views.common import topbar, viewer_for
from rules.models import Battle
from rules.selectors import battle_sheet_for
from rules.tabletop.battles import BattleError
from rules.tabletop.calculator import round_work_out
from rules.tabletop.rounds import close_combat_round_save, round_permitted
from rules.tabletop.views_calculator import STATES, _form, _number, _rows, round_from_form, round_words


def round_about(post: Any) -> dict[str, Any]:
    """The round's label, game turn and each calculator side's battle side, as the form sent them."""
    game_turn = post.get("game_turn", "").strip()
    return {
        "label": post.get("label", ""),
        "game_turn": _number(game_turn) if game_turn else None,
        "battle_sides": [post.get(f"battle_side-{s}") or None for s in (0, 1)],
    }


@login_required
def battle_round_page(request: HttpRequest, slug: str, number: int, key: str) -> HttpResponse:
    viewer = viewer_for(request, slug)
    turn = get_object_or_404(Turn.objects.defer("result"), campaign=viewer.campaign, number=number)
    battle = Battle.objects.filter(turn=turn, key=key).first()
    if battle is None or battle_sheet_for(viewer=viewer, battle=battle) is None:
        raise Http404("no such battle")
    battle.turn = turn
    if not round_permitted(viewer=viewer, battle=battle):
        raise Http404("no round to save here")
    rows = _rows(request)
    post = request.POST
    page = reverse("frontend:battle", args=[slug, number, key])
    context: dict[str, Any] = {
        "bar": topbar(viewer, turn),
        "sides": _form(post, rows),
        "units": rows,
        "more": min(rows + 2, 12),
        "states": STATES.items(),
        "dice_mode": post.get("dice_mode", "entered"),
        "rolls": post.get("rolls", ""),
        "seed": "",
        "break_test_order": post.get("break_test_order", ""),
        "battle": {
            "key": key,
            "page": page,
            "url": request.path,
            "sides": [side["id"] for side in battle.sheet.get("sides", [])],
            "label": post.get("label", ""),
            "game_turn": post.get("game_turn", ""),
            "chosen": [post.get(f"battle_side-{s}", "") for s in (0, 1)],
        },
    }
    if request.method == "POST":
        data = round_from_form(post, rows)
        if post.get("dice_mode") == "seeded":
            data["dice"] = {"seed": 0}  # the battle's own seed is used (B6): the value does not count
        if post.get("action") == "save":
            try:
                saved = close_combat_round_save(viewer=viewer, battle=battle, data=data, **round_about(post))
            except BattleError as error:
                context["errors"] = [(str(e), said(e.message)) for e in error.errors]
            else:
                messages.success(
                    request, _("Round %(sequence)s saved to the battle.") % {"sequence": saved.sequence}
                )
                return redirect(page + "#rounds")
        else:
            # Preview (B6): no dice, and no seed to print: the battle's own is drawn only on saving.
            outcome = round_work_out({**data, "dice": {"rolls": []}}, preview=True)
            if outcome.output is None:
                context["errors"] = [(str(e), said(e.message)) for e in outcome.errors]
            else:
                context["round"] = round_words(outcome.output)
    return render(request, "tabletop/calculator.html", context, status=400 if "errors" in context else 200)
