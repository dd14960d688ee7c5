"""The GM's preview of a tabletop turn with hypothetical results (TABLETOP.md A10.1 (b)): the turn as it
would complete with the entries so far plus, per battle without one, auto-resolve or a typed result;
nothing stored; the GM's alone."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.models import Turn
from campaign.selectors import viewer_get
from rules.engine.messages import InputError
from rules.models import ResultVersion, TableBattle
from rules.services import turn_process
from rules.tabletop.battles import battle_auto_preview, battle_result_save
from rules.tabletop.preview import turn_battles_preview

NOR_WINS = {"winner": "NOR", "decisive": True, "losses": {"NOR": {"JV": 1}, "KAR": {"JV": 3, "PA": 1}}}


def _report(preview, key):
    return next(r for r in preview.reports if r["key"] == key)


def test_it_completes_the_turn_as_if_the_typed_result_were_entered(tabletop_turn, gm) -> None:
    preview = turn_battles_preview(turn_id=tabletop_turn.pk, by=gm, hypotheses={"region:K1": NOR_WINS})
    assert preview.complete and preview.errors == {}
    assert _report(preview, "region:K1")["resolution"] == "entered"
    assert ("K1", "KAR", "NOR") in preview.owners_changed(), "a decisive win takes the region (A7.1)"
    assert preview.assumed["region:K1"]["winner"] == "NOR" and preview.auto == ()


def test_a_battle_without_a_typed_result_is_previewed_auto_resolved(tabletop_turn, gm) -> None:
    preview = turn_battles_preview(turn_id=tabletop_turn.pk, by=gm, hypotheses={})
    assert preview.complete and preview.auto == ("region:K1",)
    report = _report(preview, "region:K1")
    assert report["resolution"] == "auto_resolved"
    alone = battle_auto_preview(battle=TableBattle.objects.get(turn=tabletop_turn, key="region:K1"))
    assert (report["kta"], report["winner"], report["losses"]) == (
        alone["kta"],
        alone["winner"],
        alone["losses"],
    ), "the derived seed: the same auto-resolution as the battle's own preview (A8.4)"


def test_a_wrong_result_is_reported_with_its_codes_and_the_battle_auto_resolved(tabletop_turn, gm) -> None:
    wrong = {**NOR_WINS, "losses": {"NOR": {"JV": 9}, "KAR": {}}}
    preview = turn_battles_preview(turn_id=tabletop_turn.pk, by=gm, hypotheses={"region:K1": wrong})
    assert [str(e) for e in preview.errors["region:K1"]] == ["losses_exceed_forces:NOR:JV"]
    assert preview.auto == ("region:K1",) and preview.complete


def test_a_result_for_a_battle_of_no_such_key_is_refused_by_name(tabletop_turn, gm) -> None:
    preview = turn_battles_preview(turn_id=tabletop_turn.pk, by=gm, hypotheses={"region:N1": NOR_WINS})
    assert [e.code for e in preview.errors["region:N1"]] == ["battle_unknown"]


def test_the_entries_so_far_decide_their_battles(tabletop_turn, gm, player, karelian) -> None:
    """A battle with a confirmed result keeps it in the preview; a hypothesis for it is refused."""
    battle = TableBattle.objects.get(turn=tabletop_turn, key="region:K1")
    draw = {"winner": None, "losses": {"NOR": {}, "KAR": {}}, "fingerprint": battle.fingerprint}
    # Confirmed but the turn kept waiting: the GM completes by hand (complete_automatically: false).
    campaign = tabletop_turn.campaign
    campaign.ruleset_overrides = {"tabletop": {"complete_automatically": False}}
    campaign.save()
    battle_result_save(viewer=viewer_get(user=gm, campaign=campaign), battle=battle, result=draw)
    preview = turn_battles_preview(turn_id=tabletop_turn.pk, by=gm, hypotheses={"region:K1": NOR_WINS})
    assert preview.entered == ("region:K1",) and preview.assumed == {} and preview.auto == ()
    assert preview.complete and preview.owners_changed() == [], "the entered draw stands"
    assert [e.code for e in preview.errors["region:K1"]] == ["battle_not_open"]


def test_nothing_is_written(tabletop_turn, gm) -> None:
    versions = ResultVersion.objects.count()
    with CaptureQueriesContext(connection) as queries:
        turn_battles_preview(turn_id=tabletop_turn.pk, by=gm, hypotheses={"region:K1": NOR_WINS})
        turn_battles_preview(turn_id=tabletop_turn.pk, by=gm, hypotheses={})
    writes = [
        q["sql"] for q in queries if q["sql"].lstrip().split(" ", 1)[0] in ("INSERT", "UPDATE", "DELETE")
    ]
    assert writes == []
    tabletop_turn.refresh_from_db()
    assert tabletop_turn.status == Turn.Status.BATTLES_PENDING
    assert ResultVersion.objects.count() == versions
    assert tabletop_turn.campaign.regions.get(code="K1").owner.code == "KAR"


def test_only_the_gm_previews(tabletop_turn, player, karelian, outsider) -> None:
    for user in (player, karelian, outsider):
        with pytest.raises(PermissionDenied):
            turn_battles_preview(turn_id=tabletop_turn.pk, by=user, hypotheses={})


def test_an_open_turn_has_no_preview_with_hypothetical_results(demo, gm) -> None:
    demo.battle_system = "tabletop"
    demo.save(update_fields=["battle_system"])
    with pytest.raises(InputError) as refused:
        turn_battles_preview(turn_id=demo.turns.get(number=1).pk, by=gm, hypotheses={})
    assert refused.value.code == "tabletop.preview_not_pending"


def test_a_battle_that_opens_after_a_hypothetical_result_is_previewed_too(
    demo, gm, player, karelian, place_orders
) -> None:
    """A meeting engagement on the N3–K1 border: NOR's decisive win continues into K1, where the battle
    that follows exists only in the preview; it is auto-resolved unless the GM types its result in."""
    demo.battle_system = "tabletop"
    demo.save(update_fields=["battle_system"])
    turn = demo.turns.get(number=1)
    place_orders(turn, [("NOR", "attack", "N3", "K1", {"JV": 2}), ("KAR", "attack", "K1", "N3", {"JV": 1})])
    turn_process(turn_id=turn.pk)
    turn.refresh_from_db()
    assert turn.status == Turn.Status.BATTLES_PENDING, turn.error
    [meeting] = [b.key for b in TableBattle.objects.filter(turn=turn, state="open")]
    assert meeting.startswith("meeting:")
    win = {"winner": "NOR", "decisive": True, "losses": {"NOR": {}, "KAR": {"JV": 1}}}
    preview = turn_battles_preview(turn_id=turn.pk, by=gm, hypotheses={meeting: win})
    assert preview.complete, preview.state
    assert "region:K1" in preview.auto, "the battle that follows the meeting engagement, auto-resolved"
    assert not TableBattle.objects.filter(turn=turn, key="region:K1").exists(), "nothing stored"
