"""The dice service (COMPANY.md §8.1-8.2): seeded streams, attributed entries, who may roll, secrets, the
scatter offer as a second request, and the replay."""

from __future__ import annotations

import random

import pytest

from rules.engine.company_d20 import company_ruleset_build
from rules.engine.company_d20.dice import (
    battle_stream,
    gm_stream,
    part_message,
    region_id_valid,
    stream_seed,
    turn_stream,
)
from rules.engine.company_d20.log import entry_visible, log_replay, roll_make, stream_open
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.roster import unit_create

RULESET = company_ruleset_build()
SNAPSHOT = {
    1: unit_create(RULESET, id=1, type="KOMP", name="Päällikkö", nation="BLUE"),
    2: unit_create(RULESET, id=2, type="JR", name="Ryhmä 1", nation="BLUE"),
    11: unit_create(RULESET, id=11, type="MOT", name="Moto", nation="RED"),
}


def _roll(stream, entries, function, inputs, *, side="BLUE", snapshot=SNAPSHOT, **context):
    """roll_make with the test's ruleset; `context`: what the server adds (purpose, table_turn, ...)."""
    return roll_make(
        stream,
        entries,
        function=function,
        inputs=inputs,
        ruleset=RULESET,
        snapshot=snapshot,
        side=side,
        **context,
    )


def test_the_streams_are_seeded_from_the_campaign_seed_turn_and_battle_key() -> None:
    assert battle_stream(12345, 3, "K7") == "12345:3:K7"
    assert stream_seed(battle_stream(12345, 3, "K7")) == 10115524125778360800  # cases/company_d20/11
    assert turn_stream(12345, 3) == "12345:3" and gm_stream(12345, 3) == "12345:3:gm"
    assert not region_id_valid("gm") and not region_id_valid("A|B") and region_id_valid("K7")


def test_each_roll_is_an_entry_with_its_dice_and_the_stream_moves_on() -> None:
    stream = stream_open("12345:3:K7")

    made, stream = _roll(stream, [], "test", {"unit": 2, "stat": "TT", "dc": 13}, purpose="cross the river")

    (entry,) = made
    expected = random.Random(10115524125778360800).randint(1, 20)
    assert (entry.seq, entry.function, entry.side, entry.dice) == (1, "test", "BLUE", ((20, expected),))
    assert entry.inputs == {"unit": 2, "stat": "TT", "dc": 13}  # as given: ids, not records
    assert entry.output["total"] == expected + 1 and entry.purpose == "cross the river"
    assert stream.next_seq == 2


def test_a_refused_request_draws_nothing_and_logs_nothing() -> None:
    stream = stream_open("s:1:A")
    for inputs, side, code in [
        ({"unit": 11, "stat": "TT", "dc": 10}, "BLUE", "not_your_unit"),  # another side's unit
        ({"unit": 99, "stat": "TT", "dc": 10}, "BLUE", "unit_unknown"),
        ({"bonus": 3, "dc": 10}, "BLUE", "gm_only"),  # an explicit bonus is the GM's
        ({"bonus": 3, "dc": 10}, None, "reason_required"),  # and needs the GM's purpose text
        ({"unit": 2, "stat": "TT"}, "BLUE", "dc_required"),
    ]:
        problem, after = _roll(stream, [], "test", inputs, side=side)
        assert isinstance(problem, Problem) and problem.code == code
        assert after == stream

    made, _ = _roll(stream, [], "test", {"bonus": 3, "dc": 10}, side=None, purpose="scenario rule")
    assert made[0].side is None


def test_the_passive_side_and_targets_may_be_any_unit_of_another_side() -> None:
    made, _ = _roll(stream_open("s:1:A"), [], "attack", {"attacker": 2, "targets": [{"unit": 11}]})
    assert made[0].output["targets"][0]["id"] == 11
    problem, _ = _roll(stream_open("s:1:A"), [], "attack", {"attacker": 11, "targets": [{"unit": 2}]})
    assert problem.code == "not_your_unit"


@pytest.mark.parametrize(
    ("function", "inputs"),
    [
        ("attack", {"attacker": 2, "targets": [{"unit": 11}, {"unit": 1}]}),
        ("recon", {"scout": 2, "target": {"unit": 1}}),
        ("opposed", {"active": {"unit": 2, "stat": "TT"}, "passive": {"unit": 1, "stat": "TT"}}),
    ],
)
def test_a_player_aims_at_no_unit_of_its_own_side_and_the_gm_at_any(function, inputs) -> None:
    """§8.2 as amended: an attack, recon or opposed roll aimed at the requester's own side is refused with
    `target_own_side` before any die; the GM may name any unit."""
    stream = stream_open("s:1:A")
    problem, after = _roll(stream, [], function, inputs)
    assert isinstance(problem, Problem) and (problem.code, problem.ref) == ("target_own_side", 1)
    assert after == stream
    made, _ = _roll(stream, [], function, inputs, side=None)
    assert not isinstance(made, Problem) and made[0].function == function


def test_a_fire_support_delay_is_secret_until_the_strike_arrives_or_the_battle_is_final() -> None:
    inputs = {"support": "mortar_120", "caller": 1, "observer": 2, "contact": "known"}
    (entry,), _ = _roll(stream_open("s:1:A"), [], "fire_request", inputs, table_turn=2)
    arrives = entry.output["arrives_on_turn"]

    assert entry.secret
    assert entry_visible(entry, gm=False, battle_final=False, table_turn=2) == {
        "seq": 1,
        "function": "fire_request",
        "secret": True,
    }
    assert entry_visible(entry, gm=True, battle_final=False, table_turn=2)["dice"] == [list(entry.dice[0])]
    assert "dice" in entry_visible(entry, gm=False, battle_final=False, table_turn=arrives)
    assert "dice" in entry_visible(entry, gm=False, battle_final=True, table_turn=2)


def _offered_scatter(seed: int = 0):
    """A scatter by an observer with Kokenut tulenjohtaja whose first dice differ: an offer is made."""
    while True:
        stream = stream_open(f"s:{seed}:A")
        made, after = _roll(
            stream, [], "scatter", {"support": "mortar_120", "observer": 2}, snapshot={2: _veteran()}
        )
        if made[0].output["offered"]:
            return made, after
        seed += 1


def _veteran():
    unit = unit_create(RULESET, id=2, type="JR", name="Ryhmä 1", nation="BLUE")
    return type(unit)(**{**unit.__dict__, "abilities": ("kokenut_tulenjohtaja",)})


def test_a_scatter_offer_is_decided_by_a_second_request_once() -> None:
    made, stream = _offered_scatter()
    snapshot = {2: _veteran()}
    (first,) = made
    assert first.output["decided"] is False and len(first.dice) == 2

    decided, stream = _roll(
        stream, made, "scatter_decide", {"entry": first.seq, "reroll": 1}, snapshot=snapshot
    )
    (decision,) = decided
    assert decision.output["rerolled"] == 1 and decision.output["first_dice"] == first.output["first_dice"]
    assert len(decision.dice) in (1, 2)  # the rerolled die, then the direction unless a bull's-eye

    entries = made + decided
    again, _ = _roll(stream, entries, "scatter_decide", {"entry": first.seq, "reroll": 2}, snapshot=snapshot)
    assert again.code == "already_decided"
    assert log_replay(stream.text, entries, RULESET, snapshot) == []


def test_the_offer_lapses_as_a_no_when_the_side_rolls_anything_else_first() -> None:
    made, stream = _offered_scatter()
    snapshot = {2: _veteran()}

    later, stream = _roll(stream, made, "roll", {"expression": "1d6"}, snapshot=snapshot)

    lapse, roll = later
    assert lapse.function == "scatter_decide" and lapse.output["rerolled"] is None and lapse.inputs["lapsed"]
    assert roll.function == "roll" and roll.seq == lapse.seq + 1
    assert log_replay(stream.text, made + later, RULESET, snapshot) == []


def test_a_scatter_without_an_offer_cannot_be_decided() -> None:
    stream = stream_open("s:1:A")
    (entry,), stream = _roll(stream, [], "roll", {"expression": "1d6"})
    problem, _ = _roll(stream, [entry], "scatter_decide", {"entry": 1, "reroll": 1})
    assert problem.code == "no_reroll_offer"


def test_a_forged_die_or_output_fails_the_replay() -> None:
    stream, entries = stream_open("s:1:A"), []
    for expression in ("2d6", "1d20"):
        made, stream = _roll(stream, entries, "roll", {"expression": expression})
        entries += made
    forged = type(entries[1])(**{**entries[1].__dict__, "output": {**entries[1].output, "total": 99}})

    assert log_replay(stream.text, entries, RULESET, SNAPSHOT) == []
    assert log_replay(stream.text, [entries[0], forged], RULESET, SNAPSHOT) == [
        "#2: output differs from the replay"
    ]
    assert log_replay("s:2:A", entries, RULESET, SNAPSHOT) != []


def _sum(parts) -> int:
    return sum(p["value"] for p in parts)


def test_the_log_explains_each_bonus_and_the_parts_add_up_to_the_totals() -> None:
    veteran = unit_create(RULESET, id=5, type="JR", name="Tarkka", nation="BLUE")
    veteran = type(veteran)(**{**veteran.__dict__, "xp": 23, "abilities": ("tarkka_tuli", "tiedustelija")})
    snapshot = {**SNAPSHOT, 5: veteran}
    stream = stream_open("s:1:A")

    (shot,), stream = _roll(
        stream,
        [],
        "attack",
        {
            "attacker": 5,
            "modifiers": [{"code": "suppressed"}],
            "targets": [{"unit": 11, "cover": "forest", "modifiers": [{"code": "confirmed_target"}]}],
        },
        snapshot=snapshot,
    )
    (look,), _ = _roll(
        stream, [], "recon", {"scout": 5, "target": {"unit": 11, "cover": "buildings"}}, snapshot=snapshot
    )

    bonuses, target = shot.output["bonuses"], shot.output["targets"][0]
    assert [str(part_message(p)) for p in bonuses] == [
        "TT 3 = K 1 + ⌊23/10⌋",
        "tarkka_tuli +1",
        "suppressed -2",
    ]
    assert [str(part_message(p)) for p in target["defence_parts"]] == ["S 12", "cover forest +4"]
    assert target["total"] == target["kept"] + _sum(bonuses) + _sum(target["bonuses"])
    assert target["defence"] == _sum(target["defence_parts"])
    assert [p["code"] for p in look.output["scout_bonuses"]] == ["tt", "ability"]
    assert look.output["target_total"] == look.output["target_dice"][0] + _sum(look.output["target_bonuses"])


def test_what_the_server_knows_is_filled_in_over_the_request() -> None:
    stream = stream_open("s:1:A")
    claimed = {"unit": 2, "reason": "indirect_fire", "commander_lost": False}

    (test,), _ = _roll(stream, [], "morale", claimed, side="BLUE")
    assert test.inputs["commander_lost"] is False
    (lost,), _ = _roll(stream, [], "morale", claimed, commander_lost=True)
    assert lost.inputs["commander_lost"] is True
    assert lost.output["total"] == test.output["total"] - 1  # the same die, and the ledger's -1

    jojo = unit_create(RULESET, id=3, type="JOJO", name="Jojo", nation="BLUE", group=1)
    snapshot = {**SNAPSHOT, 3: jojo}
    request = {
        "support": "mortar_120",
        "caller": 3,
        "observer": 2,
        "contact": "known",
        "caller_promoted": True,
    }
    refused, _ = _roll(stream, [], "fire_request", request, snapshot=snapshot, table_turn=4)
    assert refused.code == "caller_not_allowed"  # a player cannot declare the promotion
    (called,), _ = _roll(stream, [], "fire_request", request, snapshot=snapshot, table_turn=4, promoted=3)
    assert called.output["arrives_on_turn"] == 4 + called.output["delay"]
