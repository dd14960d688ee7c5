"""Turn processing: claim the turn, load the world, run the engine, write the result. One transaction.

turn_process(turn_id=...)      what the Celery task and `manage.py process_turn` call

The world comes in through rules.selectors.turn_load, as the GM's preview sees it; what a battle system
needs beyond the engine, through rules.system_shells. Queueing a turn, reopening and retrying a failed one
are claims of their own, in campaign.queue.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any

from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone

from campaign import lifecycle
from campaign.models import Campaign, Nation, Region, Stack, Turn
from campaign.services import turn_create
from rules import engine
from rules.bulk import row_save, rows_delete, rows_execute, rows_insert, rows_payload, rows_table, rows_update
from rules.engine.turn import without_gc_pauses
from rules.json_fast import result_json
from rules.mapping import Rows, WorldIds, owner_changes, report_rows, stack_changes, stack_rows
from rules.models import Report, ReportNation, TurnSnapshot
from rules.selectors import turn_load
from rules.system_shells import SystemShell, system_shell

logger = logging.getLogger(__name__)

# Each step of processing runs inside stage(name); the benchmark passes one that times and counts queries.
Stage = Callable[[str], AbstractContextManager[object]]


@contextmanager
def _no_stage(name: str) -> Iterator[None]:
    yield


def turn_process(
    *, turn_id: int, now: Callable[[], datetime] = timezone.now, stage: Stage = _no_stage
) -> Turn | None:
    """Resolve an open turn and open the next. Returns the turn, or None when it was not open to claim.

    Safe to run twice, at once or one after the other: the second run waits for the row, finds the turn
    no longer open and exits without effect. Everything happens in one transaction, so a worker that
    dies midway leaves the turn open for Celery's redelivery. When the engine or a write fails, nothing
    is written but the turn's failed status and the error, and the GM can retry.
    """
    with transaction.atomic():
        # The locks order entry takes and why this claim cannot deadlock with them: orders/sql.py.
        # Wait for the row rather than skip it: an order being written holds it for a moment, and a run
        # that skipped would leave the turn open with its job spent. A duplicate run waits for the first
        # and then finds the turn no longer open.
        turn = (
            Turn.objects.select_for_update(of=("self",)).select_related("campaign").filter(pk=turn_id).first()
        )
        if turn is None:
            logger.info("turn %s: gone", turn_id)
            return None
        # An open turn, or one whose battles were waiting for results (re-planned with the entries so far).
        claimed = Turn.objects.filter(
            pk=turn_id, status__in=(Turn.Status.OPEN, Turn.Status.BATTLES_PENDING)
        ).update(status=Turn.Status.PROCESSING)
        if claimed != 1:
            logger.info("turn %s: %s, not open; another process got there first", turn_id, turn.status)
            return None
        try:
            with transaction.atomic(), without_gc_pauses():
                _turn_resolve(turn=turn, now=now, stage=stage)
        except (OperationalError, InterfaceError):
            # The database itself went away: nothing can be written now, the whole transaction is lost
            # and the turn stays open; the task records the fault afresh and tries again (rules.tasks).
            raise
        except Exception:
            logger.exception("turn %s of %s failed", turn.number, turn.campaign.slug)
            turn.status = Turn.Status.FAILED
            turn.error = traceback.format_exc(limit=20)
            turn.processed_at = now()
            turn.save(update_fields=["status", "error", "processed_at"])
        return turn


def _turn_resolve(*, turn: Turn, now: Callable[[], datetime], stage: Stage) -> None:
    campaign: Campaign = turn.campaign
    shell = system_shell(campaign.battle_system)
    if shell.turn_advance is not None:
        # Its own turn (company_d20: named units, table battles, per-unit results; BATTLE_SYSTEMS.md).
        shell.turn_advance(turn=turn, was=turn.status, now=now)
        return
    with stage("load"):
        loaded = turn_load(turn=turn)
        rows, ids = loaded.rows, loaded.ids
        ruleset = campaign.ruleset()
    with stage("resolve"):
        result = engine.resolve_turn(loaded.turn_input, ruleset, turn.seed_value)
    if result.pending:
        # Battles fought elsewhere have no result yet: the turn waits for them with the world unchanged,
        # keeping the plan so far (BATTLE_SYSTEMS.md, `Pending`).
        turn.status = Turn.Status.BATTLES_PENDING
        turn.result = result.to_dict()
        turn.error = ""
        turn.save(update_fields=["status", "result", "error"])
        _battles_record(shell=shell, turn=turn, result=result, ruleset=ruleset, now=now())
        return
    with stage("write"):
        # The world before the turn, in one row, so that the GM can roll the turn back exactly. Its 3 MB
        # (10,000 regions) go in as rows_insert and row_save below send them: as data, not SQL text.
        snapshot = {
            "turn": turn.pk,
            "fingerprint": loaded.fingerprint,
            "input_json": loaded.canonical,
            "nations": list(
                Nation.objects.filter(campaign_id=campaign.pk).values("id", *TurnSnapshot.NATION_FIELDS)
            ),
            # The turn's own row as its battles left it, for a rollback to them (rules.tabletop.rollback).
            "turn_before": {"result": turn.result} if turn.status == Turn.Status.BATTLES_PENDING else None,
        }
        rows_insert(model=TurnSnapshot, columns=list(snapshot), rows=[snapshot])
        _result_write(turn=turn, rows=rows, ids=ids, result=result)
        turn.status = Turn.Status.RESOLVED
        turn.error = ""
        turn.processed_at = now()
        # The reports are stored once, as report rows: rules.selectors.turn_result puts the whole back.
        # The rest is encoded from the result itself (`to_dict(battles=False)` as JSON); `turn.result` is
        # read back from the row if asked for.
        row_save(turn, ["status", "error", "processed_at"], encoded={"result": result_json(result)})
        turn_create(campaign=campaign, number=turn.number + 1, now=now())
        # Missed turns and civil disorder, in this transaction; the results mail once it commits.
        lifecycle.turn_resolved(turn=turn)
        _battles_record(shell=shell, turn=turn, result=result, ruleset=ruleset, now=now())


def _battles_record(
    *, shell: SystemShell, turn: Turn, result: engine.TurnResult, ruleset: Any, now: datetime
) -> None:
    """A system's battles as rows, from the plan its engine gave with the result (tabletop: open battles with
    their sheets and deadlines, TABLETOP A4, A12)."""
    if shell.battles_record is not None:
        shell.battles_record(turn=turn, state=result.plan, ruleset=ruleset, now=now)


def _result_write(*, turn: Turn, rows: Rows, ids: WorldIds, result: engine.TurnResult) -> None:
    """Change the stacks and owners that changed, store the reports: seven statements for any map."""
    # Mapped before the first write, so a bad code in the result fails the turn with nothing written.
    stacks = stack_rows(result, ids)
    owners = owner_changes(result, ids, {r[0]: r[5] for r in rows.regions})
    reports, report_nations = report_rows(result.battles, ids, turn.pk)

    stacks_write(before=rows.stacks, after=stacks)
    rows_update(model=Region, key="id", columns=["owner"], rows=owners)
    rows_insert(
        model=Report,
        columns=["turn", "position", "kind", "region", "regions", "conquest", "data"],
        rows=reports,
    )
    _report_nations_insert(turn_id=turn.pk, rows=report_nations)


def stacks_write(*, before: list[tuple[int, int, int, str, int]], after: list[dict[str, Any]]) -> None:
    """Make the stack table hold `after` (stack_rows) where it held `before` (Rows.stacks): three
    statements. Most stacks come out of a turn as they went in: only the others are written."""
    changes = stack_changes(before, after)
    rows_delete(model=Stack, key="id", rows=changes.deleted)
    rows_update(model=Stack, key="id", columns=["count"], rows=changes.updated)
    rows_insert(model=Stack, columns=["nation", "region", "unit_type", "count"], rows=changes.inserted)


def _report_nations_insert(*, turn_id: int, rows: list[dict[str, int]]) -> None:
    """Who may read which report, joined to the reports just written by their position in the turn."""
    fields = [Report._meta.get_field("position"), ReportNation._meta.get_field("nation")]
    qn = connection.ops.quote_name
    sql = (
        f"INSERT INTO {qn(ReportNation._meta.db_table)} (report_id, nation_id) "
        f"SELECT r.id, j.nation_id FROM {rows_table(fields)} "
        f"JOIN {qn(Report._meta.db_table)} r ON r.turn_id = %s AND r.position = j.position"
    )
    rows_execute(sql, [rows_payload(fields, rows), turn_id])
