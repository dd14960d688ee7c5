"""The calculator's errors (TABLETOP.md B7): a code, its parameters and the message a person reads.

The code and its parameters are the contract (`relation_target_unknown:wolves:ghost`); the message is data,
rendered in the reader's language at the edge. Message codes carry the `close_combat.` prefix because other
systems have codes of the same name with other texts (`not_whole_number`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.engine.messages import Message, gettext_noop, messages_register

MESSAGE_PREFIX = "close_combat."

TEMPLATES = {
    "sides_count": gettext_noop("A combat has exactly two sides."),
    "side_name_missing": gettext_noop("A side needs a name."),
    "side_name_duplicate": gettext_noop("Two sides are called {S}."),
    "side_without_units": gettext_noop("{S} has no units."),
    "unit_id_missing": gettext_noop("A unit of {S} needs an id."),
    "unit_id_duplicate": gettext_noop("Two units are called {U}."),
    "state_unknown": gettext_noop("{U}: unknown state '{x}'."),
    "not_whole_number": gettext_noop("{U}: {F} must be a whole number, {min} or more."),
    "not_whole_number_discipline": gettext_noop("{U}: Discipline must be a whole number."),
    "rank_input_conflict": gettext_noop("{U}: give ranks and full ranks, or models and files, not both."),
    "full_ranks_exceed_ranks": gettext_noop("{U}: {full_ranks} full ranks but only {ranks} ranks."),
    "discipline_out_of_range": gettext_noop("{U}: Discipline {x} is outside {lo}–{hi}."),
    "not_boolean": gettext_noop("{U}: {F} is yes or no."),
    "not_a_list": gettext_noop("{U}: {F} is a list of enemy units."),
    "other_not_whole": gettext_noop(
        "{S}: each other modifier needs a whole-number value (it may be negative) and may give a reason."
    ),
    "relation_duplicate": gettext_noop("{U} names {T} twice."),
    "relation_target_unknown": gettext_noop("{U}: there is no unit {T} in this combat."),
    "relation_target_not_enemy": gettext_noop("{U}: {T} is on the same side."),
    "flank_and_rear_same_target": gettext_noop("{U} cannot fight both the flank and the rear of {T}."),
    "cleared_contact_alive": gettext_noop(
        "{U} destroyed everything in base contact, but {E}, in contact with it, is not destroyed."
    ),
    "break_test_order_not_a_list": gettext_noop("The break-test order is a list of units."),
    "break_test_order_duplicate": gettext_noop("{U} is named twice in the break-test order."),
    "break_test_order_unknown": gettext_noop("{U} in the break-test order is not a unit of this combat."),
    "dice_malformed": gettext_noop("Give either the dice rolled at the table or a seed."),
    "seed_not_whole": gettext_noop("The seed is a whole number, 0 or more."),
    "die_not_d6": gettext_noop("Die {i} is {x}; a d6 shows 1 to 6."),
    "break_test_order_not_losing_side": gettext_noop("{U} is on the winning side and takes no break test."),
    "discipline_missing": gettext_noop("{U} must take a break test: enter its Discipline."),
    "dice_missing": gettext_noop("The break test of {U} needs more dice."),
    "dice_unused": gettext_noop("{N} dice were not used."),
}
messages_register(TEMPLATES, prefix=MESSAGE_PREFIX)

# The parameters of each code, in the order they appear in `code:param:param` (B7).
CODE_PARAMS = {
    "side_name_duplicate": ("S",),
    "side_without_units": ("S",),
    "unit_id_missing": ("S",),
    "unit_id_duplicate": ("U",),
    "state_unknown": ("U",),
    "not_whole_number": ("U", "F"),
    "rank_input_conflict": ("U",),
    "full_ranks_exceed_ranks": ("U",),
    "discipline_out_of_range": ("U",),
    "not_boolean": ("U", "F"),
    "not_a_list": ("U", "F"),
    "other_not_whole": ("S",),
    "relation_duplicate": ("U", "T"),
    "relation_target_unknown": ("U", "T"),
    "relation_target_not_enemy": ("U", "T"),
    "flank_and_rear_same_target": ("U", "T"),
    "cleared_contact_alive": ("U", "E"),
    "break_test_order_duplicate": ("U",),
    "break_test_order_unknown": ("U",),
    "die_not_d6": ("i",),
    "break_test_order_not_losing_side": ("U",),
    "discipline_missing": ("U",),
    "dice_missing": ("U",),
    "dice_unused": ("N",),
}


@dataclass(frozen=True)
class RoundError:
    """One refusal of B7: `code` and its `params` are the contract, `message` the sentence a person reads."""

    code: str
    params: tuple[Any, ...]
    message: Message

    @property
    def ref(self) -> str | None:
        """What the error is about, `U:T` (the API's `ref`, BATTLE_SYSTEMS.md); None when nothing."""
        return ":".join(map(str, self.params)) if self.params else None

    def __str__(self) -> str:
        return f"{self.code}:{self.ref}" if self.params else self.code

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "ref": self.ref, "message": self.message.to_dict()}


def round_error(code: str, message_code: str | None = None, /, **params: Any) -> RoundError:
    """The error `code` with the named parameters; `message_code` picks another text for the same code."""
    ids = tuple(params[name] for name in CODE_PARAMS.get(code, ()))
    return RoundError(code, ids, Message(MESSAGE_PREFIX + (message_code or code), params))
