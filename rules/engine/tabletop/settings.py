"""The tabletop ruleset (TABLETOP.md Part C): Iron Fist's keys plus the `tabletop` block.

Iron Fist's settings keep their meaning: support ranges and support losses always, the rest for
auto-resolution (A8.4). The `tabletop` block merges key by key over its defaults; an unknown key or a value of
the wrong kind raises `RulesetError` naming the key. Its scalar settings are checked through their
declarations (`SETTINGS`, the registry entry's), `sheet_points` here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from ..iron_fist.ruleset import SETTINGS as IRON_FIST_SETTINGS
from ..iron_fist.ruleset import IronFistRuleset, iron_fist_ruleset_build
from ..messages import gettext_noop
from ..ruleset import RulesetError, check_int
from ..settings import choice, flag, settings_check, settings_declare, text, whole
from .close_combat_settings import SETTINGS as CLOSE_COMBAT_SETTINGS
from .close_combat_settings import CloseCombatSettings, close_combat_settings_build

PREFIX = "tabletop."
DECISIVE_TEXT = "Decisive: the enemy army was destroyed or routed from the field, or conceded the battle."


@dataclass(frozen=True)
class SheetPoints:
    """Suggested table points (A5.3): per unit type, the larger side's points, the rounding step."""

    per_unit: Mapping[str, int]
    larger_side_points: int
    step: int = 50


@dataclass(frozen=True)
class TabletopSettings:
    """The `tabletop` block as a campaign plays it; the defaults are Part C's, and `SETTINGS` takes its
    defaults from them."""

    conquest_needs_decisive: bool = True
    decisive_text: str = DECISIVE_TEXT
    sheet_notes_text: str = ""
    sheet_points: SheetPoints | None = None
    result_entry: str = "players_then_gm"
    gm_confirms_agreed: bool = True
    players_may_enter_after_deadline: bool = True
    result_deadline_hours: int = 168
    reminder_hours_before: int = 24
    on_missing_result: str = "gm_decides"
    control_battles: str = "table"
    complete_automatically: bool = True
    carry_results_on_rollback: bool = True
    close_combat: CloseCombatSettings = field(default_factory=CloseCombatSettings)


DEFAULTS = TabletopSettings()
DEFAULT_BLOCK = asdict(DEFAULTS)  # the block as ruleset data, over which a campaign's overrides merge

# The scalar settings of the `tabletop` block (sheet_points, a table, and close_combat, the calculator's
# block, are read below). The minima are the code's (a deadline at least an hour away); the maxima are
# ours, as TABLETOP.md names none: a year of hours, so that no deadline a GM can save overflows a date, and
# texts of at most 2000 characters (a dispute's comment's limit, A6.2), so that a sheet still fits its page
# (A5.4).
BLOCK_SETTINGS = settings_declare(
    {"tabletop": DEFAULT_BLOCK},
    flag(
        PREFIX + "conquest_needs_decisive",
        gettext_noop(
            "An entered win passes the conquest threshold only when it is decisive; off: every entered win "
            "does."
        ),
        section="A7.0",
    ),
    text(
        PREFIX + "decisive_text",
        gettext_noop("What a decisive win is, printed on every battle sheet and beside the result form."),
        2000,
        section="A5.1",
    ),
    text(
        PREFIX + "sheet_notes_text",
        gettext_noop("The club's scenario notes, printed with the place on every battle sheet."),
        2000,
        section="A5.1",
    ),
    choice(
        PREFIX + "result_entry",
        gettext_noop(
            "Who enters battle results: the players, agreed by every nation of the battle, then the GM; or "
            "the GM only."
        ),
        ("players_then_gm", "gm_only"),
        section="A6.2",
    ),
    flag(
        PREFIX + "gm_confirms_agreed",
        gettext_noop(
            "A result every nation of the battle agreed to waits for the GM's confirmation; off: the "
            "agreement confirms it."
        ),
        section="A6.2",
    ),
    flag(
        PREFIX + "players_may_enter_after_deadline",
        gettext_noop(
            "Players may still enter, agree to and dispute results after the deadline, until the GM acts."
        ),
        section="A6.2",
    ),
    whole(
        PREFIX + "result_deadline_hours",
        gettext_noop("Hours from the moment a battle opens to the deadline for its result."),
        1,
        8760,
        section="A8.1",
    ),
    whole(
        PREFIX + "reminder_hours_before",
        gettext_noop(
            "Hours before a battle's deadline that its players are reminded while it has no confirmed result."
        ),
        0,
        8760,
        section="A8.1",
    ),
    choice(
        PREFIX + "on_missing_result",
        gettext_noop(
            "What happens at the deadline to a battle without a confirmed result: the GM decides, or it is "
            "auto-resolved."
        ),
        ("gm_decides", "auto_resolve"),
        section="A8",
    ),
    choice(
        PREFIX + "control_battles",
        gettext_noop(
            "Whether the battles for control of a jointly conquered region are fought at the table or "
            "auto-resolved."
        ),
        ("table", "auto"),
        section="A7.3",
    ),
    flag(
        PREFIX + "complete_automatically",
        gettext_noop(
            "The turn completes once its last battle has a result; off: the GM previews it and completes it."
        ),
        section="A9.4",
    ),
    flag(
        PREFIX + "carry_results_on_rollback",
        gettext_noop(
            "After a rollback to orders, a battle fought again with the same forces gets its confirmed "
            "result back."
        ),
        section="A10.4",
    ),
)
# The registry entry's: Iron Fist's settings, then the block's, then the close-combat calculator's.
SETTINGS = IRON_FIST_SETTINGS + BLOCK_SETTINGS + CLOSE_COMBAT_SETTINGS


@dataclass(frozen=True, kw_only=True)
class TabletopRuleset(IronFistRuleset):
    tabletop: TabletopSettings


def tabletop_ruleset_build(overrides: Mapping[str, Any]) -> TabletopRuleset:
    """Iron Fist's ruleset from every key but `tabletop`, and the `tabletop` block checked key by key."""
    block = overrides.get("tabletop")
    base = iron_fist_ruleset_build({k: v for k, v in overrides.items() if k != "tabletop"})
    values = {f.name: getattr(base, f.name) for f in fields(base)}
    values["battle_system"] = "tabletop"
    return TabletopRuleset(**values, tabletop=tabletop_settings_build(block, base))


def tabletop_settings_build(block: Any, base: IronFistRuleset) -> TabletopSettings:
    if block is None:
        return DEFAULTS
    if not isinstance(block, Mapping):
        raise RulesetError(f"tabletop: expected a mapping of settings, got {block!r}")
    unknown = next((str(key) for key in block if key not in DEFAULT_BLOCK), None)
    if unknown is not None:
        raise RulesetError(f"{PREFIX}{unknown}: not a setting")
    value = settings_check({"tabletop": {**DEFAULT_BLOCK, **block}}, BLOCK_SETTINGS)
    return TabletopSettings(
        **{key.removeprefix(PREFIX): checked for key, checked in value.items()},
        sheet_points=_sheet_points(block.get("sheet_points"), base),
        close_combat=close_combat_settings_build(block.get("close_combat")),
    )


def _sheet_points(value: Any, base: IronFistRuleset) -> SheetPoints | None:
    name = PREFIX + "sheet_points"
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise RulesetError(f"{name}: expected null or {{per_unit, larger_side_points, step}}, got {value!r}")
    unknown = sorted(set(map(str, value)) - {"per_unit", "larger_side_points", "step"})
    if unknown:
        raise RulesetError(f"{name}.{unknown[0]}: not a setting")
    per_unit = value.get("per_unit") or {}
    if not isinstance(per_unit, Mapping):
        raise RulesetError(f"{name}.per_unit: expected a mapping of unit type to points, got {per_unit!r}")
    for code in per_unit:
        if code not in base.unit_types:
            raise RulesetError(f"{name}.per_unit.{code}: not a unit type of the ruleset")
        check_int(per_unit, code, minimum=0, where=f"{name}.per_unit.")
    value = {"step": SheetPoints.step, **value}  # A5.3: the default step
    return SheetPoints(
        per_unit=dict(per_unit),
        larger_side_points=check_int(value, "larger_side_points", minimum=1, where=f"{name}."),
        step=check_int(value, "step", minimum=1, where=f"{name}."),
    )
