"""The battle step of a Sodankäynti campaign: `sodankaynti_fight(call) -> BattleOutcome` (SEAM.md).

Every win is decisive (§2: the loser left the field or was cleared from it), except that a meeting's winner
continues only when `meeting_winner_continues` says so (§12.2): the pipeline lets a decisive meeting winner
continue and sends everyone else home at once.
"""

from __future__ import annotations

from ..messages import Message
from ..seam import BattleCall, BattleOutcome
from .battle import battle_fight
from .inputs import Inputs
from .setup import setup_build


def sodankaynti_fight(call: BattleCall) -> BattleOutcome:
    ruleset = call.ruleset
    inputs = call.inputs if isinstance(call.inputs, Inputs) else Inputs.empty(ruleset, call.nation_index)
    result = battle_fight(setup_build(call, ruleset, inputs), ruleset, call.dice)
    decisive = result.winner is not None and (call.kind != "meeting" or ruleset.meeting_winner_continues)
    lost: dict[str, dict[str, int]] = {}
    for (nation, _), counts in result.fates.lost.items():
        mine = lost.setdefault(nation, {})
        for unit_type, count in counts.items():
            mine[unit_type] = mine.get(unit_type, 0) + count
    return BattleOutcome(
        winner=result.winner,
        decisive=decisive,
        losses=lost,  # destroyed and deserted leave the army (§11.1); the report's losses: destroyed only
        report=result.report,
        force_losses=result.fates.lost,
        added=result.fates.added,
        why=Message("sodankaynti.outcome.won", {"rule": "SODANKAYNTI §12.1"}) if decisive else None,
    )
