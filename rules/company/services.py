"""Company campaigns' writes between battles (COMPANY.md §3, §4.2, §7): rosters, the Kasarmi, orders.

Each Kasarmi action is the engine's pure function (rules.engine.company_d20.kasarmi) run on the nation's
company as stored; a `Done` is written with its roster events in one transaction, a `Problem` writes nothing
and goes back to the caller, who shows it (`Problem.to_dict()` in the API). The audit trail is append-only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from campaign.models import Campaign, Nation, Region, Turn
from rules.company import messages as _messages  # noqa: F401 - registers the codes below
from rules.company import models
from rules.company.mapping import command_style, company_of, state_load, unit_columns
from rules.engine.company_d20 import kasarmi
from rules.engine.company_d20.events import event
from rules.engine.company_d20.orders import Order, order_problem
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.roster import unit_create as engine_unit_create
from rules.engine.company_d20.ruleset import CompanyRuleset
from rules.models import TurnSnapshot

# The GM's own actions (§7.6); a player asking for one is refused before the engine is asked.
GM_ACTIONS = ("adjust_tp", "gm_edit", "gm_restore", "gm_remove_ability", "gm_company_size")
PLAYER_ACTIONS = tuple(a for a in kasarmi.ACTIONS if a not in GM_ACTIONS)
# The balance's column (PostgreSQL's integer): a GM's adjustments add up, each within it, past it.
TP_MAX = 2**31 - 1


def company_ruleset(campaign: Campaign) -> CompanyRuleset:
    ruleset = campaign.ruleset()
    if not isinstance(ruleset, CompanyRuleset):
        raise ValueError(f"{campaign.slug} is not a company campaign ({campaign.battle_system})")
    return ruleset


def turn_in_play(campaign: Campaign) -> Turn | None:
    return campaign.turns.exclude(status=Turn.Status.RESOLVED).order_by("-number").first()


def events_append(
    *,
    campaign: Campaign,
    turn: int,
    events: Iterable[Mapping[str, Any]],
    actor: AbstractBaseUser | None,
    by_engine: bool = False,
) -> list[models.RosterEvent]:
    """Append roster events in order, numbered after the last; the caller holds the campaign's lock."""
    nations = {n.code: n for n in campaign.nations.all()}
    last = models.RosterEvent.objects.filter(campaign=campaign).aggregate(m=Max("seq"))["m"] or 0
    now = timezone.now()
    rows = [
        models.RosterEvent(
            campaign=campaign,
            seq=last + i,
            turn=turn,
            nation=nations.get(item.get("nation")),
            unit=item.get("unit"),
            kind=item["kind"],
            battle=item.get("battle") or "",
            before=item.get("before"),
            after=item.get("after"),
            tp_delta=item.get("tp_delta") or 0,
            cause=item.get("cause") or "",
            reason=item.get("reason") or "",
            actor=actor if actor is not None and actor.is_authenticated else None,
            by_engine=by_engine,
            created_at=now,
        )
        for i, item in enumerate(events, start=1)
    ]
    return models.RosterEvent.objects.bulk_create(rows)


def snapshot_ensure(*, turn: Turn) -> models.WorldSnapshot:
    """The world as the turn found it, taken before its first change (a Kasarmi action, orders, or
    processing), so that a rollback undoes the Kasarmi actions of the turn too."""
    found = models.WorldSnapshot.objects.filter(turn=turn).first()
    if found is not None:
        return found
    campaign = turn.campaign
    codes = {n.pk: n.code for n in campaign.nations.all()}
    state = {
        "units": [
            {"number": u.number, "nation": codes[u.nation_id], **_row_columns(u)}
            for u in models.Unit.objects.filter(campaign=campaign)
        ],
        "tp": {codes[b.nation_id]: b.tp for b in models.Balance.objects.filter(nation__campaign=campaign)},
        "owners": {r.code: codes.get(r.owner_id) for r in Region.objects.filter(campaign=campaign)},
        "nations": list(campaign.nations.values("id", *TurnSnapshot.NATION_FIELDS)),
        "recon": [
            {k: getattr(s, k) for k in ("viewer", "region", "turn", "levels", "units")}
            for s in models.ReconSnapshot.objects.filter(campaign=campaign)
        ],
    }
    last = models.RosterEvent.objects.filter(campaign=campaign).aggregate(m=Max("seq"))["m"] or 0
    return models.WorldSnapshot.objects.create(turn=turn, state=state, last_event=last)


def _row_columns(row: models.Unit) -> dict[str, Any]:
    fields = ("name", "type", "group", "role", "tk_max", "tk", "m", "k", "xp", "l", "s", "h", "ti")
    more = ("type_abilities", "abilities", "region", "status", "fell")
    return {f: getattr(row, f) for f in fields + more}


def _lock(campaign: Campaign) -> Campaign:
    """Kasarmi actions, rolls and turns of one campaign are serialised on its row."""
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def balances_ensure(*, campaign: Campaign) -> None:
    """Every nation has a TP balance, starting at `tp.starting` (§7.1)."""
    starting = company_ruleset(campaign).get("tp.starting")
    for nation in campaign.nations.all():
        models.Balance.objects.get_or_create(nation=nation, defaults={"tp": starting})


@transaction.atomic
def roster_unit_create(
    *,
    campaign: Campaign,
    nation: Nation,
    type: str,
    name: str,
    region: str,
    group: int = 0,
    actor: AbstractBaseUser | None = None,
) -> models.Unit:
    """The GM's (or the scenario's) starting unit: free, logged as `unit_created` with its whole record."""
    campaign = _lock(campaign)
    ruleset = company_ruleset(campaign)
    number = (models.Unit.objects.filter(campaign=campaign).aggregate(m=Max("number"))["m"] or 0) + 1
    unit = engine_unit_create(
        ruleset,
        id=number,
        type=type,
        name=name,
        nation=nation.code,
        group=group,
        region=region,
        battle_groups=command_style(nation) == "battle_groups",  # §3.5: no roles
    )
    row = models.Unit.objects.create(campaign=campaign, nation=nation, number=number, **unit_columns(unit))
    turn = turn_in_play(campaign)
    events_append(
        campaign=campaign,
        turn=turn.number if turn else 0,
        events=[event("unit_created", nation.code, number, after=unit.to_dict())],
        actor=actor,
    )
    return row


def kasarmi_act(
    *,
    campaign: Campaign,
    nation: Nation,
    action: str,
    params: Mapping[str, Any],
    actor: AbstractBaseUser | None,
    by_gm: bool,
) -> kasarmi.Done | Problem:
    """Run one Kasarmi action for `nation` and store it, or return why not (nothing written)."""
    if action not in kasarmi.ACTIONS:
        return Problem("kasarmi_action_unknown", action)
    if action in GM_ACTIONS and not by_gm:
        return Problem("gm_only", action)
    with transaction.atomic():
        campaign = _lock(campaign)
        turn = turn_in_play(campaign)
        if turn is not None:
            snapshot_ensure(turn=turn)
        done = kasarmi_try(campaign=campaign, nation=nation, action=action, params=params)
        if isinstance(done, Problem):
            return done
        if done.company.tp > TP_MAX:
            return Problem("tp_too_large", "delta", {"balance": done.company.tp, "limit": TP_MAX})
        _company_write(campaign=campaign, nation=nation, done=done)
        if action == "gm_company_size":  # stored as the override the GM gave; none: the ruleset's
            models.Balance.objects.filter(nation=nation).update(company_size=params.get("size"))
        events_append(campaign=campaign, turn=turn.number if turn else 0, events=done.events, actor=actor)
    return done


def company_current(*, campaign: Campaign, nation: Nation) -> tuple[kasarmi.Company, CompanyRuleset]:
    """The nation's Kasarmi as the engine sees it now; the Kasarmi is open while the turn takes orders."""
    ruleset = company_ruleset(campaign)
    turn = turn_in_play(campaign)
    state = state_load(campaign, turn.number if turn else 0)
    orders_phase = turn is not None and turn.status == Turn.Status.OPEN
    size = models.Balance.objects.filter(nation=nation).values_list("company_size", flat=True).first()
    company = company_of(state, nation.code, ruleset, orders_phase=orders_phase, company_size=size)
    return company, ruleset


def kasarmi_try(
    *, campaign: Campaign, nation: Nation, action: str, params: Mapping[str, Any]
) -> kasarmi.Done | Problem:
    """What the action would do, written nowhere."""
    company, ruleset = company_current(campaign=campaign, nation=nation)
    return action_try(company, ruleset, action, params)


def action_try(
    company: kasarmi.Company, ruleset: CompanyRuleset, action: str, params: Mapping[str, Any]
) -> kasarmi.Done | Problem:
    """Forms offer only the choices that come back `Done` (COMPANY.md §11.2): they try each one here."""
    try:
        return kasarmi.ACTIONS[action](company, ruleset, **params)
    except TypeError:  # a parameter the action does not take
        return Problem("params_invalid", action)


def _company_write(*, campaign: Campaign, nation: Nation, done: kasarmi.Done) -> None:
    rows = {u.number: u for u in models.Unit.objects.filter(campaign=campaign, nation=nation)}
    for number, unit in done.company.units.items():
        columns = unit_columns(unit)
        row = rows.get(number)
        if row is None:
            models.Unit.objects.create(campaign=campaign, nation=nation, number=number, **columns)
        elif any(getattr(row, k) != v for k, v in columns.items()):
            models.Unit.objects.filter(pk=row.pk).update(**columns)
    models.Balance.objects.update_or_create(nation=nation, defaults={"tp": done.company.tp})


@transaction.atomic
def orders_submit(*, turn: Turn, nation: Nation, orders: list[Mapping[str, Any]]) -> list[Problem]:
    """Replace the nation's orders for the open turn; all or nothing, each order judged as processing will
    (§4.2); the problems name the order by its index."""
    turn = Turn.objects.select_for_update().get(pk=turn.pk)
    if turn.status != Turn.Status.OPEN:
        return [Problem("not_orders_phase")]
    if Nation.objects.filter(pk=nation.pk, civil_disorder=True).exists():
        # It holds and defends, and takes no orders until the GM assigns a player (campaign.gm.roster).
        return [Problem("civil_disorder", nation.code, {"nation": nation.name})]
    campaign = turn.campaign
    ruleset = company_ruleset(campaign)
    snapshot_ensure(turn=turn)
    state = state_load(campaign, turn.number)
    adjacency = state.adjacency()
    taken: dict[int, Order] = {}
    problems = []
    for index, data in enumerate(orders):
        order = Order.from_data({**(data if isinstance(data, Mapping) else {}), "nation": nation.code})
        problem = order_problem(state, order, taken, ruleset, adjacency)
        if problem is not None:
            problems.append(Problem(problem.code, f"{index}:{problem.ref}", problem.params))
            continue
        taken.update((u, order) for u in order.units)
    if problems:
        return problems
    stored = [Order.from_data({**data, "nation": nation.code}).to_dict() for data in orders]
    models.OrderSet.objects.update_or_create(turn=turn, nation=nation, defaults={"orders": stored})
    return []
