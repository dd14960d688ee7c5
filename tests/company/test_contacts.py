"""Recon as the fog of war (COMPANY.md §10): a nation sees another's units only through its own valid
snapshots, each unit at its own level and never more; the target is not told; the GM sees every nation's."""

from __future__ import annotations

from rules.company import models

A = "/api/campaigns/demo"
OBSERVED = {"id", "name", "type", "tk", "tk_max", "damaged", "tt", "abilities"}


def test_the_scout_sees_each_unit_at_its_level_only(clients, battle, company):
    [snapshot] = models.ReconSnapshot.objects.filter(viewer="NOR", region="M1")
    contacts = clients["player"].get(f"{A}/contacts/").json()
    assert set(contacts) == {"M1"}
    seen = contacts["M1"]
    levels = snapshot.levels
    observed = sorted(int(u) for u, level in levels.items() if level == "observed")
    assert [c["id"] for c in seen["observed"]] == observed
    assert all(set(c) == OBSERVED for c in seen["observed"])
    assert seen["known"] == sorted(
        ({"type": snapshot.units[u]["type"]} for u, level in levels.items() if level == "known"),
        key=lambda c: c["type"],
    ), "a known unit shows its type and nothing else"
    assert seen["suspected"] == ("suspicion" in levels.values())
    assert (seen["seen_turn"], seen["valid_through_turn"]) == (1, 2)


def test_the_scouted_nation_is_not_told_and_an_outsider_sees_nothing(clients, battle):
    assert clients["rival"].get(f"{A}/contacts/").json() == {}
    assert clients["outsider"].get(f"{A}/contacts/").status_code == 404
    assert clients["anonymous"].get(f"{A}/contacts/").status_code == 401


def test_the_gm_sees_every_nations_contacts(clients, battle):
    every = clients["gm"].get(f"{A}/contacts/").json()
    assert every["NOR"] == clients["player"].get(f"{A}/contacts/").json()
    assert every["EST"] == {}


def test_a_roster_beyond_the_contact_is_a_404_not_a_hint(clients, battle, company):
    for url in ("roster", "events", "orders", "buy"):
        response = clients["player"].get(f"{A}/companies/EST/{url}/")
        assert response.status_code in (404, 405) and "Chef" not in response.content.decode()
    assert clients["player"].get(f"{A}/companies/ZZZ/roster/").status_code == 404


def test_the_map_has_every_region_with_the_viewers_contacts_or_null(clients, battle, company):
    player = {r["id"]: r for r in clients["player"].get(f"{A}/map/").json()}
    rival = {r["id"]: r for r in clients["rival"].get(f"{A}/map/").json()}
    assert set(player) == set(rival) and len(player) == company.campaign.regions.count()
    assert player["M1"]["contacts"] == clients["player"].get(f"{A}/contacts/").json()["M1"]
    assert player["M1"]["owner"] == "EST" and player["M1"]["terrain"] == "rough"
    assert all(r["contacts"] is None for code, r in player.items() if code != "M1")
    assert all(r["contacts"] is None for r in rival.values()), "EST scouted nothing: it sees no NOR unit"
    assert "units" not in player["N5"] and "Päällikkö" not in str(rival)
    gm = {r["id"]: r for r in clients["gm"].get(f"{A}/map/").json()}
    assert {u["name"] for u in gm["M1"]["units"]} >= {"Chef", "Gruppe 1", "MG"}


def test_recon_is_shared_with_allies_only_with_share_with_allies(clients, battle, company, karelian, nations):
    """§10.3: recon knowledge is not shared with allies (`recon.share_with_allies: false`); with true, an
    ally's valid snapshots show on the viewer's map as its own would."""
    from campaign.models import Campaign, Relation
    from tests.api.conftest import client_for

    a, b = sorted((nations["NOR"], nations["KAR"]), key=lambda n: n.pk)
    Relation.objects.update_or_create(nation_a=a, nation_b=b, defaults={"kind": "alliance"})
    ally = client_for(karelian)
    assert ally.get(f"{A}/contacts/").json() == {}, "not shared by default"
    overrides = {**company.campaign.ruleset_overrides, "recon": {"share_with_allies": True}}
    Campaign.objects.filter(pk=company.campaign.pk).update(ruleset_overrides=overrides)
    shared = ally.get(f"{A}/contacts/").json()
    assert shared["M1"] == clients["player"].get(f"{A}/contacts/").json()["M1"]
    assert (
        client_for(company.campaign.memberships.get(user__username="rival").user).get(f"{A}/contacts/").json()
        == {}
    ), "EST is no ally of NOR"
