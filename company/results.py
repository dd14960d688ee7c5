"""A table battle's result, until the shared results-entry mechanism (tabletop's versions, agreements and
GM queue) is on main: the GM enters the final result, or voids the battle (COMPANY.md §5.6). When the last
battle of the turn is final the turn completes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from campaign.models import Turn
from company import models
from company.mapping import battle_of
from company.services import company_ruleset
from company.turn import company_turn_complete
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.results import final_view, result_final, result_validate


def result_preview(*, battle: models.Battle, entry: Any) -> dict[str, Any] | list[Problem]:
    """What the entry would award (§5.5), or its problems: the form's live preview."""
    ruleset = company_ruleset(battle.turn.campaign)
    engine_battle = battle_of(battle.data, ruleset)
    problems = result_validate(engine_battle, entry)
    if problems:
        return problems
    return final_view(result_final(engine_battle, entry, ruleset, battle.turn.number), ruleset)


@transaction.atomic
def result_confirm(*, battle: models.Battle, entry: Mapping[str, Any] | str) -> list[Problem]:
    """The GM's final result, or "void"; the turn completes when no battle is left open."""
    battle = models.Battle.objects.select_for_update().select_related("turn__campaign").get(pk=battle.pk)
    if battle.status != models.Battle.Status.OPEN or battle.archived:
        return [Problem("battle_not_open", battle.key)]
    turn = Turn.objects.select_for_update().get(pk=battle.turn_id)
    if turn.status != Turn.Status.BATTLES_PENDING:
        return [Problem("turn_not_pending")]
    if entry == "void":
        battle.status = models.Battle.Status.VOID
    else:
        ruleset = company_ruleset(turn.campaign)
        problems = result_validate(battle_of(battle.data, ruleset), entry)
        if problems:
            return problems
        battle.status, battle.result = models.Battle.Status.RESOLVED, dict(entry)
    battle.save(update_fields=["status", "result"])
    if not turn.company_battles.filter(status=models.Battle.Status.OPEN, archived=False).exists():
        company_turn_complete(turn=turn)
    return []
