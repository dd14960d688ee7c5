"""Tabletop battles in the database (TABLETOP.md A4, A6, A8, A10.2, A12): the plan's battles as rows, and
the results workflow around them.

battles_record(turn=, state=, ruleset=, now=)        the plan of the moment as TableBattle rows (processing)
battle_result_save(by=, battle=, result=, now=)       a player's version, or the GM's entry (confirmed)
battle_result_check(viewer=, battle=, result=)        the form's check before saving: warnings, or errors
battle_result_withdraw / _agree / _dispute            the players' answers to the current version (A6.2)
battle_result_confirm / _void                         the GM's decisions on the current version
battle_auto_resolve / battle_reopen                   the GM on a battle (its deadline: rules.table_deadlines)
battle_overdue(battle, moment)                        a deadline passed (A8.2, A8.3), as the beat claims it

The workflow of versions, answers and decisions is the one company battles use too (rules.results_flow);
here is tabletop's `Table` for it. Every check of a result is the engine's (rules.engine.tabletop.results,
A6.3), made against the plan as it stands with the stored entries; a refused action raises `BattleError`
with every error. When the last battle gets its entry, the turn's processing is queued: it completes the
turn (A9.4).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign.models import Turn
from campaign.queue import turn_queue
from campaign.selectors import Viewer
from rules import results_flow as flow
from rules.engine.tabletop import BattlesPending, Complete, plan
from rules.engine.tabletop.results import Entrant, result_check
from rules.engine.tabletop.settings import TabletopRuleset
from rules.models import ResultVersion, TableBattle
from rules.results_flow import BattleError
from rules.selectors import turn_load
from rules.tabletop.archive import battles_carry
from rules.tabletop.mail import battle_event_queue, battle_overdue_queue, battle_sheets_queue

Clock = Callable[[], datetime]


def turn_state(*, turn: Turn) -> tuple[BattlesPending | Complete, TabletopRuleset]:
    """The plan with the stored entries (A4.3), as processing would compute it now."""
    loaded = turn_load(turn=turn)
    ruleset = turn.campaign.ruleset()
    entries = loaded.turn_input.system_inputs.get("entries", {})
    return plan(loaded.turn_input, ruleset, turn.seed_value, entries), ruleset


# What the plan writes on a battle; not the mails' claims, which a beat may be writing meanwhile.
PLANNED = [
    "position",
    "state",
    "waits_for",
    "kind",
    "sheet",
    "nations",
    "fingerprint",
    "opened_at",
    "deadline",
    "overdue_at",
]


def battles_record(
    *, turn: Turn, state: BattlesPending | Complete, ruleset: TabletopRuleset, now: datetime
) -> BattlesPending | Complete:
    """Bring the turn's Battle rows in line with the plan: open battles with their sheets and deadlines,
    waiting ones with what they wait for; stale entries and versions set aside (A10.3). A new battle may
    carry its result over from a rollback (A10.4); then the plan is made again. Returns the plan as
    the rows now stand."""
    rows = {b.key: b for b in TableBattle.objects.filter(turn=turn)}
    sheets_before = {key: b.sheet for key, b in rows.items()}  # for the stale mail's old sheet (A11.3)
    created = []
    keys = list(state.battle_keys())
    hours = timedelta(hours=ruleset.tabletop.result_deadline_hours)
    seen = set()
    for position, key in enumerate(keys):
        seen.add(key)
        battle = rows.get(key) or TableBattle(turn=turn, key=key)
        battle.position = position
        claims = []  # the reminder's claim is the beat's (rules.tabletop.mail): written here only when reset
        if key in state.waiting:
            battle.state, battle.waits_for, battle.kind = (
                TableBattle.State.WAITING,
                list(state.waiting[key]),
                "normal",
            )
        else:
            sheet = state.sheets[key]
            battle.kind, battle.sheet, battle.waits_for = sheet["kind"], sheet, []
            battle.nations = list(sheet["nations"])
            if not battle.fingerprint:  # its forces known for the first time: new, or no longer waiting
                created.append(battle)
            if battle.fingerprint and battle.fingerprint != sheet["fingerprint"]:
                if _set_aside(battle, sheet["fingerprint"], now):
                    battle_event_queue(battle_id=battle.pk, event="stale", old_sheet=sheets_before[key])
            battle.fingerprint = sheet["fingerprint"]
            resolved = key in state.resolved
            if (not resolved and battle.state != TableBattle.State.OPEN) or battle.opened_at is None:
                battle.opened_at, battle.deadline, battle.overdue_at = now, now + hours, None
                battle.reminded_at, claims = None, ["reminded_at"]
            battle.state = TableBattle.State.RESOLVED if resolved else TableBattle.State.OPEN
        battle.save(update_fields=None if battle.pk is None else [*PLANNED, *claims])
    for key in state.stale:
        if key in rows:
            why = flow.decision("forces_changed" if key in seen else "battle_gone")
            if (
                rows[key]
                .versions.filter(state=ResultVersion.State.CONFIRMED)
                .update(state=ResultVersion.State.STALE, decision=why, decided_at=now)
            ):
                battle_event_queue(battle_id=rows[key].pk, event="stale", old_sheet=sheets_before[key])
    for key, battle in rows.items():
        if key in seen or battle.state == TableBattle.State.GONE:
            continue
        # Taken away by a correction elsewhere (A10.2): gone, unless a pending meeting may bring it back.
        if isinstance(state, Complete) or not _may_reappear(key, state):
            battle.state = TableBattle.State.GONE
            battle.save(update_fields=["state"])
    if battles_carry(turn=turn, battles=created, ruleset=ruleset, now=now):
        state, ruleset = turn_state(turn=turn)
        state = battles_record(turn=turn, state=state, ruleset=ruleset, now=now)
        pending = turn.status == Turn.Status.BATTLES_PENDING
        if pending and isinstance(state, Complete) and ruleset.tabletop.complete_automatically:
            # Every battle carried its result over (A10.4): the turn completes (A9.4), a duplicate harmless.
            turn_queue(turn_id=turn.pk)
        return state
    battle_sheets_queue(turn=turn)  # the sheet mail of each battle open with new forces (A11.3)
    return state


def _may_reappear(key: str, state: BattlesPending) -> bool:
    region = key.partition(":")[2].rpartition(":")[0] if key.startswith("control:") else key.partition(":")[2]
    return any(
        region in meeting.partition(":")[2].split("|")
        for meeting in state.open
        if meeting.startswith("meeting:")
    )


def _set_aside(battle: TableBattle, fingerprint: str, now: datetime) -> int:
    """A current version made against other forces is stale: set aside, its answers with it (A10.3).
    Returns how many were."""
    return (
        battle.versions.filter(state__in=ResultVersion.CURRENT)
        .exclude(fingerprint=fingerprint)
        .update(state=ResultVersion.State.STALE, decision=flow.decision("forces_changed"), decided_at=now)
    )


# ---- the results workflow (A6.2) --------------------------------------------------------------------


def _locked(battle: TableBattle) -> Turn:
    """Lock the battle's turn: one change to a turn's entries at a time, and none while it processes."""
    return Turn.objects.select_for_update().select_related("campaign").get(pk=battle.turn_id)


def _entrant(viewer: Viewer) -> Entrant:
    return Entrant(gm=viewer.is_gm, nation=viewer.nation.code if viewer.nation else None)


def _check(viewer: Viewer, battle: TableBattle, turn: Turn, result: dict[str, Any], now: datetime):
    state, ruleset = turn_state(turn=turn)
    deadline = battle.deadline
    check = result_check(
        state,
        battle.key,
        result,
        by=_entrant(viewer),
        ruleset=ruleset,
        turn=turn.number,
        turn_pending=turn.status == Turn.Status.BATTLES_PENDING,
        deadline_passed=deadline is not None and now > deadline,
        deadline=deadline.isoformat() if deadline else "",
    )
    if check.errors:
        raise BattleError(list(check.errors))
    return check, ruleset


class _Tabletop(flow.Table):
    """A tabletop battle for the shared workflow: checked by the engine against the plan with the stored
    entries (A6.3); a confirmed entry re-plans the turn (A4.3)."""

    def owner(self) -> dict[str, Any]:
        return {"battle": self.battle}

    def lock(self) -> Turn:
        return _locked(self.battle)

    def nations(self) -> list[str]:
        return list(self.battle.nations)

    def place(self) -> str:
        return self.battle.key.partition(":")[2]

    def check(self, viewer: Viewer, turn: Turn, payload: dict[str, Any], fingerprint: str, now: datetime):
        sent = {**payload, **({"fingerprint": fingerprint} if fingerprint is not None else {})}
        check, _ = _check(viewer, self.battle, turn, sent, now)
        return check.warnings

    def entry_confirms(self, viewer: Viewer, turn: Turn) -> bool:
        return viewer.is_gm or turn.campaign.ruleset().tabletop.result_entry == "gm_only"

    def gm_confirms_agreed(self, turn: Turn) -> bool:
        return turn.campaign.ruleset().tabletop.gm_confirms_agreed

    def resolved(self, turn: Turn) -> bool:
        self.battle.refresh_from_db()
        return turn.status == Turn.Status.BATTLES_PENDING and self.battle.state == TableBattle.State.RESOLVED

    def changed(self, turn: Turn, now: datetime) -> None:
        _advance(turn, turn.campaign.ruleset(), now)

    def told(self, event: str, version: ResultVersion) -> None:
        battle_event_queue(battle_id=self.battle.pk, event=event, version_id=version.pk)  # A11.3


def battle_result_save(
    *, viewer: Viewer, battle: TableBattle, result: dict[str, Any], now: Clock = timezone.now
) -> ResultVersion:
    """A new version (A6.2 item 1). A player's is proposed, its nation agreeing; the GM's is confirmed."""
    payload = {k: v for k, v in result.items() if k != "fingerprint"}
    fingerprint = result.get("fingerprint")
    return flow.result_save(
        _Tabletop(battle), viewer=viewer, payload=payload, fingerprint=fingerprint, now=now()
    )


def battle_result_check(
    *, viewer: Viewer, battle: TableBattle, result: dict[str, Any], now: Clock = timezone.now
) -> list[Any]:
    """The result form's check before it is submitted (A6.4, A12 "live validation and warnings"): the
    warnings of a result that may be saved now, or BattleError with every error, as saving would give.
    Nothing is stored."""
    turn = Turn.objects.select_related("campaign").get(pk=battle.turn_id)
    check, _ = _check(viewer, battle, turn, result, now())
    return list(check.warnings)


def battle_result_withdraw(*, viewer: Viewer, version: ResultVersion, now: Clock = timezone.now) -> None:
    flow.result_withdraw(_Tabletop(version.battle), viewer=viewer, version=version, now=now())


def battle_result_agree(*, viewer: Viewer, version: ResultVersion, now: Clock = timezone.now) -> None:
    flow.result_agree(_Tabletop(version.battle), viewer=viewer, version=version, now=now())


def battle_result_dispute(
    *, viewer: Viewer, version: ResultVersion, comment: str, now: Clock = timezone.now
) -> None:
    flow.result_dispute(_Tabletop(version.battle), viewer=viewer, version=version, comment=comment, now=now())


def battle_result_confirm(*, viewer: Viewer, version: ResultVersion, now: Clock = timezone.now) -> None:
    """The GM confirms the current version, agreed or not (recorded as a GM decision, A6.2 item 5)."""
    flow.result_confirm(_Tabletop(version.battle), viewer=viewer, version=version, now=now())


def battle_result_void(
    *, viewer: Viewer, version: ResultVersion, reason: str, now: Clock = timezone.now
) -> None:
    """The GM sets the current version aside: the battle is open again without one."""
    flow.result_void(_Tabletop(version.battle), viewer=viewer, version=version, reason=reason, now=now())


def battle_auto_resolve(
    *, viewer: Viewer, battle: TableBattle, why: str = "", now: Clock = timezone.now
) -> ResultVersion:
    """The GM has the Iron Fist resolver decide an open battle, from its derived seed (A8.4)."""
    moment = now()
    if not viewer.is_gm:
        raise flow.refuse("gm_only")
    with transaction.atomic():
        turn = _locked(battle)
        _, ruleset = _check(
            viewer,
            battle,
            turn,
            {"winner": None, "losses": {n: {} for n in battle.nations}, "fingerprint": battle.fingerprint},
            moment,
        )
        flow.supersede(battle, moment)
        version = ResultVersion.objects.create(
            battle=battle,
            number=flow.number_next(battle),
            origin=ResultVersion.Origin.AUTO,
            state=ResultVersion.State.CONFIRMED,
            payload={"auto_resolve": True, "by": "gm", "why": why},
            fingerprint=battle.fingerprint,
            author=viewer.user,
            created_at=moment,
            decided_at=moment,
            decided_by=viewer.user,
            decision=flow.decision("auto_resolved_by_gm_why", why=why)
            if why
            else flow.decision("auto_resolved_by_gm"),
        )
        battle_event_queue(battle_id=battle.pk, event="confirmed", version_id=version.pk)
        _advance(turn, ruleset, moment)
    return version


def battle_reopen(*, viewer: Viewer, battle: TableBattle, reason: str, now: Clock = timezone.now) -> None:
    """The GM reopens a resolved battle (A10.2): its entry is archived, the battle is open again."""
    flow.entry_reopen(_Tabletop(battle), viewer=viewer, reason=reason, now=now())


def battle_auto_preview(*, battle: TableBattle) -> dict[str, Any] | None:
    """The GM's preview of an open battle's auto-resolution (A10.1): the derived seed makes it the report
    that auto-resolving would give, while the GM's inputs stay as they are. Nothing is stored."""
    turn = battle.turn
    loaded = turn_load(turn=turn)
    entries = {**loaded.turn_input.system_inputs.get("entries", {}), battle.key: {"auto_resolve": True}}
    state = plan(loaded.turn_input, turn.campaign.ruleset(), turn.seed_value, entries)
    reports = state.turn_result.battles if isinstance(state, Complete) else state.reports
    return next((r for r in reports if r.get("key") == battle.key and "kta" in r), None)


def battle_overdue(battle: TableBattle, moment: datetime) -> None:
    """Its deadline passed (rules.table_deadlines has claimed it, once per deadline): with
    `on_missing_result: auto_resolve` it is decided at once (A8.3); its players and the GM are told (A8.2,
    A11.3), once the claim commits."""
    if battle.turn.campaign.ruleset().tabletop.on_missing_result == "auto_resolve":
        _deadline_decide(battle, moment)
    battle_overdue_queue(battle_id=battle.pk)


def _deadline_decide(battle: TableBattle, now: datetime) -> None:
    """A8.3: an agreed current version is confirmed as it stands; otherwise the battle is auto-resolved,
    and a current version that was not agreed is archived with the battle, not used."""
    with transaction.atomic():
        turn = _locked(battle)
        current = flow.current(battle)
        if current is not None and current.state == ResultVersion.State.AGREED:
            current.state, current.decided_at = ResultVersion.State.CONFIRMED, now
            current.decision = flow.decision("confirmed_at_deadline")
            current.save(update_fields=["state", "decided_at", "decision"])
        else:
            battle.versions.filter(state__in=ResultVersion.CURRENT).update(
                state=ResultVersion.State.SUPERSEDED,
                decision=flow.decision("not_agreed_at_deadline"),
                decided_at=now,
            )
            ResultVersion.objects.create(
                battle=battle,
                number=flow.number_next(battle),
                origin=ResultVersion.Origin.DEADLINE,
                state=ResultVersion.State.CONFIRMED,
                payload={"auto_resolve": True, "by": "deadline", "why": "no agreed result"},
                fingerprint=battle.fingerprint,
                created_at=now,
                decided_at=now,
                decision=flow.decision("auto_resolved_at_deadline"),
            )
        _advance(turn, turn.campaign.ruleset(), now)


def _advance(turn: Turn, ruleset: TabletopRuleset, now: datetime) -> None:
    """Re-plan with the entries now stored: new battles open; when none is left, the turn completes."""
    state, ruleset = turn_state(turn=turn)
    state = battles_record(turn=turn, state=state, ruleset=ruleset, now=now)
    if isinstance(state, Complete) and ruleset.tabletop.complete_automatically:
        turn_queue(turn_id=turn.pk)
