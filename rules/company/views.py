"""The company pages (COMPANY.md §11.2): the Kasarmi per nation, a battle with its dice panel and report,
and "verify the dice". Views parse, check who looks, call one service, render; what a viewer may not see is
a 404 as in the API."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaign.messages import said
from campaign.models import Turn
from campaign.selectors import Viewer, turn_current
from frontend.views.battles import battle_redirect
from frontend.views.common import topbar, viewer_for
from rules.company.dice import battle_stream_text, dice_roll, dice_verify, roll_mark, table_turn_set
from rules.company.dice_forms import dice_forms, dice_inputs
from rules.company.forms import (
    DiceForm,
    KasarmiForm,
    OrderForm,
    ResultActionForm,
    RollMarkForm,
    errors_said,
    shape_errors_said,
)
from rules.company.gm_forms import gm_form_posted, gm_forms
from rules.company.models import Battle
from rules.company.page_data import battle_progress, battle_url, kasarmi_choices, report_rows, trail_row
from rules.company.result_form import entry_from_post, result_form
from rules.company.results import (
    battle_fingerprint,
    company_battle_void,
    company_result_act,
    company_result_save,
    current_version,
)
from rules.company.selectors import (
    battle_side,
    battle_visible,
    battles_of,
    contacts_view_of,
    event_row,
    events_of,
    is_company,
    orders_of,
    rolls_of,
    roster_nation,
    roster_view,
    seed_revealed,
    sheet_of,
)
from rules.company.services import (
    PLAYER_ACTIONS,
    company_current,
    company_ruleset,
    kasarmi_act,
    orders_submit,
)
from rules.company.shapes import ResultEntryShape
from rules.company.turn import company_turn_preview
from rules.company.views_kp import kp_panel, kp_post
from rules.engine.company_d20.problems import Problem
from rules.engine.messages import Message
from rules.models import TableBattle
from rules.results_flow import BattleError


def _company_viewer(request: HttpRequest, slug: str):
    viewer = viewer_for(request, slug)
    if not is_company(viewer.campaign):
        raise Http404("not a company campaign")
    return viewer


def _roster_of(request: HttpRequest, slug: str, code: str):
    """The viewer, and the nation whose roster `code` names if the viewer may see it; a 404 else."""
    viewer = _company_viewer(request, slug)
    target = roster_nation(viewer=viewer, code=code)
    if target is None:
        raise Http404("no such roster")
    return viewer, target


@login_required
def kasarmi_home(request: HttpRequest, slug: str) -> HttpResponse:
    """The viewer's own Kasarmi; the GM's first, with every other one a link away."""
    viewer = _company_viewer(request, slug)
    nation = viewer.nation or viewer.campaign.nations.order_by("position").first()
    if nation is None:
        raise Http404("no nation")
    return redirect(reverse("frontend:company_kasarmi", args=[slug, nation.code]))


@login_required
def kasarmi_page(request: HttpRequest, slug: str, nation: str) -> HttpResponse:
    viewer, target = _roster_of(request, slug, nation)
    return kasarmi_render(request, viewer, target)


def kasarmi_render(
    request: HttpRequest,
    viewer,
    target,
    *,
    data=None,
    which: str = "",
    status: int = 200,
    problem: Problem | None = None,
) -> HttpResponse:
    """The Kasarmi page; for the GM with the edit forms of §7.6, the one named `which` bound to `data`
    (a refused GM form is shown again as it was sent, beside its message)."""
    campaign = viewer.campaign
    roster = roster_view(campaign=campaign, nation=target)
    turn = turn_current(campaign=campaign)
    step_tt, step_slot = roster["settings"]["tt_step"], roster["settings"]["xp_step"]
    for card in roster["units"]:
        card["tk_percent"] = round(100 * card["tk"] / card["tk_max"])
        card["tt_percent"] = round(100 * (card["xp"] % step_tt) / step_tt)
        card["slot_percent"] = round(100 * (card["xp"] % step_slot) / step_slot)
    events = [trail_row(event_row(e)) for e in events_of(campaign=campaign, nation=target)]
    context = {
        "bar": topbar(viewer, turn),
        "nation": target,
        "roster": roster,
        "choices": kasarmi_choices(campaign=campaign, nation=target, roster=roster),
        "events": events,
        "orders": orders_of(turn=turn, nation=target) if turn else [],
        "regions": sorted(campaign.regions.values_list("code", flat=True)),
        "can_order": viewer.nation == target and turn is not None and turn.status == "open",
        # A player's own recon (§10.3); the GM's page shows the nation's, as that nation sees it.
        "contacts": contacts_view_of(campaign=campaign, nation=target),
        "nations": campaign.nations.order_by("position") if viewer.is_gm else [],
        # The GM's page lists every battle of the turn; a player's, its own nation's.
        "battles": [
            {"battle": b, "progress": battle_progress(b)}
            for b in (battles_of(campaign=campaign, turn=turn) if turn else [])
            if viewer.is_gm or target.code in b.data["sides"]
        ],
    }
    if viewer.is_gm:
        company, ruleset = company_current(campaign=campaign, nation=target)
        context["gm"] = gm_forms(company, ruleset, roster, data=data, which=which)
        posted = gm_form_posted(context["gm"], which) if problem is not None else None
        if posted is not None:
            posted.is_valid()
            posted.add_error(posted.place(problem), said(problem.message))
    return render(request, "company/kasarmi.html", context, status=status)


@login_required
@require_POST
def kasarmi_post(request: HttpRequest, slug: str, nation: str) -> HttpResponse:
    viewer, target = _roster_of(request, slug, nation)
    form = KasarmiForm(request.POST)
    valid = form.is_valid()
    action = form.cleaned_data.get("action")
    if action not in PLAYER_ACTIONS:
        raise Http404("no such action")
    done = (
        kasarmi_act(
            campaign=viewer.campaign,
            nation=target,
            action=action,
            params=form.params(),
            actor=request.user,
            by_gm=viewer.is_gm,
        )
        if valid
        else None
    )
    if done is None:
        for text in errors_said(form):
            messages.error(request, text)
    elif isinstance(done, Problem):
        messages.error(request, said(done.message))
    else:
        messages.success(request, _("Done."))
    return redirect(reverse("frontend:company_kasarmi", args=[slug, target.code]))


@login_required
@require_POST
def orders_post(request: HttpRequest, slug: str, nation: str) -> HttpResponse:
    """Add one order to the nation's orders of the open turn, or clear them; judged as processing will."""
    viewer, target = _roster_of(request, slug, nation)
    if viewer.nation != target:
        raise Http404("no such roster")
    back = reverse("frontend:company_kasarmi", args=[slug, target.code]) + "#orders"
    form = OrderForm(request.POST)
    if not form.is_valid():
        for text in errors_said(form):
            messages.error(request, text)
        return redirect(back)
    turn = turn_current(campaign=viewer.campaign)
    standing = list(orders_of(turn=turn, nation=target)) if turn else []
    orders = [] if form.cleaned_data["clear"] else [*standing, form.order()]
    problems = (
        orders_submit(turn=turn, nation=target, orders=orders) if turn else [Problem("not_orders_phase")]
    )
    for problem in problems:
        messages.error(request, said(problem.message))
    return redirect(back)


def battle_of_table(viewer: Viewer, table: TableBattle) -> Battle:
    """The company battle of a table battle, for a viewer who fought in it or the GM; else a 404."""
    battle = battle_visible(viewer=viewer, pk=table.company.pk)
    if battle is None:
        raise Http404("no such battle")
    return battle


def battle_page(request: HttpRequest, viewer: Viewer, table: TableBattle) -> HttpResponse:
    """A battle's page at its address: its units, dice, KP ledger and result, and their forms (§11.2)."""
    battle = battle_of_table(viewer, table)
    if request.method == "POST" and "result" in request.POST:
        return _result_post(request, viewer, battle)
    if request.method == "POST" and "kp" in request.POST:
        return kp_post(request, viewer, battle)
    if request.method == "POST" and "table_turn_next" in request.POST:
        problem = table_turn_set(
            battle=battle, table_turn=battle.table_turn + 1, user=request.user, by_gm=viewer.is_gm
        )
        if problem is not None:
            messages.error(request, said(problem.message))
        return redirect(battle_url(battle) + "#rolls")
    if request.method == "POST" and "roll_mark" in request.POST:
        mark = RollMarkForm(request.POST)
        problem = (
            roll_mark(
                battle=battle,
                seq=mark.cleaned_data["seq"],
                mark=mark.cleaned_data["roll_mark"],
                text=mark.cleaned_data["text"],
                by_gm=viewer.is_gm,
            )
            if mark.is_valid()
            else None
        )
        for text in [said(problem.message)] if problem is not None else errors_said(mark):
            messages.error(request, text)
        return redirect(battle_url(battle) + "#rolls")
    if request.method == "POST":
        return _dice_post(request, viewer, battle)
    return battle_render(request, viewer, battle)


def _dice_post(request: HttpRequest, viewer, battle) -> HttpResponse:
    """A roll from the dice panel: its function's fields as the inputs (rules.company.dice_forms), the
    purpose and any inputs of its own bounded by the form."""
    form = DiceForm(request.POST)
    if not form.is_valid():
        for text in errors_said(form):
            messages.error(request, text)
        return redirect(battle_url(battle))
    function = form.cleaned_data["function"]
    inputs = dice_inputs(function, request.POST, company_ruleset(viewer.campaign))
    made = (
        inputs
        if isinstance(inputs, Problem)
        else dice_roll(
            battle=battle,
            user=request.user,
            side=battle_side(viewer=viewer, battle=battle),
            function=function,
            inputs=inputs,
            purpose=form.cleaned_data["purpose"] or None,
        )
    )
    if isinstance(made, Problem):
        messages.error(request, said(made.message))
    return redirect(battle_url(battle))


def battle_render(
    request: HttpRequest, viewer, battle, *, entry: Any = None, raw: str | None = None, errors=(), status=200
) -> HttpResponse:
    """The battle page; after a refused save, with the entry as it was sent (`entry` from the form, `raw`
    the JSON text) and every §5.3 error beside its row (COMPANY.md §5.1, §5.3)."""
    campaign = viewer.campaign
    sheet = sheet_of(viewer=viewer, battle=battle)
    own = [u for side in sheet["sides"] for u in side.get("units", [])]
    final = seed_revealed(battle=battle)
    versions = list(battle.versions.select_related("nation").prefetch_related("answers__nation"))
    current = current_version(battle)
    # What the form shows: what was typed if the save was refused, else the latest version (§5.2), else none.
    if entry is not None:
        shown = entry
    elif versions:
        shown = versions[-1].payload
    else:
        shown = {"units": [{"unit": int(u)} for u in battle.data["units"]], "sides": {}}
    context = {
        "bar": topbar(viewer, turn_current(campaign=campaign), battle=battle.table),
        "battle": battle,
        "sheet": sheet,
        "own_units": own,
        "kp": kp_panel(battle=battle, ruleset=company_ruleset(campaign), sheet=sheet, viewer=viewer),
        "dice_forms": dice_forms(
            sheet,
            company_ruleset(campaign),
            gm=viewer.is_gm,
            viewer=None if viewer.is_gm else viewer.nation.code,
        ),
        "rolls": rolls_of(viewer=viewer, battle=battle),
        # Without the KP ledger the participants advance the table turn here (§13).
        "table_turn_form": battle.status == "open" and not company_ruleset(campaign).get("kp.tracking"),
        # §5.2: the GM sets or moves its deadline while the turn waits for its battles.
        "deadline_form": viewer.is_gm and battle.turn.status == Turn.Status.BATTLES_PENDING,
        "overdue": battle.table.overdue_at is not None,
        "final": final,
        "stream": battle_stream_text(battle) if final else None,
        "entry_template": raw
        if raw is not None
        else json.dumps({k: v for k, v in shown.items() if k != "fingerprint"}, indent=1),
        "entry_raw": raw is not None,
        "fingerprint": battle_fingerprint(battle),
        "form": result_form(
            battle=battle, sheet=sheet, ruleset=company_ruleset(campaign), entry=shown, errors=errors
        ),
        "versions": versions,
        "current": current if current is not None and current.state != "confirmed" else None,
        # The other nations answer a version: the saver's nation agreed by saving it (§5.2).
        "may_answer": current is not None
        and current.state != "confirmed"
        and not viewer.is_gm
        and not current.answers.filter(nation=viewer.nation, answer="agree").exists(),
        "reopenable": viewer.is_gm
        and battle.status in ("resolved", "void")
        and not battle.archived
        and battle.turn.status == "battles_pending",
        "report": report_rows(
            battle.report,
            ruleset=company_ruleset(campaign),
            viewer=None if viewer.is_gm else viewer.nation.code,
        )
        if battle.report
        else None,
    }
    return render(request, "company/battle.html", context, status=status)


def _result_post(request: HttpRequest, viewer, battle) -> HttpResponse:
    """One step of the shared results entry, by its button: save a version (a member of the battle's
    nations or the GM), agree or dispute it (the other nations), confirm, void or reopen (the GM)."""
    back = battle_url(battle) + "#result"
    form = ResultActionForm(request.POST)
    if not form.is_valid():
        for text in errors_said(form):
            messages.error(request, text)
        return redirect(back)
    data = form.cleaned_data
    action = data["result"]
    try:
        if action == "save":
            raw = data["entry"] if "entry" in request.POST else None  # the advanced JSON text, or the form
            return _result_save(request, viewer, battle, raw=raw)
        elif action == "void_battle":
            company_battle_void(viewer=viewer, battle=battle, reason=data["reason"])
        else:
            number = data["version"]
            named = battle.versions.filter(number=number).first() if number is not None else None
            version = named if number is not None else current_version(battle)
            text = data["comment"] or data["reason"] or ""
            company_result_act(viewer=viewer, battle=battle, action=action, version=version, text=text)
    except BattleError as error:
        for e in error.errors:
            ref = e.ref if isinstance(e, Problem) else ":".join(e.ref)
            text = said(e.message)
            messages.error(request, f"{ref}: {text}" if ref not in (None, "") else text)
    else:
        messages.success(request, _("Done."))
    return redirect(back)


def _result_save(request: HttpRequest, viewer, battle, *, raw: str | None) -> HttpResponse:
    """Save a version from the form (or the advanced JSON text); a refusal shows the page again as sent.
    Either goes through the API's shape of an entry (rules.company.shapes), bounded as the API's is."""
    if raw is not None:
        try:
            entry = json.loads(raw)
        except ValueError:
            entry = None
    else:
        entry = entry_from_post(request.POST, battle)
    shape = ResultEntryShape(data=entry) if isinstance(entry, dict) else None
    if shape is not None and not shape.is_valid():
        for text in shape_errors_said(shape.errors):
            messages.error(request, text)
        return battle_render(request, viewer, battle, entry=entry, raw=raw, status=400)
    if shape is not None:
        entry = shape.validated_data
    try:
        company_result_save(viewer=viewer, battle=battle, entry=entry)
    except BattleError as error:
        shown = entry if isinstance(entry, dict) else None
        return battle_render(request, viewer, battle, entry=shown, raw=raw, errors=error.errors, status=400)
    messages.success(request, _("Done."))
    return redirect(battle_url(battle) + "#result")


def verify_page(request: HttpRequest, viewer: Viewer, table: TableBattle) -> HttpResponse:
    """A final battle's dice, checked against its revealed seed (§8.3): a part of its page."""
    battle = battle_of_table(viewer, table)
    if not seed_revealed(battle=battle):
        raise Http404("no such battle, or not final yet")
    context = {
        "bar": topbar(viewer, turn_current(campaign=viewer.campaign)),
        "battle": battle,
        "verify": dice_verify(battle=battle),
        "rolls": rolls_of(viewer=viewer, battle=battle),
    }
    return render(request, "company/verify.html", context)


def company_preview_page(request: HttpRequest, viewer: Viewer, turn: Turn) -> HttpResponse:
    """A company turn's dry run: the battles that processing would assign now, computed on each visit
    and stored nowhere (rules.company.turn.company_turn_preview)."""
    if request.method == "POST":
        return redirect("frontend:gm_preview", slug=viewer.campaign.slug, number=turn.number)
    preview = company_turn_preview(turn=turn) if turn.status == Turn.Status.OPEN else None
    if preview is not None:
        for row in preview["rejected"]:
            row.append(said(Message.from_dict(row[1]["message"])))
        for battle in preview["battles"]:
            battle["forces"] = [
                {
                    "nation": nation,
                    "units": [u for u in battle["units"].values() if u["nation"] == nation],
                }
                for nation in battle["sides"]
            ]
    context = {
        "bar": topbar(viewer, turn_current(campaign=viewer.campaign)),
        "turn": turn,
        "preview": preview,
    }
    return render(request, "company/preview.html", context)


@login_required
def battle_by_id(request: HttpRequest, slug: str, pk: int, part: str = "") -> HttpResponse:
    """A battle's earlier address, by its own id (`battles/<pk>/`, `battles/<pk>/verify/`): to its address
    now, for links in mails already sent."""
    battle = battle_visible(viewer=_company_viewer(request, slug), pk=pk)
    if battle is None:
        raise Http404("no such battle")
    return battle_redirect(request, battle.table, part)
