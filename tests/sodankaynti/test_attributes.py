"""A nation's attributes (SODANKAYNTI.md §5) are declared in the system's registry entry, with ranges, and
judged by it wherever they enter: the scenario import, the GM's form and the turn. A rating past its range
used to import and then stop every later turn."""

from __future__ import annotations

import copy

import pytest
import yaml

from campaign.scenario import ScenarioError, scenario_parse
from rules.engine.systems import system_get
from rules.sodankaynti.forms import RatingsForm
from tests.conftest import DEMO

SAMPO = DEMO.with_name("sodankaynti.yaml")


def _scenario(path, **attributes):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data["nations"][0]["attributes"] = attributes
    return data


def _problems(data) -> list[str]:
    with pytest.raises(ScenarioError) as refused:
        scenario_parse(data)
    return [str(p) for p in refused.value.problems]


def test_the_registry_entry_declares_the_ratings_with_their_range() -> None:
    system = system_get("sodankaynti")

    ratings = {a.key: (a.minimum, a.maximum, a.default) for a in system.nation_attributes}
    assert ratings == {"politics": (0, 100, 3), "tactics": (0, 100, 3)}
    assert all(str(system.attribute_help(a)) == a.help for a in system.nation_attributes)


@pytest.mark.parametrize(
    ("attributes", "said"),
    [
        ({"politics": 10**12}, "attributes.politics: must be at most 100, got 1000000000000"),
        ({"tactics": -5}, "attributes.tactics: must be at least 0, got -5"),
        ({"luck": 3}, "attributes.luck: unknown attribute"),
        ({"doctrine": "wild"}, "attributes.doctrine."),
    ],
)
def test_the_import_refuses_an_attribute_out_of_its_range_naming_it(attributes, said) -> None:
    [problem] = _problems(_scenario(SAMPO, **attributes))

    assert problem.startswith("nations[0] (POH).") and said in problem


def test_an_iron_fist_nation_takes_no_attributes() -> None:
    [problem] = _problems(_scenario(DEMO, doctrine="bold\x00"))

    assert "the iron_fist battle system takes no nation attributes" in problem


def test_the_sampo_war_imports_with_its_ratings() -> None:
    assert scenario_parse(_scenario(SAMPO, politics=4, tactics=100, doctrine="steady")).nations[0].attributes


def test_the_gm_form_offers_the_declared_range(sampo) -> None:
    form = RatingsForm(
        {"nation": "POH", "politics": "101", "tactics": "3", "doctrine": "steady"},
        nations=[("POH", "POH Pohjola")],
        ruleset=sampo.ruleset(),
    )

    assert not form.is_valid() and "politics" in form.errors
    assert form.fields["tactics"].max_value == 100 and form.fields["tactics"].help_text
