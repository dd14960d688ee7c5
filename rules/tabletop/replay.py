"""A tabletop turn replayed from its export (rules.export): the entries it was completed from, and its saved
rounds, given back to its battles as they open, until the turn completes (TABLETOP.md A4.3, A10.5).

battle_rounds_export(turn=)                         every saved round of the turn, by battle key
battles_replay(turn=, entries=, rounds=, now=)      the exported entries confirmed battle by battle, the
                                                    plan made again after each pass; the turn completed

The plan is a function of the turn input and the entries (A4.3): the same entries give the same turn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from django.utils import timezone

from campaign.models import Turn
from rules import results_flow as flow
from rules.models import ResultVersion, TableBattle
from rules.services import turn_process
from rules.tabletop.archive import rounds_restore
from rules.tabletop.battles import battles_record, turn_state

Clock = Callable[[], datetime]


def battles_replay(
    *,
    turn: Turn,
    entries: Mapping[str, Mapping[str, Any]],
    rounds: Mapping[str, list[dict[str, Any]]],
    now: Clock = timezone.now,
) -> Turn | None:
    """Give each open battle its exported entry (when its fingerprint is the exported one), plan again,
    and go on while battles open; then complete the turn. Returns the turn as processing left it."""
    while True:
        given = 0
        for battle in TableBattle.objects.filter(turn=turn, state=TableBattle.State.OPEN):
            entry = entries.get(battle.key)
            if entry is None or battle.versions.filter(state=ResultVersion.State.CONFIRMED).exists():
                continue
            if entry.get("fingerprint", battle.fingerprint) != battle.fingerprint:
                continue
            moment = now()
            ResultVersion.objects.create(
                battle=battle,
                number=battle.versions.count() + 1,
                origin=ResultVersion.Origin.AUTO if entry.get("auto_resolve") else ResultVersion.Origin.GM,
                state=ResultVersion.State.CONFIRMED,
                payload={k: v for k, v in entry.items() if k != "fingerprint"},
                fingerprint=entry.get("fingerprint", battle.fingerprint),
                created_at=moment,
                decided_at=moment,
                decision=flow.decision("replayed"),
            )
            given += 1
        if not given:
            break
        state, ruleset = turn_state(turn=turn)
        battles_record(turn=turn, state=state, ruleset=ruleset, now=now())
    for battle in TableBattle.objects.filter(turn=turn, key__in=list(rounds)):
        if not battle.rounds.exists():
            rounds_restore(battle=battle, rounds=rounds[battle.key], authors=False)
    turn.refresh_from_db()
    if turn.status != Turn.Status.BATTLES_PENDING:
        return turn
    return turn_process(turn_id=turn.pk, now=now)
