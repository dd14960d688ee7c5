"""The Sodankäynti ruleset (SODANKAYNTI.md §15): `defaults.yaml` merged with a campaign's overrides.

`ruleset_build(overrides)` merges key by key (nested mappings too; a list or a scalar replaces; a unit type or
doctrine given as null is dropped), checks every value (the scalar ones through their declarations,
`SETTINGS`) and returns a frozen `Ruleset`. A bad value raises `RulesetError` naming the key, so a GM's slip
never reaches a turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..messages import gettext_noop
from ..ruleset import Ruleset as BaseRuleset
from ..ruleset import RulesetError, check_int, check_mapping, check_unknown_keys, defaults_read, ruleset_merge
from ..ruleset import UnitType as BaseUnitType
from ..settings import choice, flag, settings_check, settings_declare, text, whole

DEFAULTS_FILE = Path(__file__).with_name("defaults.yaml")
DIE = re.compile(r"^(\d*)d(\d+)$")
ORDER_KINDS = ("hold", "move", "rebase", "attack")
SACRIFICE_MODES = ("first", "when_needed", "last", "never")
PRIORITIES = ("value", "count")
# §3.2 names no largest die: the maxima are ours, far above the spec's (2d4 machines, a d20 archangel), low
# enough that a unit's dice stay few (each is a die on the board, acting and attacked on its own) and a side's
# dice show few distinct values (§10.5 finds the best attack from the pairs of them).
DICE_MAX = 10  # dice of one unit (NdM)
DIE_SIZE_MAX = 100  # sides of a die: unit types, sacrifice_max_die, removal_order, safe_dice
ADVANTAGE_MAX = 100  # tactics dice of a fort level or a terrain, as of every other advantage (§6.4)
FORT_LEVEL_MAX = 100
NAME_MAX = 100  # a doctrine's name (as `default_doctrine`'s), a terrain key
DOCTRINE_PARAMS = (
    "retreat_below",
    "retreat_when_helpless",
    "sacrifice",
    "sacrifice_max_die",
    "attack_priority",
)


@dataclass(frozen=True)
class UnitType(BaseUnitType):
    dice: int = 1  # dice on the board per unit (2 for a 2d4 war machine)
    size: int = 6  # sides of each die

    @property
    def die(self) -> str:
        return f"{self.dice}d{self.size}" if self.dice > 1 else f"d{self.size}"


@dataclass(frozen=True)
class Doctrine:
    """A side's standing instructions (§10.1), with where they came from (the report's `from`)."""

    name: str
    retreat_below: int | None
    retreat_when_helpless: bool
    sacrifice: str
    sacrifice_max_die: int
    attack_priority: str
    source: str = "ruleset default"

    def report(self) -> dict[str, Any]:
        return {"name": self.name, "from": self.source} | {p: getattr(self, p) for p in DOCTRINE_PARAMS}


@dataclass(frozen=True, kw_only=True)
class Ruleset(BaseRuleset):
    """The pipeline's ruleset (unit types, roles, ranges: here the rebase range) and this system's keys."""

    orders_by_role: Mapping[str, tuple[str, ...]]
    rebase_range: int
    default_rating: int
    success_on: int
    joint_ratings: str  # best | commander
    fort: Mapping[int, int]  # fort level -> tactics dice
    terrain: Mapping[str, int]  # terrain key -> tactics dice
    home: int
    ambush: int
    surprise: int
    pincer: int
    politics_enabled: bool
    politics_count: str  # winner | net
    removal_order: tuple[int, ...]
    removed_fate: str  # absent | deserted | destroyed
    tactics_count: str
    tie_first: str  # fewer_dice | defender
    max_bonus: int | None
    sacrifice_target_fate: str  # removed | destroyed
    destroy_below: int
    safe_dice: frozenset[int]
    retreat_scope: str  # side | commander
    standoff: str  # hold | board_value
    max_actions: int
    doctrines: Mapping[str, Doctrine]
    default_doctrine: str
    machine_lost_when: str  # all_dice | any_die
    veterans_enabled: bool
    veterans_above: int
    meeting_winner_continues: bool

    def doctrine(self, name: str, params: Mapping[str, Any] | None = None, source: str = "") -> Doctrine:
        """The named preset with `params` put over it (§10.3); DoctrineError says what is wrong."""
        preset = self.doctrines.get(name) if isinstance(name, str) else None
        if preset is None:
            raise DoctrineError("doctrine", f"unknown doctrine {name!r}")
        if params is None:
            params = {}
        if not isinstance(params, Mapping):
            raise DoctrineError("params", f"expected a mapping of parameters, got {params!r}")
        values = preset.report() | dict(params)
        for key in params:
            if key not in DOCTRINE_PARAMS:
                raise DoctrineError(f"params.{key}", "unknown doctrine parameter")
        try:
            return _doctrine(name, values, source or preset.source)
        except RulesetError as error:
            raise DoctrineError("params", str(error)) from None

    def doctrine_of(self, spec: Any, source: str) -> Doctrine:
        """A doctrine given as a name or as {name: NAME, PARAM: VALUE, ...} (a nation's attribute, §5)."""
        if isinstance(spec, Mapping):
            params = {k: v for k, v in spec.items() if k != "name"}
            return self.doctrine(spec.get("name"), params, source)
        return self.doctrine(spec, None, source)


class DoctrineError(ValueError):
    """A doctrine order or attribute that fails §4.1's checks; `field` names the part at fault."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


def _defaults() -> dict[str, Any]:
    return defaults_read(DEFAULTS_FILE)


# The scalar settings (§15); the tables (unit_types, orders_by_role, advantages.fort and .terrain, the lists
# politics.removal_order and retreat.safe_dice, doctrines) are checked whole below. The maxima are ours where
# SODANKAYNTI.md names none: far above any campaign's, low enough that no value makes a turn run away.
SETTINGS = settings_declare(
    _defaults(),
    whole(
        "rebase_range",
        gettext_noop("How many borders away a unit may rebase, to a region of its own."),
        0,
        100,
        section="§4",
    ),
    whole(
        "default_rating",
        gettext_noop("A nation's politics and tactics rating, in dice, when the GM has not set its own."),
        0,
        100,
        section="§5",
    ),
    whole("success_on", gettext_noop("A pool die showing this or more is a success."), 1, 6, section="§6.2"),
    choice(
        "joint_ratings",
        gettext_noop("A side of several nations rolls with the best rating among them, or its commander's."),
        ("best", "commander"),
        section="§6.5",
    ),
    whole(
        "advantages.home",
        gettext_noop("Tactics dice a defender gains in one of its home regions."),
        0,
        100,
        section="§6.4",
    ),
    whole(
        "advantages.ambush",
        gettext_noop(
            "Tactics dice the defenders gain when their ambush faces the region the attack comes from."
        ),
        0,
        100,
        section="§6.4",
    ),
    whole(
        "advantages.surprise",
        gettext_noop("Tactics dice the attacker gains when the defenders' ambush faces the wrong way."),
        0,
        100,
        section="§6.4",
    ),
    whole(
        "advantages.pincer",
        gettext_noop("Tactics dice the attacker gains when its units come from two or more regions."),
        0,
        100,
        section="§6.4",
    ),
    flag(
        "politics.enabled",
        gettext_noop("Every battle starts with a politics roll; off skips them all."),
        section="§7",
    ),
    choice(
        "politics.count",
        gettext_noop(
            "The politics winner removes one enemy die per success (winner), or per success more than the "
            "loser's (net)."
        ),
        ("winner", "net"),
        section="§6.3",
    ),
    choice(
        "politics.removed_fate",
        gettext_noop(
            "A unit whose die the politics roll removed sits the battle out (absent), is lost without "
            "veterans (deserted) or is destroyed."
        ),
        ("absent", "deserted", "destroyed"),
        section="§7",
    ),
    choice(
        "tactics.count",
        gettext_noop(
            "The tactics winner takes one bonus action per success (winner), or per success more than the "
            "loser's (net)."
        ),
        ("winner", "net"),
        section="§8",
    ),
    choice(
        "tactics.tie_first",
        gettext_noop("Who acts first after a tied tactics roll: the side with fewer dice, or the defender."),
        ("fewer_dice", "defender"),
        section="§8",
    ),
    whole(
        "tactics.max_bonus",
        gettext_noop("The most bonus actions the tactics winner takes; empty for no cap."),
        1,
        100,
        nullable=True,
        section="§8",
    ),
    choice(
        "sacrifice_target_fate",
        gettext_noop(
            "The enemy die a sacrifice takes off the board sits out the battle (removed) or is destroyed."
        ),
        ("removed", "destroyed"),
        section="§9.2",
    ),
    whole(
        "retreat.destroy_below",
        gettext_noop("A retreating side's dice showing less than this are destroyed; the others withdraw."),
        0,
        1000,
        section="§9.2",
    ),
    choice(
        "retreat.scope",
        gettext_noop("A retreat destroys the low dice of the whole side, or only those of its commander."),
        ("side", "commander"),
        section="§9.2",
    ),
    choice(
        "standoff",
        gettext_noop(
            "A standoff has no winner (hold), or the side with the higher board value wins (board_value)."
        ),
        ("hold", "board_value"),
        section="§9.5",
    ),
    whole(
        "max_actions",
        gettext_noop("After this many actions a battle ends in a standoff."),
        0,
        100000,
        section="§9.4",
    ),
    # A choice among the ruleset's own doctrines, which a campaign may change: a text here, and
    # `ruleset_build` checks that it names one of them.
    text(
        "default_doctrine",
        gettext_noop("The doctrine a nation follows when neither its orders nor the GM name one."),
        100,
        section="§10.3",
    ),
    choice(
        "machine_lost_when",
        gettext_noop("A war machine is lost when all its dice are lost, or when any one of them is."),
        ("all_dice", "any_die"),
        section="§11.1",
    ),
    flag(
        "veterans.enabled",
        gettext_noop("Each pair of a nation's destroyed units may form a new veteran unit after the battle."),
        section="§11.2",
    ),
    whole(
        "veterans.above",
        gettext_noop("A veteran roll above this forms the new unit."),
        0,
        1000,
        section="§11.3",
    ),
    flag(
        "meeting_winner_continues",
        gettext_noop("The winner of a meeting engagement goes on to attack the region it was ordered into."),
        section="§12.2",
    ),
)


def ruleset_build(overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The default ruleset with `overrides` merged in, checked; raises RulesetError naming the bad key."""
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, Mapping):
        raise RulesetError("ruleset: expected a mapping of overrides")
    defaults = _defaults()
    check_unknown_keys(overrides, defaults, "sodankaynti")
    data = ruleset_merge(defaults, overrides)
    orders_by_role = _orders_by_role(data)
    unit_types = _unit_types(data, orders_by_role)
    politics = _mapping(data, "politics")
    retreat = _mapping(data, "retreat")
    advantages = _mapping(data, "advantages")
    # A section that is not a mapping is named itself, not through the first of its settings.
    _mapping(data, "tactics")
    _mapping(data, "veterans")
    doctrines = _doctrines(data)
    value = settings_check(data, SETTINGS)
    default_doctrine = value["default_doctrine"]
    if default_doctrine not in doctrines:
        raise RulesetError(f"default_doctrine: {default_doctrine!r} is not one of the ruleset's doctrines")
    rebase_range = value["rebase_range"]
    return Ruleset(
        battle_system="sodankaynti",
        unit_types=unit_types,
        # §4: rebase within `rebase_range`; nothing supports from range (§2.1), so no other type has a range.
        ranges={code: rebase_range for code, t in unit_types.items() if "rebase" in orders_by_role[t.role]},
        fighting_roles=tuple(orders_by_role),  # §2: every type takes part and counts as a "ground unit"
        any_terrain=True,  # §6.4: a map may define its own terrain keys; a key without dice gives 0
        kind_roles={k: tuple(r for r, kinds in orders_by_role.items() if k in kinds) for k in ORDER_KINDS},
        orders_by_role=orders_by_role,
        rebase_range=rebase_range,
        default_rating=value["default_rating"],
        success_on=value["success_on"],
        joint_ratings=value["joint_ratings"],
        fort=_dice_table(advantages, "fort", int),
        terrain=_dice_table(advantages, "terrain", str),
        home=value["advantages.home"],
        ambush=value["advantages.ambush"],
        surprise=value["advantages.surprise"],
        pincer=value["advantages.pincer"],
        politics_enabled=value["politics.enabled"],
        politics_count=value["politics.count"],
        removal_order=_sizes(politics, "removal_order", "politics.", distinct=True),
        removed_fate=value["politics.removed_fate"],
        tactics_count=value["tactics.count"],
        tie_first=value["tactics.tie_first"],
        max_bonus=value["tactics.max_bonus"],
        sacrifice_target_fate=value["sacrifice_target_fate"],
        destroy_below=value["retreat.destroy_below"],
        safe_dice=frozenset(_sizes(retreat, "safe_dice", "retreat.")),
        retreat_scope=value["retreat.scope"],
        standoff=value["standoff"],
        max_actions=value["max_actions"],
        doctrines=doctrines,
        default_doctrine=default_doctrine,
        machine_lost_when=value["machine_lost_when"],
        veterans_enabled=value["veterans.enabled"],
        veterans_above=value["veterans.above"],
        meeting_winner_continues=value["meeting_winner_continues"],
    )


def _mapping(data: Mapping[str, Any], key: str, where: str = "") -> Mapping[str, Any]:
    return check_mapping(data.get(key), f"{where}{key}")


def _int(
    data: Mapping[str, Any],
    key: Any,
    where: str = "",
    *,
    minimum: int | None = None,
    maximum: int | None = None,
) -> int:
    return check_int(data, key, minimum=minimum, maximum=maximum, where=where)


def _bool(data: Mapping[str, Any], key: str, where: str = "") -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise RulesetError(f"{where}{key}: expected true or false, got {value!r}")
    return value


def _choice(data: Mapping[str, Any], key: str, options: tuple[str, ...], where: str = "") -> str:
    value = data.get(key)
    if value not in options:
        raise RulesetError(f"{where}{key}: expected one of {', '.join(options)}, got {value!r}")
    return value


def _sizes(data: Mapping[str, Any], key: str, where: str, *, distinct: bool = False) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RulesetError(f"{where}{key}: expected a list of die sizes, got {value!r}")
    if len(value) > DIE_SIZE_MAX:
        raise RulesetError(f"{where}{key}: at most {DIE_SIZE_MAX} die sizes, got {len(value)}")
    sizes = tuple(
        _int(dict(enumerate(value)), i, f"{where}{key}.", minimum=1, maximum=DIE_SIZE_MAX)
        for i in range(len(value))
    )
    if distinct and len(set(sizes)) != len(sizes):
        raise RulesetError(f"{where}{key}: a die size is listed twice")
    return sizes


def _dice_table(advantages: Mapping[str, Any], key: str, kind: type) -> dict[Any, int]:
    table = _mapping(advantages, key, "advantages.")
    result = {}
    for name in table:
        if kind is int and (
            not isinstance(name, int) or isinstance(name, bool) or not 1 <= name <= FORT_LEVEL_MAX
        ):
            raise RulesetError(
                f"advantages.{key}.{name}: a fort level is a whole number from 1 to {FORT_LEVEL_MAX}"
            )
        if kind is str and len(str(name)) > NAME_MAX:
            raise RulesetError(
                f"advantages.{key}.{str(name)[:40]}...: a terrain is at most {NAME_MAX} characters"
            )
        result[kind(name)] = _int(table, name, f"advantages.{key}.", minimum=0, maximum=ADVANTAGE_MAX)
    return result


def _orders_by_role(data: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    table = _mapping(data, "orders_by_role")
    roles = {}
    for role, kinds in table.items():
        if not isinstance(kinds, list) or any(k not in ORDER_KINDS for k in kinds):
            raise RulesetError(
                f"orders_by_role.{role}: expected a list of {', '.join(ORDER_KINDS)}, got {kinds!r}"
            )
        roles[str(role)] = tuple(kinds)
    return roles


def _unit_types(data: Mapping[str, Any], orders_by_role: Mapping[str, Any]) -> dict[str, UnitType]:
    declared = _mapping(data, "unit_types")
    unit_types = {}
    for code, spec in declared.items():
        if spec is None:  # a campaign drops a type of the defaults (§3.1)
            continue
        where = f"unit_types.{code}"
        if not isinstance(spec, Mapping):
            raise RulesetError(f"{where}: expected a mapping, got {spec!r}")
        die = spec.get("die")
        match = DIE.match(die.strip()) if isinstance(die, str) else None
        # A short text first: int() of a 5,000-digit count would fail with a ValueError of its own.
        match = match if match and len(die) <= 20 else None
        count = int(match.group(1) or 1) if match else 0
        if not match or not 1 <= count <= DICE_MAX or not 1 <= int(match.group(2)) <= DIE_SIZE_MAX:
            raise RulesetError(
                f"{where}.die: expected dM or NdM, N from 1 to {DICE_MAX} and M from 1 to {DIE_SIZE_MAX}, "
                f"got {die!r:.40}"
            )
        role = spec.get("role")
        if role not in orders_by_role:
            raise RulesetError(f"{where}.role: {role!r} has no entry in orders_by_role")
        names = {lang: str(spec[lang]) for lang in ("fi", "en") if spec.get(lang) is not None}
        unit_types[str(code)] = UnitType(
            str(code), str(role), names, {"die": die.strip()}, dice=count, size=int(match.group(2))
        )
    if not unit_types:
        raise RulesetError("unit_types: the ruleset needs at least one unit type")
    return unit_types


def _doctrines(data: Mapping[str, Any]) -> dict[str, Doctrine]:
    table = _mapping(data, "doctrines")
    doctrines = {}
    for name, params in table.items():
        if params is None:
            continue
        where = f"doctrines.{name}"
        if len(str(name)) > NAME_MAX:
            raise RulesetError(f"{where[:50]}...: a doctrine's name is at most {NAME_MAX} characters")
        if not isinstance(params, Mapping):
            raise RulesetError(f"{where}: expected a mapping of parameters, got {params!r}")
        for key in params:
            if key not in DOCTRINE_PARAMS:
                raise RulesetError(f"{where}.{key}: unknown doctrine parameter")
        for key in DOCTRINE_PARAMS:
            if key not in params:
                raise RulesetError(f"{where}.{key}: missing")
        doctrines[str(name)] = _doctrine(str(name), params, "ruleset default", where=f"{where}.")
    if not doctrines:
        raise RulesetError("doctrines: the ruleset needs at least one doctrine")
    return doctrines


def _doctrine(name: str, params: Mapping[str, Any], source: str, where: str = "") -> Doctrine:
    """One doctrine's parameters checked against §10.1."""
    below = params.get("retreat_below")
    if below is not None:
        below = _int(params, "retreat_below", where, minimum=0, maximum=1000)
    return Doctrine(
        name=name,
        retreat_below=below,
        retreat_when_helpless=_bool(params, "retreat_when_helpless", where),
        sacrifice=_choice(params, "sacrifice", SACRIFICE_MODES, where),
        sacrifice_max_die=_int(params, "sacrifice_max_die", where, minimum=1, maximum=DIE_SIZE_MAX),
        attack_priority=_choice(params, "attack_priority", PRIORITIES, where),
        source=source,
    )
