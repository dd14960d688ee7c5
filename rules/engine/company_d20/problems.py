"""Refusals as data: a `Problem` is a COMPANY.md error code, the thing it refers to, and the parameters of
its text.

The codes are the API's (`{"code", "ref", "message"}`, COMPANY.md §11.3). Their English templates are
registered once here, under `company_d20.<code>` so that another system's code of the same name keeps its
own text; the edge renders `problem.message` in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.messages import (
    ErrorKind,
    Fault,
    Message,
    Refusal,
    gettext_noop,
    kinds_register,
    messages_register,
)

PREFIX = "company_d20."


@dataclass(frozen=True)
class Problem:
    code: str
    ref: Any = None  # a unit id, a nation, a field or a ruleset key; None when the problem is the whole input
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> Message:
        return Message(PREFIX + self.code, {"ref": self.ref, **self.params})

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "ref": self.ref, "message": self.message.to_dict()}

    def fault(self) -> Fault:
        return Fault(self.code, self.message, ref=self.ref)


class Refused(Refusal):
    """A function refused its input: the first problem, before any die was drawn or anything changed."""

    def __init__(self, problem: Problem) -> None:
        super().__init__([problem.fault()])
        self.problem = problem


def refuse(code: str, ref: Any = None, **params: Any) -> Refused:
    return Refused(Problem(code, ref, params))


def whole(value: Any) -> bool:
    """A whole number in the JSON sense (COMPANY.md §1): 2 is, 2.0, "2" and true are not."""
    return isinstance(value, int) and not isinstance(value, bool)


TEMPLATES = {
    # §1, §12
    "not_an_integer": gettext_noop("{ref}: {field} must be a whole number, not {value}."),
    "ruleset_invalid": gettext_noop("The ruleset value {ref} is invalid: {reason}"),
    "region_id_invalid": gettext_noop("The region id {ref} cannot be used in a company campaign."),
    # §4.2 orders
    "kind_unknown": gettext_noop("Unknown order '{kind}'."),
    "no_units": gettext_noop("The order names no units."),
    "origin_not_owned": gettext_noop("You do not hold {region}."),
    "not_your_unit": gettext_noop("Unit {ref} is not in your company."),
    "target_own_side": gettext_noop("Unit {ref} is on your own side: name a unit of another side."),
    "unit_not_active": gettext_noop("{name} was destroyed."),
    "wrong_origin": gettext_noop("{name} stands in {region}, not in {origin}."),
    "unit_has_order": gettext_noop("{name} already has an order this turn."),
    "recon_one_unit": gettext_noop("A recon order names one scouting unit."),
    "not_adjacent": gettext_noop("{target} is not adjacent to {origin}."),
    "out_of_range": gettext_noop("{target} is more than {range} borders from {origin}."),
    "target_not_owned": gettext_noop("You do not hold {target}; use an attack."),
    "target_own_region": gettext_noop("{target} is your own region."),
    "not_at_war": gettext_noop("You are not at war with {owner}."),
    # §5.3 results
    "unit_not_in_battle": gettext_noop("Unit {ref} did not fight in this battle."),
    "unit_listed_twice": gettext_noop("{name} is listed twice."),
    "tk_lost_negative": gettext_noop(
        "{name}: TK lost is {value}; a battle cannot raise TK above its start ({tk_start})."
    ),
    "tk_lost_too_high": gettext_noop("{name} started with {tk_start} TK and cannot lose {value}."),
    "not_a_boolean": gettext_noop("{name}: {field} must be true or false."),
    "destroyed_mismatch": gettext_noop(
        "{name} ends with {tk_end} TK, which does not match its destroyed mark."
    ),
    "state_unknown": gettext_noop("{ref}: unknown state '{state}'."),
    "state_derived": gettext_noop("{name}: 'damaged' follows from TK; do not enter it."),
    "states_conflict": gettext_noop("{name} cannot be both retreating and {state}."),
    "destroyed_with_states": gettext_noop("{name} is destroyed; it has no state."),
    "vp_negative": gettext_noop("{name}: VP cannot be negative."),
    "unit_missing": gettext_noop("No entry for {name} ({nation})."),
    "side_not_in_battle": gettext_noop("{ref} did not fight in this battle."),
    "objective_vp_negative": gettext_noop("{ref}: objective VP cannot be negative."),
    "promotion_without_loss": gettext_noop("{ref}'s company commander was not lost; no field promotion."),
    "promotion_invalid_unit": gettext_noop("Only a surviving platoon leader of this battle can be promoted."),
    "notes_too_long": gettext_noop("The notes have {length} characters; at most {limit}."),
    "result_missing": gettext_noop("Battle {ref} has no final result."),
    "result_invalid": gettext_noop("The result of battle {ref} is not valid."),
    # §7 Kasarmi
    "not_orders_phase": gettext_noop("The Kasarmi is open only while the turn takes orders."),
    "tp_not_positive": gettext_noop("Spend a whole number of TP, at least 1."),
    "nothing_to_repair": gettext_noop("{name} has lost no TK."),
    "repair_wasted": gettext_noop("{name} misses {missing} TK; {needed} TP restore it all, not {tp}."),
    "tp_insufficient": gettext_noop("This costs {cost} TP; the balance is {balance}."),
    "type_unknown": gettext_noop("There is no unit type {ref}."),
    "type_not_purchasable": gettext_noop("{ref} cannot be bought."),
    "group_invalid": gettext_noop("A {type} cannot be placed in group {group}."),
    "role_taken": gettext_noop("The {role} role is taken."),
    "name_required": gettext_noop("The unit needs a name."),
    "name_too_long": gettext_noop("A name has at most {limit} characters."),
    "name_taken": gettext_noop("Another unit of the company is called {name}."),
    "region_not_allowed": gettext_noop("A new unit cannot be placed in {ref}."),
    "company_full": gettext_noop("The company has {size} active units, its maximum."),
    "ability_unknown": gettext_noop("There is no veteran ability {ref}."),
    "ability_held": gettext_noop("{name} already has {ability}."),
    "ability_not_for_type": gettext_noop("{ability} is not for a {type}."),
    "no_free_slot": gettext_noop("{name} has {xp} XP; its next veteran ability comes at {next_xp}."),
    "not_company_style": gettext_noop("{ref} uses battle groups, not a company command."),
    "commander_exists": gettext_noop("The company already has a commander."),
    "not_a_platoon_leader": gettext_noop("Unit {ref} is not a platoon leader."),
    "edit_invalid": gettext_noop("{ref}: {reason}"),
    "edit_empty": gettext_noop("{name}: the edit changes nothing."),
    "edit_stale": gettext_noop(
        "{name}: {ref} is {now} now, not {seen} as on your form; nothing was changed."
    ),
    "tp_stale": gettext_noop("The balance is {now} TP now, not {seen} as on your form; nothing was changed."),
    "reason_required": gettext_noop("Give a reason."),
    "company_size_invalid": gettext_noop("The company size must be a whole number, at least 1, not {value}."),
    "tp_negative": gettext_noop("The balance would fall to {balance}; it cannot go below 0."),
    "ability_not_held": gettext_noop("{name} does not have {ability}."),
    "unit_not_destroyed": gettext_noop("{name} is not destroyed."),
    # §8 dice
    "expression_invalid": gettext_noop("'{ref}' is not a dice expression like 2d6+1."),
    "source_unknown": gettext_noop("Unknown source '{ref}'."),
    "modifier_unknown": gettext_noop("Unknown modifier '{ref}'."),
    "modifier_not_applicable": gettext_noop("The modifier {ref} does not apply to {function}."),
    "test_unknown": gettext_noop("There is no named test {ref}."),
    "stat_unknown": gettext_noop("Unknown stat '{ref}'; use TT, M or none."),
    "dc_required": gettext_noop("The roll needs a DC."),
    "tt_too_low": gettext_noop("This test needs TT {min_tt}; the unit has {tt}."),
    "support_unknown": gettext_noop("There is no fire support type {ref}."),
    "targets_required": gettext_noop("An attack needs at least one target."),
    "cover_unknown": gettext_noop("Unknown cover '{ref}'."),
    "band_unknown": gettext_noop("Unknown band '{ref}'."),
    "no_damage": gettext_noop("A {ref} does no damage."),
    "reason_unknown": gettext_noop("Unknown morale test reason '{ref}'."),
    "target_hidden": gettext_noop("A hidden unit cannot be found by a recon roll."),
    "caller_not_allowed": gettext_noop("A {role} cannot call {ref}."),
    "observer_cannot_direct": gettext_noop("{name} cannot direct fire."),
    "contact_unknown": gettext_noop("Unknown contact level '{ref}'."),
    "no_contact": gettext_noop("Fire support needs at least a '{min_contact}' contact."),
    "observer_tk_invalid": gettext_noop("The observer's TK must be 1 to {tk_max}, not {ref}."),
    "observer_too_weak": gettext_noop("With {ref} TK the observer cannot direct fire."),
    "reroll_invalid": gettext_noop("Answer 1, 2 or no."),
    "no_reroll_offer": gettext_noop("This scatter roll has no reroll offer."),
    "already_decided": gettext_noop("This scatter roll has been decided."),
    "unknown_function": gettext_noop("There is no dice function {ref}."),
    "gm_only": gettext_noop("Only the GM may give {ref}."),
    "unit_unknown": gettext_noop("Unit {ref} is not in this battle."),
    # §9 KP
    "side_unknown": gettext_noop("{ref} is not a side of this battle."),
    "promotion_required": gettext_noop("{ref}'s commander fell: promote a surviving platoon leader."),
    "unit_eliminated": gettext_noop("Unit {ref} is already out of the battle."),
    "pool_unknown": gettext_noop("There is no KP pool {ref}."),
    "action_unknown": gettext_noop("There is no KP action {ref}."),
    "action_not_from_pool": gettext_noop("{ref} cannot be paid from {pool}."),
    "unit_required": gettext_noop("{ref} names a unit."),
    "unit_not_in_pool_group": gettext_noop("Unit {ref} cannot be moved with {pool}."),
    "company_tactic_used": gettext_noop("One company tactic per table turn."),
    "once_per_battle": gettext_noop("{ref} is used once per battle."),
    "boost_without_request": gettext_noop("A fire boost needs an organic fire request this table turn."),
    "kp_insufficient": gettext_noop("This costs {cost} KP; {pool} has {left}."),
    "pools_separate": gettext_noop("The promoted commander's pools are kept apart."),
    "recipient_out_of_link": gettext_noop("{ref} is out of the command link and cannot receive KP."),
    "transfer_limit": gettext_noop("{ref} has received its {limit} transfers this table turn."),
}

# Why a GM edit (§7.6) leaves the record's constraints (§3.1, §3.5): the `reason` of `edit_invalid`.
EDIT_WHY = {
    "whole": gettext_noop("must be a whole number"),
    "type": gettext_noop("must be a type of the catalogue"),
    "status": gettext_noop("must be active or destroyed"),
    "tk": gettext_noop("an active unit has 1 TK or more, and at most its maximum"),
    "negative": gettext_noop("cannot be negative"),
    "ti": gettext_noop("must be a dice expression like 1d6"),
    "abilities": gettext_noop("veteran abilities of the catalogue, each once"),
    "name": gettext_noop("a name has 1 to {limit} characters"),
    "role": gettext_noop("company_commander, platoon_leader or none"),
    "not_editable": gettext_noop("not a field the GM edits"),
    "changes": gettext_noop("the changes are a mapping of fields to their new values"),
    "region": gettext_noop("must be a region the nation owns"),
    "no_roles": gettext_noop("a battle-groups nation uses no roles"),
    "group": gettext_noop("the company commander stands in group 0, a platoon leader in a platoon"),
    "role_taken": gettext_noop("another active unit holds this role"),
}


def edit_invalid(field: str, why: str | Message, **params: Any) -> Problem:
    """`edit_invalid` naming the field, with why as a message of its own (a code of `EDIT_WHY`, or another
    problem's message), so that it reads in the reader's language."""
    reason = why if isinstance(why, Message) else Message(PREFIX + "edit." + why, params)
    return Problem("edit_invalid", field, {"reason": reason})


messages_register(TEMPLATES, prefix=PREFIX)
# §11.3: a refused permission is a 403, a request in conflict with the current state (a stale version, a
# closed turn or phase, a decision already taken) a 409; the rest is invalid input.
kinds_register(ErrorKind.REFUSED, ("gm_only",), prefix=PREFIX)
kinds_register(
    ErrorKind.CONFLICT,
    (
        "not_orders_phase",
        "battle_not_open",
        "entry_stale",
        "edit_stale",
        "tp_stale",
        "no_current_version",
        "turn_not_pending",
        "table_turn_not_next",
        "already_decided",
        "roll_void_already",
    ),
    prefix=PREFIX,
)
messages_register(EDIT_WHY, prefix=PREFIX + "edit.")
