"""Who holds a jointly conquered region (IRON_FIST.md §7.2, §13): control battles and peaceful settlement."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .forces import attacking_side, groups_take_losses, units_of
from .phase import AttackGroup, Phase
from .seam import BattleOutcome, Pending

Bloc = tuple[str, ...]


def control_battles_resolve(phase: Phase) -> None:
    """Fight for every jointly conquered region, in region-id order; settlements come later."""
    world = phase.world
    for region in sorted(phase.conquered):
        parties = phase.conquered[region]
        # The nations at war with nobody present wait; the others form blocs of nations at peace (§7.2 mixed).
        waiting = [n for n in parties if not any(world.at_war(n, m) for m in parties if m != n)]
        warring = sorted(
            (n for n in parties if n not in waiting),
            key=lambda n: (-_strength(phase, region, (n,)), world.nation_index[n]),
        )
        blocs: list[list[str]] = []
        for nation in warring:
            for bloc in blocs:
                if not any(world.at_war(nation, member) for member in bloc):
                    bloc.append(nation)
                    break
            else:
                blocs.append([nation])
        blocs_in_order = [tuple(world.nation_order(b)) for b in blocs]
        winner = _blocs_fight(phase, region, blocs_in_order) if blocs_in_order else ()
        phase.winning_blocs[region] = [list(winner), waiting]


def settlements_resolve(phase: Phase) -> None:
    """Settle every jointly conquered region peacefully, after all control battles (§7.2, §13)."""
    for region in sorted(phase.conquered):
        bloc, waiting = phase.winning_blocs[region]
        holder = _settle(phase, region, bloc) if bloc else None
        if waiting:
            holder = _settle(phase, region, ([holder] if holder else []) + waiting)
        phase.holders[region] = holder


def _settle(phase: Phase, region: str, nations: Sequence[str]) -> str | None:
    """The nation with the most ground units holds the region; a tie is drawn by lot, recorded as its die
    (1d<number tied>) and roll: the roll-th of the tied, in nation-id order."""
    strength = {n: _strength(phase, region, (n,)) for n in phase.world.nation_order(nations)}
    strength = {n: s for n, s in strength.items() if s > 0}
    if len(strength) <= 1:
        return next(iter(strength), None)
    most = max(strength.values())
    tied = [n for n, s in strength.items() if s == most]
    settlement: dict[str, Any] = {"region": region, "units": strength, "tied": [], "holder": tied[0]}
    if len(tied) > 1:
        # The same draw as rng.choice(tied) (both take one randbelow(len(tied))), so results stand.
        roll = phase.dice.randint(1, len(tied))
        settlement.update(tied=tied, holder=tied[roll - 1], die=f"1d{len(tied)}", roll=roll)
    phase.settlements.append(settlement)
    return settlement["holder"]


def _groups(phase: Phase, region: str, bloc: Bloc) -> list[AttackGroup]:
    return [g for g in phase.groups_into(region) if g.nation in bloc]


def _strength(phase: Phase, region: str, bloc: Bloc) -> int:
    return units_of(_groups(phase, region, bloc))


def _blocs_fight(phase: Phase, region: str, blocs: list[Bloc]) -> Bloc:
    """Blocs fight by the hostile rules: the smallest against the combined rest until two remain (§7.2)."""
    index = phase.world.nation_index
    parties = [b for b in blocs if _strength(phase, region, b) > 0]
    while len(parties) > 2:
        # The smallest in ground units; a tie makes the one later in nation-id order the smallest.
        smallest = min(parties, key=lambda b: (_strength(phase, region, b), -min(index[n] for n in b)))
        rest = [b for b in parties if b is not smallest]
        combined = tuple(phase.world.nation_order(n for b in rest for n in b))
        fought = _fight(phase, region, smallest, combined)
        if fought is None:
            return ()
        battle, sides, report = fought
        mine = sides.index(smallest)
        small_left = _strength(phase, region, smallest)
        rest_left = _strength(phase, region, combined)
        if battle.winner == mine and battle.decisive:
            takes = small_left > 0
        elif battle.winner == mine:
            takes = small_left > rest_left
        else:
            takes = rest_left == 0 and small_left > 0
        report["conquest"] = takes
        if takes:
            return smallest
        parties = [b for b in rest if _strength(phase, region, b) > 0]
    if len(parties) <= 1:
        return parties[0] if parties else ()
    fought = _fight(phase, region, parties[0], parties[1])
    if fought is None:
        return ()
    battle, sides, report = fought
    left = [_strength(phase, region, nations) for nations in sides]
    holder: Bloc = ()
    if battle.winner is not None and battle.decisive:
        winner, other = battle.winner, 1 - battle.winner
        holder = sides[winner] if left[winner] else sides[other] if left[other] else ()
    elif left[0] != left[1]:
        holder = sides[0 if left[0] > left[1] else 1]
    elif battle.winner is not None and left[battle.winner]:
        holder = sides[battle.winner]
    report["conquest"] = bool(holder)
    return holder


def _fight(
    phase: Phase, region: str, first: Bloc, second: Bloc
) -> tuple[BattleOutcome, tuple[Bloc, Bloc], dict[str, Any]] | None:
    """One control battle: every party an attacker, no fortification, pincer or home defence (§7.2).

    None when the battle is fought elsewhere and has no result yet."""
    world = phase.world
    sides = [
        attacking_side(phase, _groups(phase, region, bloc), region, pincer=False) for bloc in (first, second)
    ]
    sides.sort(key=lambda s: min(world.nation_index[n] for n in s.nations))
    spot = world.regions[region]
    phase.control_rounds[region] = phase.control_rounds.get(region, 0) + 1
    outcome = phase.fight(
        "control",
        f"control:{region}:{phase.control_rounds[region]}",
        region,
        (region,),
        spot.terrain,
        world.region_weather(region),
        (sides[0], sides[1]),
    )
    phase.battles.append(outcome.report)
    if isinstance(outcome, Pending):
        return None
    groups_take_losses(_groups(phase, region, first + second), outcome)
    return outcome, (sides[0].nations, sides[1].nations), outcome.report
