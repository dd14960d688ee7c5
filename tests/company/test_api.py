"""The company API's permission matrix (COMPANY.md §8.2, §10.3, §11.3): rosters, the Kasarmi, the battles,
their dice and the recon contacts; a player never sees an enemy unit beyond its contact level, nor the rolls
of a battle its nation is not in, and what it may not see is a 404."""

from __future__ import annotations

import pytest

from rules.company import models
from rules.models import TableBattle
from tests.company.conftest import at, own_nation_and_gm

A = "/api/campaigns/demo"


def status(client, url, method="get", data=None):
    return getattr(client, method)(url, data, format="json").status_code


@pytest.mark.parametrize("role, nor, est", own_nation_and_gm(anonymous=401))
def test_a_roster_is_its_nations_and_the_gms_only(clients, role, nor, est):
    for url in ("roster", "events"):
        assert status(clients[role], f"{A}/companies/NOR/{url}/") == nor
        assert status(clients[role], f"{A}/companies/EST/{url}/") == est


def test_the_roster_shows_each_card_with_derived_values_and_the_balance(clients, company):
    roster = clients["player"].get(f"{A}/companies/NOR/roster/").json()
    assert roster["tp"] == 30 and roster["nation"] == "NOR"
    card = next(u for u in roster["units"] if u["name"] == "Ryhmä 1")
    assert {card[k] for k in ("tt", "damaged", "veteran_slots", "next_tt_xp")} and card["tk"] == card[
        "tk_max"
    ]
    assert card["tt"] == card["k"] and card["next_tt_xp"] == 10 and card["next_slot_xp"] == 20


def test_a_player_buys_for_its_own_nation_only_and_a_refusal_is_a_400_with_its_code(clients, company):
    buy = {"type": "JR", "name": "Ryhmä 3", "group": 1, "region": "N4"}
    response = clients["player"].post(f"{A}/companies/NOR/buy/", buy, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["roster"]["tp"] == 15
    assert status(clients["rival"], f"{A}/companies/NOR/buy/", "post", buy) == 404
    again = clients["player"].post(f"{A}/companies/NOR/buy/", buy, format="json")
    assert again.status_code == 400
    [error] = again.json()["errors"]
    assert error["code"] == "name_taken" and error["ref"] == "name" and error["message"]
    gift = clients["player"].post(f"{A}/companies/NOR/adjust-tp/", {"delta": 5, "reason": "x"}, format="json")
    assert gift.json()["errors"][0]["code"] == "gm_only"
    assert (
        status(clients["gm"], f"{A}/companies/NOR/adjust-tp/", "post", {"delta": 5, "reason": "prize"}) == 200
    )
    assert models.Balance.objects.get(nation=company.nor).tp == 20


def test_a_refusal_reads_in_finnish_for_a_finnish_reader(clients, company):
    buy = {"type": "JR", "name": "Ryhmä 1", "group": 1, "region": "N4"}
    english = clients["player"].post(f"{A}/companies/NOR/buy/", buy, format="json").json()["errors"][0]
    finnish = (
        clients["player"]
        .post(f"{A}/companies/NOR/buy/", buy, format="json", HTTP_ACCEPT_LANGUAGE="fi")
        .json()["errors"][0]
    )
    assert english["code"] == finnish["code"] and english["message"] != finnish["message"]


@pytest.mark.parametrize("role, code", [("gm", 200), ("player", 200), ("rival", 200), ("outsider", 404)])
def test_a_battle_is_seen_by_its_sides_and_the_gm(clients, battle, role, code):
    assert status(clients[role], f"{A}/{at(battle)}/") == code
    assert status(clients[role], f"{A}/{at(battle)}/rolls/") == code


def test_a_nation_not_in_a_battle_neither_sees_nor_rolls_its_dice(clients, battle, company, nations):
    from campaign.services import membership_set
    from tests.api.conftest import client_for

    third = client_for(
        membership_set(
            campaign=company.campaign, username="kar", password="kar-password-1", nation=nations["KAR"]
        ).user
    )
    roll = {"function": "roll", "inputs": {"expression": "1d20"}}
    assert status(third, f"{A}/{at(battle)}/rolls/") == 404
    assert status(third, f"{A}/{at(battle)}/rolls/", "post", roll) == 404
    assert status(third, f"{A}/{at(battle)}/") == 404
    assert not models.DiceRoll.objects.exists()


def test_the_sheet_shows_the_viewers_own_units_only(clients, battle, company):
    sheet = clients["player"].get(f"{A}/{at(battle)}/").json()
    sides = {s["nation"]: s for s in sheet["sides"]}
    assert "units" in sides["NOR"] and "units" not in sides["EST"]
    assert "stream" not in sheet, "the seed stays secret until the battle is final"
    gm = {s["nation"]: s for s in clients["gm"].get(f"{A}/{at(battle)}/").json()["sides"]}
    assert "units" in gm["EST"] and "units" in gm["NOR"]


def test_every_roll_is_logged_with_who_asked_before_the_answer_and_cannot_be_rerolled(
    clients, battle, company
):
    u = company.units
    attack = {
        "function": "attack",
        "inputs": {"attacker": u["Ryhmä 1"].number, "targets": [{"unit": u["MG"].number}]},
    }
    first = clients["player"].post(f"{A}/{at(battle)}/rolls/", attack, format="json")
    assert first.status_code == 201, first.content
    [entry] = first.json()
    row = models.DiceRoll.objects.get(battle=battle, seq=entry["seq"])
    assert (row.requested_by.username, row.side, row.function) == ("player", "NOR", "attack")
    assert row.dice == entry["dice"]
    second = clients["player"].post(f"{A}/{at(battle)}/rolls/", attack, format="json").json()[0]
    assert second["seq"] == entry["seq"] + 1, "asking again is the next roll of the stream, logged too"
    assert [r["seq"] for r in clients["rival"].get(f"{A}/{at(battle)}/rolls/").json()] == [1, 2]


def test_a_player_rolls_only_for_its_own_units_and_only_the_gm_gives_a_bonus(clients, battle, company):
    u = company.units
    theirs = {"function": "morale", "inputs": {"unit": u["MG"].number, "reason": "indirect_fire"}}
    assert (
        clients["player"].post(f"{A}/{at(battle)}/rolls/", theirs, format="json").json()["errors"][0]["code"]
        == "not_your_unit"
    )
    bonus = {"function": "test", "inputs": {"unit": u["Ryhmä 1"].number, "bonus": 5, "dc": 10}}
    assert (
        clients["player"].post(f"{A}/{at(battle)}/rolls/", bonus, format="json").json()["errors"][0]["code"]
        == "gm_only"
    )
    assert not models.DiceRoll.objects.exists(), "a refused request draws and logs nothing"


def test_an_attack_at_the_rollers_own_side_is_refused_and_the_gms_is_not(clients, battle, company):
    """§8.2 as amended: EST attacking its own Chef is `target_own_side`, before any die (found in play)."""
    u = company.units
    own = {
        "function": "attack",
        "inputs": {"attacker": u["MG"].number, "targets": [{"unit": u["Chef"].number}]},
    }
    refused = clients["rival"].post(f"{A}/{at(battle)}/rolls/", own, format="json")
    assert refused.status_code == 400
    assert [(e["code"], e["ref"]) for e in refused.json()["errors"]] == [
        ("target_own_side", u["Chef"].number)
    ]
    assert not models.DiceRoll.objects.exists()
    aimed = {**own, "inputs": {**own["inputs"], "targets": [{"unit": u["Ryhmä 1"].number}]}}
    assert status(clients["rival"], f"{A}/{at(battle)}/rolls/", "post", aimed) == 201
    assert status(clients["gm"], f"{A}/{at(battle)}/rolls/", "post", own) == 201, "the GM names any unit"


def test_when_final_the_seed_is_revealed_and_the_log_replays(clients, battle, company):
    u = company.units
    morale = {"function": "morale", "inputs": {"unit": u["MG"].number, "reason": "indirect_fire"}}
    for _ in range(3):
        assert status(clients["rival"], f"{A}/{at(battle)}/rolls/", "post", morale) == 201
    assert status(clients["player"], f"{A}/{at(battle)}/verify/") == 409
    entry = {"units": [{"unit": int(n)} for n in battle.data["units"]]}
    assert status(clients["player"], f"{A}/{at(battle)}/result/", "put", entry) == 201
    assert status(clients["player"], f"{A}/{at(battle)}/verify/") == 409, "proposed is not final"
    assert status(clients["gm"], f"{A}/{at(battle)}/result/confirm/", "post", {}) == 200
    sheet = clients["player"].get(f"{A}/{at(battle)}/").json()
    assert sheet["stream"].endswith(":1:M1") and sheet["report"]["final"]
    verify = clients["player"].get(f"{A}/{at(battle)}/verify/").json()
    assert verify == {"stream": sheet["stream"], "entries": 3, "mismatches": [], "dice_mismatches": []}


def test_a_tampered_die_is_caught_by_the_replay(clients, battle, company):
    u = company.units
    clients["rival"].post(
        f"{A}/{at(battle)}/rolls/",
        {"function": "morale", "inputs": {"unit": u["MG"].number, "reason": "indirect_fire"}},
        format="json",
    )
    row = models.DiceRoll.objects.get(battle=battle)
    row.dice = [[row.dice[0][0], row.dice[0][1] % row.dice[0][0] + 1]]
    row.save()
    TableBattle.objects.filter(company=battle).update(state="resolved")
    verify = clients["gm"].get(f"{A}/{at(battle)}/verify/").json()
    assert verify["mismatches"] and verify["dice_mismatches"]


def test_the_gm_edits_a_unit_with_a_reason_and_the_player_then_chooses_an_ability(clients, company):
    unit = company.units["Ryhmä 1"].number
    edit = {"unit": unit, "changes": {"xp": 20}, "reason": "the lost battle sheet of turn 0"}
    assert status(clients["player"], f"{A}/companies/NOR/edit/", "post", edit) == 403
    assert status(clients["gm"], f"{A}/companies/NOR/edit/", "post", {**edit, "reason": ""}) == 400
    assert status(clients["gm"], f"{A}/companies/NOR/edit/", "post", edit) == 200
    chosen = clients["player"].post(
        f"{A}/companies/NOR/abilities/", {"unit": unit, "ability": "tarkka_tuli"}, format="json"
    )
    assert chosen.status_code == 200, chosen.content
    card = next(u for u in chosen.json()["roster"]["units"] if u["id"] == unit)
    assert card["abilities"] == ["tarkka_tuli"] and card["free_slots"] == 0
    trail = clients["player"].get(f"{A}/companies/NOR/events/").json()
    assert [(e["kind"], e["actor"], e["reason"]) for e in trail[-2:]] == [
        ("gm_edit", "gm", "the lost battle sheet of turn 0"),
        ("ability_chosen", "player", None),
    ]


def test_orders_go_in_through_the_api_for_the_players_own_nation_all_or_nothing(clients, company):
    scout = company.units["Tiedustelu"].number
    recon = {"kind": "recon", "from": "N5", "to": "M1", "units": [scout]}
    response = clients["player"].put(f"{A}/companies/NOR/orders/", {"orders": [recon]}, format="json")
    assert response.status_code == 200 and response.json()["orders"][0]["kind"] == "recon"
    twice = clients["player"].put(f"{A}/companies/NOR/orders/", {"orders": [recon, recon]}, format="json")
    assert twice.status_code == 400 and twice.json()["errors"][0]["ref"] == f"1:{scout}"
    assert models.OrderSet.objects.get(nation=company.nor).orders[0]["kind"] == "recon", "nothing replaced"
    assert status(clients["rival"], f"{A}/companies/NOR/orders/", "put", {"orders": []}) == 404
    assert status(clients["gm"], f"{A}/companies/NOR/orders/", "put", {"orders": []}) == 400


def test_the_gm_annotates_a_roll_or_marks_it_void_and_it_stays_in_the_log_drawing_nothing(
    clients, battle, company
):
    """§8.2: entries are immutable; the GM may annotate one or mark it void with a reason, struck through
    in the log, and the mark draws nothing and returns nothing."""
    roll = {"function": "roll", "inputs": {"expression": "1d20"}}
    [entry] = clients["player"].post(f"{A}/{at(battle)}/rolls/", roll, format="json").json()
    url = f"{A}/{at(battle)}/rolls/{entry['seq']}"
    refused = clients["player"].post(f"{url}/void/", {"text": "wrong unit"}, format="json")
    assert refused.status_code == 403 and refused.json()["errors"][0]["code"] == "gm_only"
    assert clients["gm"].post(f"{url}/void/", {"text": " "}, format="json").json()["errors"][0]["code"] == (
        "reason_required"
    )
    state = models.Battle.objects.get(pk=battle.pk).stream_state
    voided = clients["gm"].post(f"{url}/void/", {"text": "asked for the wrong unit"}, format="json")
    assert voided.status_code == 200 and voided.json()["void_reason"] == "asked for the wrong unit"
    noted = clients["gm"].post(f"{url}/note/", {"text": "the table agreed"}, format="json").json()
    assert noted["note"] == "the table agreed" and noted["dice"] == entry["dice"]
    again = clients["gm"].post(f"{url}/void/", {"text": "twice"}, format="json").json()["errors"][0]
    assert again["code"] == "roll_void_already"
    missing = clients["gm"].post(f"{A}/{at(battle)}/rolls/99/void/", {"text": "x"}, format="json")
    assert missing.json()["errors"][0]["code"] == "roll_unknown"
    assert models.Battle.objects.get(pk=battle.pk).stream_state == state, "a mark draws nothing"
    [seen] = clients["rival"].get(f"{A}/{at(battle)}/rolls/").json()
    assert (seen["seq"], seen["dice"], seen["void_reason"]) == (
        entry["seq"],
        entry["dice"],
        voided.json()["void_reason"],
    )


def test_a_side_advances_the_table_turn_by_one_logged_and_cannot_jump_ahead_to_a_secret_strike(
    clients, battle, company
):
    """§13: without the KP ledger the participants advance the table turn with a logged "table turn N
    begins"; a jump ahead would show a secret fire-support delay before the strike arrives (§8.2, §8.5.9)."""
    url = f"{A}/{at(battle)}/table-turn/"
    jump = clients["player"].post(url, {"table_turn": 99}, format="json")
    assert jump.status_code == 409 and jump.json()["errors"][0]["code"] == "table_turn_not_next"
    assert models.Battle.objects.get(pk=battle.pk).table_turn == 0
    step = clients["player"].post(url, {"table_turn": 1}, format="json").json()
    assert step["table_turn"] == 1 and [(t["table_turn"], t["by"]) for t in step["log"]] == [(1, "player")]
    assert clients["gm"].post(url, {"table_turn": 0}, format="json").json()["table_turn"] == 0, "a correction"
