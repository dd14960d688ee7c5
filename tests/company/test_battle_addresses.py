"""A company battle is a row of the one table-battle model (rules.TableBattle): listed with every table
battle at `turns/<n>/battles/`, found at `turns/<n>/battles/<id>/`; its earlier address by its own id moves
there (pages) or answers as it does (API)."""

from __future__ import annotations

from django.test import Client

from rules.models import TableBattle

A = "/api/campaigns/demo"


def _browser(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_company_battle_by_its_own_id_moves_to_its_address(battle, clients, company, gm, player) -> None:
    address = f"/c/demo/turns/{battle.turn.number}/battles/{battle.table_id}/"
    moved = _browser(player).get(f"/c/demo/battles/{battle.pk}/")
    assert (moved.status_code, moved["Location"]) == (301, address)
    moved = _browser(gm).get(f"/c/demo/battles/{battle.pk}/verify/")
    assert (moved.status_code, moved["Location"]) == (301, f"{address}verify/")
    by_id = clients["player"].get(f"{A}/battles/{battle.pk}/")
    at_address = clients["player"].get(f"{A}/turns/{battle.turn.number}/battles/{battle.table_id}/")
    assert by_id.status_code == at_address.status_code == 200 and by_id.json() == at_address.json()
    rolls = clients["player"].get(f"{A}/battles/{battle.pk}/rolls/")
    assert rolls.status_code == 200 and rolls.json() == []
    assert clients["outsider"].get(f"{A}/battles/{battle.pk}/").status_code == 404


def test_the_one_list_has_a_company_campaigns_battles_for_their_sides(battle, clients, player) -> None:
    """A company battle is listed with tabletop's fields, linked at its address; a nation not in it, and a
    battle of a rolled-back turn, are not listed."""
    number = battle.turn.number
    [row] = clients["player"].get(f"{A}/turns/{number}/battles/").json()
    assert (row["id"], row["key"], row["state"], row["nations"]) == (
        battle.table_id,
        "M1",
        "open",
        ["NOR", "EST"],
    )
    assert clients["gm"].get(f"{A}/turns/{number}/battles/").json() == [row]
    page = _browser(player).get(f"/c/demo/turns/{number}/battles/").content.decode()
    assert f'href="/c/demo/turns/{number}/battles/{battle.table_id}/"' in page
    TableBattle.objects.filter(pk=battle.table_id).update(archived=True)
    assert clients["gm"].get(f"{A}/turns/{number}/battles/").json() == []
    assert clients["player"].get(f"{A}/turns/{number}/battles/{battle.table_id}/").status_code == 404


def test_a_battle_of_one_system_is_not_found_through_anothers_routes(battle, clients) -> None:
    """A company battle at its address has no tabletop results route, and a key path is tabletop's only."""
    number = battle.turn.number
    assert clients["gm"].get(f"{A}/turns/{number}/battles/{battle.table_id}/rounds/").status_code == 404
    assert clients["gm"].get(f"{A}/turns/{number}/battles/M1/").status_code == 404
