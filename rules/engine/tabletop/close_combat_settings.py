"""The close-combat calculator's settings: `ruleset.tabletop.close_combat` (TABLETOP.md Part C).

`close_combat_settings_build(overrides)` merges a campaign's overrides key by key into the defaults and checks
every value; an unknown key or a value of the wrong kind raises `RulesetError` naming the key. The scalar
settings are checked through their declarations (`SETTINGS`), the lists of terms and `discipline_range` here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from rules.engine.messages import gettext_noop
from rules.engine.ruleset import RulesetError, check_int
from rules.engine.settings import Setting, choice, flag, settings_check, settings_declare, whole

PREFIX = "tabletop.close_combat."
# The terms a destroyed or cleared_contacts unit may still give (B3); flank and rear never: they count only
# between two engaged units.
UNIT_TERMS = ("wounds", "overkill", "charge", "ranks", "standards", "battle_standard")


@dataclass(frozen=True)
class CloseCombatSettings:
    """The settings a round is counted with; the defaults are Part C's, and `SETTINGS` takes its defaults
    from them."""

    overkill_cap: int = 3
    charge_bonus: int = 1
    rank_bonus_per_rank: int = 1
    rank_bonus_cap: int = 3
    rank_bonus_counts: str = "full_ranks"
    standard_bonus: int = 1
    battle_standard_bonus: int = 1
    battle_standard_counts: str = "once_per_side"
    flank_bonus: int = 1
    flank_bonus_with_full_rank: int = 2
    rear_bonus: int = 2
    rear_bonus_with_full_rank: int = 3
    full_ranks_for_flank_rear_extra: int = 1
    flank_and_rear_count: str = "engaged"
    steadfast: bool = True
    disrupting_full_ranks: int = 2
    destroyed_unit_counts: tuple[str, ...] = ("wounds", "overkill")
    cleared_unit_counts: tuple[str, ...] = ("wounds", "overkill")
    discipline_dice: int = 2
    discipline_range: tuple[int, int] = (0, 10)
    full_rank_models: int = 5

    def counts(self, state: str) -> frozenset[str]:
        """The terms a unit in `state` contributes to its side's result (B3)."""
        if state == "destroyed":
            return frozenset(self.destroyed_unit_counts)
        if state == "cleared_contacts":
            return frozenset(self.cleared_unit_counts)
        return frozenset(UNIT_TERMS)

    def to_dict(self) -> dict[str, Any]:
        """JSON: the settings a round used, stored with its output (B8)."""
        data = asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}


DEFAULTS = CloseCombatSettings()
DEFAULT_BLOCK = asdict(DEFAULTS)  # the block as ruleset data, over which a campaign's overrides merge


def _number(name: str, help: str, section: str, minimum: int = 0) -> Setting:
    return whole(PREFIX + name, help, minimum, 100, section=section)


# The scalar settings; the lists (destroyed_unit_counts, cleared_unit_counts, discipline_range) are checked
# below. Part C gives the minima (0, or 1 for discipline_dice and full_rank_models); the maxima are ours, as
# TABLETOP.md names none: 100 is far above any table's bonus, rank or dice count (T9A's largest is 5), and
# low enough that no round has to roll or count without end.
SETTINGS = settings_declare(
    {"tabletop": {"close_combat": DEFAULT_BLOCK}},
    _number(
        "overkill_cap",
        gettext_noop("The most combat-result points a side gains in a round from overkill wounds."),
        "B3.2",
    ),
    _number(
        "charge_bonus",
        gettext_noop("Combat-result points of a side with at least one unit that charged this round."),
        "B3.3",
    ),
    _number(
        "rank_bonus_per_rank",
        gettext_noop("Combat-result points for each rank after the first of the side's best unit."),
        "B3.4",
    ),
    _number(
        "rank_bonus_cap",
        gettext_noop("The most combat-result points a side gains from ranks."),
        "B3.4",
    ),
    choice(
        PREFIX + "rank_bonus_counts",
        gettext_noop("Which ranks give the rank bonus: full ranks only, or every rank as the source reads."),
        ("full_ranks", "ranks"),
        section="B3.4",
    ),
    _number(
        "standard_bonus",
        gettext_noop("Combat-result points for each standard on the side."),
        "B3.5",
    ),
    _number(
        "battle_standard_bonus",
        gettext_noop("Combat-result points of a side with the army battle standard."),
        "B3.6",
    ),
    choice(
        PREFIX + "battle_standard_counts",
        gettext_noop(
            "Whether the battle standard bonus counts once per side, or for each bearer (allied armies on "
            "one side)."
        ),
        ("once_per_side", "per_bearer"),
        section="B3.6",
    ),
    _number(
        "flank_bonus",
        gettext_noop("Combat-result points of a side with a unit fighting an enemy unit's flank."),
        "B3.7",
    ),
    _number(
        "flank_bonus_with_full_rank",
        gettext_noop("The flank bonus instead when a unit fighting in the flank has enough full ranks."),
        "B3.7",
    ),
    _number(
        "rear_bonus",
        gettext_noop("Combat-result points of a side with a unit fighting an enemy unit's rear."),
        "B3.8",
    ),
    _number(
        "rear_bonus_with_full_rank",
        gettext_noop("The rear bonus instead when a unit fighting in the rear has enough full ranks."),
        "B3.8",
    ),
    _number(
        "full_ranks_for_flank_rear_extra",
        gettext_noop("Full ranks a unit in an enemy's flank or rear needs for the larger bonus."),
        "B3.7",
    ),
    choice(
        PREFIX + "flank_and_rear_count",
        gettext_noop(
            "Whether a unit counts as fighting in a flank or rear whenever it is engaged, or only when it "
            "charged this round."
        ),
        ("engaged", "charged_this_round"),
        section="B3.7",
    ),
    flag(
        PREFIX + "steadfast",
        gettext_noop(
            "A unit with more full ranks than any engaged enemy unit is Steadfast: its break test ignores "
            "the difference in combat results."
        ),
        section="B5.2",
    ),
    _number(
        "disrupting_full_ranks",
        gettext_noop("Full ranks an enemy unit in a unit's flank or rear needs to take away its Steadfast."),
        "B5.3",
    ),
    _number(
        "discipline_dice",
        gettext_noop("How many d6 a break test rolls against the unit's Discipline."),
        "B5.4",
        minimum=1,
    ),
    _number(
        "full_rank_models",
        gettext_noop("Models a rank needs to be a full rank."),
        "B2.3",
        minimum=1,
    ),
)


def close_combat_settings_build(overrides: Mapping[str, Any] | None = None) -> CloseCombatSettings:
    """The defaults with `overrides` (the `tabletop.close_combat` block) merged in, every value checked."""
    if overrides is None:
        return DEFAULTS
    if not isinstance(overrides, Mapping):
        raise RulesetError(f"{PREFIX[:-1]}: expected a mapping of settings")
    unknown = next((str(key) for key in overrides if key not in DEFAULT_BLOCK), None)
    if unknown is not None:
        raise RulesetError(f"{PREFIX}{unknown}: not a setting")
    block = {**DEFAULT_BLOCK, **overrides}
    value = settings_check({"tabletop": {"close_combat": block}}, SETTINGS)
    return CloseCombatSettings(
        **{key.removeprefix(PREFIX): checked for key, checked in value.items()},
        destroyed_unit_counts=_terms("destroyed_unit_counts", block["destroyed_unit_counts"]),
        cleared_unit_counts=_terms("cleared_unit_counts", block["cleared_unit_counts"]),
        discipline_range=_discipline_range(block["discipline_range"]),
    )


def _terms(key: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or any(t not in UNIT_TERMS for t in value):
        raise RulesetError(
            f"{PREFIX}{key}: expected a list of terms from {', '.join(UNIT_TERMS)}, got {value!r}"
        )
    return tuple(dict.fromkeys(value))


def _discipline_range(value: Any) -> tuple[int, int]:
    name = PREFIX + "discipline_range"
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise RulesetError(f"{name}: expected [lowest, highest], got {value!r}")
    low, high = (check_int({name: v}, name) for v in value)
    if low > high:
        raise RulesetError(f"{name}: the lowest is above the highest, got {value!r}")
    return (low, high)
