"""The company campaign turn (COMPANY.md §4.3-4.4, §5.6, §6): processing into independent table battles, and
completion, which applies every final result and then the aftermath.

    process_turn(state, orders, ruleset, dice) -> Processed     (pure; dice: the turn stream, recon only)
    complete_turn(state, battles, results, ruleset) -> Completed  (pure, no dice)

Every unit has at most one order and defenders are the units without an attack order, so no unit is in two
battles and each battle can be played on its own (§4.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.engine.seam import DiceSource

from .campaign import CampaignState, Region, distances
from .dice import Recorder
from .events import event, final_events, position_events
from .orders import Order, orders_check
from .problems import Problem
from .recon import recon_orders_roll, snapshots_expire
from .results import Battle, Final, result_final, result_validate
from .roster import DESTROYED
from .ruleset import CompanyRuleset


@dataclass(frozen=True)
class Processed:
    state: CampaignState  # after movement, with the turn's recon snapshots
    accepted: tuple[tuple[int, Order], ...]
    rejected: tuple[tuple[int, Problem], ...]
    battles: tuple[Battle, ...]  # in battle order (§4.4)
    recon: tuple[Mapping[str, Any], ...]  # per recon roll: what the scouting nation's report shows
    dice: tuple[tuple[int, int], ...]  # every die drawn from the turn stream, in order
    events: tuple[Mapping[str, Any], ...] = ()  # the moves, as roster events (§7.7)


def process_turn(
    state: CampaignState, orders: Sequence[Order], ruleset: CompanyRuleset, dice: DiceSource
) -> Processed:
    """§4.3: re-check the orders, move, roll recon, assign the battles."""
    accepted, rejected = orders_check(state, orders, ruleset)
    units, moves = dict(state.units), []
    for _, order in accepted:
        if order.kind == "move":
            for unit_id in order.units:
                moves.append(event("moved", order.nation, unit_id, before=order.origin, after=order.target))
                units[unit_id] = replace(units[unit_id], region=order.target)
    moved = replace(state, units=units)
    recorder = Recorder(dice)
    snapshots, recon = recon_orders_roll(
        moved, [(i, o) for i, o in accepted if o.kind == "recon"], ruleset, recorder
    )
    moved = replace(moved, snapshots=state.snapshots + tuple(snapshots))
    battles = battles_assign(moved, [o for _, o in accepted if o.kind == "attack"])
    return Processed(
        moved,
        tuple(accepted),
        tuple(rejected),
        tuple(battles),
        tuple(recon),
        tuple(recorder.dice),
        tuple(moves),
    )


def battles_assign(state: CampaignState, attacks: Sequence[Order]) -> list[Battle]:
    """§4.4: meeting engagements by key, then region battles by region id."""
    lanes: dict[tuple[str, str], list[Order]] = {}
    for order in attacks:
        lanes.setdefault((order.origin, order.target), []).append(order)
    meetings = sorted({tuple(sorted(lane)) for lane in lanes if lane[::-1] in lanes})
    battles = []
    for a, b in meetings:
        orders = lanes[(a, b)] + lanes[(b, a)]
        battles.append(_battle(state, f"{a}|{b}", "meeting", None, orders, [], region=None))
    in_meeting = {lane for pair in meetings for lane in (pair, pair[::-1])}
    by_region: dict[str, list[Order]] = {}
    for lane, orders in lanes.items():
        if lane not in in_meeting:
            by_region.setdefault(lane[1], []).extend(orders)
    attacking = {u for order in attacks for u in order.units}
    for region_id in sorted(by_region):
        orders = by_region[region_id]
        owner = state.owner(region_id)
        defenders = [
            u.id
            for u in state.active_units(owner)
            if owner and u.region == region_id and u.id not in attacking
        ]
        nations = {o.nation for o in orders}
        if defenders:
            kind = "normal" if len(nations) == 1 else "joint"
            battles.append(_battle(state, region_id, kind, owner, orders, defenders, region=region_id))
        elif len(nations) == 1 or all(not state.at_war(a, b) for a in nations for b in nations):
            battles.append(_unopposed(state, region_id, orders))
        else:
            battles.append(_battle(state, region_id, "contested", None, orders, [], region=region_id))
    return battles


def _battle(
    state: CampaignState,
    key: str,
    kind: str,
    defender: str | None,
    orders: Sequence[Order],
    defenders: Sequence[int],
    *,
    region: str | None,
) -> Battle:
    origins = {u: o.origin for o in orders for u in o.units}
    origins.update((u, region) for u in defenders)
    nations = state.nation_order({state.units[u].nation for u in origins})
    return Battle(
        key,
        kind,
        defender,
        tuple(nations),
        {u: state.units[u] for u in sorted(origins)},
        origins,
        region=region,
    )


def _unopposed(state: CampaignState, region: str, orders: Sequence[Order]) -> Battle:
    """No defending unit: one attacking nation occupies; attackers all at peace settle it by numbers
    (§4.4)."""
    battle = _battle(state, region, "unopposed", None, orders, [], region=region)
    counts = {n: len(battle.side_units(n)) for n in battle.sides}
    most = max(counts.values())
    leaders = [n for n in battle.sides if counts[n] == most]
    occupier = leaders[0] if len(leaders) == 1 else None
    settlement = "peaceful" if len(battle.sides) > 1 else None
    return replace(battle, occupier=occupier, settlement=settlement)


class CompletionError(Exception):
    """A battle lacks its final result, or the result is not valid: the turn cannot complete."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(str(p.message) for p in problems))
        self.problems = tuple(problems)


@dataclass(frozen=True)
class Completed:
    state: CampaignState  # the next turn's, in `orders`
    outcomes: Mapping[str, Mapping[str, Any]]  # battle key -> what the report shows
    finals: Mapping[str, Final]
    retreats: Mapping[int, tuple[str, str | None]]  # unit -> (from, to); to None: cut off
    cut_off: tuple[int, ...]
    events: tuple[Mapping[str, Any], ...] = ()  # the roster events, in order (§7.7)


VOID = "void"


def complete_turn(
    state: CampaignState, battles: Sequence[Battle], results: Mapping[str, Any], ruleset: CompanyRuleset
) -> Completed:
    """§6: the roster changes of every final result in battle order, ownership, positions, retreats,
    expiry."""
    problems = []
    for battle in battles:
        entry = results.get(battle.key)
        if battle.kind == "unopposed" or entry == VOID:
            continue
        if entry is None:
            problems.append(Problem("result_missing", battle.key))
        elif result_validate(battle, entry):
            problems.append(
                Problem(
                    "result_invalid",
                    battle.key,
                    {"errors": [p.to_dict() for p in result_validate(battle, entry)]},
                )
            )
    if problems:
        raise CompletionError(problems)
    units, tp = dict(state.units), dict(state.tp)
    owners = {r.id: r.owner for r in state.regions.values()}
    outcomes: dict[str, Mapping[str, Any]] = {}
    finals: dict[str, Final] = {}
    events: list[dict[str, Any]] = []
    for battle in battles:  # step 1
        if battle.kind == "unopposed":
            outcomes[battle.key] = {"occupier": battle.occupier, "settlement": battle.settlement}
            continue
        if results[battle.key] == VOID:  # §5.6: not fought
            outcomes[battle.key] = {"void": True}
            continue
        final = result_final(battle, results[battle.key], ruleset, state.turn)
        finals[battle.key] = final
        applied_before = {u: units[u] for u in final.units}
        for unit_id, after in final.units.items():
            before, snap = units[unit_id], battle.units[unit_id]
            if after.status == DESTROYED:
                units[unit_id] = replace(before, tk=0, status=DESTROYED, fell=after.fell)
            else:
                lost = snap.tk - after.tk
                units[unit_id] = replace(
                    before,
                    tk=max(0, before.tk - lost),
                    xp=before.xp + final.xp[unit_id],
                    role=after.role,
                    group=after.group,
                )
        events += final_events(battle, final, ruleset, applied_before, units)
        for nation, gain in final.tp.items():
            tp[nation] = tp.get(nation, 0) + gain
        outcome = final.outcome
        outcomes[battle.key] = {
            "vp": dict(outcome.vp),
            "winner": outcome.winner,
            "conquest": outcome.conquest,
            "holder": outcome.holder,
            "xp": dict(final.xp),
            "tp": dict(final.tp),
        }
    for battle in battles:  # steps 2, 3a, 3b
        holder = (
            battle.occupier
            if battle.kind == "unopposed"
            else (finals[battle.key].outcome.holder if battle.key in finals else None)
        )
        if holder is not None:
            owners[battle.region] = holder
        for unit_id, origin in battle.origins.items():
            unit = units[unit_id]
            if not unit.active:
                continue
            if unit.nation == holder:
                units[unit_id] = replace(unit, region=battle.region)
            elif unit.nation != battle.defender:
                units[unit_id] = replace(unit, region=origin)
    regions = {r: replace(region, owner=owners[r]) for r, region in state.regions.items()}
    retreats, cut_off = _retreats(state, regions, units, ruleset)
    for unit_id, (_, to) in retreats.items():
        if to is None:
            units[unit_id] = replace(
                units[unit_id],
                tk=0,
                status=DESTROYED,
                fell={"turn": state.turn, "battle": None, "cause": "cut_off"},
            )
        else:
            units[unit_id] = replace(units[unit_id], region=to)
    events += position_events(state.units, units, retreats)
    turn = state.turn + 1
    after = replace(
        state,
        regions=regions,
        units=units,
        tp=tp,
        turn=turn,
        snapshots=snapshots_expire(state.snapshots, turn, ruleset),
    )
    return Completed(after, outcomes, finals, retreats, tuple(cut_off), tuple(events))


def _retreats(
    state: CampaignState, regions: Mapping[str, Region], units: Mapping[int, Any], ruleset: CompanyRuleset
) -> tuple[dict[int, tuple[str, str | None]], list[int]]:
    """§6 steps 3c-4: every active unit in a region its nation does not own retreats; where to is judged on
    the positions before any retreat is applied."""
    adjacency = state.adjacency()
    counts: dict[tuple[str, str], int] = {}
    for unit in units.values():
        if unit.active:
            counts[(unit.nation, unit.region)] = counts.get((unit.nation, unit.region), 0) + 1
    retreats, cut_off = {}, []
    for unit in sorted(units.values(), key=lambda u: u.id):
        if not unit.active or regions[unit.region].owner == unit.nation:
            continue
        owned = sorted(r for r in adjacency[unit.region] if regions[r].owner == unit.nation)
        to = None
        if owned:  # the most of the nation's units; ties to the lower region id
            best = max(counts.get((unit.nation, r), 0) for r in owned)
            to = next(r for r in owned if counts.get((unit.nation, r), 0) == best)
        if to is None and ruleset.get("turn.cut_off") == "nearest":
            far = distances(adjacency, unit.region)
            reachable = sorted((d, r) for r, d in far.items() if regions[r].owner == unit.nation)
            to = reachable[0][1] if reachable else None
        retreats[unit.id] = (unit.region, to)
        if to is None:
            cut_off.append(unit.id)
    return retreats, cut_off
