"""The break test's Steadfast in words (TABLETOP.md B8): one sentence for each steadfast_reason."""

from __future__ import annotations

from rules.engine.tabletop import close_combat_round, steadfast_message
from rules.engine.tabletop.close_combat_settings import close_combat_settings_build


def _said(units_red, units_blue, **settings) -> list[str]:
    data = {"sides": [{"name": "RED", "units": units_red}, {"name": "BLUE", "units": units_blue}]}
    outcome = close_combat_round(data, close_combat_settings_build(settings), roll=False)
    assert outcome.output is not None, [str(e) for e in outcome.errors]
    out = outcome.output
    names = {unit["id"]: unit["name"] for unit in out["units"]}
    return [str(steadfast_message(test, names)) for test in out["break_tests"]]


def test_it_says_why_each_unit_is_steadfast_or_not() -> None:
    red = [
        {"id": "w", "name": "Warband", "wounds": 9, "full_ranks": 3},
        {"id": "e", "name": "Elite", "full_ranks": 3},
        {"id": "c", "name": "Cavalry", "full_ranks": 2, "rear_of": ["deep"]},
    ]
    blue = [
        {"id": "deep", "name": "Blocks", "full_ranks": 4, "discipline": 7},
        {"id": "wide", "name": "Spears", "full_ranks": 4, "discipline": 7},
        {"id": "thin", "name": "Guard", "full_ranks": 3, "discipline": 7},
    ]

    assert _said(red, blue) == [
        "Steadfast lost: Cavalry (2 full ranks) fights it in the rear.",
        "Steadfast: 4 full ranks, more than any enemy unit (most: Warband, Elite, 3).",
        "Not Steadfast: 3 full ranks, not more than Warband's 3.",
    ]
    assert (
        _said(red[:2], blue[1:], steadfast=False)
        == ["Not Steadfast: this campaign plays without Steadfast."] * 2
    )


def test_it_says_when_no_enemy_unit_is_left_fighting() -> None:
    red = [{"id": "gone", "state": "destroyed", "wounds": 5}]
    blue = [{"id": "a", "full_ranks": 2, "discipline": 7}, {"id": "b", "discipline": 7}]

    assert _said(red, blue) == [
        "Steadfast: 2 full ranks, and no enemy unit is still fighting.",
        "Not Steadfast: no full ranks.",
    ]
