"""The KP ledger of a table battle (COMPANY.md §9), when the campaign turns it on (`kp.tracking`).

Stored as its operations, in order, each with who asked; the ledger is the engine's replay of them from
`ledger_open`, so what is stored is exactly what was done and a refused operation stores nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from campaign.models import Nation
from rules.company import models
from rules.company.mapping import battle_of, command_style
from rules.company.services import company_ruleset
from rules.engine.company_d20 import kp
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.ruleset import CompanyRuleset

OPERATIONS = ("turn_start", "spend", "transfer", "eliminate")


def _apply(
    ledger: kp.Ledger, ruleset: CompanyRuleset, op: str, params: Mapping[str, Any]
) -> kp.Ledger | Problem:
    if op == "turn_start":
        return kp.turn_start(ledger, ruleset, params.get("declarations") or {})
    if op == "spend":
        return kp.spend(
            ledger,
            ruleset,
            side=params.get("side"),
            pool=params.get("pool"),
            action=params.get("action"),
            unit=params.get("unit"),
        )
    if op == "transfer":
        return kp.transfer(ledger, ruleset, side=params.get("side"), to=params.get("to"))
    return kp.eliminate(ledger, ruleset, params.get("unit"))


def ledger_of(battle: models.Battle, ruleset: CompanyRuleset, ops: Sequence[Mapping[str, Any]] | None = None):
    """The battle's ledger: opened on its sides' snapshot units and every stored operation replayed."""
    engine_battle = battle_of(battle.data, ruleset)
    nations = Nation.objects.filter(campaign_id=battle.turn.campaign_id, code__in=engine_battle.sides)
    styles = {n.code: command_style(n) for n in nations}
    ledger = kp.ledger_open(
        {n: (styles.get(n, "company"), engine_battle.side_units(n)) for n in engine_battle.sides}
    )
    for item in (battle.kp or []) if ops is None else ops:
        ledger = _apply(ledger, ruleset, item["op"], item["params"])
    return ledger


def kp_operate(
    *, battle: models.Battle, user: AbstractBaseUser, side: str | None, op: str, params: Mapping[str, Any]
) -> kp.Ledger | Problem:
    """One operation for `side` (None: the GM, who may act for any side); stored before the answer."""
    with transaction.atomic():
        battle = models.Battle.objects.select_for_update().select_related("turn__campaign").get(pk=battle.pk)
        ruleset = company_ruleset(battle.turn.campaign)
        if not ruleset.get("kp.tracking"):
            return Problem("kp_off")
        if battle.status != models.Battle.Status.OPEN or battle.archived:
            return Problem("battle_not_open", battle.key)
        if op not in OPERATIONS:
            return Problem("action_unknown", op)
        params = dict(params)
        if side is not None:
            if op == "turn_start":
                params = {"declarations": {side: (params.get("declarations") or {}).get(side, {})}}
            elif op == "eliminate":
                unit = battle.data["units"].get(str(params.get("unit")))
                if unit is None or unit["nation"] != side:
                    return Problem("not_your_unit", params.get("unit"))
            else:
                params["side"] = side
        ledger = _apply(ledger_of(battle, ruleset), ruleset, op, params)
        if isinstance(ledger, Problem):
            return ledger
        ops = [*(battle.kp or []), {"op": op, "params": params, "by": user.username, "side": side}]
        models.Battle.objects.filter(pk=battle.pk).update(kp=ops, table_turn=ledger.table_turn)
    return ledger
