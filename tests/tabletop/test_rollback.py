"""Both rollbacks of a tabletop turn (TABLETOP.md A10.4): back to its battles, every entry kept, and back to
its orders, every battle archived and its confirmed result carried over when processed again. Each is
checked against the world as it stood before the step it undoes, row for row."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from campaign.gm.access import GMInputError
from campaign.models import AuditEntry, Turn
from campaign.selectors import viewer_get
from rules.export import campaign_export, campaign_replay
from rules.history import turn_result_diff, turn_rollback
from rules.models import CombatRound, ResultAnswer, ResultVersion, TableBattle, TurnArchive
from rules.selectors import turn_result
from rules.services import turn_process
from rules.tabletop.battles import battle_reopen, battle_result_save
from rules.tabletop.rollback import tabletop_rollback, tabletop_turn_complete
from rules.tabletop.rounds import close_combat_round_save
from tests.conftest import tabletop_result
from tests.history.conftest import world_rows

ROUND = {
    "sides": [
        {"name": "Vikings", "units": [{"id": "axes", "wounds": 4, "full_ranks": 2}]},
        {"name": "Karelians", "units": [{"id": "spears", "wounds": 1, "full_ranks": 1, "discipline": 7}]},
    ],
    "dice": {"seed": 0},
}


def tabletop_rows(campaign) -> dict:
    """world_rows, and every row of the turn's battles: sheets, versions, answers, saved rounds."""
    return {
        **world_rows(campaign),
        "battles": sorted(
            TableBattle.objects.filter(turn__campaign=campaign).values_list(
                "turn_id", "key", "kind", "position", "state", "sheet", "fingerprint", "nations", "deadline"
            )
        ),
        "versions": sorted(
            ResultVersion.objects.filter(battle__turn__campaign=campaign).values_list(
                "battle__key", "number", "origin", "state", "payload", "fingerprint", "reason"
            )
        ),
        "answers": sorted(
            ResultAnswer.objects.filter(version__battle__turn__campaign=campaign).values_list(
                "version__battle__key", "version__number", "nation_id", "answer"
            )
        ),
        "rounds": sorted(
            CombatRound.objects.filter(battle__turn__campaign=campaign).values_list(
                "battle__key", "sequence", "input", "output", "seed"
            )
        ),
    }


def _viewer(user, campaign):
    return viewer_get(user=user, campaign=campaign)


@pytest.fixture
def played(tabletop_turn, demo, gm, player, karelian, django_capture_on_commit_callbacks):
    """The pending turn with a saved round and the players' agreed result, confirmed by the GM; returns
    the rows as they stood just before the completion that the confirmation queued."""
    battle = TableBattle.objects.get(turn=tabletop_turn, key="region:K1")
    close_combat_round_save(viewer=_viewer(player, demo), battle=battle, data=ROUND, label="Axes at the ford")
    with django_capture_on_commit_callbacks(execute=False) as queued:
        battle_result_save(viewer=_viewer(gm, demo), battle=battle, result=tabletop_result(battle))
    before = tabletop_rows(demo)
    for callback in queued:
        callback()
    tabletop_turn.refresh_from_db()
    assert tabletop_turn.status == Turn.Status.RESOLVED
    return before


def test_back_to_battles_undoes_the_completion_exactly_and_keeps_every_entry(demo, gm, tabletop_turn, played):
    resolved = turn_result(turn=tabletop_turn)

    outcome = tabletop_rollback(turn_id=tabletop_turn.pk, by=gm, to="battles", reason="wrong losses")

    assert tabletop_rows(demo) == played
    assert outcome.turn.status == Turn.Status.BATTLES_PENDING
    assert not demo.turns.filter(number=2).exists(), "the next turn goes with the completion"
    [archive] = TurnArchive.objects.filter(turn=tabletop_turn)
    assert (archive.kind, archive.result, archive.reason) == ("battles", resolved, "wrong losses")
    assert AuditEntry.objects.filter(user=gm, action="rollback", code="audit.rolled_back_to_battles").exists()


def test_back_to_battles_then_completed_again_is_the_same_turn_and_replays_from_its_export(
    demo, gm, tabletop_turn, played, django_capture_on_commit_callbacks
):
    original = turn_result(turn=tabletop_turn)
    export = campaign_export(campaign=demo, by=gm)
    tabletop_rollback(turn_id=tabletop_turn.pk, by=gm, to="battles")

    with django_capture_on_commit_callbacks(execute=True):
        tabletop_turn_complete(turn_id=tabletop_turn.pk, by=gm)

    tabletop_turn.refresh_from_db()
    assert tabletop_turn.status == Turn.Status.RESOLVED
    assert turn_result(turn=tabletop_turn) == original
    assert turn_result_diff(turn_id=tabletop_turn.pk, by=gm).same
    again = campaign_export(campaign=demo, by=gm)
    assert again["turns"][0] == export["turns"][0]
    replay = campaign_replay(data=again)
    assert replay.matched, [t.lines for t in replay.turns]


def test_back_to_battles_lets_the_gm_correct_a_battle_and_the_turn_completes_with_it(
    demo, gm, tabletop_turn, played, django_capture_on_commit_callbacks
):
    tabletop_rollback(turn_id=tabletop_turn.pk, by=gm, to="battles")
    battle = TableBattle.objects.get(turn=tabletop_turn, key="region:K1")
    battle_reopen(viewer=_viewer(gm, demo), battle=battle, reason="KAR lost only 1 JV")
    battle.refresh_from_db()
    corrected = tabletop_result(battle, losses={"NOR": {"JV": 1}, "KAR": {"JV": 1}})

    with django_capture_on_commit_callbacks(execute=True):
        battle_result_save(viewer=_viewer(gm, demo), battle=battle, result=corrected)

    tabletop_turn.refresh_from_db()
    assert tabletop_turn.status == Turn.Status.RESOLVED
    report = tabletop_turn.reports.get(region="K1")
    assert report.data["losses"]["KAR"] == {"JV": 1}
    diff = turn_result_diff(turn_id=tabletop_turn.pk, by=gm)
    assert not diff.same, "the page shows what changed between the two results"
    assert battle.rounds.count() == 1, "the battle keeps its rounds"


def test_back_to_orders_restores_the_turn_before_processing_and_archives_its_battles(
    demo, gm, player, karelian, tabletop_ordered, django_capture_on_commit_callbacks
):
    turn = tabletop_ordered
    before = tabletop_rows(demo)
    turn_process(turn_id=turn.pk)
    battle = TableBattle.objects.get(turn=turn, key="region:K1")
    close_combat_round_save(viewer=_viewer(karelian, demo), battle=battle, data=ROUND)
    with django_capture_on_commit_callbacks(execute=True):
        battle_result_save(viewer=_viewer(gm, demo), battle=battle, result=tabletop_result(battle))
    turn.refresh_from_db()
    original = turn_result(turn=turn)

    tabletop_rollback(turn_id=turn.pk, by=gm, to="orders", deadline=turn.deadline)

    assert tabletop_rows(demo) == before
    [archive] = TurnArchive.objects.filter(turn=turn)
    assert archive.kind == "orders"
    [kept] = archive.battles
    assert kept["key"] == "region:K1" and [v["state"] for v in kept["versions"]] == ["confirmed"]
    assert len(kept["rounds"]) == 1
    assert AuditEntry.objects.filter(user=gm, code="audit.rolled_back").exists()

    # Processed again: the battle is the same (key and fingerprint), so its result is carried over and
    # the turn completes to the same result, its round back on the battle.
    with django_capture_on_commit_callbacks(execute=True):
        turn_process(turn_id=turn.pk)
    turn.refresh_from_db()
    assert turn.status == Turn.Status.RESOLVED
    assert turn_result(turn=turn) == original
    [carried] = ResultVersion.objects.filter(battle__turn=turn)
    assert (carried.origin, carried.state) == ("carried", "confirmed")
    assert str(carried.reason_message()).startswith("carried over: version 1 of the result rolled back at ")
    assert CombatRound.objects.filter(battle__turn=turn).count() == 1
    replay = campaign_replay(data=campaign_export(campaign=demo, by=gm))
    assert replay.matched, [t.lines for t in replay.turns]


def test_back_to_orders_from_battles_pending_leaves_the_world_as_before_processing(
    demo, gm, player, tabletop_ordered
):
    turn = tabletop_ordered
    before = tabletop_rows(demo)
    turn_process(turn_id=turn.pk)
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES_PENDING
    # Processed early by the GM without counting missed turns: reopened, its deadline counts them again.
    Turn.objects.filter(pk=turn.pk).update(missed_counted=False)

    tabletop_rollback(turn_id=turn.pk, by=gm, to="orders", deadline=turn.deadline)

    assert tabletop_rows(demo) == before
    turn.refresh_from_db()
    assert (turn.status, turn.missed_counted) == (Turn.Status.OPEN, True)
    assert AuditEntry.objects.filter(user=gm, code="audit.rolled_back_to_orders").exists()


def test_without_carry_over_a_battle_processed_again_opens_fresh(
    demo, gm, tabletop_turn, played, django_capture_on_commit_callbacks
):
    demo.ruleset_overrides = {"tabletop": {"carry_results_on_rollback": False}}
    demo.save(update_fields=["ruleset_overrides"])
    turn_rollback(turn_id=tabletop_turn.pk, by=gm)

    turn_process(turn_id=tabletop_turn.pk)

    tabletop_turn.refresh_from_db()
    assert tabletop_turn.status == Turn.Status.BATTLES_PENDING
    battle = TableBattle.objects.get(turn=tabletop_turn, key="region:K1")
    assert battle.state == TableBattle.State.OPEN and not battle.versions.exists()
    assert not battle.rounds.exists(), "the archived rounds stay with the archived battle"


def test_a_battle_with_other_forces_does_not_carry_the_archived_result(
    demo, gm, tabletop_turn, played, django_capture_on_commit_callbacks
):
    turn_rollback(turn_id=tabletop_turn.pk, by=gm)
    order = tabletop_turn.orders.get()
    order.units = {"JV": 1}
    order.save(update_fields=["units"])

    turn_process(turn_id=tabletop_turn.pk)

    battle = TableBattle.objects.get(turn=tabletop_turn, key="region:K1")
    assert battle.state == TableBattle.State.OPEN and not battle.versions.exists()


def test_the_rollbacks_are_the_gms_alone(demo, gm, player, karelian, outsider, tabletop_turn, played):
    for user in (player, karelian, outsider):
        for kind in ("battles", "orders"):
            with pytest.raises(PermissionDenied):
                tabletop_rollback(turn_id=tabletop_turn.pk, by=user, to=kind)
        with pytest.raises(PermissionDenied):
            tabletop_turn_complete(turn_id=tabletop_turn.pk, by=user)
    tabletop_turn.refresh_from_db()
    assert tabletop_turn.status == Turn.Status.RESOLVED
    assert not TurnArchive.objects.exists()


def test_it_refuses_what_a_kind_of_rollback_cannot_undo(demo, gm, tabletop_turn):
    with pytest.raises(GMInputError) as refused:
        tabletop_rollback(turn_id=tabletop_turn.pk, by=gm, to="battles")
    assert refused.value.code == "tabletop_rollback.not_resolved"
    with pytest.raises(GMInputError) as refused:
        tabletop_rollback(turn_id=tabletop_turn.pk, by=gm, to="sideways")
    assert refused.value.code == "tabletop_rollback.kind_unknown"
    with pytest.raises(GMInputError) as refused:
        tabletop_turn_complete(turn_id=tabletop_turn.pk, by=gm)
    assert refused.value.code == "tabletop_rollback.battles_left"
    assert "region:K1" in str(refused.value)
