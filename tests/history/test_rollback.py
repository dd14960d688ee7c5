"""Rolling back the last resolved turn: the world restored row for row, the result archived, and the
turn processed again after a correction, with what changed between the two results."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.generate import orders_generate, scenario_generate
from campaign.gm import inputs
from campaign.gm.access import GMInputError
from campaign.models import AuditEntry, GMModifier, Nation, Turn
from campaign.queue import turns_due_queue
from campaign.scenario import scenario_parse
from campaign.services import membership_set, scenario_import
from rules.history import turn_archives, turn_result_diff, turn_rollback
from rules.models import Report, TurnArchive, TurnSnapshot
from rules.selectors import turn_result
from rules.services import turn_process
from tests.history.conftest import world_rows


def test_it_restores_every_row_exactly_as_it_was_before_processing(demo, gm, player, nations, busy_turn1):
    # NOR missed two turns before this one; its orders now reset the count, the rollback must not.
    Nation.objects.filter(pk=nations["NOR"].pk).update(turns_missed=2, turns_missed_in_row=2)
    before = world_rows(demo)
    turn_process(turn_id=busy_turn1.pk)
    assert world_rows(demo) != before
    deadline = busy_turn1.deadline

    outcome = turn_rollback(turn_id=busy_turn1.pk, by=gm, deadline=deadline)

    assert world_rows(demo) == before
    assert outcome.turn.deadline == deadline
    assert not TurnSnapshot.objects.exists()
    assert list(demo.turns.values_list("number", "status")) == [(1, "open")]


def test_it_lets_the_deadline_queue_the_reopened_turn_again(
    demo, gm, busy_turn1, django_capture_on_commit_callbacks
):
    now = timezone.now()
    assert turns_due_queue(now=lambda: busy_turn1.deadline) == 1, "queued by its deadline"
    turn_process(turn_id=busy_turn1.pk)

    outcome = turn_rollback(turn_id=busy_turn1.pk, by=gm, now=lambda: now)

    assert outcome.turn.deadline == now + demo.turn_length, "a new deadline: not processed at once"
    assert turns_due_queue(now=lambda: now) == 0
    assert turns_due_queue(now=lambda: outcome.turn.deadline) == 1


def test_it_archives_the_rolled_back_result_for_the_gm_and_hides_its_reports(demo, gm, player, busy_turn1):
    turn_process(turn_id=busy_turn1.pk)
    busy_turn1.refresh_from_db()
    result = turn_result(turn=busy_turn1)

    turn_rollback(turn_id=busy_turn1.pk, by=gm, reason="a wrong GM modifier in E4")

    assert not Report.objects.filter(turn=busy_turn1).exists()
    [archive] = turn_archives(turn_id=busy_turn1.pk, by=gm)
    assert archive.result == result
    assert archive.result["battles"], "the old reports are in the archived result"
    assert (archive.archived_by, archive.reason) == (gm, "a wrong GM modifier in E4")
    assert AuditEntry.objects.filter(action="rollback", user=gm).exists()
    with pytest.raises(PermissionDenied):
        turn_archives(turn_id=busy_turn1.pk, by=player)


def test_it_gives_the_same_result_when_processed_again_without_a_change(demo, gm, busy_turn1):
    turn_process(turn_id=busy_turn1.pk)
    after_first = world_rows(demo)
    turn_rollback(turn_id=busy_turn1.pk, by=gm)

    turn_process(turn_id=busy_turn1.pk)

    diff = turn_result_diff(turn_id=busy_turn1.pk, by=gm)
    assert diff.same and diff.lines == []
    again = world_rows(demo)
    # The next turn is a new row; everything else is as after the first processing.
    assert again["stacks"] == after_first["stacks"]
    assert again["owners"] == after_first["owners"]
    assert [t[1:3] for t in again["turns"]] == [t[1:3] for t in after_first["turns"]]


def test_it_shows_what_a_correction_changed_when_the_turn_is_processed_again(
    demo, gm, busy_turn1, regions, nations
):
    turn_process(turn_id=busy_turn1.pk)
    turn_rollback(turn_id=busy_turn1.pk, by=gm)
    # The correction: EST's defence of its home region E4 against SUD was worth a lot more.
    inputs.gm_modifier_set(
        by=gm, turn=busy_turn1, region=regions["E4"], nation=nations["EST"], value=20, reason="partisans"
    )

    turn_process(turn_id=busy_turn1.pk)
    diff = turn_result_diff(turn_id=busy_turn1.pk, by=gm)

    assert not diff.same
    [battle] = diff.battles
    assert (battle["battle"], battle["before"]["winner"], battle["after"]["winner"]) == (
        "E4 (normal)",
        None,
        "EST",
    )
    assert diff.owners == [], "EST held E4 either way"
    assert [str(line) for line in diff.lines] == [
        "E4 (normal): won by nobody, now by EST; "
        "losses EST 2 JV 1 PA 1 TY, SUD 2 JV 1 PA → EST 1 JV 1 PA, SUD 3 JV 2 PA",
        "E4: JV of EST 1 → 2",
        "E4: TY of EST 0 → 1",
        "S1: JV of SUD 2 → 1",
        "S1: PA of SUD 1 → 0",
    ]


def test_it_refuses_to_drop_orders_of_the_next_turn_unless_forced(demo, gm, busy_turn1, place_orders):
    turn_process(turn_id=busy_turn1.pk)
    turn2 = demo.turns.get(number=2)
    place_orders(turn2, [("NOR", "hold", "N1", None, {"JV": 1})])

    with pytest.raises(GMInputError, match="turn 2 has 1 orders already; .* with force") as refused:
        turn_rollback(turn_id=busy_turn1.pk, by=gm)
    assert refused.value.field == "force"
    assert Turn.objects.get(pk=turn2.pk).status == Turn.Status.OPEN
    busy_turn1.refresh_from_db()
    assert busy_turn1.status == Turn.Status.RESOLVED

    outcome = turn_rollback(turn_id=busy_turn1.pk, by=gm, force=True)
    assert outcome.removed["orders"] == 1
    assert not Turn.objects.filter(pk=turn2.pk).exists()
    assert busy_turn1.orders.count() == 8, "the rolled-back turn keeps its own orders"


def test_it_refuses_to_roll_back_a_turn_that_is_not_the_last_resolved(demo, gm, busy_turn1):
    turn_process(turn_id=busy_turn1.pk)
    turn_process(turn_id=demo.turns.get(number=2).pk)
    with pytest.raises(GMInputError, match="turn 2 is resolved too"):
        turn_rollback(turn_id=busy_turn1.pk, by=gm)
    with pytest.raises(GMInputError, match="turn 3 is open: only a resolved turn"):
        turn_rollback(turn_id=demo.turns.get(number=3).pk, by=gm)
    turn_rollback(turn_id=demo.turns.get(number=2).pk, by=gm)
    turn_rollback(turn_id=busy_turn1.pk, by=gm)
    assert list(demo.turns.values_list("number", "status")) == [(1, "open")]


def test_it_refuses_the_rollback_to_anyone_but_the_gm(demo, player, outsider, busy_turn1):
    turn_process(turn_id=busy_turn1.pk)
    for user in (player, outsider):
        with pytest.raises(PermissionDenied):
            turn_rollback(turn_id=busy_turn1.pk, by=user)
    assert not TurnArchive.objects.exists()
    assert TurnSnapshot.objects.filter(turn=busy_turn1).exists()


def test_it_keeps_the_gm_modifiers_of_the_rolled_back_turn(demo, gm, busy_turn1, regions, nations):
    inputs.gm_modifier_set(
        by=gm, turn=busy_turn1, region=regions["M1"], nation=nations["NOR"], value=2, reason="scouts"
    )
    turn_process(turn_id=busy_turn1.pk)
    turn_rollback(turn_id=busy_turn1.pk, by=gm)
    assert GMModifier.objects.filter(turn=busy_turn1).count() == 1


def test_it_rolls_back_in_the_same_number_of_queries_for_50_and_500_regions(db, place_orders):
    counts = {}
    for regions in (50, 500):
        data = scenario_generate(regions=regions, nations=10, seed=3)
        campaign = scenario_import(scenario=scenario_parse(data), slug=f"rollback-{regions}")
        gm = membership_set(
            campaign=campaign, username=f"gm{regions}", password="gm-password-1", nation=None
        ).user
        turn = campaign.turns.get(number=1)
        orders = orders_generate(scenario=data, seed=3)
        place_orders(turn, [(o["nation"], o["kind"], o["origin"], o["target"], o["units"]) for o in orders])
        before = world_rows(campaign)
        turn_process(turn_id=turn.pk)
        with CaptureQueriesContext(connection) as queries:
            turn_rollback(turn_id=turn.pk, by=gm, deadline=turn.deadline)
        assert world_rows(campaign) == before
        counts[regions] = len(queries)
    assert counts[50] == counts[500], counts
