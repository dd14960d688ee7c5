"""A close-combat round's input (TABLETOP.md B2) and the checks of B7 that need no combat result (1-6).

`round_parse(data, settings)` returns the parsed `RoundInput`, or the errors in B7's order: check 1 stops at
once; checks 2-6 are all made and every error they find is listed, check by check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .close_combat_errors import RoundError, round_error
from .close_combat_settings import CloseCombatSettings

STATES = ("engaged", "destroyed", "cleared_contacts")
ARCS = ("flank", "rear")
FLAGS = ("charged", "line_formation", "battle_standard", "reroll")
ABSENT = object()


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    side: int  # 0 or 1: the index of its side
    state: str
    wounds: int
    overkill: int
    charged: bool
    full_ranks: int
    ranks: int
    derived: Mapping[str, int] | None  # {models, files, full_rank_models} when counted from the models form
    line_formation: bool
    standards: int
    battle_standard: bool
    flank_of: tuple[str, ...]
    rear_of: tuple[str, ...]
    discipline: int | None
    reroll: bool

    def targets(self, arc: str) -> tuple[str, ...]:
        return self.flank_of if arc == "flank" else self.rear_of


@dataclass(frozen=True)
class Modifier:
    value: int
    reason: str


@dataclass(frozen=True)
class Side:
    name: str
    units: tuple[Unit, ...]
    other: tuple[Modifier, ...]


@dataclass(frozen=True)
class RoundInput:
    sides: tuple[Side, Side]
    break_test_order: tuple[str, ...]
    rolls: tuple[int, ...] | None  # entered dice; None when seeded
    seed: int | None

    @property
    def units(self) -> tuple[Unit, ...]:
        return self.sides[0].units + self.sides[1].units


def whole(value: Any, minimum: int | None = None) -> bool:
    """A JSON integer (never a boolean), at least `minimum`."""
    return isinstance(value, int) and not isinstance(value, bool) and (minimum is None or value >= minimum)


def repeats(items: list[Any]) -> list[bool]:
    """For each item, whether an equal one comes before it; equal as JSON values (1, 1.0 and true differ).

    In one pass with a set, so that a long list posted to the calculator costs linear time, not quadratic.
    """
    seen: set[tuple[type, Any]] = set()
    unhashable: list[Any] = []  # lists and mappings, compared one by one (never ids, so rarely many)
    found = []
    for item in items:
        try:
            key = (type(item), item)
            found.append(key in seen)
            seen.add(key)
        except TypeError:
            found.append(any(type(u) is type(item) and u == item for u in unhashable))
            unhashable.append(item)
    return found


def round_parse(data: Any, settings: CloseCombatSettings) -> RoundInput | list[RoundError]:
    """The round, or the errors of checks 1-6 in B7's order."""
    sides = data.get("sides") if isinstance(data, Mapping) else None
    if not isinstance(sides, list) or len(sides) != 2:
        return [round_error("sides_count")]
    raw_sides = [side if isinstance(side, Mapping) else {} for side in sides]
    errors: list[RoundError] = []
    owner: dict[str, int] = {}  # unit id -> side index, for the first unit with each id
    raws: list[tuple[int, Mapping[str, Any]]] = []  # the units that are checked, in listed order
    names: list[str] = []
    for index, side in enumerate(raw_sides):
        name = side.get("name")
        label = name if isinstance(name, str) and name else f"#{index + 1}"
        if label != name:
            errors.append(round_error("side_name_missing"))
        elif name in names:
            errors.append(round_error("side_name_duplicate", S=label))
        names.append(label)
        units = side.get("units")
        if not isinstance(units, list) or not units:
            errors.append(round_error("side_without_units", S=label))
        for raw in units if isinstance(units, list) else []:
            uid = raw.get("id") if isinstance(raw, Mapping) else None
            if not isinstance(uid, str) or not uid:
                errors.append(round_error("unit_id_missing", S=label))
            elif uid in owner:
                errors.append(round_error("unit_id_duplicate", U=uid))
            else:
                owner[uid] = index
                raws.append((index, raw))
                errors.extend(_unit_errors(uid, raw, settings))
        other = side.get("other", ABSENT)
        if other is not ABSENT and not (
            isinstance(other, list) and all(isinstance(m, Mapping) and whole(m.get("value")) for m in other)
        ):
            errors.append(round_error("other_not_whole", S=label))
    errors.extend(_relation_errors(raws, owner))
    errors.extend(_cleared_contact_errors(raws, owner))
    errors.extend(_order_errors(data.get("break_test_order", ABSENT), owner))
    dice = _dice(data.get("dice"), errors)
    if errors:
        return errors
    units = [_unit(index, raw, settings) for index, raw in raws]
    return RoundInput(
        sides=tuple(
            Side(
                name=names[index],
                units=tuple(u for u in units if u.side == index),
                other=tuple(_modifier(m) for m in raw_sides[index].get("other") or []),
            )
            for index in (0, 1)
        ),
        break_test_order=tuple(data.get("break_test_order") or ()),
        rolls=dice[0],
        seed=dice[1],
    )


def _unit_errors(uid: str, raw: Mapping[str, Any], settings: CloseCombatSettings) -> list[RoundError]:
    errors = []
    state = raw.get("state", "engaged")
    if not isinstance(state, str) or state not in STATES:
        errors.append(round_error("state_unknown", U=uid, x=state))

    def need_whole(field: str, minimum: int, default: Any = 0) -> None:
        if not whole(raw.get(field, default), minimum):
            errors.append(round_error("not_whole_number", U=uid, F=field, min=minimum))

    for field in ("wounds", "overkill", "standards"):
        need_whole(field, 0)
    models_form = "models" in raw or "files" in raw
    if models_form and ("ranks" in raw or "full_ranks" in raw):
        errors.append(round_error("rank_input_conflict", U=uid))
    elif models_form:
        need_whole("models", 0, ABSENT)
        need_whole("files", 1, ABSENT)
        need_whole("full_rank_models", 1, settings.full_rank_models)
    else:
        full_ranks, ranks = raw.get("full_ranks", 0), raw.get("ranks", raw.get("full_ranks", 0))
        need_whole("full_ranks", 0)
        need_whole("ranks", 0)  # absent: = full_ranks, checked above
        if whole(full_ranks, 0) and whole(ranks, 0) and full_ranks > ranks:
            errors.append(round_error("full_ranks_exceed_ranks", U=uid, full_ranks=full_ranks, ranks=ranks))
    discipline = raw.get("discipline")
    low, high = settings.discipline_range
    if discipline is not None and not whole(discipline):
        errors.append(round_error("not_whole_number", "not_whole_number_discipline", U=uid, F="discipline"))
    elif discipline is not None and not low <= discipline <= high:
        errors.append(round_error("discipline_out_of_range", U=uid, x=discipline, lo=low, hi=high))
    for field in FLAGS:
        if not isinstance(raw.get(field, False), bool):
            errors.append(round_error("not_boolean", U=uid, F=field))
    for arc in ARCS:
        if not _id_list(raw.get(f"{arc}_of", [])):
            errors.append(round_error("not_a_list", U=uid, F=f"{arc}_of"))
    return errors


def _id_list(value: Any) -> bool:
    """B7 check 2: a list of unit ids, each a string (`null` is not one, nor is `[1]`)."""
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _relations(raw: Mapping[str, Any], arc: str) -> list[Any]:
    """The unit's targets in `arc` as listed, or none when the field is not a list of ids (check 2 said
    so)."""
    targets = raw.get(f"{arc}_of", [])
    return targets if _id_list(targets) else []


def _relation_errors(raws: list[tuple[int, Mapping[str, Any]]], owner: Mapping[str, int]) -> list[RoundError]:
    """Check 3: one code per relation entry, the first that applies."""
    errors = []
    for side, raw in raws:
        uid = raw["id"]
        flank = {t for t in _relations(raw, "flank") if isinstance(t, str)}
        for arc in ARCS:
            targets = _relations(raw, arc)
            for target, repeated in zip(targets, repeats(targets), strict=True):
                code = None
                if repeated:
                    code = "relation_duplicate"
                elif not isinstance(target, str) or target not in owner:
                    code = "relation_target_unknown"
                elif owner[target] == side:
                    code = "relation_target_not_enemy"
                elif arc == "rear" and target in flank:
                    code = "flank_and_rear_same_target"
                if code:
                    errors.append(round_error(code, U=uid, T=target))
    return errors


def _cleared_contact_errors(
    raws: list[tuple[int, Mapping[str, Any]]], owner: Mapping[str, int]
) -> list[RoundError]:
    """Check 4: a unit that cleared its contacts has no enemy left alive that it fights or that fights it."""
    position = {raw["id"]: index for index, (_, raw) in enumerate(raws)}
    links: dict[str, set[str]] = {}  # unit id -> the enemy units linked to it, in either direction
    for side, raw in raws:
        for target in (t for arc in ARCS for t in _relations(raw, arc)):
            if isinstance(target, str) and target in owner and owner[target] != side:
                links.setdefault(raw["id"], set()).add(target)
                links.setdefault(target, set()).add(raw["id"])
    errors = []
    for _, raw in raws:
        if raw.get("state") == "cleared_contacts":
            for enemy in sorted(links.get(raw["id"], ()), key=position.__getitem__):
                if raws[position[enemy]][1].get("state", "engaged") != "destroyed":
                    errors.append(round_error("cleared_contact_alive", U=raw["id"], E=enemy))
    return errors


def _order_errors(order: Any, owner: Mapping[str, int]) -> list[RoundError]:
    """Check 5: the break-test order is a list of distinct units of the combat."""
    if order is ABSENT:
        return []
    if not isinstance(order, list):
        return [round_error("break_test_order_not_a_list")]
    errors = []
    for uid, repeated in zip(order, repeats(order), strict=True):
        if repeated:
            errors.append(round_error("break_test_order_duplicate", U=uid))
        elif not isinstance(uid, str) or uid not in owner:
            errors.append(round_error("break_test_order_unknown", U=uid))
    return errors


def _dice(dice: Any, errors: list[RoundError]) -> tuple[tuple[int, ...] | None, int | None]:
    """Check 6; (entered rolls, None) or (None, seed). Absent, null and {} are no entered dice (B2.1)."""
    if dice is None or (isinstance(dice, Mapping) and not dice):
        return (), None
    if not isinstance(dice, Mapping) or set(dice) not in ({"rolls"}, {"seed"}):
        errors.append(round_error("dice_malformed"))
        return (), None
    if "seed" in dice:
        if not whole(dice["seed"], 0):
            errors.append(round_error("seed_not_whole"))
        return None, dice["seed"]
    rolls = dice["rolls"]
    if not isinstance(rolls, list):
        errors.append(round_error("dice_malformed"))
        return (), None
    for index, die in enumerate(rolls, start=1):
        if not whole(die, 1) or die > 6:
            errors.append(round_error("die_not_d6", i=index, x=die))
    return tuple(rolls), None


def _unit(side: int, raw: Mapping[str, Any], settings: CloseCombatSettings) -> Unit:
    """A unit whose fields passed check 2, with B2.2's defaults and B2.3's counted ranks."""
    derived = None
    if "models" in raw or "files" in raw:
        models, files = raw["models"], raw["files"]
        derived = {
            "models": models,
            "files": files,
            "full_rank_models": raw.get("full_rank_models", settings.full_rank_models),
        }
        ranks, full_ranks = ranks_from_models(models, files, derived["full_rank_models"])
    else:
        full_ranks = raw.get("full_ranks", 0)
        ranks = raw.get("ranks", full_ranks)
    uid = raw["id"]
    name = raw.get("name")
    return Unit(
        id=uid,
        name=name if isinstance(name, str) and name else uid,
        side=side,
        state=raw.get("state", "engaged"),
        wounds=raw.get("wounds", 0),
        overkill=raw.get("overkill", 0),
        charged=raw.get("charged", False),
        full_ranks=full_ranks,
        ranks=ranks,
        derived=derived,
        line_formation=raw.get("line_formation", False),
        standards=raw.get("standards", 0),
        battle_standard=raw.get("battle_standard", False),
        flank_of=tuple(raw.get("flank_of", [])),
        rear_of=tuple(raw.get("rear_of", [])),
        discipline=raw.get("discipline"),
        reroll=raw.get("reroll", False),
    )


def ranks_from_models(models: int, files: int, full_rank_models: int) -> tuple[int, int]:
    """B2.3: (ranks, full ranks) of `models` in ranks `files` wide; only the last rank can be short."""
    if models == 0:
        return 0, 0
    ranks = -(-models // files)
    last = models - files * (ranks - 1)
    return ranks, (ranks - 1) * (files >= full_rank_models) + (last >= full_rank_models)


def _modifier(raw: Mapping[str, Any]) -> Modifier:
    reason = raw.get("reason")
    return Modifier(raw["value"], "" if reason is None else str(reason))
