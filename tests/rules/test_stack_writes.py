"""Turn processing writes only the stacks that changed: the table must end as emptying it and inserting
the result's stacks would leave it (the plain write), on random before and after states."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Stack
from rules.selectors import turn_rows_load
from rules.services import stacks_write

TYPES = ("JV", "PA", "TY", "IV")


def _table(demo) -> dict[tuple[int, int, str], tuple[int, int]]:
    rows = Stack.objects.filter(region__campaign=demo).values_list(
        "nation_id", "region_id", "unit_type", "id", "count"
    )
    return {(n, r, t): (pk, c) for n, r, t, pk, c in rows}


def _random_stacks(rng: random.Random, nations, regions, *, empty: bool) -> dict[tuple[int, int, str], int]:
    low = 0 if empty else 1
    return {
        (rng.choice(nations), rng.choice(regions), rng.choice(TYPES)): rng.randint(low, 5)
        for _ in range(rng.randint(0, 30))
    }


@pytest.mark.parametrize("seed", range(12))
def test_it_leaves_exactly_the_stacks_after_and_keeps_the_rows_that_did_not_change(demo, seed):
    rng = random.Random(seed)
    nations = list(demo.nations.values_list("id", flat=True))
    regions = list(demo.regions.values_list("id", flat=True))
    Stack.objects.filter(region__campaign=demo).delete()
    # Before: random stacks, empty rows among them (a GM may set a count to 0).
    Stack.objects.bulk_create(
        Stack(nation_id=n, region_id=r, unit_type=t, count=c)
        for (n, r, t), c in _random_stacks(rng, nations, regions, empty=True).items()
    )
    was = _table(demo)
    # After: some stacks kept as they were, some changed, some gone, some new.
    after = {key: c for key, (_, c) in was.items() if c and rng.random() < 0.4}
    after |= {key: c + 1 for key, (_, c) in was.items() if rng.random() < 0.3}
    after |= _random_stacks(rng, nations, regions, empty=False)
    rows = [{"nation": n, "region": r, "unit_type": t, "count": c} for (n, r, t), c in after.items()]

    stacks_write(before=turn_rows_load(turn=demo.turns.get(number=1)).stacks, after=rows)

    now = _table(demo)
    assert {key: c for key, (_, c) in now.items()} == after
    assert all(now[key][0] == was[key][0] for key in now if key in was), "a kept stack keeps its row"


def test_it_writes_the_stacks_in_three_statements_whatever_changed(demo):
    before = turn_rows_load(turn=demo.turns.get(number=1)).stacks
    nation, region = before[0][1], before[0][2]
    after = [{"nation": nation, "region": region, "unit_type": "JV", "count": 99}]

    with CaptureQueriesContext(connection) as queries:
        stacks_write(before=before, after=after)

    assert len(queries) == 3
    assert {key: c for key, (_, c) in _table(demo).items()} == {(nation, region, "JV"): 99}
