"""The turn pipeline: `resolve_turn(turn_input, ruleset, seed) -> TurnResult` (IRON_FIST.md §2, §11)."""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from .aftermath import aftermath_apply
from .control import control_battles_resolve, settlements_resolve
from .meeting import meetings_resolve
from .phase import Phase, phase_start
from .region_battle import region_battles_resolve
from .ruleset import Ruleset
from .seam import DiceSource, SeededDice
from .state import RejectedOrder, Stack, TurnInput, TurnResult
from .support_losses import support_losses_roll
from .systems import system_get
from .validation import orders_validate
from .world import Counts, World, world_build


@contextmanager
def without_gc_pauses() -> Iterator[None]:
    """Resolving allocates many small, acyclic objects; the cyclic collector's passes over them grow with
    the heap and made a turn on 20,000 regions cost 2.2 times one on 10,000. Collection resumes after.
    The shell writes the result under it too (rules.services), for the same reason."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def resolve_turn(
    turn_input: TurnInput, ruleset: Ruleset, seed: int, *, dice: DiceSource | None = None
) -> TurnResult:
    """Resolve one turn's combat phase. The same input and seed always give the same result.

    `dice` replaces the seeded generator with scripted rolls (a case's `rolls`). A system with a turn of
    its own around the pipeline (tabletop's battle plan) names it `resolve_turn` in its `extra`."""
    own = system_get(ruleset.battle_system).extra.get("resolve_turn")
    if own is not None:
        return own(turn_input, ruleset, seed, dice=dice)
    with without_gc_pauses():
        return _resolved(turn_input, ruleset, seed, dice or SeededDice(seed))


def _resolved(turn_input: TurnInput, ruleset: Ruleset, seed: int, dice: DiceSource) -> TurnResult:
    # A function of its own so that the phase and the world are freed as it returns: collection resumes
    # after, and its first pass then walks only what the result keeps, not the whole turn's working state.
    phase, rejected = combat_phase(turn_input, ruleset, seed, dice)
    return turn_complete(phase, rejected)


def combat_phase(
    turn_input: TurnInput, ruleset: Ruleset, seed: int, dice: DiceSource
) -> tuple[Phase, list[RejectedOrder]]:
    """The orders, movement and every battle of the turn, up to the peaceful settlements."""
    system = system_get(ruleset.battle_system)
    world = world_build(turn_input, ruleset)
    # §11: every draw comes from this one source, in the order of the steps below.
    accepted, rejected = orders_validate(world, ruleset, turn_input.orders)  # §2.1
    orders = [order for _, order in accepted]
    inputs = turn_input.system_inputs
    if system.inputs_prepare is not None:  # checked before the first draw
        inputs = system.inputs_prepare(world, ruleset, turn_input, orders)
    phase = phase_start(world, ruleset, system, orders, dice, inputs, seed)  # §2 movement, §3
    meetings_resolve(phase)  # §6
    region_battles_resolve(phase)  # §5, §7, §7.1
    control_battles_resolve(phase)  # §7.2
    return phase, rejected


def turn_complete(phase: Phase, rejected: list[RejectedOrder]) -> TurnResult:
    """Settle, roll support losses and apply the aftermath; a turn with pending battles leaves the world
    as it was and names them (BATTLE_SYSTEMS.md, `Pending`)."""
    world = phase.world
    if phase.pending:
        return TurnResult(
            owners=dict(world.owner),
            stacks=_stacks_after(world.units, world, phase.ruleset),
            battles=tuple(phase.battles),
            support_chances=(),
            support_rolls=(),
            settlements=(),
            movements=(),
            rejected_orders=tuple(rejected),
            seed=phase.seed,
            pending=tuple(p.key for p in phase.pending),
        )
    settlements_resolve(phase)  # §7.2 peaceful settlement and its tie draws
    chances, rolls = support_losses_roll(phase)  # §8, §9
    owners = aftermath_apply(phase)  # §10

    last: dict[str, dict] = {}  # the last battle of each region reports where its survivors went (§12)
    for report in phase.battles:
        if report["kind"] != "meeting":
            report["owner_after"] = owners[report["region"]]
            last[report["region"]] = report
    for region, report in last.items():
        report["moves"] = [vars(m).copy() for m in phase.moves_at.get(region, ())]
    return TurnResult(
        owners=owners,
        stacks=_stacks_after(phase.garrison, world, phase.ruleset),
        battles=tuple(phase.battles),
        support_chances=tuple(chances),
        support_rolls=tuple(rolls),
        settlements=tuple(phase.settlements),
        movements=tuple(phase.movements),
        rejected_orders=tuple(rejected),
        seed=phase.seed,
    )


def _stacks_after(
    garrison: Mapping[str, Mapping[str, Counts]], world: World, ruleset: Ruleset
) -> tuple[Stack, ...]:
    """Every non-empty stack after the turn: by region, nation-id order, then declaration order of types.

    A region whose garrison is still the world's own dict (phase.Garrison) is as the input gave it: its
    stacks are the input's own objects, when the input gave them as they come out here (one stack a type,
    none empty, in declared order). Most regions are such, and making 230,000 stacks anew, or finding
    each in a dict of the input's, was a fifth of a turn on 100,000 regions. A stack kept as it was is
    not made anew in the other regions either: the result's new objects are what the collector walks
    after the turn."""
    types = tuple(ruleset.unit_types)  # a ruleset declares a handful: asking each beats sorting the few
    declared: dict[tuple[str, ...], bool] = {}  # the types of a region's given stacks -> in declared order
    stacks: list[Stack] = []
    for region in sorted(garrison):
        by_nation = garrison[region]
        given = world.given.get(region)
        if given is not None and by_nation is world.units[region]:
            (counts,) = by_nation.values()  # a region's input units are its owner's (world_build)
            kinds = tuple(counts)
            in_order = declared.get(kinds)
            if in_order is None:
                in_order = declared[kinds] = list(kinds) == [t for t in types if t in counts]
            if in_order and len(given) == len(counts) and all(counts.values()):
                stacks.extend(given)
                continue
        # Of a region the turn changed, a stack that kept its count is still the input's object.
        kept = {(s.nation, s.unit_type, s.count): s for s in given} if given else {}
        # Sorting one item is a no-op, and most regions hold one nation's stack.
        for nation in world.nation_order(by_nation) if len(by_nation) > 1 else by_nation:
            counts = by_nation[nation]
            for unit_type in types:
                count = counts.get(unit_type, 0)
                if count > 0:
                    stacks.append(
                        kept.get((nation, unit_type, count)) or Stack(nation, region, unit_type, count)
                    )
    return tuple(stacks)
