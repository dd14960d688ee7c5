"""A Sodankäynti turn through the shell: the GM's ratings and advantages, doctrine and ambush orders entered
and judged by the engine's code, the turn processed with all of it (SODANKAYNTI.md §4, §5, §6.4, §16)."""

from __future__ import annotations

import pytest

from campaign.models import AuditEntry
from orders.services import OrderDraft, OrderError, order_change, order_describe, order_submit
from rules.models import Report
from rules.services import turn_process
from rules.sodankaynti.services import nation_attributes_set, turn_system_inputs_set
from tests.sodankaynti.conftest import tactics_advantage


def _doctrine(name, region="", **params):
    return OrderDraft(
        kind="doctrine", origin=region, target=None, units={}, params={"doctrine": name, "params": params}
    )


def test_it_takes_a_doctrine_for_every_battle_and_one_for_a_region(poh, sampo_turn):
    everywhere = order_submit(user=poh, turn=sampo_turn, draft=_doctrine("bold"))
    assert everywhere.origin is None
    assert everywhere.params == {"doctrine": "bold", "params": {}, "region": None}
    there = order_submit(user=poh, turn=sampo_turn, draft=_doctrine("steady", "V2", retreat_below=75))
    assert there.params == {"doctrine": "steady", "params": {"retreat_below": 75}, "region": "V2"}
    assert str(order_describe(there)) == "doctrine steady (retreat_below=75) in battles in V2"
    assert str(order_describe(everywhere)) == "doctrine bold in every battle"


@pytest.mark.parametrize(
    ("draft", "field", "message"),
    [
        (_doctrine("reckless"), "params", "invalid doctrine order: doctrine: unknown doctrine 'reckless'"),
        (
            _doctrine("steady", wild=1),
            "params",
            "invalid doctrine order: params.wild: unknown doctrine parameter",
        ),
        (_doctrine("steady", "Z9"), "origin", "unknown region 'Z9'"),
        (OrderDraft("ambush", "V2", "K2", {}), "origin", "V2 is not held by POH"),
        (OrderDraft("ambush", "P2", "K2", {}), "target", "K2 is not adjacent to P2"),
        (OrderDraft("stand_down", "P1", None, {"GREN": 1}), "kind", None),
    ],
)
def test_it_refuses_what_the_engine_refuses_in_its_words(poh, sampo_turn, draft, field, message):
    with pytest.raises(OrderError) as error:
        order_submit(user=poh, turn=sampo_turn, draft=draft)
    assert error.value.field == field
    if message is None:  # stand down: the engine's own message, whatever its wording
        assert error.value.message.code == "sodankaynti.order.stand_down"
    else:
        assert str(error.value.message) == message


def test_it_refuses_a_second_ambush_for_the_same_region_as_the_engine_does(poh, sampo_turn):
    order_submit(user=poh, turn=sampo_turn, draft=OrderDraft("ambush", "P2", "V2", {}))
    # Each ambush is judged on its own at entry; the engine rejects the second at processing time (§4.2).
    second = order_submit(user=poh, turn=sampo_turn, draft=OrderDraft("ambush", "P2", "V1", {}))
    result = turn_process(turn_id=sampo_turn.pk).result
    rejected = [r for r in result["rejected_orders"] if r["order"]["ref"] == second.pk]
    assert rejected and rejected[0]["message"]["code"] == "sodankaynti.order.ambush_twice"


def test_it_changes_an_attack_into_a_doctrine_and_back(poh, sampo_turn):
    order = order_submit(user=poh, turn=sampo_turn, draft=OrderDraft("attack", "P2", "V2", {"CAV": 3}))
    order_change(user=poh, order=order, draft=_doctrine("cautious"))
    order.refresh_from_db()
    assert (order.kind, order.origin_id, order.units) == ("doctrine", None, {})
    order_change(user=poh, order=order, draft=OrderDraft("attack", "P2", "V2", {"CAV": 2}))
    order.refresh_from_db()
    assert (order.kind, order.params, order.units) == ("attack", {}, {"CAV": 2})


def test_the_gm_sets_ratings_and_doctrine_with_an_audit_line(sampo_gm, sampo):
    nation = sampo.nations.get(code="KAL")
    nation_attributes_set(by=sampo_gm, nation=nation, politics=5, tactics=1, doctrine="bold", reason="a hero")
    nation.refresh_from_db()
    assert nation.attributes == {"politics": 5, "tactics": 1, "doctrine": "bold"}
    entry = AuditEntry.objects.get(campaign=sampo, action="nation_attributes")
    assert entry.summary == "KAL: politics 5, tactics 1, doctrine bold" and entry.reason == "a hero"


@pytest.mark.parametrize(
    ("politics", "doctrine", "params", "error"),
    [
        (-1, "steady", None, "nation_attributes.KAL.politics: must be at least 0, got -1"),
        (10**12, "steady", None, "nation_attributes.KAL.politics: must be at most 100, got 1000000000000"),
        (3, "wild", None, "unknown doctrine 'wild'"),
        (3, "steady", {"retreat_below": "x"}, "retreat_below"),
    ],
)
def test_the_gm_form_refuses_a_bad_attribute_as_the_turn_would(
    sampo_gm, sampo, politics, doctrine, params, error
):
    nation = sampo.nations.get(code="KAL")
    with pytest.raises(OrderError) as refused:
        nation_attributes_set(
            by=sampo_gm, nation=nation, politics=politics, tactics=3, doctrine=doctrine, params=params
        )
    assert error in str(refused.value.message)
    nation.refresh_from_db()
    assert nation.attributes["doctrine"] == "cautious", "nothing changed"


def test_the_gm_refuses_advantages_in_an_iron_fist_campaign(gm, demo):
    with pytest.raises(OrderError) as refused:
        turn_system_inputs_set(by=gm, turn=demo.turns.get(number=1), gm_advantages=[], skip_politics=["N1"])
    assert refused.value.message.code == "system_inputs_unused"


def test_a_turn_is_fought_with_the_ratings_doctrines_advantages_and_ambush(sampo_gm, poh, kal, sampo_turn):
    advantage = tactics_advantage("V2", "POH", 2, "the Sampo")
    bards = "the bards sing of it"
    turn_system_inputs_set(
        by=sampo_gm, turn=sampo_turn, gm_advantages=[advantage], skip_politics=["V2"], reason=bards
    )
    order_submit(user=poh, turn=sampo_turn, draft=OrderDraft("attack", "P2", "V2", {"CAV": 3, "LEVY": 2}))
    order_submit(user=poh, turn=sampo_turn, draft=_doctrine("bold", "V2"))
    order_submit(user=kal, turn=sampo_turn, draft=OrderDraft("ambush", "V2", "P2", {}))
    processed = turn_process(turn_id=sampo_turn.pk)
    assert processed.status == "resolved", processed.error
    report = Report.objects.get(turn=sampo_turn, region="V2").data
    assert report["system"] == "sodankaynti"
    pools = report["tactics"]["pools"]
    assert {"name": "gm", "dice": 2, "nation": "POH", "reason": "the Sampo"} in pools["POH"]["advantages"]
    assert {"name": "ambush", "dice": 3} in pools["KAL"]["advantages"], "KAL's ambush facing P2 fired"
    attacker = next(s for s in report["sides"] if s["name"] == "POH")
    assert (attacker["doctrine"]["name"], attacker["doctrine"]["from"]) == ("bold", "order")
    defender = next(s for s in report["sides"] if s["name"] == "KAL")
    assert defender["doctrine"]["name"] == "cautious", "KAL's standing doctrine from the scenario"
    assert report["politics"]["skipped"] is True, "the GM skipped the politics roll in V2"
