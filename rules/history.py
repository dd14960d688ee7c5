"""The GM's control over a turn's result: preview it, publish it, roll it back, compare two results.

turn_preview(turn_id=, by=)                  dry run on the orders of the moment; writes only the preview
turn_preview_get(turn_id=, by=)              the last preview, to read its reports
turn_publish(turn_id=, by=)                  process for real; says whether the result is the previewed one
turn_rollback(turn_id=, by=, force=, ...)    undo the last resolved turn exactly; its result is archived
turn_result_diff(turn_id=, by=)              what changed between the archived result and the current one
turn_archives(turn_id=, by=)                 the rolled-back results of a turn, newest first

Every function checks that `by` is the campaign's GM (PermissionDenied otherwise). The world is loaded by
the same code as turn processing (`rules.selectors.turn_load`), so a preview sees what processing will see.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import User, audit_write, gm_check
from campaign.gm.processing import turn_missed_counting_set
from campaign.messages import status_word
from campaign.models import GMModifier, Nation, Region, Stack, Turn
from orders.models import Order
from rules import engine
from rules.bulk import rows_insert, rows_update
from rules.diff import ResultDiff, result_diff
from rules.engine.messages import InputError, Message
from rules.models import Report, TurnArchive, TurnPreview, TurnSnapshot
from rules.selectors import turn_load, turn_result
from rules.services import turn_process
from rules.system_shells import system_shell

logger = logging.getLogger(__name__)
Clock = Callable[[], datetime]

# The parts of the engine's input that can change between a preview and publishing (rules/messages.py
# says each in the words a GM uses: "input_changed.regions" is "owners or weather by region ...").
INPUT_PARTS = ("orders", "stacks", "regions", "gm_modifiers", "weather", "relations", "nations", "borders")


@dataclass(frozen=True)
class PublishOutcome:
    turn: Turn
    preview: TurnPreview | None
    # True: the previewed result, exactly; False: another one (see `changes` and `diff`); None: no preview.
    matched: bool | None
    changes: list[Message] = field(default_factory=list)  # "orders changed since the preview"
    diff: ResultDiff | None = None  # the preview against the published result


@dataclass(frozen=True)
class RollbackOutcome:
    turn: Turn
    archive: TurnArchive
    # What went with the next turn: {"orders": 3, "gm_modifiers": 1}
    removed: dict[str, int]


def turn_preview(*, turn_id: int, by: User, now: Clock = timezone.now) -> TurnPreview:
    """Run the engine on the open turn as it stands, with the turn's seed; store the result, nothing else."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    gm_check(by=by, campaign=turn.campaign)
    _open_check(turn)
    loaded = turn_load(turn=turn)
    try:
        result = engine.resolve_turn(loaded.turn_input, turn.campaign.ruleset(), turn.seed_value)
    except Exception as error:
        raise InputError.of("turn", "engine_cannot", number=turn.number, error=str(error)) from error
    preview, _ = TurnPreview.objects.update_or_create(
        turn=turn,
        defaults={
            "fingerprint": loaded.fingerprint,
            "input_json": loaded.canonical,
            "result": _json(result.to_dict()),
            "created_at": now(),
            "created_by": by if by.is_authenticated else None,
            "published_at": None,
            "published_matched": None,
            "published_note": "",
        },
    )
    return preview


def turn_preview_get(*, turn_id: int, by: User) -> TurnPreview | None:
    """The turn's last preview, for the GM to read its reports (`result["battles"]`); None if none."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    gm_check(by=by, campaign=turn.campaign)
    return TurnPreview.objects.filter(turn=turn).first()


def turn_publish(
    *, turn_id: int, by: User, count_missed: bool = False, now: Clock = timezone.now
) -> PublishOutcome:
    """Process the open turn for real and compare its result with the GM's preview, if there is one.

    Published early, it is no missed turn for the nations without orders unless the GM says so
    (`count_missed`; campaign.gm.processing.turn_missed_counting_set).

    The engine is deterministic: when the input is the previewed one (same fingerprint), the published
    result is the previewed result. When it is not, the outcome names what changed ("orders changed since
    the preview") and how the result differs; both are recorded on the preview.
    """
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    gm_check(by=by, campaign=turn.campaign)
    _open_check(turn)
    turn_missed_counting_set(turn=turn, count_missed=count_missed, now=now)
    processed = turn_process(turn_id=turn_id, now=now)
    if processed is None:
        raise InputError.of("turn", "processed_elsewhere", number=turn.number)
    if processed.status != Turn.Status.RESOLVED:
        raise InputError.of("turn", "turn_failed", number=turn.number, error=processed.error)
    processed.refresh_from_db()
    preview = TurnPreview.objects.filter(turn=processed).first()
    audit_write(
        by, processed.campaign, "process", Message("audit.published", {"number": processed.number}), "", now
    )
    if preview is None:
        return PublishOutcome(turn=processed, preview=None, matched=None)
    snapshot = TurnSnapshot.objects.get(turn=processed)
    changes = [
        Message(f"input_changed.{part}")
        if part in INPUT_PARTS
        else Message("input_changed.other", {"part": part})
        for part in _changed_parts(preview.turn_input, snapshot.turn_input)
    ]
    if snapshot.fingerprint != preview.fingerprint and not changes:
        changes = [Message("input_changed.seed")]
    diff = result_diff(preview.result, turn_result(turn=processed))
    matched = diff.same
    if not changes and not matched:
        # Same input, another result: the engine is not deterministic. Never expected; loud when it happens.
        logger.error("turn %s: same input as the preview, another result", processed.pk)
        changes = [Message("result_not_deterministic")]
    preview.published_at = now()
    preview.published_matched = matched
    # English, as the GM reads it on the preview page (the outcome's `changes` are shown in their language).
    preview.published_note = "; ".join(str(c) for c in changes)[:300]
    preview.save(update_fields=["published_at", "published_matched", "published_note"])
    return PublishOutcome(turn=processed, preview=preview, matched=matched, changes=changes, diff=diff)


def turn_rollback(
    *,
    turn_id: int,
    by: User,
    force: bool = False,
    reason: str = "",
    deadline: datetime | None = None,
    now: Clock = timezone.now,
) -> RollbackOutcome:
    """Undo the campaign's last resolved turn: the world as it was before it, the turn open again.

    Stacks, owners and the nations' missed-turn counts come back from the turn's snapshot; its reports
    leave the players' view and its result is archived for the GM; the turn keeps its orders and GM
    inputs. The next turn, opened by processing, is deleted: when it has orders or GM inputs already,
    only with `force`. The reopened turn gets a new deadline (`deadline`, or one turn length from now)
    so that it is not processed at once, and is unclaimed so that that deadline queues it again.
    """
    with transaction.atomic():
        turn = Turn.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=turn_id)
        campaign = turn.campaign
        gm_check(by=by, campaign=campaign)
        if turn.status != Turn.Status.RESOLVED:
            raise InputError.of(
                "turn", "rollback_not_resolved", number=turn.number, status=status_word(turn.status)
            )
        archive, removed = turn_result_undo(turn=turn, by=by, force=force, reason=reason, now=now)
        keep = system_shell(campaign.battle_system).rollback_keep
        if keep is not None:
            # Back to its orders: the system's own rows go with the result, kept (tabletop's battles, A10.4).
            keep(turn=turn, archive=archive)
        turn_reopen(turn=turn, deadline=deadline, now=now)
        audit_write(
            by, campaign, "rollback", Message("audit.rolled_back", {"number": turn.number}), reason, now
        )
    return RollbackOutcome(turn=turn, archive=archive, removed=removed)


def turn_reopen(*, turn: Turn, deadline: datetime | None, now: Clock) -> None:
    """A rolled-back turn open for orders again, as before it was processed, with a new deadline (`deadline`,
    or one turn length from now) so that it is not processed at once."""
    turn.status = Turn.Status.OPEN
    turn.result = None
    turn.error = ""
    turn.processed_at = None
    turn.deadline = deadline or now() + turn.campaign.turn_length
    # Unclaimed, so that the new deadline queues it and reminds its players again (campaign.lifecycle).
    turn.queued_at = None
    turn.reminded_at = None
    # Its deadline counts missed turns again, unless the GM processes it early once more.
    turn.missed_counted = True
    turn.save(
        update_fields=[
            "missed_counted",
            "status",
            "result",
            "error",
            "processed_at",
            "deadline",
            "queued_at",
            "reminded_at",
        ]
    )


def turn_result_undo(
    *, turn: Turn, by: User, force: bool, reason: str, now: Clock
) -> tuple[TurnArchive, dict[str, int]]:
    """The part of a rollback that every kind shares, on a resolved turn its caller has locked: the world
    back from the snapshot, the result archived, the reports gone, the next turn deleted (its inputs only
    with `force`). The turn's own row is the caller's to set."""
    campaign = turn.campaign
    following = Turn.objects.select_for_update().filter(campaign=campaign, number=turn.number + 1).first()
    if following is not None and following.status == Turn.Status.RESOLVED:
        raise InputError.of("turn", "rollback_not_last", number=following.number)
    if following is not None and following.status == Turn.Status.PROCESSING:
        raise InputError.of("turn", "rollback_processing", number=following.number)
    # A system may keep its own snapshot of the world (company_d20: rosters, balances and owners).
    shell = system_shell(campaign.battle_system)
    own = shell.snapshot_exists is not None and shell.world_restore is not None
    snapshot = TurnSnapshot.objects.filter(turn=turn).first()
    if snapshot is None and not (own and shell.snapshot_exists(turn=turn)):
        raise InputError.of("turn", "rollback_no_snapshot", number=turn.number)
    removed = _inputs_of(following) if following is not None else {}
    if any(removed.values()) and not force:
        what = [Message(f"inputs.{name}", {"count": count}) for name, count in removed.items() if count]
        raise InputError.of("force", "rollback_needs_force", number=following.number, what=what)
    archive = TurnArchive.objects.create(
        turn=turn,
        fingerprint=snapshot.fingerprint if snapshot is not None else "",
        result=turn_result(turn=turn),
        processed_at=turn.processed_at,
        archived_at=now(),
        archived_by=by if by.is_authenticated else None,
        reason=reason[:300],
    )
    if own:
        shell.world_restore(turn=turn)
    else:
        _world_restore(campaign_id=campaign.pk, turn_input=snapshot.turn_input)
        rows_update(model=Nation, key="id", columns=TurnSnapshot.NATION_FIELDS, rows=snapshot.nations)
        snapshot.delete()
    Report.objects.filter(turn=turn).delete()
    if following is not None:
        following.delete()
    return archive, removed


def turn_archives(*, turn_id: int, by: User) -> list[TurnArchive]:
    """The turn's rolled-back results, newest first; each `result["battles"]` holds its reports."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    gm_check(by=by, campaign=turn.campaign)
    return list(TurnArchive.objects.filter(turn=turn).order_by("-archived_at", "-id"))


def turn_result_diff(*, turn_id: int, by: User, archive_id: int | None = None) -> ResultDiff:
    """The turn's current result against its last archived one (or `archive_id`): battles, owners, stacks."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    gm_check(by=by, campaign=turn.campaign)
    archives = TurnArchive.objects.filter(turn=turn).order_by("-archived_at", "-id")
    archive = archives.filter(pk=archive_id).first() if archive_id is not None else archives.first()
    if archive is None:
        raise InputError.of("archive", "no_archive", number=turn.number)
    if turn.result is None:
        raise InputError.of("turn", "diff_unprocessed", number=turn.number, status=status_word(turn.status))
    return result_diff(archive.result, turn_result(turn=turn))


def _open_check(turn: Turn) -> None:
    if turn.status != Turn.Status.OPEN:
        raise InputError.of("turn", "not_open", number=turn.number, status=status_word(turn.status))


def _inputs_of(turn: Turn) -> dict[str, int]:
    return {
        "orders": Order.objects.filter(turn=turn).count(),
        "gm_modifiers": GMModifier.objects.filter(turn=turn).count(),
        "weather_changes": int(turn.weather != Turn.Weather.CLEAR or bool(turn.region_weather)),
    }


def _world_restore(*, campaign_id: int, turn_input: Mapping[str, Any]) -> None:
    """Stacks and owners as the snapshot has them: three statements and two lookups, for any map."""
    nation_id = dict(Nation.objects.filter(campaign_id=campaign_id).values_list("code", "id"))
    region_id = dict(Region.objects.filter(campaign_id=campaign_id).values_list("code", "id"))
    Stack.objects.filter(region__campaign_id=campaign_id).delete()
    rows_insert(
        model=Stack,
        columns=["nation", "region", "unit_type", "count"],
        rows=[
            {
                "nation": nation_id[s["nation"]],
                "region": region_id[s["region"]],
                "unit_type": s["unit_type"],
                "count": s["count"],
            }
            for s in turn_input["stacks"]
        ],
    )
    rows_update(
        model=Region,
        key="id",
        columns=["owner"],
        rows=[
            {"id": region_id[r["code"]], "owner": nation_id[r["owner"]] if r["owner"] else None}
            for r in turn_input["regions"]
        ],
    )


def _changed_parts(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    return [part for part in sorted(set(before) | set(after)) if before.get(part) != after.get(part)]


def _json(data: Any) -> Any:
    # As a JSON column reads it back: tuples as lists, so stored and fresh results compare equal.
    return json.loads(json.dumps(data))
