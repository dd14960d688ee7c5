"""The battle plan (TABLETOP.md A4, A9): `plan(turn_input, ruleset, seed, entries)`.

The Iron Fist combat phase runs in plan order with tabletop's `fight` at every battle; a battle with a usable
entry is decided by it, one without is open and the pipeline carries on with everything that does not
depend on it (A4.2). When nothing is open or waiting the turn completes with Iron Fist's aftermath (A9):
`Complete`, else `BattlesPending`. The result is a function of the inputs alone: no entry is read in the
order it was made, and the turn's own dice are drawn only at completion (A9.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..phase import Phase
from ..seam import DiceSource, SeededDice
from ..state import RejectedOrder, TurnInput, TurnResult
from ..turn import combat_phase, turn_complete
from .settings import TabletopRuleset

RESOLVED = ("entered", "auto_resolved")


@dataclass(frozen=True)
class BattlesPending:
    open: tuple[str, ...]
    waiting: Mapping[str, tuple[str, ...]]  # region:R -> the meetings it waits for, in plan order
    resolved: tuple[str, ...]
    unopposed: tuple[str, ...]
    stale: tuple[str, ...]
    sheets: Mapping[str, Mapping[str, Any]]  # every open and resolved battle's sheet
    rejected_orders: tuple[RejectedOrder, ...]
    reports: tuple[Mapping[str, Any], ...] = field(default=(), repr=False)  # the battles so far, plan order
    status: str = "battles_pending"

    def battle_keys(self) -> tuple[str, ...]:
        """Every battle that exists now (open, waiting or resolved), in plan order."""
        keys = [r["key"] for r in self.reports if r["kind"] != "unopposed"]
        for key in self.waiting:
            keys.append(key)
        return tuple(sorted(keys, key=_plan_order))


@dataclass(frozen=True)
class Complete:
    turn_result: TurnResult
    stale: tuple[str, ...]
    sheets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    status: str = "complete"

    @property
    def open(self) -> tuple[str, ...]:
        return ()

    @property
    def waiting(self) -> Mapping[str, tuple[str, ...]]:
        return {}

    @property
    def resolved(self) -> tuple[str, ...]:
        return tuple(b["key"] for b in self.turn_result.battles if b["kind"] != "unopposed")

    def battle_keys(self) -> tuple[str, ...]:
        return self.resolved


def plan(
    turn_input: TurnInput,
    ruleset: TabletopRuleset,
    seed: int,
    entries: Mapping[str, Mapping[str, Any]],
    *,
    dice: DiceSource | None = None,
) -> BattlesPending | Complete:
    inputs = {**turn_input.system_inputs, "entries": dict(entries)}
    turn_input = replace(turn_input, system_inputs=inputs)
    phase, rejected = combat_phase(turn_input, ruleset, seed, dice or SeededDice(seed))
    reports = phase.battles
    for report in reports:
        if report["kind"] == "unopposed":
            # A4.4: an unopposed occupation is no battle; the list shows it with the same fields.
            report.update({"resolution": "unopposed", "decisive": False, "losses": {}})
    stale = _stale(phase, entries)
    sheets = {r["key"]: r["sheet"] for r in reports if "sheet" in r}
    if not phase.pending:
        return Complete(turn_complete(phase, rejected), stale, sheets)
    return BattlesPending(
        open=tuple(p.key for p in phase.pending),
        waiting={key: tuple(meetings) for key, meetings in phase.waiting.items()},
        resolved=tuple(r["key"] for r in reports if r.get("resolution") in RESOLVED),
        unopposed=tuple(r["key"] for r in reports if r["kind"] == "unopposed"),
        stale=stale,
        sheets=sheets,
        rejected_orders=tuple(rejected),
        reports=tuple(reports),
    )


def tabletop_resolve_turn(
    turn_input: TurnInput, ruleset: TabletopRuleset, seed: int, *, dice: DiceSource | None = None
) -> TurnResult:
    """`resolve_turn` for a tabletop campaign: the entries come in the turn input (`system_inputs`); the
    plan comes back with the result (`TurnResult.plan`)."""
    state = plan(turn_input, ruleset, seed, turn_input.system_inputs.get("entries") or {}, dice=dice)
    if isinstance(state, Complete):
        return replace(state.turn_result, plan=state)
    return TurnResult(
        owners={r.code: r.owner for r in turn_input.regions},
        stacks=turn_input.stacks,
        battles=state.reports,
        support_chances=(),
        support_rolls=(),
        settlements=(),
        movements=(),
        rejected_orders=state.rejected_orders,
        seed=seed,
        pending=state.open,
        plan=state,
    )


def _stale(phase: Phase, entries: Mapping[str, Any]) -> tuple[str, ...]:
    """A10.3: the entries of battles whose forces changed, in plan order, then the keys that name no
    battle and that no pending battle can still create, in string order. Kept-aside entries are not listed."""
    in_run = [r["key"] for r in phase.battles if r.get("stale")]
    battles = {r["key"] for r in phase.battles if r["kind"] != "unopposed"}
    gone = sorted(key for key in entries if key not in battles and not _kept_aside(phase, key))
    return tuple(in_run + gone)


def _kept_aside(phase: Phase, key: str) -> bool:
    """Whether a battle that does not exist in this run may still appear once a pending one has an entry."""
    kind, _, rest = key.partition(":")
    open_keys = [p.key for p in phase.pending]
    if kind == "region":
        return rest in phase.blocked
    if kind == "control":
        region = rest.rpartition(":")[0]
        return (
            region in phase.blocked
            or f"region:{region}" in open_keys
            or f"region:{region}" in phase.waiting
            or any(k.startswith(f"control:{region}:") for k in open_keys)
        )
    return False


def _plan_order(key: str) -> tuple[int, tuple[str, ...], int]:
    """A4.1: meetings by their regions, then region battles by region, then control battles in rounds."""
    kind, _, rest = key.partition(":")
    if kind == "meeting":
        return (0, tuple(rest.split("|")), 0)
    if kind == "control":
        region, _, k = rest.rpartition(":")
        return (2, (region,), int(k) if k.isdigit() else 0)
    return (1, (rest,), 0)
