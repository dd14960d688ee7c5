"""Checking a result before it counts (TABLETOP.md A6.1, A6.3, A6.4).

`result_check(state, key, result, by=...)` checks one result (a player's version, an agreement, the GM's entry
or confirmation) against the battle plan of the moment and the battle's current sheet. Errors come in A6.3's
order, and any of the first five stops the check there; warnings (A6.4) are computed only for a result without
errors. Each error is a code with its parameters (`losses_exceed_forces:RED:JV`) and a message as data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..messages import ErrorKind, Fault, Message, gettext_noop, kinds_register, messages_register
from .settings import TabletopRuleset

PREFIX = "tabletop."
SCORE_LIMIT = 200
NOTES_LIMIT = 5000

messages_register(
    {
        PREFIX + code: template
        for code, template in {
            "battle_unknown": gettext_noop("There is no battle {key} in turn {n}."),
            "battle_not_open.waiting": gettext_noop(
                "The battle of {place} cannot take results yet: it waits for {battles}."
            ),
            "battle_not_open.resolved": gettext_noop(
                "The battle of {place} already has a result; ask the GM to reopen it."
            ),
            "battle_not_open.turn": gettext_noop(
                "Turn {n} takes no results now: it is not waiting for battles."
            ),
            "not_permitted": gettext_noop(
                "Only the GM or a player of {nations} may enter the result of the battle of {place}."
            ),
            "deadline_passed": gettext_noop(
                "The result of the battle of {place} was due on {deadline}; ask the GM."
            ),
            "stale_sheet": gettext_noop(
                "The forces of the battle of {place} changed after you opened its sheet (the battle of "
                "{other} was corrected). Check the sheet and enter the result again."
            ),
            "winner_not_a_side": gettext_noop(
                "'{winner}' is not a side of the battle of {place}; the sides are {sides}, or leave the "
                "winner empty for a draw."
            ),
            "decisive_on_draw": gettext_noop("A draw cannot be decisive."),
            "decisive_missing": gettext_noop("Say whether {winner}'s win was decisive."),
            "losses_missing_nation": gettext_noop("Enter the losses of {N} (0 if it lost nothing)."),
            "losses_not_a_mapping": gettext_noop("Enter the losses of {N} per unit type."),
            "losses_unknown_type": gettext_noop("'{T}' is not a unit type of this campaign."),
            "losses_not_whole": gettext_noop("Losses are whole numbers, 0 or more: {N} {T} {value}."),
            "losses_not_ground_type": gettext_noop(
                "{T} losses are not entered: air units roll for their losses at the end of the turn "
                "(IRON_FIST §8)."
            ),
            "losses_exceed_forces": gettext_noop(
                "{N} lost {x} {T} but had {y} {T} in the battle of {place}."
            ),
            "losses_exceed_forces.support": gettext_noop(
                "{N} lost {x} {T} but had {y} {T} in the battle of {place} (its {T} in {region} support "
                "from range and roll for their losses at the end of the turn)."
            ),
            "losses_unknown_nation": gettext_noop("{N} did not fight in the battle of {place}."),
            "score_too_long": gettext_noop("The score is at most 200 characters."),
            "notes_too_long": gettext_noop("The notes are at most 5000 characters."),
            "winner_wiped_out": gettext_noop(
                "{W} is entered as the winner but has no ground units left: it takes nothing (IRON_FIST §5, "
                "exception 1)."
            ),
            "defender_wiped_out": gettext_noop(
                "{D} has no ground units left in {place}: it loses the region whatever the result (IRON_FIST "
                "§5, exception 2)."
            ),
        }.items()
    }
)


# A6.3's first checks say what the battle's state or the reader's role refuses, not what the entry gets wrong.
kinds_register(ErrorKind.NOT_VISIBLE, ("battle_unknown",), prefix=PREFIX)
kinds_register(ErrorKind.REFUSED, ("not_permitted",), prefix=PREFIX)
kinds_register(ErrorKind.CONFLICT, ("battle_not_open", "deadline_passed", "stale_sheet"), prefix=PREFIX)


@dataclass(frozen=True)
class EntryError:
    """One error or warning: `code:param:param` is the contract (A6.3); the message is what a person reads."""

    code: str
    ref: tuple[str, ...] = ()
    message: Message = field(default_factory=lambda: Message(""))

    def __str__(self) -> str:
        return ":".join((self.code, *self.ref))

    def to_dict(self) -> dict[str, Any]:
        """The API's shape (BATTLE_SYSTEMS.md, results entry): `code` and `ref` apart."""
        return {"code": self.code, "ref": ":".join(self.ref), "message": self.message.to_dict()}

    def fault(self) -> Fault:
        return Fault(self.code, self.message, ref=":".join(self.ref) or None)


@dataclass(frozen=True)
class Entrant:
    """Who makes the check: the GM, or a player of `nation`."""

    gm: bool = False
    nation: str | None = None


@dataclass(frozen=True)
class ResultCheck:
    errors: tuple[EntryError, ...]
    warnings: tuple[EntryError, ...] = ()

    @property
    def accepted(self) -> bool:
        return not self.errors


def _error(code: str, *ref: str, variant: str = "", **params: Any) -> EntryError:
    return EntryError(code, tuple(ref), Message(PREFIX + code + (f".{variant}" if variant else ""), params))


def result_check(
    state: Any,
    key: str,
    result: Mapping[str, Any],
    *,
    by: Entrant,
    ruleset: TabletopRuleset,
    turn: int = 0,
    turn_pending: bool = True,
    deadline_passed: bool = False,
    deadline: str = "",
) -> ResultCheck:
    """Check `result` for the battle `key` against `state` (a BattlesPending or Complete plan)."""
    settings = ruleset.tabletop
    place = key.partition(":")[2]
    if key not in state.battle_keys():
        return ResultCheck((_error("battle_unknown", key=key, n=turn),))
    if key in state.waiting:
        waits = ", ".join(state.waiting[key])
        return ResultCheck((_error("battle_not_open", variant="waiting", place=place, battles=waits),))
    if key not in state.open:
        return ResultCheck((_error("battle_not_open", variant="resolved", place=place),))
    if not turn_pending:
        return ResultCheck((_error("battle_not_open", variant="turn", n=turn),))
    sheet = state.sheets[key]
    nations = list(sheet["nations"])
    if not by.gm and (settings.result_entry == "gm_only" or by.nation not in nations):
        return ResultCheck((_error("not_permitted", nations=", ".join(nations), place=place),))
    if not by.gm and deadline_passed and not settings.players_may_enter_after_deadline:
        return ResultCheck((_error("deadline_passed", place=place, deadline=deadline),))
    if result.get("fingerprint") != sheet["fingerprint"]:
        return ResultCheck((_error("stale_sheet", place=place, other=""),))

    errors: list[EntryError] = []
    sides = [side["id"] for side in sheet["sides"]]
    winner = result.get("winner")
    decisive = result.get("decisive")
    if winner is not None and winner not in sides:
        errors.append(_error("winner_not_a_side", winner=winner, place=place, sides=", ".join(sides)))
    elif winner is None and decisive not in (None, False):
        errors.append(_error("decisive_on_draw"))
    elif winner is not None and decisive not in (True, False):
        errors.append(_error("decisive_missing", winner=winner))
    losses = result.get("losses")
    losses = losses if isinstance(losses, Mapping) else {}
    for nation in nations:
        errors.extend(_nation_losses(nation, losses, sheet, ruleset, place))
    for nation in sorted(str(n) for n in losses if n not in nations):
        errors.append(_error("losses_unknown_nation", nation, N=nation, place=place))
    if _too_long(result.get("score"), SCORE_LIMIT):
        errors.append(_error("score_too_long"))
    if _too_long(result.get("notes"), NOTES_LIMIT):
        errors.append(_error("notes_too_long"))
    if errors:
        return ResultCheck(tuple(errors))
    return ResultCheck((), _warnings(sheet, winner, losses, place))


def _nation_losses(
    nation: str, losses: Mapping[str, Any], sheet: Mapping[str, Any], ruleset: TabletopRuleset, place: str
) -> list[EntryError]:
    if nation not in losses:
        return [_error("losses_missing_nation", nation, N=nation)]
    mine = losses[nation]
    if not isinstance(mine, Mapping):
        return [_error("losses_not_a_mapping", nation, N=nation)]
    known = list(ruleset.unit_types)
    types = [t for t in known if t in mine] + sorted(str(t) for t in mine if t not in ruleset.unit_types)
    had = sheet["forces"].get(nation, {})
    errors = []
    for unit_type in types:
        value = mine[unit_type]
        if unit_type not in ruleset.unit_types:
            errors.append(_error("losses_unknown_type", nation, unit_type, T=unit_type))
        elif not _whole(value):
            errors.append(_error("losses_not_whole", nation, unit_type, N=nation, T=unit_type, value=value))
        elif value and ruleset.unit_types[unit_type].role == "air":
            errors.append(_error("losses_not_ground_type", nation, unit_type, T=unit_type))
        elif value > had.get(unit_type, 0):
            from_range = [line[1] for line in sheet["support"] if line[0] == nation and line[2] == unit_type]
            params = {"N": nation, "x": value, "T": unit_type, "y": had.get(unit_type, 0), "place": place}
            if from_range:
                params["region"] = ", ".join(from_range)
            errors.append(
                _error(
                    "losses_exceed_forces",
                    nation,
                    unit_type,
                    variant="support" if from_range else "",
                    **params,
                )
            )
    return errors


def _warnings(
    sheet: Mapping[str, Any], winner: str | None, losses: Mapping[str, Any], place: str
) -> tuple[EntryError, ...]:
    """A6.4: a winner with no ground units left; a defender wiped out while the attacker is not."""
    left = {
        side["id"]: sum(
            count - ((losses.get(nation) or {}).get(unit_type) or 0)
            for nation, units in sheet["forces"].items()
            if nation in side["nations"]
            for unit_type, count in units.items()
        )
        for side in sheet["sides"]
    }
    warnings = []
    if winner is not None and left[winner] <= 0:
        warnings.append(_error("winner_wiped_out", winner, W=winner))
    if sheet["kind"] in ("normal", "joint"):
        attacker, defender = (side["id"] for side in sheet["sides"])
        if left[defender] <= 0 and left[attacker] > 0:
            warnings.append(_error("defender_wiped_out", defender, D=defender, place=place))
    return tuple(warnings)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _too_long(value: Any, limit: int) -> bool:
    return isinstance(value, str) and len(value) > limit
