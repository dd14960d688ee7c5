"""A tabletop turn in the database, property-tested (the issue's two properties, TABLETOP.md A4.3, A9.1):
a turn completed from results entered through the results workflow equals the same turn replayed from its
export, saved rounds included; and the completed turn never depends on the order the results were entered.

The turn: NOR and KAR attack each other across the N3–K1 border (a meeting engagement; a decisive winner
continues into the other region), both occupy the empty M1 (at war: control battles follow) and EST attacks
KAR's K5. Results are drawn for each battle as it opens, valid by A6.3, sometimes an auto-resolution.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from campaign.models import Turn
from campaign.selectors import viewer_get
from rules.export import campaign_export, campaign_replay
from rules.models import CombatRound, TableBattle
from rules.selectors import turn_result
from rules.services import turn_process
from rules.tabletop.battles import battle_auto_resolve, battle_result_save
from rules.tabletop.rounds import close_combat_round_save
from tests.conftest import examples, orders_place
from tests.rules.property_settings import property_settings

FEW = property_settings(examples(12), HealthCheck.function_scoped_fixture)
ORDERS = [
    ("NOR", "attack", "N3", "K1", {"JV": 2}),
    ("KAR", "attack", "K1", "N3", {"JV": 2}),
    ("NOR", "attack", "N5", "M1", {"JV": 2, "PA": 1}),
    ("KAR", "attack", "K4", "M1", {"JV": 3}),
    ("EST", "attack", "E3", "K5", {"JV": 2}),
]
ROUND = {
    "sides": [
        {"name": "A", "units": [{"id": "a1", "wounds": 3, "full_ranks": 1}]},
        {"name": "B", "units": [{"id": "b1", "wounds": 1, "full_ranks": 2, "discipline": 8}]},
    ],
    "dice": {"seed": 0},
}


@st.composite
def result_for(draw: st.DrawFn, sheet: dict[str, Any]) -> dict[str, Any] | None:
    """A result A6.3 accepts for the sheet, or None for the GM's auto-resolution."""
    if draw(st.integers(0, 4)) == 0:
        return None
    winner = draw(st.sampled_from([*(s["id"] for s in sheet["sides"]), None]))
    losses = {
        nation: {t: draw(st.integers(0, n)) for t, n in units.items() if t != "IV"}
        for nation, units in sheet["forces"].items()
    }
    result = {"winner": winner, "losses": losses, "fingerprint": sheet["fingerprint"]}
    if winner is not None:
        result["decisive"] = draw(st.booleans())
    return result


def _complete(campaign, gm, player, capture, *, result_of, choose) -> dict[str, Any]:
    """Process turn 1 and enter a result (`result_of(battle)`) for an open battle (`choose(battles)`) until
    the turn completes; a player saves a round to each battle first. Returns the results by key."""
    turn = campaign.turns.get(number=1)
    turn_process(turn_id=turn.pk)
    viewer = viewer_get(user=gm, campaign=campaign)
    made: dict[str, Any] = {}
    while True:
        turn.refresh_from_db()
        if turn.status != Turn.Status.BATTLES_PENDING:
            return made
        battle = choose(
            list(TableBattle.objects.filter(turn=turn, state=TableBattle.State.OPEN).order_by("position"))
        )
        made[battle.key] = result = result_of(battle)
        if "NOR" in battle.nations:
            close_combat_round_save(
                viewer=viewer_get(user=player, campaign=campaign), battle=battle, data=ROUND, label=battle.key
            )
        with capture(execute=True):
            if result is None:
                battle_auto_resolve(viewer=viewer, battle=battle)
            else:
                battle_result_save(
                    viewer=viewer, battle=battle, result={**result, "fingerprint": battle.fingerprint}
                )


def _complete_drawn(campaign, gm, player, capture, data) -> dict[str, Any]:
    """_complete with each result (`result_for`) and the battle it goes to drawn from `data`."""
    return _complete(
        campaign,
        gm,
        player,
        capture,
        result_of=lambda battle: data.draw(result_for(battle.sheet)),
        choose=lambda battles: data.draw(st.sampled_from(battles)),
    )


@FEW
@given(data=st.data())
def test_a_turn_completed_from_entered_results_equals_its_replay_from_the_export(
    demo, gm, player, karelian, django_capture_on_commit_callbacks, data
) -> None:
    with transaction.atomic():
        demo.battle_system = "tabletop"
        demo.save(update_fields=["battle_system"])
        orders_place(demo.turns.get(number=1), ORDERS)
        _complete_drawn(demo, gm, player, django_capture_on_commit_callbacks, data)
        assert demo.turns.get(number=1).status == Turn.Status.RESOLVED
        keys = set(TableBattle.objects.filter(turn__campaign=demo).values_list("key", flat=True))
        assert {"meeting:K1|N3", "region:K5", "control:M1:1"} <= keys, keys
        export = campaign_export(campaign=demo, by=gm)
        rounds = CombatRound.objects.filter(battle__turn__campaign=demo).count()

        replay = campaign_replay(data=export, keep=True)

        assert replay.matched, [t.lines for t in replay.turns]
        replayed = list(CombatRound.objects.filter(battle__turn__campaign__slug=replay.slug))
        assert len(replayed) == rounds, "the saved rounds survive the replay"
        transaction.set_rollback(True)


@FEW
@given(data=st.data())
def test_the_completed_turn_does_not_depend_on_the_order_results_were_entered(
    demo, gm, player, karelian, django_capture_on_commit_callbacks, data
) -> None:
    """Enter the results in a drawn order, then the same results again, after a rollback to the orders
    without carry-over, always the last open battle first: the same turn."""
    from rules.history import turn_rollback

    with transaction.atomic():
        demo.battle_system = "tabletop"
        demo.ruleset_overrides = {"tabletop": {"carry_results_on_rollback": False}}
        demo.save(update_fields=["battle_system", "ruleset_overrides"])
        turn = demo.turns.get(number=1)
        orders_place(turn, ORDERS)
        capture = django_capture_on_commit_callbacks
        made = _complete_drawn(demo, gm, player, capture, data)
        first = turn_result(turn=demo.turns.get(number=1))
        turn_rollback(turn_id=turn.pk, by=gm)

        again = _complete(
            demo, gm, player, capture, result_of=lambda battle: made[battle.key], choose=lambda b: b[-1]
        )

        assert set(again) == set(made), "the same battles, whatever the order"
        assert turn_result(turn=demo.turns.get(number=1)) == first
        transaction.set_rollback(True)
