"""A random but realistic turn for benchmarks: `python -m rules bench --regions N --nations M --seed S`.

The map is the one random map generator's (campaign.generate: a grid with random diagonals, carved into
contiguous nations grown from random capitals), read into the engine's input. On it every nation attacks
across its borders, some pairs attack each other across the same border (meeting engagements),
neighbours of a region often attack it together (joint attacks), and some units move, rebase or stand
down. Like the engine, this imports no Django.

`--system sodankaynti` plays the same map and orders with Sodankäynti's types (levies and elite gunpowder
troops where Iron Fist has infantry and armour, a few supernatural units and archangels), a doctrine order
where Iron Fist stands air down, ambushes, and random ratings and doctrines per nation.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from campaign.borders import adjacency
from campaign.generate import scenario_generate
from rules.engine import Order, Region, Relation, Stack, TurnInput, resolve_turn, ruleset_build


def random_turn(*, regions: int, nations: int, seed: int, system: str = "iron_fist") -> TurnInput:
    """A connected map of `regions`, `nations` contiguous nations, stacks of every type and their orders."""
    data = scenario_generate(regions=regions, nations=nations, seed=seed)
    rng = random.Random(seed)
    turn = TurnInput(
        nations=tuple(n["code"] for n in data["nations"]),
        regions=tuple(
            Region(r["code"], r["terrain"], r["owner"], fort=r["fort"], home=r["home"])
            for r in data["regions"]
        ),
        borders=tuple((a, b) for a, b in data["borders"]),
        stacks=tuple(
            Stack(nation, region, unit_type, count)
            for region, by_nation in data["units"].items()
            for nation, by_type in by_nation.items()
            for unit_type, count in by_type.items()
        ),
        orders=tuple(_busy_orders(data, rng)),
        relations=tuple(Relation(*sorted(r["nations"]), r["kind"]) for r in data["relations"]),
        weather=rng.choice(("clear", "clear", "rain", "snow")),
    )
    return _sodankaynti(turn, seed) if system == "sodankaynti" else turn


def _busy_orders(data: Mapping[str, Any], rng: random.Random) -> list[Order]:
    """Attacks (some meeting head on), moves of TY, rebases and stand-downs of IV, across the map."""
    owner = {r["code"]: r["owner"] for r in data["regions"]}
    neighbours = adjacency(owner, data["borders"])
    peace = {frozenset(r["nations"]) for r in data["relations"]}
    units = {
        code: {t: data["units"].get(code, {}).get(nation, {}).get(t, 0) for t in ("JV", "PA", "TY", "IV")}
        for code, nation in owner.items()
    }
    left = {code: dict(counts) for code, counts in units.items()}
    orders: list[Order] = []

    def hostile(a: str, b: str) -> bool:
        return owner[b] is None or (owner[a] != owner[b] and frozenset((owner[a], owner[b])) not in peace)

    def attack(a: str, b: str, share: float) -> None:
        sent = {t: int(left[a][t] * share) for t in ("JV", "PA") if int(left[a][t] * share) > 0}
        if sent:
            for t, c in sent.items():
                left[a][t] -= c
            orders.append(Order(owner[a], "attack", a, b, sent))

    # Meeting engagements: some hostile neighbours attack each other across the same border.
    for a, b in sorted((a, b) for a, b in data["borders"]):
        if owner[a] and owner[b] and hostile(a, b) and rng.random() < 0.1:
            attack(a, b, 0.5)
            attack(b, a, 0.5)
    for code, nation in owner.items():
        if nation is None:
            continue
        targets = [n for n in neighbours[code] if hostile(code, n)]
        if targets and rng.random() < 0.5:
            attack(code, rng.choice(targets), 0.6)
        friends = [n for n in neighbours[code] if owner[n] == nation]
        if friends and left[code]["TY"] and rng.random() < 0.2:
            orders.append(Order(nation, "move", code, rng.choice(friends), {"TY": left[code]["TY"]}))
        if friends and left[code]["IV"] and rng.random() < 0.2:
            orders.append(Order(nation, "rebase", code, rng.choice(friends), {"IV": left[code]["IV"]}))
        elif units[code]["IV"] and rng.random() < 0.1:
            orders.append(Order(nation, "stand_down", code, None, {"IV": 1}))
    return orders


# Sodankäynti's types for Iron Fist's infantry and armour (TY and IV are types of both systems).
SODANKAYNTI_TYPES = {"JV": "LEVY", "PA": "GREN"}
DOCTRINES = ("steady", "bold", "cautious")


def _sodankaynti(turn: TurnInput, seed: int) -> TurnInput:
    """The same turn for a Sodankäynti campaign; its own draws come from a second generator."""
    rng = random.Random(seed + 1)
    rename = SODANKAYNTI_TYPES.get
    stacks = [replace(s, unit_type=rename(s.unit_type, s.unit_type)) for s in turn.stacks]
    neighbours = adjacency({r.code: r.owner for r in turn.regions}, turn.borders)
    orders = []
    for order in turn.orders:
        if order.kind == "stand_down":  # no support to stand down from: a doctrine for the region instead
            params = {"doctrine": rng.choice(DOCTRINES), "region": order.origin}
            orders.append(Order(order.nation, "doctrine", "", None, {}, params=params))
        else:
            orders.append(replace(order, units={rename(t, t): c for t, c in order.units.items()}))
    for region in turn.regions:
        if region.owner and rng.random() < 0.05:
            stacks.append(Stack(region.owner, region.code, rng.choice(("SPIRIT", "ANGEL")), 1))
        if region.owner and neighbours[region.code] and rng.random() < 0.1:
            facing = rng.choice(sorted(neighbours[region.code]))
            orders.append(Order(region.owner, "ambush", region.code, facing))
    attributes = {
        n: {"politics": rng.randint(0, 4), "tactics": rng.randint(0, 4), "doctrine": rng.choice(DOCTRINES)}
        for n in turn.nations
    }
    return replace(
        turn, stacks=tuple(stacks), orders=tuple(orders), system_inputs={"nation_attributes": attributes}
    )


def bench_run(*, regions: int, nations: int, seed: int, repeat: int = 3, system: str = "iron_fist") -> str:
    """Resolve one random turn `repeat` times; one line: regions, stacks, orders, battles, actions (the
    battle actions of a system that reports them), median seconds, and median CPU seconds (what other
    work on a shared machine disturbs least)."""
    turn = random_turn(regions=regions, nations=nations, seed=seed, system=system)
    ruleset = ruleset_build({"battle_system": system})
    times, cpu = [], []
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = resolve_turn(turn, ruleset, seed)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    seconds = statistics.median(times)
    kinds: dict[str, int] = {}
    for battle in result.battles:
        kinds[battle["kind"]] = kinds.get(battle["kind"], 0) + 1
    by_kind = " ".join(f"{k}={v}" for k, v in sorted(kinds.items()))
    actions = sum(len(battle.get("actions", ())) for battle in result.battles)
    return (
        f"system={system} regions={regions} nations={nations} stacks={len(turn.stacks)} "
        f"orders={len(turn.orders)} battles={len(result.battles)} ({by_kind}) actions={actions} "
        f"seconds={seconds:.3f} cpu_seconds={statistics.median(cpu):.3f}"
    )
