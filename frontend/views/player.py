"""The player's pages: the list of campaigns, the campaign page (map, orders, roster), order entry."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from campaign.models import Turn
from campaign.selectors import Viewer, turn_current
from frontend.forms import OrderForm, OrderPrefill, TurnStamp, order_initial
from frontend.gm_selectors import turn_last_resolved
from frontend.home import home_rows
from frontend.map_svg import map_svg
from frontend.map_table import map_table_rows
from frontend.order_targets import targets_compact, targets_judged, targets_legal
from frontend.roster import roster_rows
from frontend.selectors import (
    MapData,
    adjacency_of,
    color_safe,
    map_load,
    nations_of,
    not_at_war_of,
    order_turn_number,
    own_stacks,
    own_stacks_shown,
)
from frontend.situation import after_turn, legend_rows, weather_words
from frontend.systems import pages_of
from frontend.terms import WORDS, said, unit_dice, unit_heading
from frontend.views.accounts import email_unconfirmed
from frontend.views.common import topbar, viewer_and_turn, viewer_for
from orders.models import Order
from orders.selectors import order_number, orders_of
from orders.services import OrderError, order_change, order_delete, order_describe, order_submit
from rules.engine.messages import CATALOGUE
from rules.engine.systems import BattleSystem, system_get
from rules.engine.validation import KIND_ROLES, units_left


@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    """The home page, "My campaigns" (frontend.home): each with the user's seat, its turn and what waits on
    the user; and, while the account has no confirmed address, the reminder that no mail reaches it."""
    context = {"rows": home_rows(user=request.user), "unconfirmed": email_unconfirmed(request)}
    return render(request, "frontend/campaign_list.html", context)


@login_required
def campaign_page(request: HttpRequest, slug: str) -> HttpResponse:
    viewer, turn = viewer_and_turn(request, slug)
    # A refused order comes back (after a reload, a language switch, going back): never lost.
    kept = request.session.pop(_kept_key(slug), None)
    # A link from the map or a report may choose the order form's region and kind.
    chosen = OrderPrefill(request.GET)
    chosen = chosen.cleaned_data if chosen.is_valid() else {}
    return _campaign_render(
        request,
        viewer,
        turn,
        form=None,
        origin=chosen.get("origin") or None,
        kind=chosen.get("kind") or None,
        kept=kept,
    )


@login_required
def order_create(request: HttpRequest, slug: str) -> HttpResponse:
    viewer = viewer_for(request, slug)
    if request.method != "POST":
        # A reload or a language switch after a refused order: the campaign page shows it again.
        return redirect(reverse("frontend:campaign", args=[slug]) + "#order")
    turn = _open_turn(viewer)
    stale = _stale_refuse(request, slug, turn, _("your order was not saved"))
    if stale:
        return stale
    form = _order_entry(viewer, turn, data=request.POST)["form"]
    saved = _order_save(
        request,
        slug,
        form,
        lambda draft: order_submit(user=request.user, turn=turn, draft=draft),
        _("Order saved: {after}."),
    )
    if saved:
        return saved
    _keep(request, slug, request.POST)
    messages.error(request, _refusal(_("The order was not saved"), form))
    return _campaign_render(request, viewer, turn, form=form, origin=form["origin"].value(), status=400)


@login_required
def order_edit(request: HttpRequest, slug: str, order_id: int) -> HttpResponse:
    viewer = viewer_for(request, slug)
    turn = _open_turn(viewer)
    refused = _order_refused(request, slug, viewer, turn, order_id, _("your change was not saved"))
    if refused:
        return refused
    order = _own_order(viewer, turn, order_id)
    status = 200
    if request.method == "POST":
        entry = _order_entry(viewer, turn, data=request.POST, editing=order)
        before = _describe(order)
        saved = _order_save(
            request,
            slug,
            entry["form"],
            lambda draft: order_change(user=request.user, order=order, draft=draft),
            _("Order changed: %(before)s; now {after}.") % {"before": before},
        )
        if saved:
            return saved
        messages.error(request, _refusal(_("The order was not changed"), entry["form"]))
        status = 400
    else:
        entry = _order_entry(viewer, turn, initial=order_initial(order), editing=order)
    context = {
        "bar": topbar(viewer, turn),
        "order": order,
        "number": order_number(turn_id=turn.pk, nation_id=order.nation_id, sequence=order.sequence),
        "describe": _describe(order),
        **entry,
    }
    return render(request, "frontend/order_edit.html", context, status=status)


@login_required
def order_remove(request: HttpRequest, slug: str, order_id: int) -> HttpResponse:
    viewer = viewer_for(request, slug)
    if request.method != "POST":
        return redirect(reverse("frontend:campaign", args=[slug]) + "#orders")
    turn = _open_turn(viewer)
    refused = _order_refused(
        request, slug, viewer, turn, order_id, _("the order was not deleted"), keep=False
    )
    if refused:
        return refused
    order = _own_order(viewer, turn, order_id)
    described = _describe(order)
    try:
        order_delete(user=request.user, order=order)
    except OrderError as error:
        messages.error(request, _("The order was not deleted: %(why)s.") % {"why": said(error.message)})
    else:
        messages.success(
            request,
            _("Order deleted: %(order)s. Those units hold unless you order them again.")
            % {"order": described},
        )
    return redirect(reverse("frontend:campaign", args=[slug]) + "#orders")


def _kept_key(slug: str) -> str:
    return f"order-kept:{slug}"


KEPT_MAX = 100  # a region's code, a kind, a count: far shorter


def _keep(request: HttpRequest, slug: str, data, **changed: str) -> None:
    """Keep a refused order's fields for the next view of the campaign page: the order form's own, each as
    long as the form takes it (the session keeps nothing else)."""
    kept = {
        k: v
        for k, v in data.items()
        if (k in OrderForm.base_fields or k.startswith("units_"))
        and len(k) <= KEPT_MAX
        and len(v) <= KEPT_MAX
    }
    request.session[_kept_key(slug)] = {**kept, **changed}


def _stale_refuse(
    request: HttpRequest, slug: str, turn, what_not: str, *, keep: bool = True
) -> HttpResponse | None:
    """A form made for a turn that is no longer the open one is refused, and its order shown back on the
    campaign page as a new order of the open turn: never saved into a turn the player did not see.
    None for a request without a form (a GET)."""
    stamp = TurnStamp(request.POST)
    made_for = stamp.cleaned_data.get("turn") if stamp.is_valid() else None
    if made_for is None or made_for == turn.number:
        return None
    if keep:
        _keep(request, slug, request.POST, turn=str(turn.number))
    messages.error(
        request,
        _("Turn %(number)s was processed while you were editing; %(what_not)s.")
        % {"number": made_for, "what_not": what_not},
    )
    return redirect(reverse("frontend:campaign", args=[slug]) + "#order")


def _order_refused(
    request: HttpRequest, slug: str, viewer: Viewer, turn, order_id: int, what_not: str, *, keep: bool = True
) -> HttpResponse | None:
    """Why an order may not be changed or deleted here, as the page to go to: the form was made for a turn
    processed since, or the order was of a past turn. None when it may."""
    return _stale_refuse(request, slug, turn, what_not, keep=keep) or _order_of_past_turn(
        request, slug, viewer, turn, order_id
    )


def _order_of_past_turn(request: HttpRequest, slug: str, viewer: Viewer, turn, order_id: int):
    """An order of the nation's from a turn already processed: said so, not a 404."""
    number = order_turn_number(nation=viewer.nation, order_id=order_id)
    if number is None or number == turn.number:
        return None
    messages.error(
        request,
        _("That order was for turn %(number)s, which has been processed; it can no longer be changed.")
        % {"number": number},
    )
    return redirect(reverse("frontend:campaign", args=[slug]) + "#order")


def _order_save(request: HttpRequest, slug: str, form: OrderForm, save, said: str) -> HttpResponse | None:
    """Save through the orders service; on success say what happened and go back to the form, with the
    origin and the kind as they were (the next order often comes from the same place).
    None when the form or the rules refused it: the form then carries the message next to the field."""
    if not form.is_valid():
        return None
    try:
        order = save(form.draft())
    except OrderError as error:
        form.refuse(error)
        return None
    request.session.pop(_kept_key(slug), None)
    messages.success(request, said.format(after=_describe(order)))
    query = urlencode({"origin": order.origin.code, "kind": order.kind})
    return redirect(reverse("frontend:campaign", args=[slug]) + f"?{query}#order")


def _refusal(what: str, form: OrderForm) -> str:
    # A refusal of the whole order (the deadline has passed) is said in the message itself.
    whole = " ".join(form.non_field_errors())
    if whole:
        return _("%(what)s: %(why)s.") % {"what": what, "why": whole}
    return _("%(what)s: see the message next to the field.") % {"what": what}


def _describe(order: Order) -> str:
    """The order in the reader's language: "V3 → K7: attack with 6 JV"."""
    return said(order_describe(order))


def _open_turn(viewer: Viewer):
    turn = turn_current(campaign=viewer.campaign)
    if turn is None or viewer.nation is None:
        raise Http404("no turn to give orders for")
    return turn


def _own_order(viewer: Viewer, turn, order_id: int) -> Order:
    # Through orders_of: another nation's order is not found, whatever its id (404, not 403).
    return get_object_or_404(orders_of(turn=turn, nation=viewer.nation), pk=order_id)


def _order_entry(
    viewer: Viewer,
    turn,
    *,
    data: Any = None,
    initial: dict[str, Any] | None = None,
    origin: str | None = None,
    editing: Order | None = None,
    regions: list[dict[str, Any]] | None = None,
    orders: list[dict[str, Any]] | None = None,
    nations: dict[int, dict[str, Any]] | None = None,
    pick: bool = True,
    not_at_war: dict[frozenset[str], str] | None = None,
    stacks: dict[int, dict[str, int]] | None = None,
) -> dict[str, Any]:
    """The order form with its choices: origins where the nation has units, targets within reach, and
    how many units of each type are left in each origin after the nation's other orders."""
    campaign = viewer.campaign
    ruleset = campaign.ruleset()
    system = system_get(campaign.battle_system)
    unit_types = list(ruleset.unit_types)
    if regions is None:
        regions = list(campaign.regions.order_by("code").values("id", "code", "name", "owner_id"))
    if orders is None:
        from frontend.selectors import order_rows

        orders = order_rows(turn=turn, nation=viewer.nation)
    code_of = {r["id"]: r["code"] for r in regions}
    name_of = {r["code"]: r["name"] for r in regions}
    if stacks is None:
        stacks = own_stacks(nation=viewer.nation)
    # What each origin has left after the nation's other orders (the one being edited left out), counted
    # as order entry counts it: holds and stand-downs take nothing.
    out_of: dict[str, list[tuple[str, dict[str, int]]]] = {}
    for o in orders:
        if editing is None or o["id"] != editing.pk:
            out_of.setdefault(o["origin"], []).append((o["kind"], o["units"]))
    here = {code_of[rid]: units for rid, units in stacks.items()}
    left = {
        code: units_left(here.get(code, {}), out_of.get(code, ())) for code in here.keys() | out_of.keys()
    }
    origin_codes = sorted(code_of[rid] for rid in stacks)
    judged = targets_judged(
        regions=regions,
        nations=nations if nations is not None else nations_of(campaign_id=campaign.pk),
        neighbours=adjacency_of(campaign_id=campaign.pk),
        not_at_war=not_at_war if not_at_war is not None else not_at_war_of(campaign_id=campaign.pk),
        nation=viewer.nation.code,
        left={c: left.get(c, {}) for c in origin_codes},
        ruleset=ruleset,
    )
    if data is None and initial is None:
        initial = {"kind": "hold", **({"origin": origin} if origin in origin_codes else {})}
    chosen = (data or {}).get("origin") or (initial or {}).get("origin") or origin
    # Chosen by the player (on the map, in a refused form), not the first in the list; after a save the form
    # keeps its origin, but the map starts again from choosing one (`pick` false).
    explicit = pick and chosen in judged
    if chosen not in judged:
        chosen = origin_codes[0] if origin_codes else None
    kind = (data or {}).get("kind") or (initial or {}).get("kind")
    targets = targets_legal(judged.get(chosen, {}), kind)
    form = OrderForm(
        data,
        initial={**(initial or {}), "turn": turn.number},
        origins=[(c, f"{c} {name_of[c]}") for c in origin_codes],
        targets=[(c, f"{c} {name_of[c]}") for c in targets],
        unit_types=unit_types,
        kinds=[k for k in system.kinds if k not in system.unitless_kinds],
        left=left.get(chosen) if chosen in left else None,
    )
    # The roles that may take each kind by the campaign's rules, not Iron Fist's table (Sodankäynti §4:
    # artillery and air attack too, and nothing stands down): the page's script enables those counts.
    kind_roles = ruleset.kind_roles or KIND_ROLES
    dice = unit_dice(ruleset)
    for unit_type in unit_types:  # each count says its units' die, where units are dice
        form.fields[f"units_{unit_type}"].label = unit_heading(unit_type, dice)
    # For the page's script: choosing an origin and a kind narrows the targets, clicking the map infers the
    # kind from the region, and the counts start at what is left.
    origin_options = [{"value": c, "label": f"{c} {name_of[c]}"} for c in origin_codes]
    kinds, reasons = targets_compact({c: judged.get(c, {}) for c in origin_codes})
    # Each target once, however many origins and kinds reach it (on a busy nation's page, some ten each).
    reached = dict.fromkeys(
        t for by_kind in judged.values() for by_target in by_kind.values() for t in by_target
    )
    order_data = {
        "origins": {
            c: {"left": {t: n for t, n in left.get(c, {}).items() if n > 0}, **kinds[c]} for c in origin_codes
        },
        # A refusal is a position in this list of templates, filled with the target and origin.
        "reasons": reasons,
        "roles": {t: unit.role for t, unit in ruleset.unit_types.items()},
        "kind_roles": {str(k): list(roles) for k, roles in kind_roles.items()},
        "wordings": {kind: gettext(CATALOGUE[f"order.{kind}"]) for kind in sorted(system.kinds)},
        "picked": chosen if explicit else None,
        "color": color_safe(viewer.nation.color),
        "labels": {t: f"{t} {name_of[t]}" for t in reached if t in name_of},
        "say_origin": _("From %(origin)s: click a target on the map, or %(origin)s again to hold."),
        "not_origin": _("%(region)s: you have no units left there to give orders to."),
        "far": _("%(target)s is not within reach of %(origin)s"),
        "kind_words": {k: str(w) for k, w in WORDS["order"].items()},
    }
    return {
        "form": form,
        "origin_options": origin_options,
        "stand_down_offered": "stand_down" in kind_roles,
        "order_data": order_data,
        "order_json": _attribute_json(order_data),
        "left": left,
        "unit_types": unit_types,
    }


def _attribute_json(value: Any) -> SafeString:
    """JSON for a single-quoted HTML attribute: only what ends the attribute or starts markup is escaped
    (&, ', <, >), not every double quote; on a 2,000-region map the order data was a third &quot;."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    escaped = text.replace("&", "&amp;").replace("'", "&#x27;").replace("<", "&lt;").replace(">", "&gt;")
    return mark_safe(escaped)  # escaped just above, for a single-quoted attribute


def _campaign_render(
    request: HttpRequest,
    viewer: Viewer,
    turn: Turn | None,
    *,
    form: OrderForm | None,
    origin: str | None,
    kind: str | None = None,
    kept: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    ruleset = viewer.campaign.ruleset()
    unit_types = list(ruleset.unit_types)
    dice = unit_dice(ruleset)
    data = map_load(viewer=viewer, turn=turn, unit_order=unit_types, dice=dice)
    system, pages = system_get(viewer.campaign.battle_system), pages_of(viewer.campaign.battle_system)
    # A system whose units take their orders elsewhere (company's Kasarmi) shows them on the map in place
    # of stacks, and its own panel in place of the order form.
    if pages.map_add is not None:
        pages.map_add(viewer, data)
    playing = viewer.nation is not None and turn is not None
    last = turn_last_resolved(campaign=viewer.campaign)
    # The banner and markers of the turn just processed; older turns are on their own pages.
    after = (
        after_turn(viewer=viewer, last=last)
        if last and (turn is None or turn.number == last.number + 1)
        else None
    )
    not_at_war = not_at_war_of(campaign_id=viewer.campaign.pk)
    own = viewer.nation.code if viewer.nation else None
    # While a turn waits for its table battles, the map marks each open or waiting one (TABLETOP A11.3).
    pending = pages.battles_pending(viewer=viewer, turn=turn) if turn and pages.battles_pending else []
    markers = {
        region: row["url"]
        for row in pending
        if row["battle"].state in ("open", "waiting")
        for region in row["regions"]
    }
    entry = None
    if playing and pages.orders_panel is None:
        initial = kept or ({"kind": kind, "origin": origin} if kind in system.kinds else None)
        entry = _order_entry(
            viewer,
            turn,
            initial=initial,
            origin=origin,
            regions=data.regions,
            orders=data.orders,
            nations=data.nations,
            pick=kind is None or kept is not None,
            not_at_war=not_at_war,
            stacks=own_stacks_shown(data=data, nation=viewer.nation.code),
        )
    context: dict[str, Any] = {
        "bar": topbar(viewer, turn),
        "viewer": viewer,
        "map": map_svg(
            data=data,
            # The regions the nation can give orders from: each a link that chooses it, without script.
            links=entry["order_data"]["origins"].keys() if entry else (),
            title=_("Map of %(campaign)s, turn %(number)s")
            % {"campaign": viewer.campaign.name, "number": turn.number if turn else ""},
            focus=_first_own(data, viewer),
            color=color_safe(viewer.nation.color) if viewer.nation else "#111",
            battles=markers or (after["battles"] if after else None),
            battle_label=_("Battle of %(region)s: open its sheet") if markers else "",
            own=own or "",
            marked=after["changed"] if after else frozenset(),
        ),
        "after": after,
        "pending_battles": pending,
        "legend": legend_rows(nations=data.nations, own=own, not_at_war=not_at_war),
        # The legend speaks of the weather where the campaign's battles read it (not Sodankäynti's, its §2).
        "weather": weather_words(turn) if pages.weather else None,
        "disorder": viewer.nation is not None and viewer.nation.civil_disorder,
        # The table repeats the map as text: on a big map it was a third of the page, so it is sent when
        # asked for (a link, no script needed).
        "table": map_table_rows(data) if request.GET.get("view") == "table" else None,
        "orders": _order_links(viewer.campaign.slug, data.orders, system),
        "playing": playing,
        # Edit and delete until the deadline; after it (or while the turn is processed) the list stays.
        "orders_open": playing and turn.status == "open" and turn.deadline > timezone.now(),
        "last_turn": last,
        "stack_orders": pages.orders_panel is None,
    }
    if entry is not None:
        if form is not None:
            entry["form"] = form
        context.update(entry)
        context["roster"] = roster_rows(data, viewer.nation.code, unit_types, entry["left"])
        context["unit_heads"] = [unit_heading(t, dice) for t in unit_types]
        context["panel"] = pages.player_panel(viewer) if pages.player_panel else None
    elif playing and pages.orders_panel is not None:
        context["panel"] = pages.orders_panel(viewer)
    return render(request, "frontend/campaign.html", context, status=status)


def _order_links(slug: str, orders: list[dict[str, Any]], system: BattleSystem) -> list[dict[str, Any]]:
    """The orders with their edit and delete links and the delete button's label, made here: in the
    template a URL lookup and a translation for each order were a third of a busy nation's page."""
    # One lookup per page: the id is the only part of the path that changes (a slug has no slash).
    edit, delete = (
        reverse(name, args=[slug, 0]) for name in ("frontend:order_edit", "frontend:order_delete")
    )
    for number, order in enumerate(orders, start=1):  # as the list numbers them
        place = f"/orders/{order['id']}/"
        # A doctrine or an ambush is changed by deleting it and giving another (its own form).
        order["edit_url"] = (
            "" if order["kind"] in system.unitless_kinds else edit.replace("/orders/0/", place)
        )
        order["delete_url"] = delete.replace("/orders/0/", place)
        order["delete_label"] = _("Delete order %(number)s: %(order)s") % {
            "number": number,
            "order": order["describe"],
        }
    return orders


def _first_own(data: MapData, viewer: Viewer) -> str | None:
    own = viewer.nation.pk if viewer.nation else None
    return next((r["code"] for r in data.regions if own is not None and r["owner_id"] == own), None)
