"""The KP ledger (COMPANY.md §9) when the campaign turns it on: each side operates on its own pools, every
operation is stored with who asked, and the dice service reads the ledger's commander-lost mark."""

from __future__ import annotations

from rules.company import models
from tests.company.conftest import at

A = "/api/campaigns/demo"


def test_without_tracking_there_is_no_ledger(clients, battle):
    assert clients["player"].get(f"{A}/{at(battle)}/kp/").status_code == 404
    refused = clients["player"].post(f"{A}/{at(battle)}/kp/turn-start/", {}, format="json")
    assert refused.json()["errors"][0]["code"] == "kp_off"


def test_each_side_opens_and_spends_its_own_pools(clients, tracked, battle):
    started = clients["rival"].post(f"{A}/{at(battle)}/kp/turn-start/", {}, format="json")
    assert started.status_code == 200, started.content
    pools = started.json()["pools"]
    assert pools["EST"] == {"company": 5}, "EST's commander fights: the company pool (§9.1)"
    assert pools["NOR"] == {}, "NOR brought no leader to the battle"
    spend = {"pool": "company", "action": "fire_support_request"}
    after = clients["rival"].post(f"{A}/{at(battle)}/kp/spend/", spend, format="json").json()
    assert after["pools"]["EST"]["company"] == 3
    refused = clients["player"].post(f"{A}/{at(battle)}/kp/spend/", spend, format="json").json()
    assert refused["errors"][0]["code"] == "pool_unknown", "the player spends from its own side only"
    ledger = clients["player"].get(f"{A}/{at(battle)}/kp/").json()
    assert [(o["op"], o["by"], o["side"]) for o in ledger["operations"]] == [
        ("turn_start", "rival", "EST"),
        ("spend", "rival", "EST"),
    ]
    assert clients["outsider"].get(f"{A}/{at(battle)}/kp/").status_code == 404


def test_a_player_eliminates_only_its_own_units_and_the_dice_know_the_commander_fell(
    clients, tracked, battle, company
):
    u = company.units
    theirs = clients["player"].post(
        f"{A}/{at(battle)}/kp/eliminate/", {"unit": u["Chef"].number}, format="json"
    )
    assert theirs.json()["errors"][0]["code"] == "not_your_unit"
    clients["rival"].post(f"{A}/{at(battle)}/kp/turn-start/", {}, format="json")
    lost = clients["rival"].post(f"{A}/{at(battle)}/kp/eliminate/", {"unit": u["Chef"].number}, format="json")
    assert lost.status_code == 200 and lost.json()["commander_lost"]["EST"]
    morale = {
        "function": "morale",
        "inputs": {"unit": u["MG"].number, "reason": "indirect_fire", "commander_lost": False},
    }
    assert clients["rival"].post(f"{A}/{at(battle)}/rolls/", morale, format="json").status_code == 201
    assert models.DiceRoll.objects.get(battle=battle).inputs["commander_lost"] is True, (
        "the server's, not the request's"
    )


def test_a_nation_the_gm_gives_battle_groups_is_a_red_side_with_a_pool_per_group_and_no_roles(
    clients, tracked, battle, company, gm
):
    """§3.5, §9.1: a GM-run nation with `command_style: battle_groups` has a 3-KP pool per battle group, no
    roles (a KOMP set up for it has none), and its Kasarmi is a battle-groups one."""
    from campaign.models import Nation
    from rules.company.services import company_current, roster_unit_create

    Nation.objects.filter(pk=company.est.pk).update(attributes={"command_style": "battle_groups"})
    company.est.refresh_from_db()
    started = clients["gm"].post(f"{A}/{at(battle)}/kp/turn-start/", {}, format="json").json()
    assert started["pools"]["EST"] == {"group-0": 3, "group-1": 3}
    chief = roster_unit_create(
        campaign=company.campaign, nation=company.est, type="KOMP", name="Chef 2", region="M1", actor=gm
    )
    assert not chief.role, "no role"
    kasarmi, _ = company_current(campaign=company.campaign, nation=company.est)
    assert kasarmi.style == "battle_groups", "its Kasarmi refuses appoint_commander (not_company_style)"
