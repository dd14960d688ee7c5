"""The ruleset: IRON_FIST.md's defaults as data, campaign overrides merged key by key, bad values refused."""

from __future__ import annotations

import pytest

from rules.engine import RulesetError, ruleset_build


def test_it_holds_the_defaults_of_iron_fist() -> None:
    ruleset = ruleset_build()

    assert ruleset.conquest_threshold == 10
    assert str(ruleset.kta_die) == "1d6"
    assert ruleset.ground_types == ("JV", "PA", "TY")
    assert ruleset.support_types == ("TY", "IV")
    assert ruleset.ranges == {"TY": 1, "IV": 2}
    assert [ruleset.unit_value("PA", t, "clear") for t in ("open", "rough", "city")] == [4, 2, 2]
    assert ruleset.unit_value("JV", "rough", "clear") == 2
    assert ruleset.unit_value("IV", "open", "storm") == 0
    assert ruleset.unit_value("PA", "rough", "snow") == 0  # 2 - 2, and never below 0
    assert ruleset.unit_value("PA", "open", "rain") == 3
    assert [ruleset.pincer(n) for n in (1, 2, 3, 7)] == [0, 2, 4, 4]
    assert (ruleset.fort_bonus_per_level, ruleset.home_defence_bonus, ruleset.superiority_ratio) == (2, 2, 3)
    assert (ruleset.support_loss_won_or_draw, ruleset.support_loss_lost) == (10, 20)


@pytest.mark.parametrize(
    ("difference", "row"),
    [
        (0, (40, 40)),
        (1, (40, 35)),
        (2, (40, 35)),
        (3, (45, 35)),
        (6, (45, 30)),
        (8, (50, 30)),
        (10, (50, 25)),
        (11, (60, 20)),
        (17, (70, 15)),
        (18, (80, 10)),
        (29, (90, 5)),
        (30, (100, 5)),
        (999, (100, 5)),
    ],
)
def test_it_reads_the_loss_table_of_section_5_1(difference: int, row: tuple[int, int]) -> None:
    found = ruleset_build().loss_row(difference)

    assert (found.loser, found.winner) == row


def test_it_merges_overrides_key_by_key_into_nested_mappings() -> None:
    ruleset = ruleset_build({"unit_values": {"PA": {"open": 5}}, "ranges": {"IV": 3}, "kta_die": "2d6+1"})

    assert ruleset.unit_value("PA", "open", "clear") == 5
    assert ruleset.unit_value("PA", "rough", "clear") == 2  # untouched keys keep their defaults
    assert ruleset.ranges == {"TY": 1, "IV": 3}
    assert (ruleset.kta_die.count, ruleset.kta_die.sides, ruleset.kta_die.constant) == (2, 6, 1)


def test_it_lets_a_campaign_bring_its_own_unit_type() -> None:
    ruleset = ruleset_build(
        {
            "unit_types": {"RV": {"role": "ground", "name": {"en": "cavalry"}}},
            "unit_values": {"RV": {"open": 3, "rough": 1, "city": 1}},
        }
    )

    assert ruleset.ground_types == ("JV", "PA", "TY", "RV")  # in declaration order
    assert ruleset.unit_value("RV", "open", "clear") == 3


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"conquest_treshold": 12}, "conquest_treshold"),
        ({"conquest_threshold": "ten"}, "conquest_threshold"),
        ({"conquest_threshold": -1}, "conquest_threshold"),
        ({"kta_die": "d6"}, "kta_die"),
        ({"unit_values": {"PA": {"open": "four"}}}, "unit_values.PA.open"),
        ({"unit_values": {"XX": 1}}, "unit_values.XX"),
        ({"unit_types": {"JV": {"role": "cavalry"}}}, "unit_types.JV.role"),
        ({"weather_modifiers": {"hail": {}}}, "weather_modifiers.hail"),
        ({"weather_modifiers": {"rain": {"ZZ": -1}}}, "weather_modifiers.rain.ZZ"),
        ({"ranges": {"IV": -1}}, "ranges.IV"),
        ({"ranges": {"JV": 1}}, "ranges.JV"),
        ({"pincer_bonus": {"one": 2}}, "pincer_bonus.one"),
        ({"loss_table": [[0, 0, 40, 40], [2, None, 50, 30]]}, "loss_table[1]"),
        ({"loss_table": [[0, 0, 40, 40], [1, 5, 50, 30]]}, "loss_table"),
        ({"loss_table": [[0, None, 140, 40]]}, "loss_table[0]"),
        ({"support_loss": {"lost": None}}, "support_loss.lost"),
        ({"superiority_ratio": 0}, "superiority_ratio"),
        ("not a mapping", "ruleset"),
    ],
)
def test_it_refuses_a_bad_value_naming_the_key(overrides, named: str) -> None:
    with pytest.raises(RulesetError) as error:
        ruleset_build(overrides)

    assert str(error.value).startswith(named), str(error.value)
