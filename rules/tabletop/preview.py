"""The GM's preview of a tabletop turn waiting for its battles (TABLETOP.md A10.1 (b)): the turn as it would
complete with the entries so far plus, for each battle without one, either its auto-resolution or a result
the GM types in. Nothing is stored: the plan is the engine's pure function of the turn input, the seed and
the entries, so the preview is what completion would give with those entries.

turn_battles_preview(turn_id=, by=, hypotheses=)   the completed turn, or as far as it gets

`hypotheses` maps a battle key to a result as A6.1 has it (winner, decisive, losses; the fingerprint is the
preview's own sheet's) or to "auto". A battle without one is previewed auto-resolved. A battle that opens
only because of an earlier battle's result (a meeting engagement's winner continuing) is previewed in the
same way, round after round, until nothing is left open. A hypothetical result is checked as a GM's entry
would be (A6.3); one with errors is previewed auto-resolved, and its errors are reported with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from campaign.gm.access import User, gm_check
from campaign.messages import status_word
from campaign.models import Turn
from rules.engine.messages import ErrorKind, InputError, gettext_noop, kinds_register, messages_register
from rules.engine.tabletop import BattlesPending, Complete, plan
from rules.engine.tabletop.results import Entrant, EntryError, result_check
from rules.selectors import turn_load

AUTO = "auto"

messages_register(
    {
        "tabletop.preview_not_pending": gettext_noop(
            "turn {number} is {status}: results can be previewed only while the turn waits for its battles"
        ),
        "tabletop.hypotheses_shape": gettext_noop(
            'Send an object "hypotheses" that maps each battle key to "auto" or to a result.'
        ),
    }
)
kinds_register(ErrorKind.CONFLICT, ("tabletop.preview_not_pending",))


@dataclass(frozen=True)
class BattlesPreview:
    turn: Turn
    state: BattlesPending | Complete
    entered: tuple[str, ...]  # decided by their stored entries, as they stand
    assumed: Mapping[str, Mapping[str, Any]]  # the GM's hypothetical results, by battle key
    auto: tuple[str, ...]  # previewed auto-resolved: no hypothesis, or one with errors
    errors: Mapping[str, tuple[EntryError, ...]] = field(default_factory=dict)
    owners_before: Mapping[str, str | None] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return isinstance(self.state, Complete)

    @property
    def reports(self) -> tuple[Mapping[str, Any], ...]:
        """Every battle's report in plan order (the unopposed occupations included)."""
        return tuple(self.state.turn_result.battles if self.complete else self.state.reports)

    @property
    def sheets(self) -> Mapping[str, Mapping[str, Any]]:
        return self.state.sheets

    def owners_changed(self) -> list[tuple[str, str | None, str | None]]:
        """(region, owner before, owner after) for every region that changes hands in the preview."""
        if not self.complete:
            return []
        after = self.state.turn_result.owners
        return [
            (code, was, after.get(code)) for code, was in self.owners_before.items() if after.get(code) != was
        ]


def turn_battles_preview(
    *, turn_id: int, by: User, hypotheses: Mapping[str, Mapping[str, Any] | str] | None = None
) -> BattlesPreview:
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    gm_check(by=by, campaign=turn.campaign)
    if turn.status != Turn.Status.BATTLES_PENDING:
        raise InputError.of(
            "turn", "tabletop.preview_not_pending", number=turn.number, status=status_word(turn.status)
        )
    hypotheses = dict(hypotheses or {})
    loaded = turn_load(turn=turn)
    ruleset = turn.campaign.ruleset()
    stored = dict(loaded.turn_input.system_inputs.get("entries", {}))
    assumed: dict[str, dict[str, Any]] = {}
    auto: list[str] = []
    errors: dict[str, tuple[EntryError, ...]] = {}
    # Each round decides the battles open in it; a battle that opens after an earlier one's result comes
    # in a later round. There are never more rounds than battles (a meeting chain adds one per round).
    for _ in range(len(loaded.turn_input.regions) + 2):
        state = plan(loaded.turn_input, ruleset, turn.seed_value, {**stored, **assumed})
        new = [key for key in state.open if key not in assumed]
        if not new:
            break
        for key in new:
            given = hypotheses.get(key, AUTO)
            if isinstance(given, Mapping):
                result = {**given, "fingerprint": state.sheets[key]["fingerprint"]}
                check = result_check(
                    state, key, result, by=Entrant(gm=True), ruleset=ruleset, turn=turn.number
                )
                if check.accepted:
                    assumed[key] = result
                    continue
                errors[key] = check.errors
            assumed[key] = {"auto_resolve": True, "by": "preview"}
            auto.append(key)
    for key, given in hypotheses.items():
        if key not in assumed and isinstance(given, Mapping):
            # A battle that has its entry already, or that is no battle of this turn.
            errors[key] = result_check(state, key, given, by=Entrant(gm=True), ruleset=ruleset).errors
    return BattlesPreview(
        turn=turn,
        state=state,
        entered=tuple(k for k in state.battle_keys() if k in stored and k not in assumed),
        assumed={k: v for k, v in assumed.items() if k not in auto},
        auto=tuple(auto),
        errors=errors,
        owners_before={r.code: r.owner for r in loaded.turn_input.regions},
    )
