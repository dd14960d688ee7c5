"""The results workflow of a tabletop turn in the database (TABLETOP.md A6.2, A9.4, A10.2, A12)."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from django.utils import timezone

from campaign.models import Turn
from campaign.selectors import viewer_get
from rules import table_deadlines
from rules.models import ResultVersion, TableBattle
from rules.table_deadlines import battle_deadline_move as move
from rules.tabletop import battles
from tests.conftest import tabletop_result


@pytest.fixture
def pending(tabletop_turn):
    return tabletop_turn


def _viewer(user, campaign):
    return viewer_get(user=user, campaign=campaign)


def _tabletop_set(campaign, **settings) -> None:
    """The campaign's `tabletop` ruleset keys, `settings` and no others."""
    campaign.ruleset_overrides = {"tabletop": settings}
    campaign.save(update_fields=["ruleset_overrides"])


def _entered(user, campaign, battle, *, now=timezone.now, **changes) -> ResultVersion:
    """The result `tabletop_result(battle, **changes)` that `user` enters for `battle`, at `now`."""
    return battles.battle_result_save(
        viewer=_viewer(user, campaign), battle=battle, result=tabletop_result(battle, **changes), now=now
    )


def _codes(error: battles.BattleError) -> list[str]:
    return [str(e) for e in error.errors]


def test_it_opens_the_battle_with_its_sheet_and_deadline(pending) -> None:
    assert pending.status == Turn.Status.BATTLES_PENDING
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    assert battle.state == TableBattle.State.OPEN
    assert battle.nations == ["NOR", "KAR"] or battle.nations == ["KAR", "NOR"]
    assert [side["id"] for side in battle.sheet["sides"]] == ["NOR", "KAR"]
    assert len(battle.fingerprint) == 64
    assert (battle.deadline - battle.opened_at).total_seconds() == 168 * 3600


def test_players_propose_and_agree_the_gm_confirms_and_the_turn_completes(
    pending, demo, player, karelian, gm, django_capture_on_commit_callbacks
) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    version = _entered(player, demo, battle)
    assert version.state == ResultVersion.State.PROPOSED
    battles.battle_result_agree(viewer=_viewer(karelian, demo), version=version)
    version.refresh_from_db()
    assert version.state == ResultVersion.State.AGREED, "agreed: but the GM confirms (gm_confirms_agreed)"
    pending.refresh_from_db()
    assert pending.status == Turn.Status.BATTLES_PENDING

    with django_capture_on_commit_callbacks(execute=True):
        battles.battle_result_confirm(viewer=_viewer(gm, demo), version=version)

    pending.refresh_from_db()
    assert pending.status == Turn.Status.RESOLVED
    assert demo.regions.get(code="K1").owner.code == "NOR"
    assert demo.turns.filter(number=2, status=Turn.Status.OPEN).exists()
    battle.refresh_from_db()
    assert battle.state == TableBattle.State.RESOLVED
    report = pending.reports.get(region="K1")
    assert report.data["resolution"] == "entered" and report.conquest


def test_a_player_of_a_nation_not_in_the_battle_may_not_propose(pending, demo, rival) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    with pytest.raises(battles.BattleError) as refused:
        _entered(rival, demo, battle)
    assert _codes(refused.value) == ["not_permitted"]


def test_a_result_against_an_old_sheet_is_stale(pending, demo, player) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    with pytest.raises(battles.BattleError) as refused:
        _entered(player, demo, battle, fingerprint="0" * 64)
    assert _codes(refused.value) == ["stale_sheet"]


def test_a_dispute_needs_a_comment_and_blocks_agreement(pending, demo, player, karelian) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    version = _entered(player, demo, battle)
    with pytest.raises(battles.BattleError) as refused:
        battles.battle_result_dispute(viewer=_viewer(karelian, demo), version=version, comment="  ")
    assert _codes(refused.value) == ["comment_missing"]
    with pytest.raises(battles.BattleError) as refused:
        battles.battle_result_dispute(viewer=_viewer(karelian, demo), version=version, comment="x" * 2001)
    assert _codes(refused.value) == ["comment_too_long"]
    battles.battle_result_dispute(
        viewer=_viewer(karelian, demo), version=version, comment="We held the ford."
    )
    version.refresh_from_db()
    assert version.state == ResultVersion.State.DISPUTED


def test_a_new_version_supersedes_and_clears_the_answers(pending, demo, player, karelian) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    first = _entered(player, demo, battle)
    battles.battle_result_dispute(viewer=_viewer(karelian, demo), version=first, comment="Wrong losses.")
    second = _entered(karelian, demo, battle, winner="KAR", decisive=False)
    first.refresh_from_db()
    assert first.state == ResultVersion.State.SUPERSEDED
    assert second.number == 2 and second.state == ResultVersion.State.PROPOSED
    assert list(second.answers.values_list("nation__code", "answer")) == [("KAR", "agree")]
    with pytest.raises(battles.BattleError) as refused:
        battles.battle_result_agree(viewer=_viewer(player, demo), version=first)
    assert _codes(refused.value) == ["version_not_current"]


def test_only_the_author_withdraws_and_the_gm_voids_with_a_reason(
    pending, demo, player, karelian, gm
) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    version = _entered(player, demo, battle)
    with pytest.raises(battles.BattleError):
        battles.battle_result_withdraw(viewer=_viewer(karelian, demo), version=version)
    with pytest.raises(battles.BattleError) as refused:
        battles.battle_result_void(viewer=_viewer(player, demo), version=version, reason="no")
    assert _codes(refused.value) == ["gm_only"]
    with pytest.raises(battles.BattleError) as refused:
        battles.battle_result_void(viewer=_viewer(gm, demo), version=version, reason="")
    assert _codes(refused.value) == ["reason_missing"]
    battles.battle_result_void(
        viewer=_viewer(gm, demo), version=version, reason="entered for the wrong battle"
    )
    version.refresh_from_db()
    assert version.state == ResultVersion.State.VOIDED


def test_the_gm_enters_a_result_confirmed_at_once_and_may_reopen_it(
    pending, demo, gm, django_capture_on_commit_callbacks
) -> None:
    _tabletop_set(demo, complete_automatically=False)
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    version = _entered(gm, demo, battle)
    assert version.state == ResultVersion.State.CONFIRMED and version.origin == "gm"
    battle.refresh_from_db()
    assert battle.state == TableBattle.State.RESOLVED
    battles.battle_reopen(viewer=_viewer(gm, demo), battle=battle, reason="the losses were mistyped")
    version.refresh_from_db()
    battle.refresh_from_db()
    assert version.state == ResultVersion.State.VOIDED
    assert battle.state == TableBattle.State.OPEN


def test_the_gm_auto_resolves_an_open_battle(pending, demo, gm, django_capture_on_commit_callbacks) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    with django_capture_on_commit_callbacks(execute=True):
        battles.battle_auto_resolve(viewer=_viewer(gm, demo), battle=battle, why="no result by the deadline")
    pending.refresh_from_db()
    assert pending.status == Turn.Status.RESOLVED
    report = pending.reports.get(region="K1")
    assert report.data["resolution"] == "auto_resolved" and "kta" in report.data


def test_orders_are_refused_while_the_turn_waits_for_its_battles(pending, player) -> None:
    from django.test import Client

    client = Client()
    client.force_login(player)
    response = client.post(
        "/api/campaigns/demo/orders/",
        {"kind": "hold", "origin": "N1", "units": {"JV": 1}},
        content_type="application/json",
    )
    assert response.status_code == 409
    assert "waits for the results of its battles" in response.content.decode()


def test_at_the_deadline_gm_decides_marks_the_battle_overdue_once_and_changes_nothing(pending) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    later = battle.deadline + timedelta(minutes=1)
    assert table_deadlines.battles_overdue(now=lambda: battle.deadline - timedelta(minutes=1)) == 0
    assert table_deadlines.battles_overdue(now=lambda: later) == 1
    assert table_deadlines.battles_overdue(now=lambda: later) == 0, "once per battle and deadline"
    battle.refresh_from_db()
    assert battle.overdue_at == later and battle.state == TableBattle.State.OPEN
    assert not battle.versions.exists()


@pytest.fixture
def auto_resolving(pending, demo, player) -> ResultVersion:
    """The player's result of K1, proposed in a campaign whose battles auto-resolve at their deadline."""
    _tabletop_set(demo, on_missing_result="auto_resolve")
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    return _entered(player, demo, battle)


def test_at_the_deadline_auto_resolve_confirms_an_agreed_version(
    pending, demo, karelian, auto_resolving, django_capture_on_commit_callbacks
) -> None:
    version, battle = auto_resolving, auto_resolving.battle
    battles.battle_result_agree(viewer=_viewer(karelian, demo), version=version)
    with django_capture_on_commit_callbacks(execute=True):
        assert table_deadlines.battles_overdue(now=lambda: battle.deadline + timedelta(seconds=1)) == 1
    version.refresh_from_db()
    assert version.state == ResultVersion.State.CONFIRMED
    assert str(version.reason_message()) == "confirmed at the deadline"
    assert Turn.objects.get(pk=pending.pk).status == Turn.Status.RESOLVED


def test_at_the_deadline_auto_resolve_archives_a_disputed_version_and_resolves(
    pending, demo, karelian, auto_resolving, django_capture_on_commit_callbacks
) -> None:
    version, battle = auto_resolving, auto_resolving.battle
    battles.battle_result_dispute(viewer=_viewer(karelian, demo), version=version, comment="No.")
    with django_capture_on_commit_callbacks(execute=True):
        table_deadlines.battles_overdue(now=lambda: battle.deadline + timedelta(seconds=1))
    version.refresh_from_db()
    assert version.state == ResultVersion.State.SUPERSEDED
    entry = battle.versions.get(state=ResultVersion.State.CONFIRMED)
    assert entry.origin == "deadline" and entry.payload["auto_resolve"] is True
    report = Turn.objects.get(pk=pending.pk).reports.get(region="K1")
    assert report.data["resolution"] == "auto_resolved"


def test_the_gm_previews_exactly_the_auto_resolution_that_follows(
    pending, demo, gm, django_capture_on_commit_callbacks
) -> None:
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    preview = battles.battle_auto_preview(battle=battle)
    assert not battle.versions.exists(), "a preview stores nothing"
    with django_capture_on_commit_callbacks(execute=True):
        battles.battle_auto_resolve(viewer=_viewer(gm, demo), battle=battle)
    report = Turn.objects.get(pk=pending.pk).reports.get(region="K1").data
    assert (preview["kta"], preview["winner"], preview["losses"]) == (
        report["kta"],
        report["winner"],
        report["losses"],
    )


def test_a_deadline_whose_decision_fails_is_not_claimed_and_the_next_beat_decides_it(
    pending, demo, karelian, auto_resolving, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    version, battle = auto_resolving, auto_resolving.battle
    battles.battle_result_agree(viewer=_viewer(karelian, demo), version=version)
    decide = battles._deadline_decide

    def crash(*args, **kwargs):
        decide(*args, **kwargs)  # it does its work, then the process dies before the commit
        raise RuntimeError("worker killed")

    later = lambda: battle.deadline + timedelta(seconds=1)  # noqa: E731
    monkeypatch.setattr(battles, "_deadline_decide", crash)
    with django_capture_on_commit_callbacks(execute=True) as mails:
        assert table_deadlines.battles_overdue(now=later) == 0
    assert not mails, "no overdue mail for a decision that did not happen"
    battle.refresh_from_db()
    version.refresh_from_db()
    assert battle.overdue_at is None and version.state == ResultVersion.State.AGREED, "nothing half-done"

    monkeypatch.setattr(battles, "_deadline_decide", decide)
    with django_capture_on_commit_callbacks(execute=True):
        assert table_deadlines.battles_overdue(now=later) == 1
    version.refresh_from_db()
    assert version.state == ResultVersion.State.CONFIRMED
    assert Turn.objects.get(pk=pending.pk).status == Turn.Status.RESOLVED


def test_after_the_deadline_players_still_enter_unless_the_campaign_says_not(
    pending, demo, player, gm
) -> None:
    """A6.2: players may save, agree and dispute after the deadline while players_may_enter_after_deadline
    (default true); with false they get deadline_passed, and the GM still enters."""
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    late = battle.deadline + timedelta(minutes=1)
    version = _entered(player, demo, battle, now=lambda: late)
    assert version.state == ResultVersion.State.PROPOSED
    _tabletop_set(demo, players_may_enter_after_deadline=False)
    with pytest.raises(battles.BattleError) as refused:
        _entered(player, demo, battle, now=lambda: late)
    assert _codes(refused.value) == ["deadline_passed"]
    before = battle.deadline - timedelta(minutes=1)
    assert _entered(player, demo, battle, now=lambda: before).number == 2, (
        "before the deadline the setting changes nothing"
    )
    entered = _entered(gm, demo, battle, now=lambda: late)
    assert entered.state == ResultVersion.State.CONFIRMED


def test_the_gm_moves_an_open_battle_s_deadline_and_the_audit_log_says_who_when_and_why(
    pending, demo, gm, player
) -> None:
    """A8.1: "The GM may move any battle's deadline (logged with who, when, why)"; the new deadline is met,
    or missed, anew."""
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    before = battle.deadline
    later = battle.deadline + timedelta(days=1)
    assert table_deadlines.battles_overdue(now=lambda: later) == 1
    with pytest.raises(battles.BattleError) as refused:
        move(viewer=_viewer(player, demo), battle=battle, deadline=later, reason="x")
    assert _codes(refused.value) == ["gm_only"]
    with pytest.raises(battles.BattleError) as refused:
        move(viewer=_viewer(gm, demo), battle=battle, deadline=later, reason=" ")
    assert _codes(refused.value) == ["reason_missing"]
    with pytest.raises(battles.BattleError) as refused:
        move(viewer=_viewer(gm, demo), battle=battle, deadline=later, reason="late", now=lambda: later)
    assert _codes(refused.value) == ["deadline_not_future"]

    moved = later + timedelta(days=3)
    move(
        viewer=_viewer(gm, demo), battle=battle, deadline=moved, reason="Club night moved", now=lambda: later
    )
    battle.refresh_from_db()
    assert battle.deadline == moved and battle.overdue_at is None
    entry = demo.audit_entries.get(action="battle_deadline")
    assert entry.user == gm and entry.created_at == later and entry.reason == "Club night moved"
    assert entry.params["key"] == "region:K1"
    assert entry.summary == (
        f"turn 1, battle region:K1: {before.astimezone(UTC):%Y-%m-%d %H:%M} → "
        f"{moved.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
    )
    assert table_deadlines.battles_overdue(now=lambda: moved - timedelta(minutes=1)) == 0
    assert table_deadlines.battles_overdue(now=lambda: moved + timedelta(minutes=1)) == 1, "missed anew"


def test_without_gm_confirms_agreed_the_agreement_of_every_nation_confirms_the_version(
    pending, demo, player, karelian, django_capture_on_commit_callbacks
) -> None:
    """A6.2 item 4: with gm_confirms_agreed false an agreed version is confirmed at once."""
    _tabletop_set(demo, gm_confirms_agreed=False)
    battle = TableBattle.objects.get(turn=pending, key="region:K1")
    version = _entered(player, demo, battle)
    assert version.state == ResultVersion.State.PROPOSED, "the other nation has not agreed yet"
    with django_capture_on_commit_callbacks(execute=True):
        battles.battle_result_agree(viewer=_viewer(karelian, demo), version=version)
    version.refresh_from_db()
    assert version.state == ResultVersion.State.CONFIRMED
    assert Turn.objects.get(pk=pending.pk).status == Turn.Status.RESOLVED


def test_a_battle_s_deadline_is_result_deadline_hours_after_it_opened(tabletop_ordered, demo) -> None:
    """A8.1: the deadline is the moment the battle became open + tabletop.result_deadline_hours."""
    from rules.services import turn_process

    _tabletop_set(demo, result_deadline_hours=48)
    turn_process(turn_id=tabletop_ordered.pk)
    battle = TableBattle.objects.get(turn=tabletop_ordered, key="region:K1")
    assert battle.deadline - battle.opened_at == timedelta(hours=48)
