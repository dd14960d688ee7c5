"""The set-based writes: on PostgreSQL inserts go by COPY, which must store exactly what the plain
one-statement insert (rows unpacked from one JSON parameter) stores, awkward text and JSON included."""

from __future__ import annotations

import pytest
from django.db import connection

from rules import bulk
from rules.models import Report

COLUMNS = ["turn", "position", "kind", "region", "regions", "conquest", "data"]


def _rows(turn_id: int) -> list[dict]:
    awkward = 'tab\there, newline\nthere, back\\slash, "quotes", Ä, \\N, —'
    return [
        {
            "turn": turn_id,
            "position": i,
            "kind": "normal",
            "region": f"R{i}",
            "regions": [f"R{i}", awkward],
            "conquest": i % 2 == 0,
            "data": {"text": awkward, "nested": {"list": [1, 2.5, None, True], "empty": {}}, "n": i},
        }
        for i in range(5)
    ] + [
        {
            "turn": turn_id,
            "position": 5,
            "kind": "meeting",
            "region": "A|B",
            "regions": [],
            "conquest": False,
            "data": [],
        }
    ]


def _stored(turn_id: int) -> list[tuple]:
    return list(
        Report.objects.filter(turn_id=turn_id)
        .order_by("position")
        .values_list("position", "kind", "region", "regions", "conquest", "data")
    )


@pytest.mark.skipif(connection.vendor != "postgresql", reason="COPY is PostgreSQL's")
def test_copy_stores_what_the_plain_insert_stores(demo):
    first, second = (
        demo.turns.get(number=1),
        demo.turns.create(number=2, deadline=demo.turns.get(number=1).deadline, status="resolved", seed="1"),
    )

    bulk.rows_insert(model=Report, columns=COLUMNS, rows=_rows(first.pk))
    bulk._rows_insert_select(model=Report, columns=COLUMNS, rows=_rows(second.pk))

    assert _stored(first.pk) == _stored(second.pk)
    assert len(_stored(first.pk)) == 6


def test_it_inserts_no_rows_without_failing(demo):
    bulk.rows_insert(model=Report, columns=COLUMNS, rows=[])

    assert not Report.objects.exists()
