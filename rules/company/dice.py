"""The dice service of a table battle (COMPANY.md §8): each request runs on the battle's own stream, and its
entries and the stream's new state are stored in one transaction before the answer goes back, so no die can
be rolled again in secret: asking again draws the next number of the same stream.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from rules.company import models
from rules.company.kp import ledger_of
from rules.company.mapping import battle_of, roll_columns, roll_of, stream_columns, stream_of
from rules.company.services import company_ruleset
from rules.engine.company_d20.dice import battle_stream
from rules.engine.company_d20.log import RollEntry, dice_only_replay, log_replay, roll_make
from rules.engine.company_d20.problems import Problem

# A request's inputs as stored in the permanent log: every unit of a battle named as a target, each with its
# cover, sources, modifiers and reason, fits several times over.
INPUTS_MAX_CHARS = 10_000
# The lists of a request whose length is the work it asks for: at most one entry per unit of the battle.
PER_UNIT = {"attack": "targets", "danger_close": "units"}


def inputs_bound(function: Any, inputs: Any, battle: models.Battle) -> Problem | None:
    """What no request of the battle can be, refused before any work: inputs longer than the log keeps, or
    more targets (an attack's, a danger-close strike's own units) than the battle has units."""
    if not isinstance(inputs, Mapping):
        return None
    if len(json.dumps(inputs, ensure_ascii=False, default=str)) > INPUTS_MAX_CHARS:
        return Problem("inputs_too_long", function, {"limit": INPUTS_MAX_CHARS})
    listed = inputs.get(PER_UNIT.get(function, ""))
    units = len(battle.data["units"])
    if isinstance(listed, list) and len(listed) > units:
        return Problem("too_many_targets", function, {"count": len(listed), "limit": units})
    return None


def battle_stream_text(battle: models.Battle) -> str:
    """The stream's seed string (§8.1): it contains the campaign's seed, so it is shown only when final."""
    return battle_stream(battle.turn.campaign.seed, battle.turn.number, battle.key)


def dice_roll(
    *,
    battle: models.Battle,
    user: AbstractBaseUser,
    side: str | None,
    function: str,
    inputs: Mapping[str, Any],
    purpose: str | None = None,
) -> list[RollEntry] | Problem:
    """One request for `side` (a nation code; None: the GM). The caller has checked who may ask for whom."""
    problem = inputs_bound(function, inputs, battle)
    if problem is not None:
        return problem
    with transaction.atomic():
        battle = models.Battle.objects.select_for_update().select_related("turn__campaign").get(pk=battle.pk)
        if battle.status != models.Battle.Status.OPEN or battle.archived:
            return Problem("battle_not_open", battle.key)
        if side is not None and side not in battle.data["sides"]:
            return Problem("not_in_battle", battle.key)
        ruleset = company_ruleset(battle.turn.campaign)
        stream = stream_of(battle_stream_text(battle), battle.stream_state, battle.next_seq)
        entries = [roll_of(r) for r in battle.rolls.all()]
        # What the KP ledger knows of the side is the server's to fill in, never the request's (§8.5.6).
        ledger_side = ledger_of(battle, ruleset).sides.get(side) if ruleset.get("kp.tracking") else None
        made, stream = roll_make(
            stream,
            entries,
            function=function,
            inputs=dict(inputs) if isinstance(inputs, Mapping) else {},
            ruleset=ruleset,
            snapshot=battle_of(battle.data, ruleset).units,
            side=side,
            purpose=purpose,
            table_turn=battle.table_turn,
            commander_lost=bool(ledger_side and ledger_side.commander_lost),
            promoted=ledger_side.promoted if ledger_side else None,
        )
        if isinstance(made, Problem):
            return made
        now = timezone.now()
        models.DiceRoll.objects.bulk_create(
            models.DiceRoll(battle=battle, requested_by=user, created_at=now, **roll_columns(e)) for e in made
        )
        models.Battle.objects.filter(pk=battle.pk).update(**stream_columns(stream))
    return made


MARK_LIMIT = 300


@transaction.atomic
def roll_mark(*, battle: models.Battle, seq: Any, mark: str, text: Any, by_gm: bool) -> Problem | None:
    """The GM annotates a roll of the battle's log (`mark` "note") or marks it void with a reason ("void")
    (§8.2). The entry stays as it was, in the log and in the replay: a mark draws nothing and returns
    nothing."""
    if not by_gm:
        return Problem("gm_only", mark)
    if mark not in ("note", "void"):
        return Problem("mark_unknown", mark)
    text = text.strip()[:MARK_LIMIT] if isinstance(text, str) else ""
    if not text:
        return Problem("reason_required", "reason")
    whole = isinstance(seq, int) and not isinstance(seq, bool)
    row = (
        models.DiceRoll.objects.select_for_update().filter(battle=battle, seq=seq).first() if whole else None
    )
    if row is None:
        return Problem("roll_unknown", seq)
    if mark == "void":
        if row.void_reason:
            return Problem("roll_void_already", seq)
        row.void_reason = text
    else:
        row.note = text
    row.save(update_fields=["note", "void_reason"])
    return None


@transaction.atomic
def table_turn_set(
    *, battle: models.Battle, table_turn: Any, user: AbstractBaseUser, by_gm: bool
) -> Problem | None:
    """The table's turn counter, which times the fire-support arrivals (§8.5.9, §13): the participants
    advance it by one, logged as "table turn N begins"; only the GM sets another value (a correction).
    With the KP ledger its `turn_start` advances the counter (§9.2), so this is refused."""
    battle = models.Battle.objects.select_for_update().select_related("turn__campaign").get(pk=battle.pk)
    if not isinstance(table_turn, int) or isinstance(table_turn, bool) or not 0 <= table_turn <= 99:
        return Problem("not_an_integer", "table_turn", {"field": "table_turn", "value": table_turn})
    if battle.status != models.Battle.Status.OPEN or battle.archived:
        return Problem("battle_not_open", battle.key)
    if company_ruleset(battle.turn.campaign).get("kp.tracking"):
        return Problem("table_turn_by_ledger", battle.key)
    if not by_gm and table_turn != battle.table_turn + 1:
        return Problem("table_turn_not_next", table_turn, {"next": battle.table_turn + 1})
    log = [
        *battle.table_turn_log,
        {"table_turn": table_turn, "by": user.username, "gm": by_gm, "at": timezone.now().isoformat()},
    ]
    models.Battle.objects.filter(pk=battle.pk).update(table_turn=table_turn, table_turn_log=log)
    return None


def dice_verify(*, battle: models.Battle) -> dict[str, Any]:
    """The replay of a battle's log from its seed (§8.4): every die and every output, and the dice alone."""
    ruleset = company_ruleset(battle.turn.campaign)
    text = battle_stream_text(battle)
    entries = [roll_of(r) for r in battle.rolls.all()]
    return {
        "stream": text,
        "entries": len(entries),
        "mismatches": log_replay(text, entries, ruleset, battle_of(battle.data, ruleset).units),
        "dice_mismatches": dice_only_replay(text, entries),
    }
