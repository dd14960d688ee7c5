"""Invariants of the company turn over generated maps and orders (COMPANY.md §4.4, §6)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.company_d20 import company_ruleset_build
from rules.engine.company_d20.campaign import CampaignState, Region
from rules.engine.company_d20.orders import Order
from rules.engine.company_d20.roster import unit_create
from rules.engine.company_d20.turn import complete_turn, process_turn

RULESET = company_ruleset_build()
NATIONS = ("BLUE", "RED", "GREEN")


def _world(seed: int) -> tuple[CampaignState, list[Order]]:
    """A ring of regions with a few chords, units everywhere their nation owns, and random orders."""
    rng = random.Random(seed)
    ids = [f"R{i}" for i in range(rng.randint(4, 9))]
    borders = {tuple(sorted((a, ids[(i + 1) % len(ids)]))) for i, a in enumerate(ids)}
    borders |= {tuple(sorted(rng.sample(ids, 2))) for _ in range(rng.randint(0, 3))}
    owners = {r: rng.choice([*NATIONS, None]) for r in ids}
    regions = {r: Region(r, rng.choice(["open", "rough", "city"]), owners[r]) for r in ids}
    units, next_id = {}, 1
    for region, owner in owners.items():
        for _ in range(rng.randint(0, 3) if owner else 0):
            units[next_id] = unit_create(
                RULESET,
                id=next_id,
                type=rng.choice(sorted(RULESET.catalogue)),
                name=f"U{next_id}",
                nation=owner,
                region=region,
            )
            next_id += 1
    relations = {frozenset(("BLUE", "GREEN")): rng.choice(["war", "peace", "alliance"])}
    state = CampaignState(
        NATIONS, regions, tuple(borders), units, turn=1, relations=relations, tp=dict.fromkeys(NATIONS, 0)
    )
    orders = []
    for _ in range(rng.randint(0, 12)):
        unit = rng.choice(list(units.values())) if units else None
        if unit is None:
            break
        kind = rng.choice(["attack", "attack", "move", "hold", "recon"])
        near = sorted(state.adjacency()[unit.region])
        target = rng.choice(near) if near and rng.random() < 0.8 else rng.choice(ids)  # mostly a valid one
        orders.append(Order(unit.nation, kind, unit.region, target, (unit.id,)))
    return state, orders


class Dice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randint(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 100_000))
def test_no_unit_fights_two_battles_and_every_attacker_fights_one(seed) -> None:
    state, orders = _world(seed)
    processed = process_turn(state, orders, RULESET, Dice(seed))

    seen: list[int] = [u for b in processed.battles for u in b.units]
    assert len(seen) == len(set(seen))
    attackers = {u for _, o in processed.accepted if o.kind == "attack" for u in o.units}
    assert attackers <= set(seen)
    for battle in processed.battles:
        for unit_id in battle.units:
            if battle.defender is not None and battle.units[unit_id].nation == battle.defender:
                assert unit_id not in attackers
    meetings = [b.key for b in processed.battles if b.kind == "meeting"]
    others = [b.key for b in processed.battles if b.kind != "meeting"]
    assert [b.key for b in processed.battles] == sorted(meetings) + sorted(others)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 100_000), st.data())
def test_after_completion_every_unit_stands_in_a_region_of_its_nation(seed, data) -> None:
    state, orders = _world(seed)
    processed = process_turn(state, orders, RULESET, Dice(seed))
    results = {}
    for battle in processed.battles:
        if battle.kind == "unopposed":
            continue
        if data.draw(st.booleans()):
            results[battle.key] = "void"
            continue
        rows = []
        for unit in battle.units.values():
            lost = data.draw(st.integers(0, unit.tk))
            rows.append(
                {
                    "unit": unit.id,
                    "tk_lost": lost,
                    "destroyed": lost == unit.tk,
                    "vp": data.draw(st.integers(0, 4)),
                }
            )
        results[battle.key] = {"units": rows}

    completed = complete_turn(processed.state, processed.battles, results, RULESET)

    after = completed.state
    for unit in after.active_units():
        assert after.regions[unit.region].owner == unit.nation
    assert all(balance >= 0 for balance in after.tp.values())
    fought = {b.region for b in processed.battles if b.region}
    for region in after.regions.values():
        if region.owner != state.regions[region.id].owner:
            assert region.id in fought
