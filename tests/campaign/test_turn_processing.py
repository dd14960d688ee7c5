"""Processing a turn: claim, load, resolve with the engine, write; once, atomically, in fixed queries."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from campaign.generate import orders_generate, scenario_generate
from campaign.models import Stack, Turn, turn_seed
from campaign.queue import turn_queue, turn_reopen, turns_due_queue
from campaign.scenario import scenario_parse, scenario_read
from campaign.services import scenario_import
from rules import services
from rules.engine import resolve_turn
from rules.engine.state import Order as EngineOrder
from rules.engine.state import Region as EngineRegion
from rules.engine.state import Relation as EngineRelation
from rules.engine.state import Stack as EngineStack
from rules.engine.state import TurnInput
from rules.models import Report
from rules.selectors import turn_load, turn_result
from rules.services import turn_process
from rules.tasks import process_turn
from tests.conftest import DEMO, twice_at_once
from tests.history.test_replay import world_by_code

# A busy first turn on the demo map: a meeting engagement (K4/E2), an attack on a home region (E4),
# a joint occupation by two nations at peace (M4), an unopposed occupation (M1), a stand-down and an
# order the engine must reject (N1 does not border K3).
ORDERS = [
    ("KAR", "attack", "K4", "E2", {"JV": 4, "PA": 2}),
    ("EST", "attack", "E2", "K4", {"JV": 3, "PA": 3}),
    ("SUD", "attack", "S1", "E4", {"JV": 3, "PA": 2}),
    ("WES", "attack", "W4", "M4", {"JV": 3, "PA": 1}),
    ("SUD", "attack", "S2", "M4", {"JV": 2, "PA": 1}),
    ("NOR", "attack", "N5", "M1", {"JV": 3, "PA": 2}),
    ("KAR", "stand_down", "K2", None, {"IV": 1}),
    ("NOR", "attack", "N1", "K3", {"JV": 2}),
]


def engine_result_for_demo(orders) -> dict:
    """What the engine says about turn 1 of the demo, built from the scenario file, not from the database."""
    scenario = scenario_read(DEMO)
    turn_input = TurnInput(
        nations=tuple(n.code for n in scenario.nations),
        regions=tuple(
            EngineRegion(code=r.code, terrain=r.terrain, owner=r.owner, fort=r.fort, home=r.home)
            for r in sorted(scenario.regions, key=lambda r: r.code)
        ),
        borders=scenario.borders,
        stacks=tuple(EngineStack(n, r, t, c) for r, n, t, c in scenario.units),
        orders=tuple(
            EngineOrder(
                nation=o.nation.code,
                kind=o.kind,
                origin=o.origin.code,
                target=o.target.code if o.target else None,
                units=o.units,
                ref=o.pk,
            )
            for o in orders
        ),
        relations=tuple(EngineRelation(a, b, kind) for a, b, kind in scenario.relations),
    )
    result = resolve_turn(turn_input, scenario.ruleset, turn_seed(campaign_seed=scenario.seed, number=1))
    return json.loads(json.dumps(result.to_dict()))


def assert_world_matches(campaign, expected: dict) -> None:
    stacks = {
        (s["nation"], s["region"], s["unit_type"]): s["count"] for s in expected["stacks"] if s["count"]
    }
    world = world_by_code(campaign)
    assert {(n, r, t): c for r, n, t, c in world["stacks"]} == stacks
    assert dict(world["owners"]) == expected["owners"]
    assert [r.data for r in Report.objects.filter(turn__campaign=campaign)] == expected["battles"]


def test_it_resolves_the_turn_exactly_as_the_engine_does(demo, place_orders):
    turn = demo.turns.get(number=1)
    orders = place_orders(turn, ORDERS)
    expected = engine_result_for_demo(orders)
    assert expected["battles"], "the demo orders should make battles"

    processed = turn_process(turn_id=turn.pk)

    assert processed.status == Turn.Status.RESOLVED
    turn.refresh_from_db()
    assert turn_result(turn=turn) == expected
    assert "battles" not in turn.result, "the reports are stored once, as report rows"
    assert_world_matches(demo, expected)
    assert {o["ref"] for o in (r["order"] for r in expected["rejected_orders"])} == {orders[-1].pk}


def test_it_indexes_each_report_by_kind_region_and_every_nation_involved(demo, place_orders, nations):
    turn = demo.turns.get(number=1)
    place_orders(turn, ORDERS)
    turn_process(turn_id=turn.pk)
    reports = list(Report.objects.filter(turn=turn).prefetch_related("nations"))
    assert reports
    for report in reports:
        assert report.kind == report.data["kind"]
        assert report.region == report.data["region"]
        assert report.conquest == report.data["conquest"]
        assert {n.code for n in report.nations.all()} == set(report.data["nations"])
    meeting = Report.objects.get(turn=turn, kind=Report.Kind.MEETING)
    assert set(meeting.region.split("|")) == {"E2", "K4"}
    assert set(Report.objects.filter(nations=nations["NOR"], turn=turn).values_list("region", flat=True)) >= {
        "M1"
    }


def test_it_opens_the_next_turn_with_its_derived_seed_and_deadline(demo):
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    turn = demo.turns.get(number=1)
    turn_process(turn_id=turn.pk, now=lambda: now)
    following = demo.turns.get(number=2)
    assert following.status == Turn.Status.OPEN
    assert following.seed_value == turn_seed(campaign_seed=demo.seed, number=2)
    assert following.deadline == now + timedelta(days=7)
    assert following.deadline.utcoffset() == timedelta(0)


def test_it_processes_a_turn_once_when_the_job_is_delivered_twice(demo, place_orders):
    turn = demo.turns.get(number=1)
    place_orders(turn, ORDERS)
    assert turn_process(turn_id=turn.pk).status == Turn.Status.RESOLVED
    after_first = world_by_code(demo)

    assert turn_process(turn_id=turn.pk) is None
    assert world_by_code(demo) == after_first


def test_it_leaves_the_database_as_it_was_when_writing_fails_midway_and_a_retry_succeeds(
    demo, place_orders, monkeypatch
):
    turn = demo.turns.get(number=1)
    orders = place_orders(turn, ORDERS)
    before = world_by_code(demo)

    # The stacks, owners and reports are written by then; the last write fails.
    def fail(**kwargs):
        raise RuntimeError("disk full while writing who may read the reports")

    monkeypatch.setattr(services, "_report_nations_insert", fail)
    failed = turn_process(turn_id=turn.pk)

    assert failed.status == Turn.Status.FAILED
    turn.refresh_from_db()
    assert turn.status == Turn.Status.FAILED
    assert "disk full" in turn.error
    assert turn.result is None
    after = world_by_code(demo)
    assert after["turns"] == [(1, "failed", *before["turns"][0][2:])]
    assert {k: v for k, v in after.items() if k != "turns"} == {
        k: v for k, v in before.items() if k != "turns"
    }

    monkeypatch.undo()
    assert turn_process(turn_id=turn.pk) is None, "a failed turn waits for the GM"
    assert turn_reopen(turn_id=turn.pk)
    assert turn_process(turn_id=turn.pk).status == Turn.Status.RESOLVED
    assert_world_matches(demo, engine_result_for_demo(orders))


def test_it_fails_the_turn_with_the_error_when_the_engine_refuses_the_world(demo, regions, nations):
    # A stack of KAR in a region NOR owns: the engine's input check refuses it (IRON_FIST.md §1).
    Stack.objects.create(nation=nations["KAR"], region=regions["N1"], unit_type="JV", count=1)
    turn = demo.turns.get(number=1)
    assert turn_process(turn_id=turn.pk).status == Turn.Status.FAILED
    turn.refresh_from_db()
    assert turn.error
    assert not Report.objects.exists()
    assert demo.turns.count() == 1


def _campaign_with_orders(slug: str, regions: int, nations: int, place_orders):
    data = scenario_generate(regions=regions, nations=nations, seed=7)
    campaign = scenario_import(scenario=scenario_parse(data), slug=slug)
    turn = campaign.turns.get(number=1)
    orders = orders_generate(scenario=data, seed=7)
    place_orders(turn, [(o["nation"], o["kind"], o["origin"], o["target"], o["units"]) for o in orders])
    return turn, len(orders)


def test_it_takes_the_same_number_of_queries_for_50_and_2000_regions(db, place_orders):
    counts = {}
    for regions, nations in ((50, 10), (2000, 10), (2000, 50)):
        turn, orders = _campaign_with_orders(f"bench-{regions}-{nations}", regions, nations, place_orders)
        with CaptureQueriesContext(connection) as queries:
            processed = turn_process(turn_id=turn.pk)
        assert processed.status == Turn.Status.RESOLVED, processed.error
        assert Report.objects.filter(turn=turn).count() > 0
        counts[regions, nations] = len(queries)
    assert len(set(counts.values())) == 1, counts
    assert counts[2000, 50] <= 25, counts


def test_a_generated_turn_stores_what_the_engine_gave_as_json_reads_it_back(db, place_orders):
    # The turn's writes encode their JSON with orjson (rules.json_fast); read back, the rows hold what
    # Django's JSONField (json) would have stored of the engine's result, reports and the rest.
    turn, _ = _campaign_with_orders("json-read-back", 300, 8, place_orders)
    loaded = turn_load(turn=turn)
    result = resolve_turn(loaded.turn_input, turn.campaign.ruleset(), turn.seed_value)
    expected = json.loads(json.dumps(result.to_dict()))
    assert expected["battles"] and expected["support_chances"]

    processed = turn_process(turn_id=turn.pk)

    assert processed.status == Turn.Status.RESOLVED, processed.error
    assert processed.result == {k: v for k, v in expected.items() if k != "battles"}
    processed.refresh_from_db()
    assert turn_result(turn=processed) == expected
    assert list(Report.objects.filter(turn=processed).values_list("data", flat=True)) == expected["battles"]


def test_it_runs_the_task_locally_and_a_second_run_does_nothing(
    demo, place_orders, django_capture_on_commit_callbacks
):
    turn = demo.turns.get(number=1)
    place_orders(turn, ORDERS)
    with django_capture_on_commit_callbacks() as callbacks:
        turn_queue(turn_id=turn.pk)
    assert len(callbacks) == 1, "queued only once the caller's transaction commits"
    assert process_turn.apply(args=[turn.pk]).get() == Turn.Status.RESOLVED
    assert process_turn.apply(args=[turn.pk]).get() is None


def test_it_declares_the_task_safe_to_redeliver():
    assert process_turn.acks_late is True
    assert process_turn.reject_on_worker_lost is True


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (set DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_it_resolves_once_when_two_runs_race(demo, place_orders):
    turn = demo.turns.get(number=1)
    place_orders(turn, ORDERS)
    outcomes = twice_at_once(lambda: turn_process(turn_id=turn.pk), timeout=60)

    assert sorted(o.status if o else "skipped" for o in outcomes) == ["resolved", "skipped"]
    assert list(demo.turns.values_list("number", "status")) == [(1, "resolved"), (2, "open")]
    assert Report.objects.filter(turn=turn).count() == len(
        turn_result(turn=turn.__class__.objects.get(pk=turn.pk))["battles"]
    )


def test_it_queues_the_turns_whose_deadline_has_passed(demo, django_capture_on_commit_callbacks):
    turn = demo.turns.get(number=1)
    with django_capture_on_commit_callbacks() as callbacks:
        assert turns_due_queue(now=lambda: turn.deadline - timedelta(seconds=1)) == 0
        assert turns_due_queue(now=lambda: turn.deadline) == 1
    assert len(callbacks) == 1


def test_it_processes_a_turn_from_the_command_and_retries_a_failed_one(demo, capsys):
    call_command("process_turn", "demo")
    assert "turn 1 resolved" in capsys.readouterr().out
    Turn.objects.filter(campaign=demo, number=2).update(status=Turn.Status.FAILED, error="boom")
    with pytest.raises(CommandError, match="failed; see the error, then use --retry"):
        call_command("process_turn", "demo")
    call_command("process_turn", "demo", retry=True)
    assert list(demo.turns.values_list("number", "status")) == [(1, "resolved"), (2, "resolved"), (3, "open")]
    with pytest.raises(CommandError, match="no campaign with this slug"):
        call_command("process_turn", "nowhere")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (set DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_it_waits_for_an_order_being_written_instead_of_skipping_the_turn(demo, place_orders):
    # An order's transaction holds the turn's row for a moment (orders.services); a run that came then
    # used to skip the turn and leave it open with its job spent.
    turn = demo.turns.get(number=1)
    place_orders(turn, ORDERS)

    def write_an_order(locked, release):
        with transaction.atomic():
            Turn.objects.select_for_update(no_key=True).get(pk=turn.pk)
            locked.set()
            release.wait(30)

    processed = _process_while(turn, write_an_order)

    assert processed is not None and processed.status == "resolved"
    assert list(demo.turns.values_list("number", "status")) == [(1, "resolved"), (2, "open")]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (set DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_it_waits_for_an_order_being_judged_and_neither_fails(demo, player):
    # Processing updates every nation's row (missed turns); an order holds its nation's row while it is
    # judged. Were the turn free meanwhile, processing would claim it, wait for the nation, and the order
    # for the turn: a deadlock, one of the two failing.
    from orders.models import Order
    from orders.services import OrderDraft, order_submit

    turn = demo.turns.get(number=1)
    outcome = {}

    def enter_an_order(judged, release):
        looks = iter(range(100))

        def clock():
            if next(looks) == 1:  # the look after judging, before the order is written
                judged.set()
                release.wait(30)
            return datetime.now(UTC)

        try:
            hold = OrderDraft(kind="hold", origin="N2", target=None, units={"JV": 1})
            outcome["order"] = order_submit(user=player, turn=turn, draft=hold, now=clock)
        except Exception as error:  # noqa: BLE001 -- the test reports it
            outcome["error"] = error

    processed = _process_while(turn, enter_an_order)

    assert "error" not in outcome and processed is not None and processed.status == "resolved"
    assert Order.objects.filter(turn=turn).count() == 1, "processing came after the order, with it"


def _process_while(turn, hold):
    """Process the turn while `hold(reached, release)` runs in a thread of its own (a connection of its
    own): processing starts once it sets `reached`, and it is released half a second later."""
    reached, release = threading.Event(), threading.Event()

    def run():
        try:
            hold(reached, release)
        finally:
            connections.close_all()

    holder = threading.Thread(target=run)
    holder.start()
    assert reached.wait(30)
    threading.Timer(0.5, release.set).start()
    processed = turn_process(turn_id=turn.pk)
    holder.join(30)
    return processed
