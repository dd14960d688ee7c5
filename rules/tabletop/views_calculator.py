"""The close-combat round calculator's page (TABLETOP.md Part B), for the players at the table, no JavaScript.

The form has a fixed number of unit rows per side (`?units=N` for more); an empty row is no unit. Fields are
converted as B's conventions say: a base-10 integer becomes a number, anything else is passed on as its text
(and refused by the check that wants a whole number); a checkbox is a boolean; unit lists are ids separated
by commas or spaces. **Preview** shows every target without dice; **Roll** takes the dice entered, or has the
server roll from a new seed, which the page prints so that the round can be replayed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext, pgettext_lazy

from rules.engine.tabletop.close_combat_words import steadfast_message
from rules.tabletop.calculator import round_work_out

ROWS, MAX_ROWS = 4, 12
NUMBERS = (
    "wounds",
    "overkill",
    "full_ranks",
    "ranks",
    "models",
    "files",
    "full_rank_models",
    "standards",
    "discipline",
)
FLAGS = ("charged", "line_formation", "battle_standard", "reroll")
LISTS = ("flank_of", "rear_of")
TEXTS = ("id", "name")
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
INTEGER = re.compile(r"^[+-]?[0-9]+$")


def _number(text: str) -> Any:
    """A base-10 integer as a number; any other text is passed on as it is, for validation to refuse."""
    text = text.strip()
    return int(text) if INTEGER.match(text) else text


def _ids(text: str) -> list[str]:
    return [part for part in re.split(r"[\s,]+", text.strip()) if part]


def _unit(post: QueryDict, prefix: str) -> dict[str, Any] | None:
    """One row of the form as B2.2's unit, or None for an empty row."""
    unit: dict[str, Any] = {}
    for field in TEXTS:
        if post.get(f"{prefix}{field}", "").strip():
            unit[field] = post[f"{prefix}{field}"].strip()
    for field in NUMBERS:
        if post.get(f"{prefix}{field}", "").strip():
            unit[field] = _number(post[f"{prefix}{field}"])
    for field in LISTS:
        if post.get(f"{prefix}{field}", "").strip():
            unit[field] = _ids(post[f"{prefix}{field}"])
    for field in FLAGS:
        if post.get(f"{prefix}{field}"):
            unit[field] = True
    if not unit:
        return None
    unit["state"] = post.get(f"{prefix}state", "engaged")
    return unit


def round_from_form(post: QueryDict, rows: int) -> dict[str, Any]:
    """The form as the round's input (B2.1)."""
    sides = []
    for s in (0, 1):
        units = [_unit(post, f"side-{s}-unit-{i}-") for i in range(rows)]
        side: dict[str, Any] = {
            "name": post.get(f"side-{s}-name", "").strip(),
            "units": [u for u in units if u],
        }
        if post.get(f"side-{s}-other-value", "").strip():
            side["other"] = [
                {
                    "value": _number(post[f"side-{s}-other-value"]),
                    "reason": post.get(f"side-{s}-other-reason", "").strip(),
                }
            ]
        sides.append(side)
    data: dict[str, Any] = {"sides": sides}
    if post.get("break_test_order", "").strip():
        data["break_test_order"] = _ids(post["break_test_order"])
    if post.get("dice_mode") == "seeded" and post.get("seed", "").strip():
        data["dice"] = {"seed": _number(post["seed"])}
    elif post.get("dice_mode") != "seeded":
        data["dice"] = {"rolls": [_number(d) for d in _ids(post.get("rolls", ""))]}
    return data


def _rows(request: HttpRequest) -> int:
    wanted = request.POST.get("units") or request.GET.get("units") or ""
    return min(MAX_ROWS, max(1, int(wanted))) if wanted.isdigit() else ROWS


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


def _form(post: QueryDict, rows: int) -> list[dict[str, Any]]:
    """The form's sides and unit rows with what was entered, for the template."""
    return [
        {
            "prefix": f"side-{s}-",
            "number": s + 1,
            "name": post.get(f"side-{s}-name", ""),
            "other_value": post.get(f"side-{s}-other-value", ""),
            "other_reason": post.get(f"side-{s}-other-reason", ""),
            "units": [
                {
                    "prefix": (prefix := f"side-{s}-unit-{i}-"),
                    "state": post.get(f"{prefix}state", "engaged"),
                    "inputs": [
                        (field, FIELD_LABELS[field], post.get(f"{prefix}{field}", ""))
                        for field in (*TEXTS, *NUMBERS, *LISTS)
                    ],
                    "flags": [
                        (field, FIELD_LABELS[field], bool(post.get(f"{prefix}{field}"))) for field in FLAGS
                    ],
                }
                for i in range(rows)
            ],
        }
        for s in (0, 1)
    ]


@login_required
def calculator_page(request: HttpRequest) -> HttpResponse:
    rows = _rows(request)
    context: dict[str, Any] = {
        "sides": _form(request.POST, rows),
        "units": rows,
        "more": min(MAX_ROWS, rows + 2),
        "states": STATES.items(),
        "dice_mode": request.POST.get("dice_mode", "entered"),
        "rolls": request.POST.get("rolls", ""),
        "seed": request.POST.get("seed", ""),
        "break_test_order": request.POST.get("break_test_order", ""),
    }
    if request.method == "POST":
        preview = request.POST.get("action") == "preview"
        data = round_from_form(request.POST, rows)
        outcome = round_work_out(data, preview=preview, new_seed="dice" not in data)
        if outcome.output is None:
            context["errors"] = [(str(e), e.message.render(translate=gettext)) for e in outcome.errors]
        else:
            context["round"] = round_words(outcome.output)
    return render(request, "tabletop/calculator.html", context, status=400 if "errors" in context else 200)
