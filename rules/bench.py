"""A random but realistic turn for benchmarks: `python -m rules bench --regions N --nations M --seed S`.

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


def random_turn(*, regions: int, nations: int, seed: int) -> TurnInput:
    """A connected map of `regions`, `nations` contiguous nations, stacks of every type and their orders."""
    rng = random.Random(seed)
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
            "JV": rng.randint(0, 12),
            "PA": rng.randint(0, 6),
            "TY": rng.randint(0, 3) if rng.random() < 0.5 else 0,
            "IV": rng.randint(1, 2) if rng.random() < 0.3 else 0,
        }
        stacks += [Stack(owner[i], codes[i], t, c) for t, c in units[i].items() if c]

    peace = {frozenset(p) for p in (rng.sample(names, 2) for _ in range(nations // 2)) if len(p) == 2}

    def hostile(a: int, b: int) -> bool:
        return owner[b] is None or (owner[a] != owner[b] and frozenset((owner[a], owner[b])) not in peace)

    orders = []
    left = [dict(u) for u in units]

    def attack(a: int, b: int, share: float) -> None:
        sent = {t: int(left[a][t] * share) for t in ("JV", "PA") if int(left[a][t] * share) > 0}
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
        if friends and left[i]["TY"] and rng.random() < 0.2:
            orders.append(Order(owner[i], "move", codes[i], rng.choice(friends), {"TY": left[i]["TY"]}))
        if friends and left[i]["IV"] and rng.random() < 0.2:
            orders.append(Order(owner[i], "rebase", codes[i], rng.choice(friends), {"IV": left[i]["IV"]}))
        elif units[i]["IV"] and rng.random() < 0.1:
            orders.append(Order(owner[i], "stand_down", codes[i], None, {"IV": 1}))

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
    )


def bench_run(*, regions: int, nations: int, seed: int, repeat: int = 3) -> str:
    """Resolve one random turn `repeat` times; one line: regions, stacks, orders, battles, median seconds."""
    turn = random_turn(regions=regions, nations=nations, seed=seed)
    ruleset = ruleset_build()
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
    return (
        f"regions={regions} nations={nations} stacks={len(turn.stacks)} orders={len(turn.orders)} "
        f"battles={len(result.battles)} ({by_kind}) seconds={seconds:.3f}"
    )
