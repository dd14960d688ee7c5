"""The battle sheet through the fog of war (COMPANY.md §4.5, §10) and when a result is final (§5.2)."""

from __future__ import annotations

from dataclasses import replace

from rules.engine.company_d20 import company_ruleset_build
from rules.engine.company_d20.campaign import CampaignState, Region, Snapshot
from rules.engine.company_d20.recon import unit_card
from rules.engine.company_d20.results import Battle
from rules.engine.company_d20.roster import unit_create
from rules.engine.company_d20.sheet import approvals_missing, battle_sheet, result_is_final

RULESET = company_ruleset_build()


def _battle_and_state():
    blue = unit_create(RULESET, id=1, type="JR", name="Ryhmä 1", nation="BLUE", region="A")
    red = [
        unit_create(RULESET, id=i, type="MOT", name=f"Moto {i}", nation="RED", region="B") for i in (11, 12)
    ]
    regions = {"A": Region("A", "open", "BLUE"), "B": Region("B", "rough", "RED")}
    units = {u.id: u for u in [blue, *red]}
    seen = Snapshot("BLUE", "B", 1, {11: "known"}, {11: unit_card(red[0], RULESET)})
    state = CampaignState(("BLUE", "RED"), regions, (("A", "B"),), units, turn=1, snapshots=(seen,))
    battle = Battle("B", "normal", "RED", ("BLUE", "RED"), units, {1: "A", 11: "B", 12: "B"}, region="B")
    return battle, state


def test_a_player_sees_their_own_units_whole_and_the_enemys_stats_only_through_their_contacts() -> None:
    """§4.5 as amended: every unit of the battle by id, name and type (the table shows the miniatures); an
    enemy's stats only at the level of the viewer's recon contacts."""
    battle, state = _battle_and_state()

    sheet = battle_sheet(battle, state, RULESET, viewer="BLUE")

    blue, red = sheet["sides"]
    assert (blue["role"], [u["id"] for u in blue["units"]]) == ("attacker", [1])
    assert blue["units"][0]["tt"] == 1 and blue["units"][0]["origin"] == "A"
    assert red == {
        "nation": "RED",
        "role": "defender",
        "roster": [
            {"id": 11, "name": "Moto 11", "type": "MOT"},
            {"id": 12, "name": "Moto 12", "type": "MOT"},
        ],
    }, "who is on the table, and nothing of their stats"
    assert sheet["contacts"]["B"]["known"] == [{"type": "MOT"}]
    assert sheet["regions"] == [{"id": "B", "terrain": "rough"}]
    assert battle_sheet(battle, state, RULESET, viewer="RED")["contacts"] == {}


def test_the_gm_sees_every_unit() -> None:
    battle, state = _battle_and_state()
    sheet = battle_sheet(battle, state, RULESET, viewer=None)
    assert [[u["id"] for u in side["units"]] for side in sheet["sides"]] == [[1], [11, 12]]


def test_a_meeting_sheet_names_both_regions() -> None:
    battle, state = _battle_and_state()
    meeting = replace(battle, key="A|B", kind="meeting", defender=None, region=None)
    assert [r["id"] for r in battle_sheet(meeting, state, RULESET, viewer=None)["regions"]] == ["A", "B"]


def test_by_default_only_the_gm_makes_a_result_final() -> None:
    approvals = {"participants": ["BLUE", "RED"], "approvals": ["RED"], "saved_by": "BLUE"}
    assert not result_is_final(RULESET, **approvals, gm_confirmed=False)
    assert result_is_final(RULESET, **approvals, gm_confirmed=True)


def test_with_all_sides_every_nation_approving_makes_it_final_and_the_saver_counts() -> None:
    ruleset = company_ruleset_build({"result": {"finalisation": "all_sides"}})
    assert result_is_final(
        ruleset, participants=["BLUE", "RED"], approvals=["RED"], saved_by="BLUE", gm_confirmed=False
    )
    assert not result_is_final(
        ruleset, participants=["BLUE", "RED"], approvals=[], saved_by="BLUE", gm_confirmed=False
    )
    assert approvals_missing(["BLUE", "RED", "GREEN"], ["RED"], "BLUE") == ["GREEN"]
