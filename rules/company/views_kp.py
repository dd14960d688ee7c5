"""The KP ledger on a battle's page (COMPANY.md §9, §11.2), when the campaign keeps one: the pools of each
side at this table turn, every operation with who asked, and a form per operation. Each form goes to the
one service (rules.company.kp.kp_operate), which stores the operation or refuses it and stores nothing."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from campaign.messages import said
from rules.company.dice_forms import unit_label
from rules.company.forms import KpForm, errors_said
from rules.company.kp import OPERATIONS, kp_operate, ledger_of
from rules.company.page_data import battle_url
from rules.company.selectors import battle_side
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.ruleset import CompanyRuleset


def kp_panel(*, battle, ruleset: CompanyRuleset, sheet: dict[str, Any], viewer) -> dict[str, Any] | None:
    """What the page shows of the ledger; None when the campaign keeps none."""
    if not ruleset.get("kp.tracking"):
        return None
    ledger = ledger_of(battle, ruleset).view()
    side = battle_side(viewer=viewer, battle=battle)
    own = [u for s in sheet["sides"] for u in s.get("units", []) if side is None or s["nation"] == side]
    sides = list(ledger["pools"]) if side is None else [side]
    return {
        **ledger,
        "operations": battle.kp or [],
        "sides": sides,
        "units": [(u["id"], unit_label(u)) for u in own],
        "leaders": [(u["id"], unit_label(u)) for u in own if u.get("role") == "platoon_leader"],
        "pool_choices": sorted({p for s in sides for p in ledger["pool_names"].get(s, [])}),
        "actions": list(ruleset.get("kp.actions")),
    }


def _whole(text: str) -> int | str | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() else (text or None)


def kp_post(request: HttpRequest, viewer, battle) -> HttpResponse:
    """One operation from the page's KP forms, for the viewer's side (the GM names the side)."""
    back = battle_url(battle) + "#kp"
    form = KpForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Not recorded: %(why)s") % {"why": " ".join(errors_said(form))})
        return redirect(back)
    post = form.cleaned_data
    op = post["kp"]
    side = battle_side(viewer=viewer, battle=battle)
    acting = side or post["side"] or None
    if op == "turn_start":
        declared: dict[str, Any] = {"out_of_link": post["out_of_link"]}
        if post["promote"]:
            declared["promote"] = _whole(post["promote"])
        params: dict[str, Any] = {"declarations": {acting: declared} if acting else {}}
    elif op == "spend":
        params = {"side": acting, "pool": post["pool"] or None, "action": post["action"] or None}
        if post["unit"]:
            params["unit"] = _whole(post["unit"])
    elif op == "transfer":
        params = {"side": acting, "to": post["to"] or None}
    else:
        params = {"unit": _whole(post["unit"])}
    done = (
        kp_operate(battle=battle, user=request.user, side=side, op=op, params=params)
        if op in OPERATIONS
        else Problem("action_unknown", op)
    )
    if isinstance(done, Problem):
        messages.error(request, _("Not recorded: %(why)s") % {"why": said(done.message)})
    else:
        messages.success(request, _("Recorded in the KP ledger: table turn %(n)s.") % {"n": done.table_turn})
    return redirect(back)
