"""A random but realistic turn for benchmarks: `python -m rules bench --regions N --nations M --seed S`.

`--system sodankaynti` plays the same map with Sodankäynti's types (levies and elite gunpowder troops where
Iron Fist has infantry and armour, a few supernatural units and archangels), doctrine orders where Iron Fist
stands air down, ambushes, and random ratings and doctrines per nation.

The map is a grid with random diagonals (so it is connected and every region has 2-8 neighbours), carved
into contiguous nations grown from random capitals. Every nation attacks across its borders, some pairs
attack each other across the same border (meeting engagements), and neighbours of a region often attack
it together (joint attacks).
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import deque

from rules.engine import Order, Region, Relation, Stack, TurnInput, resolve_turn, ruleset_build

TERRAINS = ("open", "open", "open", "rough", "rough", "city")
# Each system's types for Iron Fist's roles: the two attacking ground types, artillery, air.
DOCTRINES = ("steady", "bold", "cautious")
TYPES = {"iron_fist": ("JV", "PA", "TY", "IV"), "sodankaynti": ("LEVY", "GREN", "TY", "IV")}


def random_turn(*, regions: int, nations: int, seed: int, system: str = "iron_fist") -> TurnInput:
    """A connected map of `regions`, `nations` contiguous nations, stacks of every type and their orders."""
    rng = random.Random(seed)
    foot, heavy, guns, air = TYPES[system]
    width = max(1, math.isqrt(regions - 1) + 1)
    codes = [f"R{i:05d}" for i in range(regions)]
    borders = set()
    for i in range(regions):
        x, y = i % width, i // width
        if x > 0:
            borders.add((i - 1, i))
        if y > 0:
            borders.add((i - width, i))
            if x > 0 and rng.random() < 0.3:
                borders.add((i - width - 1, i))
    neighbours: list[list[int]] = [[] for _ in range(regions)]
    for a, b in borders:
        neighbours[a].append(b)
        neighbours[b].append(a)

    names = [f"N{n:03d}" for n in range(nations)]
    owner: list[str | None] = [None] * regions
    frontier = deque()
    for n, capital in enumerate(rng.sample(range(regions), min(nations, regions))):
        owner[capital] = names[n]
        frontier.append(capital)
    while frontier:
        here = frontier.popleft()
        for there in neighbours[here]:
            if owner[there] is None:
                owner[there] = owner[here]
                frontier.append(there)
    for i in rng.sample(range(regions), regions // 20):
        owner[i] = None

    units: list[dict[str, int]] = [{} for _ in range(regions)]
    stacks = []
    for i in range(regions):
        if owner[i] is None:
            continue
        units[i] = {
            foot: rng.randint(0, 12),
            heavy: rng.randint(0, 6),
            guns: rng.randint(0, 3) if rng.random() < 0.5 else 0,
            air: rng.randint(1, 2) if rng.random() < 0.3 else 0,
        }
        stacks += [Stack(owner[i], codes[i], t, c) for t, c in units[i].items() if c]

    peace = {frozenset(p) for p in (rng.sample(names, 2) for _ in range(nations // 2)) if len(p) == 2}

    def hostile(a: int, b: int) -> bool:
        return owner[b] is None or (owner[a] != owner[b] and frozenset((owner[a], owner[b])) not in peace)

    orders = []
    left = [dict(u) for u in units]

    def attack(a: int, b: int, share: float) -> None:
        sent = {t: int(left[a][t] * share) for t in (foot, heavy) if int(left[a][t] * share) > 0}
        if sent:
            for t, c in sent.items():
                left[a][t] -= c
            orders.append(Order(owner[a], "attack", codes[a], codes[b], sent))

    # Meeting engagements: some hostile neighbours attack each other across the same border.
    for a, b in sorted(borders):
        if owner[a] and owner[b] and hostile(a, b) and rng.random() < 0.1:
            attack(a, b, 0.5)
            attack(b, a, 0.5)
    for i in range(regions):
        if owner[i] is None:
            continue
        targets = [j for j in neighbours[i] if hostile(i, j)]
        if targets and rng.random() < 0.5:
            attack(i, rng.choice(targets), 0.6)
        friends = [j for j in neighbours[i] if owner[j] == owner[i]]
        if friends and left[i][guns] and rng.random() < 0.2:
            orders.append(Order(owner[i], "move", codes[i], rng.choice(friends), {guns: left[i][guns]}))
        if friends and left[i][air] and rng.random() < 0.2:
            orders.append(Order(owner[i], "rebase", codes[i], rng.choice(friends), {air: left[i][air]}))
        elif units[i][air] and rng.random() < 0.1:
            if system == "sodankaynti":  # no support to stand down from: a doctrine for the region instead
                params = {"doctrine": rng.choice(DOCTRINES), "region": codes[i]}
                orders.append(Order(owner[i], "doctrine", "", None, {}, params=params))
            else:
                orders.append(Order(owner[i], "stand_down", codes[i], None, {air: 1}))

    system_inputs: dict = {}
    if system == "sodankaynti":
        # A second generator, so the map and orders above are the same as Iron Fist's for the same seed.
        extra = random.Random(seed + 1)
        for i in range(regions):
            if owner[i] and extra.random() < 0.05:
                kind = extra.choice(("SPIRIT", "ANGEL"))
                stacks.append(Stack(owner[i], codes[i], kind, 1))
            if owner[i] and neighbours[i] and extra.random() < 0.1:
                orders.append(Order(owner[i], "ambush", codes[i], codes[extra.choice(neighbours[i])]))
        system_inputs["nation_attributes"] = {
            n: {
                "politics": extra.randint(0, 4),
                "tactics": extra.randint(0, 4),
                "doctrine": extra.choice(DOCTRINES),
            }
            for n in names
        }

    return TurnInput(
        nations=tuple(names),
        regions=tuple(
            Region(
                codes[i],
                rng.choice(TERRAINS),
                owner[i],
                fort=rng.choice((0, 0, 0, 1, 2, 3)),
                home=owner[i] if rng.random() < 0.2 else None,
            )
            for i in range(regions)
        ),
        borders=tuple((codes[a], codes[b]) for a, b in sorted(borders)),
        stacks=tuple(stacks),
        orders=tuple(orders),
        relations=tuple(Relation(*sorted(pair), "peace") for pair in sorted(peace, key=sorted)),
        weather=rng.choice(("clear", "clear", "rain", "snow")),
        system_inputs=system_inputs,
    )


def bench_run(*, regions: int, nations: int, seed: int, repeat: int = 3, system: str = "iron_fist") -> str:
    """Resolve one random turn `repeat` times; one line: regions, stacks, orders, battles, actions (the
    battle actions of a system that reports them), median seconds."""
    turn = random_turn(regions=regions, nations=nations, seed=seed, system=system)
    ruleset = ruleset_build({"battle_system": system})
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = resolve_turn(turn, ruleset, seed)
        times.append(time.perf_counter() - started)
    seconds = statistics.median(times)
    kinds: dict[str, int] = {}
    for battle in result.battles:
        kinds[battle["kind"]] = kinds.get(battle["kind"], 0) + 1
    by_kind = " ".join(f"{k}={v}" for k, v in sorted(kinds.items()))
    actions = sum(len(battle.get("actions", ())) for battle in result.battles)
    return (
        f"system={system} regions={regions} nations={nations} stacks={len(turn.stacks)} "
        f"orders={len(turn.orders)} battles={len(result.battles)} ({by_kind}) actions={actions} "
        f"seconds={seconds:.3f}"
    )
