"""A company battle's result through the shared results entry (rules.results_flow; COMPANY.md §5.2,
BATTLE_SYSTEMS.md "Results entry"): a member of a participating nation or the GM saves a version, checked
against the battle's snapshot as §5.3 says (every error, in its order); the other nations agree or
dispute; the GM confirms (`result.finalisation: gm`), or the agreement of every nation does (`all_sides`).
The GM may void a version, reopen a final battle until the turn completes, and void the battle (§5.6).
When the last battle is final or void, the turn completes (`turn.auto_complete`).

Here is only what is the company's: its `Table` (the checks, the settings, what a confirmed version does to
the battle and the turn), the void battle, and the form's live preview.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign.gm.access import User, audit_write, gm_check
from campaign.messages import status_word
from campaign.models import Turn
from campaign.queue import turn_queue
from campaign.selectors import Viewer
from rules import results_flow as flow
from rules.company import models
from rules.company.mapping import battle_of
from rules.company.services import company_ruleset
from rules.company.turn import company_turn_complete
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.results import final_view, result_final, result_validate
from rules.engine.messages import InputError, Message
from rules.models import ResultVersion
from rules.results_flow import BattleError

Status = models.Battle.Status


def battle_fingerprint(battle: models.Battle) -> str:
    """The snapshot a result is entered against: a version made against another is stale."""
    text = json.dumps(battle.data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class CompanyTable(flow.Table):
    """A company battle for the shared workflow."""

    reopens_to_draft = True  # §5.2: "reopen a final result (back to draft, logged with a reason)"

    def __init__(self, battle: models.Battle, *, reopening: bool = False) -> None:
        super().__init__(battle)
        self.reopening = reopening

    def owner(self) -> dict[str, Any]:
        return {"battle": self.battle.table}

    def lock(self) -> Turn:
        turn = Turn.objects.select_for_update().select_related("campaign").get(pk=self.battle.turn_id)
        self.battle.refresh_from_db()
        self.battle.table.refresh_from_db()
        return turn

    def nations(self) -> list[str]:
        return list(self.battle.data["sides"])

    def place(self) -> str:
        return self.battle.key

    def check(self, viewer: Viewer, turn: Turn, payload: dict[str, Any], fingerprint: str, now: datetime):
        battle = self.battle
        if battle.archived or battle.status != Status.OPEN:
            raise BattleError([Problem("battle_not_open", battle.key)])
        if turn.status != Turn.Status.BATTLES_PENDING:
            raise BattleError([Problem("turn_not_pending")])
        if not viewer.is_gm and (viewer.nation is None or viewer.nation.code not in self.nations()):
            raise BattleError([Problem("not_in_battle", battle.key)])
        if fingerprint != battle_fingerprint(battle):
            raise BattleError([Problem("entry_stale", battle.key)])
        problems = result_validate(battle_of(battle.data, company_ruleset(turn.campaign)), payload)
        if problems:
            raise BattleError(problems)
        return []

    def entry_confirms(self, viewer: Viewer, turn: Turn) -> bool:
        return viewer.is_gm  # a version the GM saves is confirmed at once (§5.2, as TABLETOP A6.2)

    def gm_confirms_agreed(self, turn: Turn) -> bool:
        return company_ruleset(turn.campaign).get("result.finalisation") != "all_sides"

    def resolved(self, turn: Turn) -> bool:
        final = self.battle.status in (Status.RESOLVED, Status.VOID) and not self.battle.archived
        return turn.status == Turn.Status.BATTLES_PENDING and final

    def changed(self, turn: Turn, now: datetime) -> None:
        """The battle is final while it has a confirmed version; the turn completes with its last one."""
        battle = self.battle
        if battle.status == Status.VOID and not self.reopening:
            return
        confirmed = battle.versions.filter(state=ResultVersion.State.CONFIRMED).exists()
        status = Status.RESOLVED if confirmed else Status.OPEN
        if status != battle.status:
            battle_state_set(battle, status)
            battle.void_reason = ""
            battle.save(update_fields=["void_reason"])
        if status == Status.OPEN:
            return
        turn_complete_if_done(turn=turn, now=now)


def turn_complete_if_done(*, turn: Turn, now: datetime) -> None:
    """§2.3: with `turn.auto_complete` the turn completes the moment no battle is left open."""
    if not company_ruleset(turn.campaign).get("turn.auto_complete"):
        return
    if not turn.company_battles.filter(table__state=Status.OPEN, table__archived=False).exists():
        company_turn_complete(turn=turn, now=lambda: now)


def company_turn_complete_by_gm(*, turn_id: int, by: User, now=timezone.now) -> None:
    """§2.3: the GM presses "complete turn" once every battle is final or void, as a campaign with
    `turn.auto_complete: false` waits for; queued as processing is. A battle still open: nothing changes
    and the error names it."""
    with transaction.atomic():
        turn = Turn.objects.select_for_update().select_related("campaign").get(pk=turn_id)
        gm_check(by=by, campaign=turn.campaign)
        if turn.status != Turn.Status.BATTLES_PENDING:
            raise InputError.of(
                "turn", "tabletop_rollback.not_pending", number=turn.number, status=status_word(turn.status)
            )
        left = turn.company_battles.filter(table__state=Status.OPEN, table__archived=False).order_by(
            "position"
        )
        if left.exists():
            keys = ", ".join(left.values_list("key", flat=True))
            raise InputError.of("turn", "tabletop_rollback.battles_left", number=turn.number, battles=keys)
        audit_write(
            by, turn.campaign, "process", Message("audit.completed", {"number": turn.number}), "", now
        )
    turn_queue(turn_id=turn.pk)


def _payload(entry: Any, battle: models.Battle) -> tuple[Any, str]:
    """The entry as stored, and the snapshot it was made against (the current one unless it says)."""
    if not isinstance(entry, dict):
        return entry, battle_fingerprint(battle)
    payload = {k: v for k, v in entry.items() if k != "fingerprint"}
    return payload, str(entry.get("fingerprint") or battle_fingerprint(battle))


def company_result_save(
    *, viewer: Viewer, battle: models.Battle, entry: Any, now=timezone.now
) -> ResultVersion:
    payload, fingerprint = _payload(entry, battle)
    return flow.result_save(
        CompanyTable(battle), viewer=viewer, payload=payload, fingerprint=fingerprint, now=now()
    )


def company_result_act(
    *,
    viewer: Viewer,
    battle: models.Battle,
    action: str,
    version: ResultVersion | None,
    text: str = "",
    now=timezone.now,
) -> None:
    """An answer or a decision on the battle's current version (or the one named), or the GM's reopen.
    `action`: agree (COMPANY's approve), dispute, withdraw, confirm, void (the version), reopen."""
    table, moment = CompanyTable(battle, reopening=action == "reopen"), now()
    if action == "reopen":
        flow.entry_reopen(table, viewer=viewer, reason=text, now=moment)
        return
    if version is None:
        raise BattleError([Problem("no_current_version", battle.key)])
    if action in ("agree", "approve"):
        flow.result_agree(table, viewer=viewer, version=version, now=moment)
    elif action == "dispute":
        flow.result_dispute(table, viewer=viewer, version=version, comment=text, now=moment)
    elif action == "withdraw":
        flow.result_withdraw(table, viewer=viewer, version=version, now=moment)
    elif action == "confirm":
        flow.result_confirm(table, viewer=viewer, version=version, now=moment)
    elif action == "void":
        flow.result_void(table, viewer=viewer, version=version, reason=text, now=moment)
    else:
        raise BattleError([Problem("result_action_unknown", action)])


@transaction.atomic
def company_battle_void(*, viewer: Viewer, battle: models.Battle, reason: str, now=timezone.now) -> None:
    """§5.6: the GM voids a battle that will not be played: it counts as not fought. Its versions so far
    are set aside with the reason; the turn completes when no battle is left open."""
    if not viewer.is_gm:
        raise flow.refuse("gm_only")
    if not (reason or "").strip():
        raise flow.refuse("reason_missing")
    table, moment = CompanyTable(battle), now()
    turn = table.lock()
    if battle.archived or battle.status != Status.OPEN:
        raise BattleError([Problem("battle_not_open", battle.key)])
    if turn.status != Turn.Status.BATTLES_PENDING:
        raise BattleError([Problem("turn_not_pending")])
    flow.supersede(battle, moment, flow.decision("battle_void", why=reason.strip()))
    battle_state_set(battle, Status.VOID)
    battle.void_reason = reason.strip()
    battle.save(update_fields=["void_reason"])
    turn_complete_if_done(turn=turn, now=moment)


def battle_state_set(battle: models.Battle, state: str) -> None:
    """A company battle's state is its table battle's (open, resolved or void)."""
    battle.table.state = state
    battle.table.save(update_fields=["state"])


def current_version(battle: models.Battle) -> ResultVersion | None:
    """The version being answered, or the battle's confirmed entry."""
    return flow.current(battle) or battle.versions.filter(state=ResultVersion.State.CONFIRMED).first()


def result_preview(*, battle: models.Battle, entry: Any) -> dict[str, Any] | list[Problem]:
    """What the entry would award (§5.5), or its problems: the form's live preview. Nothing is stored."""
    ruleset = company_ruleset(battle.turn.campaign)
    engine_battle = battle_of(battle.data, ruleset)
    payload, _ = _payload(entry, battle)
    problems = result_validate(engine_battle, payload)
    if problems:
        return problems
    return final_view(result_final(engine_battle, payload, ruleset, battle.turn.number), ruleset)
