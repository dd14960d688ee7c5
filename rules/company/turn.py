"""The company turn in the database (COMPANY.md §4.3, §6; BATTLE_SYSTEMS.md): processing assigns the table
battles and the turn waits in `battles_pending`; completion applies every final result; a rollback restores
the world before the turn exactly, archiving (never deleting) its battles, dice logs and audit entries.

rules.services.turn_process claims the turn and calls `company_turn_advance` in its transaction.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from campaign.lifecycle import nations_missed_count, pause_renew
from campaign.models import Campaign, Nation, Region, Turn
from campaign.queue import task_queue
from campaign.services import turn_create
from rules.company import models
from rules.company.mapping import (
    battle_data,
    battle_of,
    snapshot_columns,
    state_load,
    unit_columns,
)
from rules.company.services import company_ruleset, events_append, snapshot_ensure
from rules.engine.company_d20.dice import stream_seed, turn_stream
from rules.engine.company_d20.orders import Order
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.results import final_view
from rules.engine.company_d20.roster import unit_view
from rules.engine.company_d20.turn import VOID, complete_turn, process_turn
from rules.models import ResultVersion, TableBattle

SEND_COMPANY_RESULTS = "frontend.tasks.send_company_results"  # queued by name: the mail is the interface's
SEND_COMPANY_BATTLES = "frontend.tasks.send_company_battles"
SEND_COMPANY_BATTLE_DUE = "rules.company.tasks.send_company_battle_due"  # a result due soon, or overdue


def company_turn_advance(*, turn: Turn, was: str, now: Callable[[], datetime] = timezone.now) -> None:
    """The claimed turn's next step: processing from `open`, completion from `battles_pending`."""
    if was == Turn.Status.BATTLES_PENDING:
        if company_turn_complete(turn=turn, now=now) is not None:
            Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.BATTLES_PENDING)
        return
    company_turn_process(turn=turn, now=now)


def _processed(turn: Turn, nations: dict[str, Nation]):
    """§4.3 on the turn as it stands, from the turn's stream: what processing computes, nothing written;
    with the orders, in the order processing judged them."""
    campaign = turn.campaign
    position = {code: n.position for code, n in nations.items()}
    orders = [
        Order.from_data(data)
        for order_set in sorted(
            turn.company_orders.select_related("nation"), key=lambda o: position[o.nation.code]
        )
        for data in order_set.orders
    ]
    dice = random.Random(stream_seed(turn_stream(campaign.seed, turn.number)))
    return process_turn(state_load(campaign, turn.number), orders, company_ruleset(campaign), dice), orders


def company_turn_preview(*, turn: Turn) -> dict[str, Any]:
    """The GM's dry run of an open turn (UX "Preview"): the orders accepted and rejected, the recon rolls
    and the battles processing would assign now, each with its sides' units. The same seed makes it what
    processing will do on the same orders; nothing is stored."""
    nations = {n.code: n for n in turn.campaign.nations.all()}
    processed, orders = _processed(turn, nations)
    ruleset = company_ruleset(turn.campaign)
    return {
        **_outline(processed, orders),
        "turn": turn.number,
        "battles": [
            {
                **battle_data(b),
                "units": {str(u): unit_view(unit, ruleset) for u, unit in b.units.items()},
            }
            for b in processed.battles
        ],
    }


def company_turn_process(*, turn: Turn, now: Callable[[], datetime] = timezone.now) -> None:
    """§4.3: re-check the orders, move, roll recon from the turn stream, and create the table battles."""
    campaign = turn.campaign
    snapshot_ensure(turn=turn)
    nations = {n.code: n for n in campaign.nations.all()}
    # The orders phase is over: a nation with a player and no orders missed the turn, and after the
    # campaign's `civil_disorder_after` misses in a row falls into civil disorder (campaign.lifecycle).
    nations_missed_count(turn=turn)
    processed, orders = _processed(turn, nations)
    _units_write(campaign=campaign, nations=nations, units=processed.state.units)
    _recon_write(campaign=campaign, snapshots=processed.state.snapshots)
    events_append(campaign=campaign, turn=turn.number, events=processed.events, actor=None, by_engine=True)
    opened, ruleset = now(), company_ruleset(campaign)
    for position_, battle in enumerate(processed.battles, start=1):
        identity = {"turn": turn, "position": position_, "key": battle.key, "kind": battle.kind}
        fought = battle.kind != "unopposed"
        table = TableBattle.objects.create(
            **identity,
            state=TableBattle.State.OPEN if fought else TableBattle.State.RESOLVED,
            nations=list(battle.sides),
            # §5.2 "Deadlines": due `result.deadline_hours` after the battle is created.
            opened_at=opened if fought else None,
            deadline=opened + timedelta(hours=ruleset.get("result.deadline_hours")) if fought else None,
        )
        row = models.Battle.objects.create(**identity, table=table, data=battle_data(battle))
        row.nations.set([nations[n] for n in battle.sides])
    turn.result = {**_outline(processed, orders), "dice": [list(d) for d in processed.dice]}
    turn.status = Turn.Status.BATTLES_PENDING
    turn.error = ""
    turn.save(update_fields=["result", "status", "error"])
    if not turn.company_battles.filter(table__state=TableBattle.State.OPEN).exists():
        company_turn_complete(turn=turn, now=now)
    else:
        # §4.5: the participants and the GM are notified of the battles; a failed mail never undoes the turn.
        task_queue(SEND_COMPANY_BATTLES, turn.pk, robust=True)


def _outline(processed, orders: list[Order]) -> dict[str, Any]:
    """The orders accepted and rejected and the recon rolls, as the turn's result stores them; a rejected
    order and a recon roll name their nation, whose turn report lists them (§4.2, §10.2, §11.1)."""
    return {
        "system": "company_d20",
        "format": 1,
        "accepted": [[i, o.to_dict()] for i, o in processed.accepted],
        "rejected": [[i, {**p.to_dict(), "nation": orders[i].nation}] for i, p in processed.rejected],
        "recon": [
            {**_plain(r), "nation": orders[r["order"]].nation, "region": orders[r["order"]].target}
            for r in processed.recon
        ],
    }


def _plain(value: Any) -> Any:
    """The engine's values as JSON stores them (messages by their dict form)."""
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _units_write(*, campaign: Campaign, nations: dict[str, Nation], units: dict) -> None:
    rows = {u.number: u for u in models.Unit.objects.filter(campaign=campaign)}
    for number, unit in units.items():
        columns = unit_columns(unit)
        row = rows[number]
        if any(getattr(row, k) != v for k, v in columns.items()):
            models.Unit.objects.filter(pk=row.pk).update(**columns)


def _recon_write(*, campaign: Campaign, snapshots) -> None:
    models.ReconSnapshot.objects.filter(campaign=campaign).delete()
    models.ReconSnapshot.objects.bulk_create(
        models.ReconSnapshot(campaign=campaign, **snapshot_columns(s)) for s in snapshots
    )


def company_turn_complete(*, turn: Turn, now: Callable[[], datetime] = timezone.now) -> Problem | None:
    """§6: once every battle is final or void, apply them in battle order, then ownership, returns,
    retreats and recon expiry; the turn is resolved and the next opens. A battle still open: the Problem."""
    battles = list(
        turn.company_battles.filter(table__archived=False).select_related("table").order_by("position")
    )
    waiting = next((b for b in battles if b.status == models.Battle.Status.OPEN), None)
    if waiting is not None:
        return Problem("results_missing", waiting.key)
    campaign = turn.campaign
    ruleset = company_ruleset(campaign)
    state = state_load(campaign, turn.number)  # with every GM edit made while the battles were fought
    engine_battles = [battle_of(b.data, ruleset) for b in battles]
    entries = dict(
        ResultVersion.objects.filter(
            battle__company__in=battles, state=ResultVersion.State.CONFIRMED
        ).values_list("battle_id", "payload")
    )
    results = {
        b.key: VOID if b.status == models.Battle.Status.VOID else entries[b.table_id]
        for b in battles
        if b.kind != "unopposed"
    }
    completed = complete_turn(state, engine_battles, results, ruleset)
    nations = {n.code: n for n in campaign.nations.all()}
    _units_write(campaign=campaign, nations=nations, units=completed.state.units)
    for code, tp in completed.state.tp.items():
        models.Balance.objects.update_or_create(nation=nations[code], defaults={"tp": tp})
    for region in Region.objects.filter(campaign=campaign):
        owner = completed.state.regions[region.code].owner
        owner_id = nations[owner].pk if owner else None
        if region.owner_id != owner_id:
            Region.objects.filter(pk=region.pk).update(owner_id=owner_id)
    _recon_write(campaign=campaign, snapshots=completed.state.snapshots)
    events_append(campaign=campaign, turn=turn.number, events=completed.events, actor=None, by_engine=True)
    for row, battle in zip(battles, engine_battles, strict=True):
        final = completed.finals.get(battle.key)
        row.report = {
            "system": "company_d20",
            "format": 1,
            "key": battle.key,
            "kind": battle.kind,
            "outcome": _plain(completed.outcomes.get(battle.key, {})),
            "before": {str(u): unit_view(unit, ruleset) for u, unit in battle.units.items()},
            "final": _plain(final_view(final, ruleset)) if final is not None else None,
            "retreats": {str(u): list(r) for u, r in completed.retreats.items() if u in battle.units},
        }
        row.save(update_fields=["report"])
    turn.status = Turn.Status.RESOLVED
    turn.processed_at = now()
    turn.result = {
        **(turn.result or {}),
        "cut_off": list(completed.cut_off),
        "retreats": {str(u): list(r) for u, r in completed.retreats.items()},
    }
    turn.save(update_fields=["status", "processed_at", "result"])
    turn_create(campaign=campaign, number=turn.number + 1, now=now())
    pause_renew(turn=turn)
    task_queue(SEND_COMPANY_RESULTS, turn.pk, robust=True)  # a failed mail never undoes the turn
    return None


def company_snapshot_exists(*, turn: Turn) -> bool:
    return models.WorldSnapshot.objects.filter(turn=turn).exists()


def company_world_restore(*, turn: Turn) -> None:
    """Put the rosters, balances, owners and recon back as the turn found them, Kasarmi actions of the
    turn included (rules.history.turn_rollback does the rest). The battles, their dice and the audit
    entries since are archived: kept, no longer counted."""
    campaign = Campaign.objects.select_for_update().get(pk=turn.campaign_id)
    snapshot = models.WorldSnapshot.objects.get(turn=turn)
    nations = {n.code: n for n in campaign.nations.all()}
    models.Unit.objects.filter(campaign=campaign).delete()
    models.Unit.objects.bulk_create(
        models.Unit(
            campaign=campaign, nation=nations[u["nation"]], **{k: v for k, v in u.items() if k != "nation"}
        )
        for u in snapshot.state["units"]
    )
    for code, tp in snapshot.state["tp"].items():
        models.Balance.objects.update_or_create(nation=nations[code], defaults={"tp": tp})
    for fields in snapshot.state.get("nations", []):  # missed turns and civil disorder
        Nation.objects.filter(pk=fields["id"]).update(**{k: v for k, v in fields.items() if k != "id"})
    for region in Region.objects.filter(campaign=campaign):
        owner = snapshot.state["owners"].get(region.code)
        Region.objects.filter(pk=region.pk).update(owner=nations[owner] if owner else None)
    models.ReconSnapshot.objects.filter(campaign=campaign).delete()
    models.ReconSnapshot.objects.bulk_create(
        models.ReconSnapshot(campaign=campaign, **s) for s in snapshot.state["recon"]
    )
    models.RosterEvent.objects.filter(
        campaign=campaign, seq__gt=snapshot.last_event, archived_by=None
    ).update(archived_by=turn)
    TableBattle.objects.filter(turn=turn).update(archived=True)
    snapshot.delete()


def company_battle_remind(battle_id: int) -> None:
    """Queue the reminder of a battle whose reminder's claim the caller holds (rules.table_deadlines)."""
    task_queue(SEND_COMPANY_BATTLE_DUE, battle_id, False, robust=True)


def company_battle_overdue(battle: TableBattle, moment: datetime) -> None:
    """§5.2: at its deadline a battle without a final result is overdue: its players and the GM are told,
    and the GM dashboard lists it. It is never resolved by itself."""
    task_queue(SEND_COMPANY_BATTLE_DUE, battle.pk, True, robust=True)
