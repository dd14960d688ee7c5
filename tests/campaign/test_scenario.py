"""Scenario files: the demo meets the brief; bad files are refused whole, naming the field and entry."""

from __future__ import annotations

import copy

import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError

from campaign import services
from campaign.generate import scenario_generate
from campaign.models import Border, Campaign, Nation, Region, Relation, Stack, Turn, turn_seed
from campaign.scenario import ScenarioError, scenario_parse, scenario_read
from tests.conftest import DEMO

SMALL = {
    "name": "Two valleys",
    "seed": 5,
    "nations": [{"code": "RED", "name": "Red"}, {"code": "BLUE", "name": "Blue"}],
    "regions": [
        {"code": "A", "name": "Alpha", "terrain": "open", "owner": "RED", "home": "RED"},
        {"code": "B", "name": "Beta", "terrain": "rough", "fort": 2, "owner": "BLUE"},
        {"code": "C", "name": "Gamma", "terrain": "city"},
    ],
    "borders": [["A", "B"], ["B", "C"]],
    "relations": [{"nations": ["RED", "BLUE"], "kind": "peace"}],
    "units": {"A": {"RED": {"JV": 3, "TY": 1}}, "B": {"BLUE": {"JV": 2, "IV": 1}}},
}


def problems_of(data) -> list[str]:
    with pytest.raises(ScenarioError) as refused:
        scenario_parse(data)
    return [str(problem) for problem in refused.value.problems]  # in English


def changed(**changes):
    data = copy.deepcopy(SMALL)
    for key, value in changes.items():
        data[key] = value
    return data


def test_it_ships_a_demo_with_every_terrain_forts_homes_artillery_and_air():
    demo = scenario_read(DEMO)
    assert 25 <= len(demo.regions) <= 40
    assert 4 <= len(demo.nations) <= 6
    assert {r.terrain for r in demo.regions} == {"open", "rough", "city"}
    assert any(r.fort for r in demo.regions)
    assert {r.home for r in demo.regions if r.home} == {n.code for n in demo.nations}
    assert {t for _, _, t, _ in demo.units} >= {"TY", "IV"}
    assert all("shape" in r.geometry and "label" in r.geometry for r in demo.regions)


def test_it_imports_a_scenario_whole_with_turn_one_open(db):
    call_command("import_scenario", str(DEMO), campaign="grenzwald")
    campaign = Campaign.objects.get(slug="grenzwald")
    demo = scenario_read(DEMO)
    assert list(campaign.nations.values_list("code", flat=True)) == [n.code for n in demo.nations]
    assert Region.objects.filter(campaign=campaign).count() == len(demo.regions)
    assert Border.objects.filter(region_a__campaign=campaign).count() == len(demo.borders)
    assert Relation.objects.filter(nation_a__campaign=campaign).count() == len(demo.relations)
    assert sorted(
        Stack.objects.filter(region__campaign=campaign).values_list(
            "region__code", "nation__code", "unit_type", "count"
        )
    ) == sorted(demo.units)
    turn = campaign.turns.get()
    assert (turn.number, turn.status) == (1, Turn.Status.OPEN)
    assert turn.seed_value == turn_seed(campaign_seed=1939, number=1)
    assert Region.objects.get(campaign=campaign, code="N2").geometry["label"] == [113.9, 50.0]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (changed(borders=[["A", "B"], ["B", "Q9"]]), "borders[1]: unknown region 'Q9'"),
        (changed(borders=[["A", "B"], ["B", "C"], ["B", "A"]]), "borders[2]: duplicate border B–A"),
        (changed(borders=[["A", "B"]]), "regions (C): no one can reach it"),
        (changed(units={"A": {"RED": {"JV": -2}}}), "units.A.RED.JV: expected a count of 0 or more, got -2"),
        (changed(units={"A": {"RED": {"XX": 1}}}), "units.A.RED.XX: unknown unit type"),
        (changed(units={"B": {"RED": {"JV": 1}}}), "units.B.RED: RED does not own B"),
        (changed(ruleset={"conquest_treshold": 5}), "ruleset: conquest_treshold"),
        (
            changed(relations=[{"nations": ["RED", "GREEN"], "kind": "war"}]),
            "relations[0].nations: unknown nation",
        ),
        (
            changed(nations=[{"code": "RED"}, {"code": "RED"}]),
            "nations[1] (RED).code: duplicate nation code 'RED'",
        ),
    ],
)
def test_it_refuses_a_bad_file_naming_the_field_and_entry(data, expected):
    assert any(p.startswith(expected) for p in problems_of(data)), problems_of(data)


def test_it_refuses_duplicate_region_codes_and_bad_terrain_and_forts_all_at_once():
    regions = copy.deepcopy(SMALL["regions"])
    regions[1]["terrain"] = "swamp"
    regions[2]["fort"] = 4
    regions.append({"code": "A", "name": "Alpha again"})
    problems = problems_of(changed(regions=regions))
    assert "regions[1] (B).terrain: expected one of open, rough, city, got 'swamp'" in problems
    assert "regions[2] (C).fort: expected a whole number from 0 to 3, got 4" in problems
    assert "regions[3] (A).code: duplicate region code 'A'" in problems


def test_it_imports_nothing_from_a_bad_file_and_says_why(db, tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(changed(borders=[["A", "B"], ["B", "Q9"]])))
    with pytest.raises(CommandError, match="borders\\[1\\]: unknown region 'Q9'"):
        call_command("import_scenario", str(path), campaign="bad")
    assert not Campaign.objects.exists()


def test_it_leaves_nothing_half_imported_when_the_database_fails_midway(db, monkeypatch):
    def fail(**kwargs):
        raise RuntimeError("connection lost")

    monkeypatch.setattr(services, "turn_create", fail)
    with pytest.raises(RuntimeError):
        services.scenario_import(scenario=scenario_parse(SMALL), slug="half")
    assert not Campaign.objects.exists()
    assert not Nation.objects.exists()
    assert not Region.objects.exists()
    assert not Stack.objects.exists()


def test_it_refuses_a_slug_that_is_taken(db):
    services.scenario_import(scenario=scenario_parse(SMALL), slug="taken")
    with pytest.raises(services.ScenarioImportError, match="already exists"):
        services.scenario_import(scenario=scenario_parse(SMALL), slug="taken")
    assert Campaign.objects.count() == 1


def test_it_refuses_a_file_that_is_not_yaml(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text("nations: [RED\n")
    with pytest.raises(ScenarioError, match="not valid YAML or JSON"):
        scenario_read(path)


def test_it_generates_large_connected_scenarios_that_pass_the_checks():
    data = scenario_generate(regions=2000, nations=50, seed=3)
    scenario = scenario_parse(data)
    assert len(scenario.regions) == 2000
    assert len(scenario.nations) == 50
    assert all(r.owner for r in scenario.regions)
    assert data == scenario_generate(regions=2000, nations=50, seed=3)


def test_it_writes_a_generated_scenario_that_imports(db, tmp_path):
    path = tmp_path / "big.json"
    call_command("generate_scenario", regions=120, nations=6, seed=1, output=str(path))
    call_command("import_scenario", str(path), campaign="big")
    assert Region.objects.filter(campaign__slug="big").count() == 120


def test_a_company_scenario_with_a_region_id_no_dice_stream_may_use_is_refused(db):
    """COMPANY.md §8.1: a company campaign's region ids may not be `gm` nor contain `|` (`region_id_invalid`),
    so no two dice streams share a string."""
    data = copy.deepcopy(SMALL)
    data["ruleset"] = {"battle_system": "company_d20"}
    data["units"] = {}
    data["regions"][2]["code"] = "gm"
    data["borders"] = [["A", "B"], ["B", "gm"]]
    with pytest.raises(services.ScenarioImportError, match="region id gm"):
        services.scenario_import(scenario=scenario_parse(data), slug="streams")
    assert not Campaign.objects.exists()
    data["ruleset"] = {}  # Iron Fist has no dice streams: the same map is fine
    services.scenario_import(scenario=scenario_parse(data), slug="streams")
