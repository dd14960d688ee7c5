"""The set-based writes: on PostgreSQL inserts go by COPY, which must store exactly what the plain
one-statement insert (rows unpacked from one JSON parameter) stores, awkward text and JSON included; and
the statements with bound parameters (PostgreSQL) or the plain ones (SQLite) what the ORM stores."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from campaign.models import Turn
from rules import bulk
from rules.models import Report, TurnSnapshot

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


AWKWARD = "tab\there, newline\nthere, back\\slash, \"quotes\", Ä, \\N, —, 'single'"


def _snapshot(turn_id: int, turn_before) -> dict:
    return {
        "turn": turn_id,
        "fingerprint": "f" * 64,
        "input_json": '{"input": {"text": "' + AWKWARD.replace("\\", "\\\\").replace('"', '\\"') + '"}}',
        "nations": [{"id": 1, "turns_missed": 0, "civil_disorder": False, "name": AWKWARD}],
        "turn_before": turn_before,
    }


@pytest.mark.parametrize("turn_before", [None, {"result": {"battles": [{"text": AWKWARD}], "n": None}}])
def test_a_snapshot_goes_in_as_the_orm_stores_it(demo, turn_before):
    first = demo.turns.get(number=1)
    second = demo.turns.create(number=2, deadline=first.deadline, status="resolved", seed="1")
    fields = ["fingerprint", "input_json", "nations", "turn_before"]

    bulk.rows_insert(
        model=TurnSnapshot, columns=list(_snapshot(0, None)), rows=[_snapshot(first.pk, turn_before)]
    )
    TurnSnapshot.objects.create(**{**_snapshot(second.pk, turn_before), "turn": second})

    written, plain = (TurnSnapshot.objects.filter(turn=t).values(*fields).get() for t in (first, second))
    assert written == plain
    assert written["turn_before"] == turn_before


def test_row_save_stores_what_save_stores(demo):
    turn = demo.turns.get(number=1)
    fields = ["status", "result", "error", "processed_at"]

    def stored():
        return Turn.objects.filter(pk=turn.pk).values(*fields).get()

    turn.status = Turn.Status.RESOLVED
    turn.result = {"owners": {"A1": "NOR", "B2": None}, "text": AWKWARD, "list": [1, 2.5, True, {}]}
    turn.error = AWKWARD
    turn.processed_at = timezone.now()
    bulk.row_save(turn, fields)
    written = stored()
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.OPEN, result=None, error="", processed_at=None)
    turn.save(update_fields=fields)

    assert written == stored()
    assert written["result"] == turn.result and written["status"] == "resolved"
