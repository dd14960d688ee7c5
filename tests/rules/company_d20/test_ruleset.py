"""The company_d20 ruleset (COMPANY.md §12): defaults from defaults.yaml, overrides key by key, errors naming
the key."""

from __future__ import annotations

import pytest

from rules.engine.company_d20 import company_ruleset_build
from rules.engine.ruleset import RulesetError, ruleset_build
from rules.engine.systems import system_get


def test_the_defaults_are_the_tables_of_the_spec() -> None:
    ruleset = company_ruleset_build()

    jr = ruleset.catalogue["JR"]
    assert (jr.stats["tk_max"], jr.stats["k"], jr.ti, jr.price) == (10, 1, "1d6", 15)  # ¶61, ¶2
    assert sorted(ruleset.catalogue) == ["JOJO", "JR", "KK", "KOMP", "KRH", "MOT", "PST", "SISSI"]
    assert ruleset.catalogue["KOMP"].role == "company_commander"
    assert ruleset.support["artillery_155"].delay == "1d4+1"
    assert ruleset.abilities["tarkka_tuli"].value == 1
    assert ruleset.get("xp.tt_step") == 10 and ruleset.get("xp.tt_bonus_max") is None
    assert ruleset.get("attack.bands") == {"heavy": 5, "normal": 0, "suppression": -4}


def test_overrides_merge_key_by_key_and_a_gm_may_add_types_and_abilities() -> None:
    ruleset = company_ruleset_build(
        {
            "xp": {"sharing": "earned"},
            "catalogue": {
                "JR": {"price": 16},
                "TST": {
                    "role": None,
                    "tk_max": 4,
                    "m": 0,
                    "k": 0,
                    "l": 10,
                    "s": 9,
                    "h": 0,
                    "ti": "1d4",
                    "price": 5,
                },
            },
            "veteran": {"abilities": {"sitkea": {"effect": "stealth_bonus", "value": 1, "types": ["TST"]}}},
        }
    )

    assert ruleset.get("xp.sharing") == "earned" and ruleset.get("xp.per_vp") == 1
    assert ruleset.catalogue["JR"].price == 16 and ruleset.catalogue["JR"].stats["tk_max"] == 10
    assert ruleset.catalogue["TST"].purchasable is True
    assert ruleset.abilities["sitkea"].types == ("TST",)


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"xp": {"tt_stpe": 5}}, "xp.tt_stpe"),
        ({"colour": "red"}, "colour"),
        ({"xp": {"sharing": "fair"}}, "xp.sharing"),
        ({"xp": {"tt_step": 0}}, "xp.tt_step"),
        ({"company_size": 0}, "company_size"),
        ({"attack": {"bands": {"heavy": 5, "normal": 5, "suppression": -4}}}, "attack.bands"),
        ({"recon": {"levels": {"observed": 1, "known": 2, "suspicion": -4}}}, "recon.levels"),
        (
            {"fire_support": {"types": {"mortar_120": {"scatter": 5}}}},
            "fire_support.types.mortar_120.scatter",
        ),
        (
            {"fire_support": {"types": {"mortar_120": {"callers": ["general"]}}}},
            "fire_support.types.mortar_120.callers",
        ),
        (
            {"veteran": {"abilities": {"x": {"effect": "table_note", "types": ["TANK"]}}}},
            "veteran.abilities.x.types",
        ),
        ({"veteran": {"abilities": {"x": {"effect": "fly"}}}}, "veteran.abilities.x.effect"),
        ({"catalogue": {"JR": {"ti": "1d7"}}}, "catalogue.JR.ti"),
        ({"catalogue": {"JR": {"tk_max": 2.5}}}, "catalogue.JR.tk_max"),
        ({"dice": {"modifiers": {"x": {"value": 1, "applies": ["chess"]}}}}, "dice.modifiers.x.applies"),
        ({"kp": {"actions": {"x": {"kp": 1, "pools": ["army"]}}}}, "kp.actions.x.pools"),
        ({"morale": {"fail_state": {"panic": "retreating"}}}, "morale.fail_state.panic"),
        ({"fire_support": {"compass": ["N", "S", "E", "W", "X"]}}, "fire_support.compass"),
        ({"result": {"wiped_out_defender_loses": "yes"}}, "result.wiped_out_defender_loses"),
    ],
)
def test_a_bad_value_is_refused_naming_its_key(overrides, key) -> None:
    with pytest.raises(RulesetError) as refused:
        company_ruleset_build(overrides)
    assert str(refused.value).startswith(f"{key}:"), refused.value


def test_a_mapping_keyed_by_a_rules_names_takes_any_of_them_in_an_override() -> None:
    """§12 as amended: `morale.fail_state` is keyed by the reasons of `morale.dc`; an override may name any
    of them, not only the default's `motti`; another name is refused naming its key (above)."""
    overrides = {"morale": {"fail_state": {"motti": "retreating", "neighbour_destroyed": "retreating"}}}
    ruleset = company_ruleset_build(overrides)
    assert ruleset.get("morale.fail_state") == {"motti": "retreating", "neighbour_destroyed": "retreating"}


def test_the_campaign_ruleset_builder_selects_company_d20_by_battle_system() -> None:
    ruleset = ruleset_build({"battle_system": "company_d20", "xp": {"per_vp": 2}})

    assert ruleset.battle_system == "company_d20"
    assert ruleset.get("xp.per_vp") == 2
    assert set(ruleset.unit_types) == set(ruleset.catalogue)  # the types a map may hold


def test_company_d20_is_registered_without_a_fight_and_with_its_own_turn() -> None:
    system = system_get("company_d20")

    assert system.fight is None
    assert system.case_check is not None
    assert {"orders_check", "process_turn", "complete_turn"} <= set(system.extra)
