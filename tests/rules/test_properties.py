"""Property-based tests of the rules engine: invariants that must hold on any small random turn.

No Django, no database: random connected maps of 3-12 regions and 2-4 nations with random terrain,
forts, homes, weather and relations; random stacks of every unit type; mostly valid orders, with meeting
engagements (counter-attacks across the same border), joint attacks and a few invalid orders. Then:

- conservation: per nation and type, the units before = the units after + battle losses + support-roll
  losses + units destroyed in the aftermath (IRON_FIST.md §5.2, §8-10);
- no negative or zero stacks, and units stand only in regions their nation owns (§1);
- the same input and seed give the same result, and the submission order of *different* nations'
  orders does not matter (§2.1 checks orders per nation, §11);
- a battle's winner never loses more ground units than the loser (§5.2 winner's cap).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import (
    GMModifier,
    Order,
    Region,
    Relation,
    Stack,
    TurnInput,
    TurnResult,
    resolve_turn,
)
from rules.engine.ruleset import ruleset_build
from tests.conftest import examples
from tests.rules.property_settings import property_settings

NATION_NAMES = ("RED", "BLUE", "GREEN", "GOLD")
TYPES = ("JV", "PA", "TY", "IV")
GROUND = ("JV", "PA", "TY")
TERRAINS = ("open", "rough", "city")
WEATHERS = ("clear", "rain", "snow", "storm")
RELATIONS = ("war", "peace", "alliance")

RULESETS = {
    "default": ruleset_build({}),
    "no dice": ruleset_build({"kta_die": None}),
    "2d6+1": ruleset_build({"kta_die": "2d6+1"}),
    "certain losses": ruleset_build({"support_loss": {"won_or_draw": 100, "lost": 100}}),
}

FAST = property_settings(examples(60), HealthCheck.data_too_large)


def _distances(start: str, neighbours: dict[str, set[str]]) -> dict[str, int]:
    seen, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for region in frontier:
            for other in sorted(neighbours[region]):
                if other not in seen:
                    seen[other] = seen[region] + 1
                    nxt.append(other)
        frontier = nxt
    return seen


@st.composite
def turns(draw: st.DrawFn) -> tuple[TurnInput, str, int]:
    """A random small turn: (input, ruleset name, seed)."""
    n_regions = draw(st.integers(3, 12))
    n_nations = draw(st.integers(2, 4))
    nations = tuple(draw(st.permutations(NATION_NAMES))[:n_nations])  # nation-id order is not alphabetical
    codes = [f"R{i:02d}" for i in range(n_regions)]
    # a random spanning tree keeps the map connected; a few extra borders make cycles
    borders: set[tuple[str, str]] = set()
    for i in range(1, n_regions):
        j = draw(st.integers(0, i - 1))
        borders.add((codes[j], codes[i]))
    for _ in range(draw(st.integers(0, n_regions))):
        a, b = draw(st.sampled_from(codes)), draw(st.sampled_from(codes))
        if a != b and (b, a) not in borders:
            borders.add((a, b))
    neighbours: dict[str, set[str]] = {c: set() for c in codes}
    for a, b in borders:
        neighbours[a].add(b)
        neighbours[b].add(a)

    owner_choices = st.one_of(st.sampled_from(nations), st.none())
    regions = []
    owners: dict[str, str | None] = {}
    for code in codes:
        owner = draw(st.sampled_from(nations)) if draw(st.integers(0, 4)) else None
        owners[code] = owner
        regions.append(
            Region(
                code=code,
                terrain=draw(st.sampled_from(TERRAINS)),
                owner=owner,
                fort=draw(st.integers(0, 3)) if draw(st.booleans()) else 0,
                home=draw(owner_choices) if draw(st.booleans()) else None,
                weather=draw(st.sampled_from(WEATHERS)) if not draw(st.integers(0, 3)) else None,
            )
        )

    relations = []
    for i, a in enumerate(nations):
        for b in nations[i + 1 :]:
            kind = draw(st.sampled_from(("war", "war", "peace", "alliance", None)))
            if kind is not None:
                relations.append(Relation(a, b, kind))
    at_peace = {frozenset((r.a, r.b)) for r in relations if r.kind != "war"}

    units: dict[tuple[str, str, str], int] = {}
    for code in codes:
        if owners[code] is None:
            continue
        for unit_type in TYPES:
            count = draw(st.integers(0, 8 if unit_type in ("JV", "PA") else 3))
            if count:
                units[(owners[code], code, unit_type)] = count
    stacks = tuple(Stack(n, r, t, c) for (n, r, t), c in units.items())

    orders: list[Order] = []
    used: Counter = Counter()

    def take(nation: str, origin: str, unit_type: str, most: int | None) -> int:
        """A count for an order of a mostly valid size, recorded as used."""
        left = units.get((nation, origin, unit_type), 0) - used[(nation, origin, unit_type)]
        if left <= 0:
            return 0
        count = draw(st.integers(1, left)) if most is None else min(left, most)
        used[(nation, origin, unit_type)] += count
        return count

    for code in codes:
        nation = owners[code]
        if nation is None:
            continue
        targets = sorted(neighbours[code])
        enemy = [t for t in targets if owners[t] != nation and frozenset((nation, owners[t])) not in at_peace]
        own = [t for t in targets if owners[t] == nation]
        for _ in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(("attack",) * 5 + ("move", "rebase", "stand_down", "hold")))
            if kind == "attack" and enemy:
                target = draw(st.sampled_from(enemy))
                ground = {t: take(nation, code, t, None) for t in ("JV", "PA") if draw(st.booleans())}
                ground = {t: c for t, c in ground.items() if c}
                if ground:
                    orders.append(Order(nation, "attack", code, target, ground))
                    defender = owners[target]
                    # a counter-attack across the same border makes a meeting engagement
                    if defender is not None and draw(st.integers(0, 2)) == 0:
                        counter = {
                            t: units.get((defender, target, t), 0) - used[(defender, target, t)]
                            for t in ("JV", "PA")
                        }
                        counter = {t: c for t, c in counter.items() if c > 0}
                        if counter:
                            for t, c in counter.items():
                                used[(defender, target, t)] += c
                            orders.append(Order(defender, "attack", target, code, counter))
            elif kind == "move" and own:
                target = draw(st.sampled_from(own))
                moving = {t: take(nation, code, t, None) for t in ("JV", "PA", "TY") if draw(st.booleans())}
                moving = {t: c for t, c in moving.items() if c}
                if moving:
                    orders.append(Order(nation, "move", code, target, moving))
            elif kind == "rebase":
                distances = _distances(code, neighbours)
                bases = [r for r, d in distances.items() if d <= 2 and owners[r] == nation]
                count = take(nation, code, "IV", None)
                if count:
                    orders.append(Order(nation, "rebase", code, draw(st.sampled_from(bases)), {"IV": count}))
            elif kind == "stand_down":
                unit_type = draw(st.sampled_from(("TY", "IV")))
                have = units.get((nation, code, unit_type), 0)
                if have:
                    orders.append(
                        Order(nation, "stand_down", code, None, {unit_type: draw(st.integers(1, have))})
                    )
            elif kind == "hold":
                have = {t: c for (n, r, t), c in units.items() if n == nation and r == code}
                if have:
                    unit_type = draw(st.sampled_from(sorted(have)))
                    orders.append(Order(nation, "hold", code, None, {unit_type: have[unit_type]}))

    # joint attacks: a second nation joins an attack on the same region from its own neighbour
    attacked = sorted({(o.target, o.nation) for o in orders if o.kind == "attack"})
    for target, first in attacked:
        if draw(st.integers(0, 2)) == 0:
            continue
        for origin in sorted(neighbours[target]):
            joiner = owners[origin]
            if joiner in (None, first, owners[target]):
                continue
            if owners[target] is not None and frozenset((joiner, owners[target])) in at_peace:
                continue
            joining = {t: take(joiner, origin, t, None) for t in ("JV", "PA")}
            joining = {t: c for t, c in joining.items() if c}
            if joining:
                orders.append(Order(joiner, "attack", origin, target, joining))

    # a few invalid orders: wrong types, counts, targets, origins
    for _ in range(draw(st.integers(0, 3))):
        nation = draw(st.sampled_from(nations))
        origin, target = draw(st.sampled_from(codes)), draw(st.sampled_from(codes))
        kind = draw(st.sampled_from(("hold", "move", "rebase", "attack", "stand_down")))
        unit_type = draw(st.sampled_from(TYPES))
        count = draw(st.integers(-1, 12))
        orders.append(
            Order(
                nation, kind, origin, None if kind in ("hold", "stand_down") else target, {unit_type: count}
            )
        )

    orders = [Order(o.nation, o.kind, o.origin, o.target, o.units, ref=i) for i, o in enumerate(orders)]
    gm = []
    for _ in range(draw(st.integers(0, 2))):
        gm.append(
            GMModifier(
                draw(st.sampled_from(codes)), draw(st.sampled_from(nations)), draw(st.integers(-5, 5)), "test"
            )
        )
    turn = TurnInput(
        nations=nations,
        regions=tuple(regions),
        borders=tuple(sorted(borders)),
        stacks=stacks,
        orders=tuple(orders),
        relations=tuple(relations),
        weather=draw(st.sampled_from(WEATHERS)),
        gm_modifiers=tuple(gm),
    )
    return turn, draw(st.sampled_from(sorted(RULESETS))), draw(st.integers(0, 2**32))


def _totals(stacks: Iterable[Stack]) -> Counter:
    totals: Counter = Counter()
    for stack in stacks:
        totals[(stack.nation, stack.unit_type)] += stack.count
    return totals


def _battle_losses(result: TurnResult) -> Counter:
    lost: Counter = Counter()
    for battle in result.battles:
        for nation, by_type in (battle.get("losses") or {}).items():
            for unit_type, count in (by_type or {}).items():
                lost[(nation, unit_type)] += count
    return lost


def _resolve(turn: TurnInput, ruleset_name: str, seed: int) -> TurnResult:
    return resolve_turn(turn, RULESETS[ruleset_name], seed)


@FAST
@given(turns())
def test_units_are_conserved_and_stand_only_in_own_regions(case: tuple[TurnInput, str, int]) -> None:
    turn, ruleset_name, seed = case
    result = _resolve(turn, ruleset_name, seed)

    before = _totals(turn.stacks)
    after = _totals(result.stacks)
    lost = _battle_losses(result)
    rolled: Counter = Counter()
    for roll in result.support_rolls:
        if roll.destroyed:
            rolled[(roll.nation, roll.unit_type)] += 1
    destroyed: Counter = Counter()
    for movement in result.movements:
        if movement.destination is None:
            destroyed[(movement.nation, movement.unit_type)] += movement.count
    for key in set(before) | set(after) | set(lost) | set(rolled) | set(destroyed):
        assert before[key] == after[key] + lost[key] + rolled[key] + destroyed[key], (
            key,
            before[key],
            after[key],
            lost[key],
            rolled[key],
            destroyed[key],
        )

    seen = set()
    for stack in result.stacks:
        assert stack.count > 0, stack
        assert (stack.nation, stack.region, stack.unit_type) not in seen, stack
        seen.add((stack.nation, stack.region, stack.unit_type))
        assert result.owners[stack.region] == stack.nation, (stack, result.owners[stack.region])
    assert set(result.owners) == {r.code for r in turn.regions}
    for battle in result.battles:
        for by_type in (battle.get("losses") or {}).values():
            assert all(count >= 0 for count in (by_type or {}).values()), battle["losses"]


@FAST
@given(turns())
def test_the_winner_never_loses_more_ground_units_than_the_loser(case: tuple[TurnInput, str, int]) -> None:
    turn, ruleset_name, seed = case
    result = _resolve(turn, ruleset_name, seed)
    for battle in result.battles:
        winner = battle.get("winner")
        if battle.get("kind") == "unopposed" or winner is None:
            continue
        sides = {side["name"]: side["nations"] for side in battle["sides"]}
        assert winner in sides, (winner, list(sides))
        losses = battle.get("losses") or {}

        def ground(nations: Iterable[str], losses: dict = losses) -> int:
            return sum(c for n in nations for t, c in (losses.get(n) or {}).items() if t in GROUND)

        won = ground(sides[winner])
        lost = ground(n for name, members in sides.items() if name != winner for n in members)
        assert won <= lost, (battle["kind"], battle["region"], won, lost)


@settings(FAST, max_examples=examples(30))
@given(turns())
def test_the_same_input_and_seed_give_the_same_result(case: tuple[TurnInput, str, int]) -> None:
    turn, ruleset_name, seed = case
    assert _resolve(turn, ruleset_name, seed).to_dict() == _resolve(turn, ruleset_name, seed).to_dict()


def _interleaved(orders: tuple[Order, ...], rng: random.Random) -> tuple[Order, ...]:
    """The orders shuffled across nations, each nation's own orders kept in their relative order."""
    queues: dict[str, list[Order]] = {}
    for order in orders:
        queues.setdefault(order.nation, []).append(order)
    slots = [nation for nation, queue in queues.items() for _ in queue]
    rng.shuffle(slots)
    return tuple(queues[nation].pop(0) for nation in slots)


def _rejected(result: TurnResult) -> Counter:
    return Counter(
        (
            r.order.nation,
            r.order.kind,
            r.order.origin,
            r.order.target,
            tuple(sorted(r.order.units.items())),
            r.order.ref,
            r.reason,
        )
        for r in result.rejected_orders
    )


@settings(FAST, max_examples=examples(50))
@given(turns(), st.integers(0, 2**16))
def test_the_order_of_different_nations_orders_does_not_matter(
    case: tuple[TurnInput, str, int], shuffle_seed: int
) -> None:
    turn, ruleset_name, seed = case
    shuffled = TurnInput(
        nations=turn.nations,
        regions=turn.regions,
        borders=turn.borders,
        stacks=turn.stacks,
        orders=_interleaved(turn.orders, random.Random(shuffle_seed)),
        relations=turn.relations,
        weather=turn.weather,
        gm_modifiers=turn.gm_modifiers,
    )
    first, second = _resolve(turn, ruleset_name, seed), _resolve(shuffled, ruleset_name, seed)
    assert dict(first.owners) == dict(second.owners)
    assert sorted(first.stacks, key=repr) == sorted(second.stacks, key=repr)
    assert list(first.battles) == list(second.battles)
    assert first.support_rolls == second.support_rolls
    assert _rejected(first) == _rejected(second)
