"""The close-combat round calculator's page (TABLETOP.md Part B), for the players at the table, no JavaScript.

The form has a fixed number of unit rows per side (`?units=N` for more); an empty row is no unit. Fields are
read by rules.tabletop.forms, each within its bound, and converted as B's conventions say: a base-10 integer
becomes a number, anything else is passed on as its text (and refused by the check that wants a whole
number); a checkbox is a boolean; unit lists are ids separated by commas or spaces. **Preview** shows every
target without dice; **Roll** takes the dice entered, or has the server roll from a new seed, which the page
prints so that the round can be replayed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, pgettext_lazy

from rules.engine.tabletop.close_combat_words import steadfast_message
from rules.tabletop.calculator import round_work_out
from rules.tabletop.forms import MAX_ROWS, RoundForms, rows_wanted

STATES = {
    "engaged": pgettext_lazy("close combat unit", "engaged"),
    "destroyed": pgettext_lazy("close combat unit", "destroyed"),
    "cleared_contacts": pgettext_lazy("close combat unit", "cleared its contacts"),
}
TERMS = {
    "wounds": pgettext_lazy("combat result", "Wounds"),
    "overkill": pgettext_lazy("combat result", "Overkill"),
    "charge": pgettext_lazy("combat result", "Charge"),
    "ranks": pgettext_lazy("combat result", "Ranks"),
    "standards": pgettext_lazy("combat result", "Standards"),
    "battle_standard": pgettext_lazy("combat result", "Battle standard"),
    "flank": pgettext_lazy("combat result", "Flank"),
    "rear": pgettext_lazy("combat result", "Rear"),
    "other": pgettext_lazy("combat result", "Other"),
}
WHY = {
    "destroyed": pgettext_lazy("ignored relation", "the unit is destroyed"),
    "cleared_contacts": pgettext_lazy("ignored relation", "the unit cleared its contacts"),
    "target_destroyed": pgettext_lazy("ignored relation", "the target is destroyed"),
    "target_cleared_contacts": pgettext_lazy("ignored relation", "the target cleared its contacts"),
    "not_charged": pgettext_lazy("ignored relation", "the unit did not charge this round"),
}
ARCS = {"flank": pgettext_lazy("arc", "flank"), "rear": pgettext_lazy("arc", "rear")}


def round_words(output: Mapping[str, Any]) -> dict[str, Any]:
    """The output with what the page prints in words: labels, unit names and the Steadfast sentences
    (the calculator, a battle's saved rounds and its report)."""
    names = {unit["id"]: unit["name"] for unit in output["units"]}
    return {
        "sides": output["sides"],
        "terms": [
            (label, [side["terms"][term] for side in output["sides"]]) for term, label in TERMS.items()
        ],
        "result": output["result"],
        "tests": [
            {
                **test,
                "name": names[test["unit"]],
                "why": steadfast_message(test, names).render(translate=gettext),
            }
            for test in output["break_tests"]
        ],
        "no_test": [(names[uid], STATES[state]) for uid, state in output["no_test"].items()],
        "ignored": [
            {
                "unit": names[r["unit"]],
                "target": names[r["target"]],
                "arc": ARCS[r["arc"]],
                "why": WHY[r["why"]],
            }
            for r in output["ignored_relations"]
        ],
        "dice": output["dice"],
        "preview": output["preview"],
    }


FIELD_LABELS = {
    "id": pgettext_lazy("close combat unit", "Id"),
    "name": pgettext_lazy("close combat unit", "Name"),
    "wounds": pgettext_lazy("close combat unit", "Wounds caused"),
    "overkill": pgettext_lazy("close combat unit", "Overkill"),
    "full_ranks": pgettext_lazy("close combat unit", "Full ranks"),
    "ranks": pgettext_lazy("close combat unit", "Ranks"),
    "models": pgettext_lazy("close combat unit", "or models"),
    "files": pgettext_lazy("close combat unit", "and files"),
    "full_rank_models": pgettext_lazy("close combat unit", "models in a full rank"),
    "standards": pgettext_lazy("close combat unit", "Standards"),
    "discipline": pgettext_lazy("close combat unit", "Discipline"),
    "flank_of": pgettext_lazy("close combat unit", "In the flank of"),
    "rear_of": pgettext_lazy("close combat unit", "In the rear of"),
    "charged": pgettext_lazy("close combat unit", "Charged"),
    "line_formation": pgettext_lazy("close combat unit", "Line Formation"),
    "battle_standard": pgettext_lazy("close combat unit", "Battle standard"),
    "reroll": pgettext_lazy("close combat unit", "May re-roll"),
}


def _labelled(sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows as the forms show them, each field with its label."""
    for side in sides:
        for unit in side["units"]:
            unit["inputs"] = [(f, FIELD_LABELS[f], value) for f, value in unit["inputs"]]
            unit["flags"] = [(f, FIELD_LABELS[f], checked) for f, checked in unit["flags"]]
    return sides


@login_required
def calculator_page(request: HttpRequest) -> HttpResponse:
    rows = rows_wanted(request.POST, request.GET)
    bound = RoundForms(request.POST, rows)
    context: dict[str, Any] = {
        "sides": _labelled(bound.shown()),
        "units": rows,
        "more": min(MAX_ROWS, rows + 2),
        "states": STATES.items(),
        "dice_mode": bound.main["dice_mode"].value() or "entered",
        "rolls": bound.main["rolls"].value() or "",
        "seed": bound.main["seed"].value() or "",
        "break_test_order": bound.main["break_test_order"].value() or "",
    }
    if request.method == "POST":
        errors = bound.errors()
        if errors:
            context["errors"] = errors
        else:
            preview = bound.main.cleaned_data["action"] == "preview"
            data = bound.round()
            outcome = round_work_out(data, preview=preview, new_seed="dice" not in data)
            if outcome.output is None:
                context["errors"] = [(str(e), e.message.render(translate=gettext)) for e in outcome.errors]
            else:
                context["round"] = round_words(outcome.output)
    return render(request, "tabletop/calculator.html", context, status=400 if "errors" in context else 200)
