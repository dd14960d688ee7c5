"""Fire support (COMPANY.md §8.5.8-8.5.9): `fire_request`, `scatter` (with its reroll offer) and
`danger_close`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .dice import Recorder, expression_of, expression_roll, integer_input
from .problems import refuse, whole
from .roster import Unit, tk_damaged, unit_tt
from .ruleset import CompanyRuleset, SupportType
from .settings import CONTACT_LEVELS


def _support(inputs: Mapping[str, Any], ruleset: CompanyRuleset) -> SupportType:
    support = ruleset.support.get(inputs.get("support"))
    if support is None:
        raise refuse("support_unknown", inputs.get("support"))
    return support


def fire_request(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """Who may call, the observer's checks, the damaged observer's 1d6, then the secret delay (¶43-45,
    ¶51-52)."""
    support = _support(inputs, ruleset)
    caller: Unit = inputs["caller"]
    observer: Unit = inputs["observer"]
    # the caller's role in the battle: the unit promoted in the KP ledger calls as company commander (§9.2)
    role = "company_commander" if inputs.get("caller_promoted") is True else caller.role
    if role not in support.callers:
        raise refuse("caller_not_allowed", support.code, role=role)
    if "fire_direction" not in observer.type_abilities:
        raise refuse("observer_cannot_direct", observer.id, name=observer.name)
    contact = inputs.get("contact")
    if contact not in CONTACT_LEVELS:
        raise refuse("contact_unknown", contact)
    minimum = ruleset.get("fire_support.min_contact")
    if CONTACT_LEVELS.index(contact) < CONTACT_LEVELS.index(minimum):
        raise refuse("no_contact", contact, min_contact=minimum)
    tk = inputs.get("observer_tk", observer.tk)
    if tk is None:
        tk = observer.tk
    if not whole(tk) or not 1 <= tk <= observer.tk_max:
        raise refuse("observer_tk_invalid", tk, tk_max=observer.tk_max)
    if tk <= ruleset.get("fire_support.no_direction_tk"):
        raise refuse("observer_too_weak", tk)
    table_turn = integer_input(inputs, "table_turn") or 0
    delay_expression = None if support.delay is None else expression_of(support.delay)
    output: dict[str, Any] = {
        "directed": True,
        "result": "requested",
        "direction_die": None,
        "delay_dice": [],
        "delay": None,
        "arrives_on_turn": None,
        "secret": False,
        "danger_close": inputs.get("danger_close") is True,
    }
    if tk_damaged(tk, observer.tk_max):
        die = dice.die(6)
        output["direction_die"] = die
        if die < ruleset.get("fire_support.damaged_direction_min"):
            return {**output, "directed": False, "result": "direction_failed"}
    if delay_expression is None:
        delay_dice, delay = [], 0
    else:
        delay_dice, delay = expression_roll(delay_expression, dice)
    return {
        **output,
        "delay_dice": delay_dice,
        "delay": delay,
        "arrives_on_turn": table_turn + delay,
        "secret": delay_expression is not None,
    }


def scatter_begin(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """Steps 1-3 of `scatter`: the two scatter dice, and whether a reroll is offered (¶46-48).

    With no offer the result is complete; with one it waits for `scatter_decide`."""
    support = _support(inputs, ruleset)
    observer: Unit = inputs["observer"]
    a, b = dice.die(support.scatter), dice.die(support.scatter)
    offered = a != b and (
        unit_tt(observer, ruleset) >= ruleset.get("fire_support.reroll_min_tt")
        or ruleset.has_effect(observer.abilities, "scatter_reroll")
    )
    pending = {"support": support.code, "first_dice": [a, b], "offered": offered, "decided": not offered}
    return pending if offered else _scatter_finish(pending, None, ruleset, dice)


def scatter_decide(
    pending: Mapping[str, Any], reroll: Any, ruleset: CompanyRuleset, dice: Recorder
) -> dict[str, Any]:
    """Step 3's answer: `1` rerolls a, `2` rerolls b, None declines; then the direction (§8.5.9)."""
    if not pending.get("offered"):
        raise refuse("no_reroll_offer")
    if pending.get("decided"):
        raise refuse("already_decided")
    if reroll not in (1, 2, None) or isinstance(reroll, bool):
        raise refuse("reroll_invalid", reroll)
    return _scatter_finish(pending, reroll, ruleset, dice)


def _scatter_finish(
    pending: Mapping[str, Any], reroll: int | None, ruleset: CompanyRuleset, dice: Recorder
) -> dict[str, Any]:
    support = ruleset.support[pending["support"]]
    final = list(pending["first_dice"])
    if reroll is not None:
        final[reroll - 1] = dice.die(support.scatter)
    bullseye = final[0] == final[1]  # judged on the final dice: a reroll can make a bull's-eye (¶47-48)
    compass = ruleset.get("fire_support.compass")
    direction = None if bullseye else compass[dice.die(len(compass)) - 1]
    return {
        "first_dice": list(pending["first_dice"]),
        "dice": final,
        "offered": pending["offered"],
        "decided": True,
        "rerolled": reroll,
        "bullseye": bullseye,
        "distance_cm": 0 if bullseye else final[0] + final[1],
        "direction": direction,
    }


def scatter(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """The whole of `scatter`, with the player's answer given in advance as `reroll` (asked only if
    offered)."""
    reroll = inputs.get("reroll")
    if reroll not in (1, 2, None) or isinstance(reroll, bool):
        raise refuse("reroll_invalid", reroll)
    pending = scatter_begin(inputs, ruleset, dice)
    return pending if pending["decided"] else scatter_decide(pending, reroll, ruleset, dice)


def danger_close(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """Per own unit in the impact area, 1d6: on 1-2 it takes half the strike's normal damage (¶50)."""
    strike = integer_input(inputs, "strike_damage", required=True)
    units = inputs.get("units") or []
    for unit in units:
        if not whole(unit):
            raise refuse("not_an_integer", "units", field="units", value=unit)
    results = []
    for unit in units:
        die = dice.die(6)
        hit = die <= ruleset.get("fire_support.danger_close_max")
        results.append({"unit": unit, "die": die, "hit": hit, "damage": strike // 2 if hit else 0})
    return {"units": results}
