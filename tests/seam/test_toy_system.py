"""The seam holds: a toy battle system, registered by name and nothing else, plays a whole turn through the
API and the pages. The larger side wins (a tie is a draw); each side loses one unit. A shell registered by
the toy's name (rules.system_shells) gives its turns inputs read from the database: a nation's bonus."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import contextmanager
from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Turn
from rules.engine.iron_fist.ruleset import iron_fist_ruleset_build
from rules.engine.ruleset import Ruleset
from rules.engine.seam import BattleCall, BattleOutcome, Pending
from rules.engine.systems import BattleSystem, Policies, system_register, system_unregister
from tests.api.conftest import client_for

A = "/api/campaigns/demo"


def ruleset_of(name: str):
    """A test system's ruleset builder: Iron Fist's unit types, under the system's own name."""

    def build(overrides: Mapping[str, Any]) -> Ruleset:
        defaults = iron_fist_ruleset_build({})
        return Ruleset(battle_system=name, unit_types=defaults.unit_types, ranges=defaults.ranges)

    return build


def toy_fight(call: BattleCall) -> BattleOutcome:
    """The larger side wins, a side's size raised by its nations' `bonus` among the turn's system inputs."""
    bonus = call.inputs.get("bonus", {})
    sizes = [
        sum(side.counts(call.ruleset.ground_types).values()) + sum(bonus.get(n, 0) for n in side.nations)
        for side in call.sides
    ]
    winner = None if sizes[0] == sizes[1] else (0 if sizes[0] > sizes[1] else 1)
    losses: dict[str, dict[str, int]] = {n: {} for side in call.sides for n in side.nations}
    for side in call.sides:
        nation = side.nations[0]
        first = next(t for t, c in side.ground[nation].items() if c)
        losses[nation] = {first: 1}
    report = {
        "kind": call.kind,
        "region": call.label,
        "regions": list(call.regions),
        "sides": [
            {"name": s.name, "nations": list(s.nations), "role": s.role, "units": s.ground}
            for s in call.sides
        ],
        "winner": None if winner is None else call.sides[winner].name,
        "losses": losses,
    }
    return BattleOutcome(winner=winner, decisive=winner is not None, losses=losses, report=report)


@contextmanager
def registered(name: str, fight):
    """The test system `name` fighting with `fight` (Iron Fist's unit types; no support from range, no
    support losses), registered while the block runs."""
    policies = Policies(support_from_range=False, support_losses=False)
    system_register(BattleSystem(name=name, ruleset_build=ruleset_of(name), fight=fight, policies=policies))
    try:
        yield
    finally:
        system_unregister(name)


@pytest.fixture
def toy():
    with registered("toy", toy_fight):
        yield


def test_a_toy_system_plays_a_whole_turn_through_the_api_and_the_pages(
    toy, demo, gm, player, client, django_capture_on_commit_callbacks
) -> None:
    demo.battle_system = "toy"
    demo.save(update_fields=["battle_system"])
    api = client_for(player)
    order = api.post(
        f"{A}/orders/", {"kind": "attack", "origin": "N3", "target": "K1", "units": {"JV": 2}}, format="json"
    )
    assert order.status_code == 201, order.content

    with django_capture_on_commit_callbacks(execute=True):
        assert client_for(gm).post(f"{A}/turns/1/process/").status_code == 202

    assert demo.turns.get(number=1).status == Turn.Status.RESOLVED
    listed = api.get(f"{A}/turns/1/reports/").json()
    summary = next(r for r in listed if r["region"] == "K1")
    battle = api.get(summary["url"]).json()["data"]
    # KAR's 4 units against NOR's 2: the larger side wins and holds; each side lost one JV.
    assert (battle["system"], battle["winner"], battle["conquest"]) == ("toy", "KAR", False)
    assert battle["losses"] == {"NOR": {"JV": 1}, "KAR": {"JV": 1}}
    stacks = {(s["region"], s["nation"], s["unit_type"]): s["count"] for s in api.get(f"{A}/stacks/").json()}
    assert stacks[("N3", "NOR", "JV")] == 1, "the attacker's survivor went home"
    assert (stacks[("K1", "KAR", "JV")], stacks[("K1", "KAR", "PA")]) == (2, 1)

    client.force_login(player)
    page = client.get(reverse("frontend:turn", args=["demo", 1]))
    card = next(c for c in page.context["cards"] if c["region"] == "K1")
    assert card["template"] == "frontend/cards/plain.html"
    assert "Battle of K1" in page.content.decode()
    assert [(side["name"], side["losses"]) for side in card["sides"]] == [
        ("Kingdom of Nordmark", "JV 1"),
        ("Karelian Republic", "JV 1"),
    ]


def test_a_system_not_registered_is_refused_by_name(demo) -> None:
    from django.core.exceptions import ValidationError

    demo.battle_system = "chess"
    with pytest.raises(ValidationError, match="battle system chess is not available"):
        demo.full_clean()


def test_the_gm_switches_the_battle_system_between_turns_and_the_pages_say_so(toy, demo, gm, client) -> None:
    client.force_login(gm)
    response = client.post(
        reverse("frontend:gm_system", args=["demo"]),
        {"system-battle_system": "toy", "system-reason": "trying the toy"},
    )
    assert response.status_code == 302
    demo.refresh_from_db()
    assert demo.battle_system == "toy"
    assert demo.audit_entries.filter(
        action="battle_system", summary="battle system: iron_fist → toy"
    ).exists()
    assert "battles: toy" in client.get(reverse("frontend:campaign", args=["demo"])).content.decode()
    assert "<strong>toy</strong>" in client.get(reverse("frontend:gm", args=["demo"])).content.decode()


def test_the_battle_system_cannot_change_while_a_turn_is_processing(toy, demo, gm) -> None:
    from campaign.gm.access import GMInputError
    from campaign.gm.system import battle_system_set

    demo.turns.filter(number=1).update(status=Turn.Status.PROCESSING)
    with pytest.raises(GMInputError, match="turn 1 is processing"):
        battle_system_set(by=gm, campaign=demo, name="toy")
    demo.refresh_from_db()
    assert demo.battle_system == "iron_fist"


def test_only_the_gm_switches_the_battle_system(toy, demo, player, client) -> None:
    client.force_login(player)
    response = client.post(reverse("frontend:gm_system", args=["demo"]), {"system-battle_system": "toy"})
    assert response.status_code in (403, 404)
    demo.refresh_from_db()
    assert demo.battle_system == "iron_fist"


def test_a_system_without_the_maps_unit_types_is_refused(demo, gm) -> None:
    from campaign.gm.access import GMInputError
    from campaign.gm.system import battle_system_set

    def tiny(overrides):
        base = iron_fist_ruleset_build({})
        return Ruleset(battle_system="tiny", unit_types={"JV": base.unit_types["JV"]}, ranges={})

    system_register(BattleSystem(name="tiny", ruleset_build=tiny, fight=toy_fight))
    try:
        with pytest.raises(GMInputError, match="tiny has no unit type IV, PA, TY"):
            battle_system_set(by=gm, campaign=demo, name="tiny")
    finally:
        system_unregister("tiny")


def table_fight(call: BattleCall) -> Pending:
    """A system whose battles are fought at the table: the result is not the engine's to decide."""
    return Pending(
        key=call.key, report={"kind": call.kind, "region": call.label, "regions": list(call.regions)}
    )


def test_a_turn_whose_battles_are_fought_elsewhere_waits_with_the_world_unchanged(
    demo, gm, player, place_orders
) -> None:
    from rules.services import turn_process

    with registered("table", table_fight):
        demo.battle_system = "table"
        demo.save(update_fields=["battle_system"])
        turn = demo.turns.get(number=1)
        place_orders(turn, [("NOR", "attack", "N3", "K1", {"JV": 2})])
        before = sorted(
            demo.nations.values_list("stacks__region__code", "stacks__unit_type", "stacks__count")
        )

        turn_process(turn_id=turn.pk)

        turn.refresh_from_db()
        assert turn.status == Turn.Status.BATTLES_PENDING
        assert turn.result["pending"] == ["region:K1"]
        assert not demo.turns.filter(number=2).exists(), "the next turn waits for the battles"
        after = sorted(demo.nations.values_list("stacks__region__code", "stacks__unit_type", "stacks__count"))
        assert after == before
        response = client_for(player).post(
            f"{A}/orders/", {"kind": "hold", "origin": "N1", "units": {"JV": 1}}, format="json"
        )
        assert response.status_code == 409, "no orders while the turn waits for its battles"


def test_the_gm_is_offered_only_systems_the_campaign_can_play(toy, demo, gm) -> None:
    from campaign.gm.access import GMInputError
    from campaign.gm.system import battle_system_set, battle_systems_offered

    offered = battle_systems_offered(campaign=demo)
    # Sodankäynti plays Iron Fist's map; company_d20 has no `fight` the pipeline can call.
    assert {"iron_fist", "sodankaynti", "toy"} <= set(offered)
    assert "company_d20" not in offered
    with pytest.raises(GMInputError, match="battle system company_d20 is not available"):
        battle_system_set(by=gm, campaign=demo, name="company_d20")


@contextmanager
def shell_registered(name: str, shell):
    """The system `name`'s shell, registered while the block runs."""
    from rules.system_shells import shell_register, shell_unregister

    shell_register(name, shell)
    try:
        yield
    finally:
        shell_unregister(name)


def test_a_systems_shell_gives_the_engine_inputs_read_from_the_turn(toy, demo, gm, place_orders) -> None:
    from rules.selectors import turn_result
    from rules.services import turn_process
    from rules.system_shells import SystemShell, system_shell

    def turn_inputs(turn: Turn) -> dict[str, Any]:
        return {"bonus": {"NOR": 5 * turn.number}}

    with shell_registered("toy", SystemShell(turn_inputs=turn_inputs)):
        demo.battle_system = "toy"
        demo.save(update_fields=["battle_system"])
        turn = demo.turns.get(number=1)
        place_orders(turn, [("NOR", "attack", "N3", "K1", {"JV": 2})])

        turn_process(turn_id=turn.pk)

        turn.refresh_from_db()
        assert turn.status == Turn.Status.RESOLVED
        battle = next(b for b in turn_result(turn=turn)["battles"] if b["region"] == "K1")
        # NOR's 2 units and the shell's 5 against KAR's 4: without the shell's input KAR would hold.
        assert battle["winner"] == "NOR"
    assert system_shell("toy") == SystemShell(), "the toy system plays without a shell again"
