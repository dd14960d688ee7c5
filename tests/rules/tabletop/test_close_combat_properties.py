"""Invariants of the close-combat calculator (TABLETOP.md Part B) on random rounds."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine.messages import CATALOGUE
from rules.engine.ruleset import RulesetError
from rules.engine.tabletop.close_combat import TERMS, close_combat_round
from rules.engine.tabletop.close_combat_errors import MESSAGE_PREFIX, TEMPLATES
from rules.engine.tabletop.close_combat_input import repeats
from rules.engine.tabletop.close_combat_settings import close_combat_settings_build
from tests.conftest import examples
from tests.rules.property_settings import property_settings

from .strategies import damaged_rounds, json_values, valid_rounds

FAST = property_settings(examples(100))
SPEC_CODES = set(TEMPLATES) - {"not_whole_number_discipline"}


def _output(data: Any, **kwargs: Any) -> dict[str, Any]:
    outcome = close_combat_round(data, **kwargs)
    assert outcome.output is not None, [str(e) for e in outcome.errors]
    return outcome.output


def _swapped(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "sides": list(reversed(data["sides"]))}


@FAST
@given(valid_rounds())
def test_the_result_does_not_depend_on_which_side_is_listed_first(data: dict[str, Any]) -> None:
    out, swapped = _output(data), _output(_swapped(data))

    assert out["sides"] == list(reversed(swapped["sides"]))
    assert sorted(out["result"]["winners"]) == sorted(swapped["result"]["winners"])
    assert out["result"]["losers"] == swapped["result"]["losers"]
    assert out["result"]["difference"] == swapped["result"]["difference"]
    assert out["break_tests"] == swapped["break_tests"]
    assert out["no_test"] == swapped["no_test"]
    assert out["dice"] == swapped["dice"]
    assert sorted(map(str, out["ignored_relations"])) == sorted(map(str, swapped["ignored_relations"]))


@FAST
@given(valid_rounds())
def test_totals_are_the_sum_of_the_terms_and_the_higher_total_wins(data: dict[str, Any]) -> None:
    out = _output(data)

    totals = [side["total"] for side in out["sides"]]
    for side in out["sides"]:
        assert set(side["terms"]) == set(TERMS)
        assert side["total"] == sum(side["terms"].values())
        assert 0 <= side["terms"]["overkill"] <= 3 and 0 <= side["terms"]["ranks"] <= 3
    assert out["result"]["difference"] == abs(totals[0] - totals[1])
    assert out["result"]["tie"] == (totals[0] == totals[1])
    if out["result"]["tie"]:
        assert out["result"]["winners"] == ["RED", "BLUE"] and out["break_tests"] == [] and not out["no_test"]
    else:
        assert out["result"]["winners"] == [("RED", "BLUE")[totals[1] > totals[0]]]


@FAST
@given(valid_rounds())
def test_every_losing_unit_tests_once_or_says_why_not(data: dict[str, Any]) -> None:
    out = _output(data)

    if out["result"]["losers"]:
        (loser,) = out["result"]["losers"]
        losing = [u["id"] for u in out["units"] if u["side"] == loser]
        assert sorted([t["unit"] for t in out["break_tests"]] + list(out["no_test"])) == sorted(losing)
        states = {u["id"]: u["state"] for u in out["units"]}
        assert all(states[t["unit"]] == "engaged" for t in out["break_tests"])
        assert all(states[uid] == why for uid, why in out["no_test"].items())


@FAST
@given(valid_rounds())
def test_a_steadfast_unit_never_takes_the_modified_test(data: dict[str, Any]) -> None:
    out = _output(data)

    for test in out["break_tests"]:
        assert test["steadfast"] == (
            test["full_ranks"] > test["most_enemy_full_ranks"] and not test["disrupted_by"]
        )
        if test["steadfast"]:
            assert test["modifier"] == 0 and test["target"] == test["discipline"]
        else:
            assert test["modifier"] == -out["result"]["difference"]
        assert test["target"] == max(0, test["discipline"] + test["modifier"])
        assert test["result"] == (
            "holds" if (test["reroll"] or test)["total"] <= test["target"] else "broken"
        )
        assert test["reroll"] is None or test["total"] > test["target"]


@FAST
@given(valid_rounds())
def test_the_same_seed_gives_the_same_dice_and_entering_them_replays_the_round(data: dict[str, Any]) -> None:
    first, again = _output(data), _output(copy.deepcopy(data))
    replay = _output({**data, "dice": {"rolls": first["dice"]["used"]}})

    assert first == again
    assert replay["break_tests"] == first["break_tests"]
    assert replay["dice"] == {"mode": "entered", "seed": None, "used": first["dice"]["used"]}
    per_test = [
        len(t["dice"]) + (len(t["reroll"]["dice"]) if t["reroll"] else 0) for t in first["break_tests"]
    ]
    assert all(1 <= die <= 6 for die in first["dice"]["used"]) and len(first["dice"]["used"]) == sum(per_test)


@FAST
@given(valid_rounds(), st.data())
def test_the_break_test_order_decides_only_which_dice_each_unit_gets(data: dict[str, Any], draw: Any) -> None:
    out = _output(data)
    if not out["result"]["losers"]:
        return
    losing = [u["id"] for u in out["units"] if u["side"] == out["result"]["losers"][0]]
    order = draw.draw(st.permutations(losing))
    reordered = _output({**data, "break_test_order": order, "dice": {"rolls": out["dice"]["used"]}})

    assert [t["unit"] for t in reordered["break_tests"]] == [u for u in order if u not in out["no_test"]]
    without_dice = {"dice", "total", "reroll", "result"}
    strip = [{k: v for k, v in t.items() if k not in without_dice} for t in out["break_tests"]]
    assert sorted(map(str, strip)) == sorted(
        str({k: v for k, v in t.items() if k not in without_dice}) for t in reordered["break_tests"]
    )


@FAST
@given(valid_rounds())
def test_the_preview_shows_everything_but_the_dice(data: dict[str, Any]) -> None:
    out, preview = _output(data), _output(data, roll=False)

    assert preview["dice"]["used"] == [] and preview["preview"] is True
    for rolled, shown in zip(out["break_tests"], preview["break_tests"], strict=True):
        assert shown == {**rolled, "dice": None, "total": None, "reroll": None, "result": None}
    assert {k: v for k, v in out.items() if k not in ("break_tests", "dice", "preview")} == {
        k: v for k, v in preview.items() if k not in ("break_tests", "dice", "preview")
    }


def _assert_only_spec_errors(data: Any) -> None:
    outcome = close_combat_round(data)
    assert (outcome.output is None) == bool(outcome.errors)
    for error in outcome.errors:
        assert error.code in SPEC_CODES
        CATALOGUE[error.message.code].format(**error.message.params)  # every parameter of the text is given
        assert error.message.code.startswith(MESSAGE_PREFIX)


@FAST
@given(json_values)
def test_arbitrary_input_gives_the_spec_errors_and_never_raises(data: Any) -> None:
    _assert_only_spec_errors(data)
    _assert_only_spec_errors({"sides": [data, data]})
    _assert_only_spec_errors(
        {"sides": [{"name": "A", "units": [data]}, {"name": "B", "units": [{"id": "x"}]}]}
    )


@FAST
@given(damaged_rounds())
def test_a_damaged_round_gives_the_spec_errors_and_never_raises(data: Any) -> None:
    _assert_only_spec_errors(data)


@FAST
@given(valid_rounds(seeded=False), st.lists(st.integers(1, 6), max_size=12))
def test_entered_dice_are_used_up_exactly_or_refused(data: dict[str, Any], rolls: list[int]) -> None:
    outcome = close_combat_round({**data, "dice": {"rolls": rolls}})

    if outcome.output is not None:
        assert outcome.output["dice"]["used"] == rolls
        return
    (error,) = outcome.errors
    if error.code == "dice_unused":
        (left,) = error.params
        assert 1 <= left <= len(rolls)
        assert _output({**data, "dice": {"rolls": rolls[:-left]}})["dice"]["used"] == rolls[:-left]
    else:
        assert error.code == "dice_missing"
        more = close_combat_round({**data, "dice": {"rolls": rolls + [6] * 32}})
        assert [e.code for e in more.errors] == ["dice_unused"]


def test_settings_are_checked_naming_the_key() -> None:
    for overrides, key in (
        ({"overkill_capp": 3}, "overkill_capp"),
        ({"overkill_cap": "3"}, "overkill_cap"),
        ({"steadfast": 1}, "steadfast"),
        ({"rank_bonus_counts": "files"}, "rank_bonus_counts"),
        ({"discipline_range": [5, 2]}, "discipline_range"),
        ({"cleared_unit_counts": ["flank"]}, "cleared_unit_counts"),
        ({"full_rank_models": 0}, "full_rank_models"),
    ):
        with pytest.raises(RulesetError, match=f"tabletop.close_combat.{key}"):
            close_combat_settings_build(overrides)
    assert close_combat_settings_build({"discipline_range": [-1, 12]}).discipline_range == (-1, 12)


@FAST
@given(st.lists(json_values | st.sampled_from(["a", "b", 1, 1.0, True]), max_size=12))
def test_a_repeat_is_an_entry_equal_to_an_earlier_one_as_a_json_value(items: list[Any]) -> None:
    def same(a: Any, b: Any) -> bool:
        return type(a) is type(b) and a == b

    assert repeats(items) == [any(same(item, e) for e in items[:i]) for i, item in enumerate(items)]


# One round where every numeric term counts: RED charges with 3 full ranks, 2 standards and the battle
# standard, Cavalry (2 full ranks) in Blocks' flank and Scouts (1 full rank) in Militia's rear; overkill 5.
RICH = {
    "sides": [
        {
            "name": "RED",
            "units": [
                {"id": "Infantry", "wounds": 3, "full_ranks": 3, "charged": True, "standards": 2},
                {"id": "Cavalry", "wounds": 1, "overkill": 5, "full_ranks": 2, "flank_of": ["Blocks"]},
                {"id": "Scouts", "full_ranks": 1, "battle_standard": True, "rear_of": ["Militia"]},
            ],
        },
        {
            "name": "BLUE",
            "units": [
                {"id": "Blocks", "wounds": 1, "full_ranks": 4, "discipline": 8},
                {"id": "Militia", "full_ranks": 3, "discipline": 7},
            ],
        },
    ],
    "dice": {"rolls": [1, 1, 1, 1]},
}


@pytest.mark.parametrize(
    ("setting", "value", "term", "expected"),
    [
        ("overkill_cap", 4, "overkill", 4),
        ("charge_bonus", 2, "charge", 2),
        ("rank_bonus_per_rank", 2, "ranks", 3),  # min(cap 3, 2 × 2)
        ("rank_bonus_cap", 1, "ranks", 1),
        ("standard_bonus", 2, "standards", 4),
        ("battle_standard_bonus", 3, "battle_standard", 3),
        ("flank_bonus_with_full_rank", 5, "flank", 5),
        ("rear_bonus_with_full_rank", 6, "rear", 6),
        ("full_ranks_for_flank_rear_extra", 3, "flank", 1),  # Cavalry's 2 full ranks no longer enough
        ("full_ranks_for_flank_rear_extra", 3, "rear", 2),
    ],
)
def test_each_bonus_is_the_campaign_s_setting_not_the_default(setting, value, term, expected) -> None:
    """Part C: every number of B3 is a value of the ruleset data; a changed setting changes its term."""
    default = _output(copy.deepcopy(RICH))["sides"][0]["terms"][term]
    changed = _output(copy.deepcopy(RICH), settings=close_combat_settings_build({setting: value}))
    assert changed["sides"][0]["terms"][term] == expected != default


def test_the_plain_flank_and_rear_bonuses_are_settings_too() -> None:
    """B3.7, B3.8: without a full rank the flank and rear bonuses are flank_bonus and rear_bonus."""
    thin = copy.deepcopy(RICH)
    for unit in thin["sides"][0]["units"]:
        unit["full_ranks"] = 0
    settings = close_combat_settings_build({"flank_bonus": 4, "rear_bonus": 7})
    terms = _output(thin, settings=settings)["sides"][0]["terms"]
    assert (terms["flank"], terms["rear"]) == (4, 7)
    assert (_output(thin)["sides"][0]["terms"]["flank"], _output(thin)["sides"][0]["terms"]["rear"]) == (1, 2)


def test_disrupting_full_ranks_is_a_setting() -> None:
    """B5.3: Blocks (4 full ranks) is disrupted by Cavalry's 2 full ranks in its flank by default; with
    disrupting_full_ranks 3 it is not, and is Steadfast."""
    default = {t["unit"]: t for t in _output(copy.deepcopy(RICH))["break_tests"]}
    assert default["Blocks"]["steadfast_reason"] == "disrupted"
    settings = close_combat_settings_build({"disrupting_full_ranks": 3})
    changed = {t["unit"]: t for t in _output(copy.deepcopy(RICH), settings=settings)["break_tests"]}
    assert changed["Blocks"]["steadfast_reason"] == "more_full_ranks"
