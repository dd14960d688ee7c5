"""The GM's preview of a turn and its publication: a dry run that writes nothing, then the real thing."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from campaign.gm.access import GMInputError
from campaign.models import Turn
from rules.history import turn_preview, turn_preview_get, turn_publish
from rules.models import Report, TurnPreview
from rules.selectors import turn_result
from tests.history.conftest import world_rows


def test_it_previews_the_turn_without_writing_to_the_world(demo, gm, busy_turn1):
    before = world_rows(demo)

    preview = turn_preview(turn_id=busy_turn1.pk, by=gm)

    assert world_rows(demo) == before
    assert not Report.objects.exists()
    busy_turn1.refresh_from_db()
    assert (busy_turn1.status, busy_turn1.result) == (Turn.Status.OPEN, None)
    assert preview.result["battles"], "the GM reads every report of the dry run"
    assert turn_preview_get(turn_id=busy_turn1.pk, by=gm) == preview
    assert len(preview.fingerprint) == 64


def test_it_publishes_exactly_the_previewed_result_when_nothing_changed(demo, gm, busy_turn1):
    preview = turn_preview(turn_id=busy_turn1.pk, by=gm)

    outcome = turn_publish(turn_id=busy_turn1.pk, by=gm)

    assert outcome.matched is True
    assert outcome.changes == []
    assert outcome.diff.lines == []
    busy_turn1.refresh_from_db()
    assert busy_turn1.status == Turn.Status.RESOLVED
    assert turn_result(turn=busy_turn1) == TurnPreview.objects.get(pk=preview.pk).result
    assert [r.data for r in Report.objects.filter(turn=busy_turn1)] == preview.result["battles"]
    preview.refresh_from_db()
    assert (preview.published_matched, preview.published_note) == (True, "")


def test_it_says_the_orders_changed_when_an_order_came_after_the_preview(demo, gm, busy_turn1, place_orders):
    preview = turn_preview(turn_id=busy_turn1.pk, by=gm)
    # KAR contests M1, which NOR was to occupy unopposed: now a battle is fought there.
    place_orders(busy_turn1, [("KAR", "attack", "K1", "M1", {"JV": 3, "PA": 1})])

    outcome = turn_publish(turn_id=busy_turn1.pk, by=gm)

    assert [str(c) for c in outcome.changes] == ["orders changed since the preview"]
    assert outcome.matched is False
    assert any(str(line).startswith("M1") for line in outcome.diff.lines), outcome.diff.lines
    busy_turn1.refresh_from_db()
    assert turn_result(turn=busy_turn1) != preview.result
    preview.refresh_from_db()
    assert (preview.published_matched, preview.published_note) == (False, "orders changed since the preview")


def test_it_publishes_without_a_preview_and_says_there_was_none(demo, gm, busy_turn1):
    outcome = turn_publish(turn_id=busy_turn1.pk, by=gm)
    assert (outcome.matched, outcome.preview) == (None, None)
    assert outcome.turn.status == Turn.Status.RESOLVED


def test_it_refuses_to_preview_a_turn_that_is_not_open(demo, gm, busy_turn1):
    turn_publish(turn_id=busy_turn1.pk, by=gm)
    with pytest.raises(GMInputError, match="turn 1 is resolved, not open"):
        turn_preview(turn_id=busy_turn1.pk, by=gm)


@pytest.mark.parametrize("who", ["player", "rival", "outsider"])
def test_it_lets_only_the_gm_preview_and_publish(request, demo, busy_turn1, who):
    user = request.getfixturevalue(who)
    with pytest.raises(PermissionDenied):
        turn_preview(turn_id=busy_turn1.pk, by=user)
    with pytest.raises(PermissionDenied):
        turn_publish(turn_id=busy_turn1.pk, by=user)
    with pytest.raises(PermissionDenied):
        turn_preview_get(turn_id=busy_turn1.pk, by=user)
    busy_turn1.refresh_from_db()
    assert busy_turn1.status == Turn.Status.OPEN
    assert not TurnPreview.objects.exists()
