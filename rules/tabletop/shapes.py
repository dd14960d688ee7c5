"""The bodies tabletop's API takes, each field bounded (campaign.bounds): a result (TABLETOP.md A6.1), an
answer or a GM's decision on it (A6.2), a close-combat round (B2) and what saves it to a battle (B9), and the
GM's hypotheses (A10.1).

The spec's checks stay the engine's, with the spec's codes: `"2"` where a whole number belongs is
`not_whole_number:U:wounds` (B7), a `losses` that is not a mapping is read as `{}` (A6.3). So each field
here checks a value of its own kind (its length, its range, its size) and passes on a JSON scalar of another
kind as it is, for the engine to refuse by name; a list or a mapping where neither belongs is refused here,
as it could hold anything. Where the spec names a limit with a code of its own (a score over 200
characters: `score_too_long`), the field refuses with that code. Every mapping refuses keys it does not
know (`unknown_field`), but `dice`, where B2.1 calls another key `dice_malformed`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from campaign.bounds import BIGINT_MAX, INT_MAX, ITEMS_MAX, TEXT_MAX, BoundedDictField, Shape, refused_detail
from campaign.models import UNIT_TYPE_MAX, AuditEntry, Nation
from rules.engine.tabletop.close_combat_settings import DEFAULTS, PREFIX, SETTINGS, CloseCombatSettings
from rules.engine.tabletop.results import NOTES_LIMIT, SCORE_LIMIT
from rules.models import CombatRound, ResultVersion, TableBattle
from rules.results_flow import COMMENT_LIMIT
from rules.tabletop.preview import AUTO

# A value typed where a number or yes/no belongs ("seven", "2.5"): the engine refuses it by name; no number
# needs more characters than a bigint's.
SCALAR_TEXT_MAX = len(str(-BIGINT_MAX))
# Units of one side of a close combat (B2.1 names no number): the default size of a body's list.
UNITS_MAX = ITEMS_MAX
# B6: each unit of both sides tests at most once and re-rolls at most once, `discipline_dice` each (at most
# the setting's maximum): no round can use more dice. A round is held to its own units and settings too.
DISCIPLINE_DICE_MAX = next(s.maximum for s in SETTINGS if s.key == PREFIX + "discipline_dice")
ROLLS_MAX = 2 * DISCIPLINE_DICE_MAX * 2 * UNITS_MAX

_KEY_MAX = TableBattle._meta.get_field("key").max_length
_REASON_MAX = ResultVersion._meta.get_field("reason").max_length


def _fail(code: str, message: str, **params: Any) -> ValidationError:
    return ValidationError(refused_detail(code, message, **params))


def _container(data: Any) -> bool:
    return isinstance(data, list | Mapping)


def _optional(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Every field may be absent or null: what an absent or null value means is the spec's (the engine's)."""
    return {"required": False, "allow_null": True, **kwargs}


class Text(serializers.CharField):
    """Text of at most `max_length` characters; `too_long` is the spec's (code, message) for a longer one."""

    def __init__(self, *, too_long: tuple[str, str] | None = None, **kwargs: Any) -> None:
        self.too_long = too_long
        super().__init__(**_optional({"allow_blank": True, "trim_whitespace": False, **kwargs}))

    def to_internal_value(self, data: Any) -> Any:
        if _container(data):
            self.fail("invalid")
        if isinstance(data, str) and len(data) > self.max_length:
            if self.too_long:
                raise _fail(*self.too_long)
            self.fail("max_length", max_length=self.max_length)
        return data

    def run_validators(self, value: Any) -> None:
        if isinstance(value, str):
            super().run_validators(value)


class Number(serializers.IntegerField):
    """A whole number within [min_value, max_value] (the column's range; the spec's own, "0 or more", is the
    engine's check, with its code); a JSON scalar of another kind passed on."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**_optional(kwargs))

    def to_internal_value(self, data: Any) -> Any:
        if _container(data):
            self.fail("invalid")
        if isinstance(data, str) and len(data) > SCALAR_TEXT_MAX:
            self.fail("max_string_length")
        return data

    def run_validators(self, value: Any) -> None:
        if isinstance(value, int) and not isinstance(value, bool):
            super().run_validators(value)


class Flag(serializers.BooleanField):
    """true or false; a JSON scalar of another kind passed on."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**_optional(kwargs))

    def to_internal_value(self, data: Any) -> Any:
        if _container(data) or (isinstance(data, str) and len(data) > SCALAR_TEXT_MAX):
            self.fail("invalid", input=str(data)[:SCALAR_TEXT_MAX])
        return data


class Items(serializers.ListField):
    """A list of at most `max_length` items, each through `child`, its length checked before any item;
    `too_many` and `wrong` are the spec's (code, message) for a longer list and for a mapping in its place."""

    def __init__(
        self, *, too_many: tuple[str, str] | None = None, wrong: tuple[str, str] | None = None, **kwargs: Any
    ) -> None:
        self.too_many, self.wrong = too_many, wrong
        super().__init__(**_optional(kwargs))

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            if self.wrong:
                raise _fail(*self.wrong)
            self.fail("not_a_list", input_type=type(data).__name__)
        if not isinstance(data, list):
            return data
        if len(data) > self.max_length:
            if self.too_many:
                raise _fail(*self.too_many)
            self.fail("max_length", max_length=self.max_length)
        return self.run_child_validation(data)

    def run_validators(self, value: Any) -> None:
        if isinstance(value, list):
            super().run_validators(value)


class Keyed(BoundedDictField):
    """A mapping of at most `max_length` keys; `wrong` is the spec's (code, message) for a list in its
    place."""

    def __init__(self, *, wrong: tuple[str, str] | None = None, **kwargs: Any) -> None:
        self.wrong = wrong
        super().__init__(**_optional(kwargs))

    def to_internal_value(self, data: Any) -> Any:
        refuse = lambda: self.fail("not_a_dict", input_type="list")  # noqa: E731
        return _nested(self, data, refuse, super().to_internal_value)

    def run_validators(self, value: Any) -> None:
        if isinstance(value, Mapping):
            super().run_validators(value)


def _nested(field: Any, data: Any, refuse_list: Callable[[], None], read: Callable[[Any], Any]) -> Any:
    """A mapping within a body, read by `read`; a list in its place refused (by the spec's (code, message)
    where the field has one, else by `refuse_list`); any other JSON scalar passed on, for the rules to
    judge with the spec's code. The body itself is a mapping, or the serializer's own refusal."""
    if field.parent is None:
        return dict(read(data))
    if isinstance(data, list):
        if field.wrong:
            raise _fail(*field.wrong)
        refuse_list()
    if not isinstance(data, Mapping):
        return data
    return dict(read(data))


class Part(Shape):
    """A mapping within a body (a side, a unit, a modifier): its known keys only; a JSON scalar in its
    place is passed on (B2.1: "a side that is not a mapping counts as a side with no name and no units")."""

    wrong: tuple[str, str] | None = None  # the spec's (code, message) for a list in its place

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**_optional({}), **kwargs})

    def to_internal_value(self, data: Any) -> Any:
        return _nested(self, data, lambda: self.fail("invalid", datatype="list"), super().to_internal_value)


# ---- a close-combat round (B2) -------------------------------------------------------------------------


def _whole(**kwargs: Any) -> Number:
    return Number(min_value=-INT_MAX, max_value=INT_MAX, **kwargs)


def _ids(max_length: int = UNITS_MAX) -> Items:
    return Items(child=Text(max_length=TEXT_MAX), max_length=max_length)


class CloseCombatUnitShape(Part):
    """B2.2's fields of a unit."""

    id = Text(max_length=TEXT_MAX)
    name = Text(max_length=TEXT_MAX)
    state = Text(max_length=TEXT_MAX)
    wounds = _whole()
    overkill = _whole()
    charged = Flag()
    full_ranks = _whole()
    ranks = _whole()
    models = _whole()
    files = _whole()
    full_rank_models = _whole()
    line_formation = Flag()
    standards = _whole()
    battle_standard = Flag()
    flank_of = _ids()
    rear_of = _ids()
    discipline = _whole()
    reroll = Flag()


class CloseCombatModifierShape(Part):
    """One of a side's other modifiers (B3.9): a value of either sign and its reason."""

    value = _whole()
    reason = Text(max_length=TEXT_MAX)


class CloseCombatSideShape(Part):
    name = Text(max_length=TEXT_MAX)
    units = Items(child=CloseCombatUnitShape(), max_length=UNITS_MAX)
    other = Items(child=CloseCombatModifierShape(), max_length=ITEMS_MAX)


class CloseCombatDiceShape(Part):
    """The dice entered at the table, or a seed (B2.1, B6): any other key is B7's `dice_malformed`."""

    wrong = ("dice_malformed", "close_combat.dice_malformed")

    rolls = Items(child=_whole(), max_length=ROLLS_MAX, wrong=wrong)
    seed = Number(min_value=-BIGINT_MAX, max_value=BIGINT_MAX)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping) and any(key not in self.fields for key in data):
            raise _fail(*self.wrong)
        return super().to_internal_value(data)


class CloseCombatRoundShape(Part):
    """A close-combat round as the calculator takes it (B2.1). Its context's `settings` are the close-combat
    settings it is worked out with (the defaults when none)."""

    sides = Items(
        child=CloseCombatSideShape(), max_length=2, too_many=("sides_count", "close_combat.sides_count")
    )
    break_test_order = _ids(max_length=2 * UNITS_MAX)
    dice = CloseCombatDiceShape()

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            self._dice_check(data)
        return super().to_internal_value(data)

    def _dice_check(self, data: Mapping[str, Any]) -> None:
        """Before any work: no more dice than the round's units can roll, a test and its re-roll each (B6)."""
        dice, sides = data.get("dice"), data.get("sides")
        rolls = dice.get("rolls") if isinstance(dice, Mapping) else None
        if not isinstance(rolls, list) or not isinstance(sides, list):
            return
        units = sum(
            len(side["units"])
            for side in sides[:2]
            if isinstance(side, Mapping) and isinstance(side.get("units"), list)
        )
        settings: CloseCombatSettings = self.context.get("settings") or DEFAULTS
        limit = 2 * settings.discipline_dice * min(units, 2 * UNITS_MAX)
        if len(rolls) > limit:
            detail = refused_detail("too_many_entries", limit=limit)
            raise ValidationError({"dice": {"rolls": [detail]}})


# ---- a round saved to a battle (B9) --------------------------------------------------------------------

_LABEL_MAX = CombatRound._meta.get_field("label").max_length


class TabletopRoundSaveShape(Shape):
    """`{round, label, game_turn, battle_sides}`: the calculator's input and what B9 keeps with it."""

    round = CloseCombatRoundShape()
    label = Text(max_length=_LABEL_MAX, too_long=("label_too_long", "round.label_too_long"))
    game_turn = Number(min_value=-INT_MAX, max_value=INT_MAX)
    battle_sides = Items(child=Text(max_length=_KEY_MAX), max_length=2)


class TabletopRoundCorrectShape(TabletopRoundSaveShape):
    """A saved round replaced (B9): the same, and why (kept in the audit log)."""

    reason = Text(max_length=AuditEntry._meta.get_field("reason").max_length)


# ---- results (A6) --------------------------------------------------------------------------------------

_NATION_MAX = Nation._meta.get_field("code").max_length


class TabletopResultShape(Shape):
    """A6.1's result. The battle is the address's; `battle`, when sent, is kept as sent."""

    battle = Text(max_length=_KEY_MAX)
    winner = Text(max_length=TEXT_MAX)
    decisive = Flag()
    losses = Keyed(
        max_length=ITEMS_MAX,
        key_max_length=_NATION_MAX,
        child=Keyed(max_length=ITEMS_MAX, key_max_length=UNIT_TYPE_MAX, child=_whole()),
    )
    score = Text(max_length=SCORE_LIMIT, too_long=("score_too_long", "tabletop.score_too_long"))
    notes = Text(max_length=NOTES_LIMIT, too_long=("notes_too_long", "tabletop.notes_too_long"))
    fingerprint = Text(max_length=TableBattle._meta.get_field("fingerprint").max_length)


class TabletopAnswerShape(Shape):
    """An answer to a version or the GM's decision on it (A6.2): a dispute's `comment`, a void's `reason`."""

    comment = Text(max_length=COMMENT_LIMIT, too_long=("comment_too_long", "results.comment_too_long"))
    reason = Text(max_length=_REASON_MAX)


class TabletopBattleActionShape(Shape):
    """The GM on a battle: auto-resolve (`why`), reopen (`reason`), a new `deadline` (ISO 8601, with its
    offset) and its `reason`."""

    why = Text(max_length=_REASON_MAX)
    reason = Text(max_length=_REASON_MAX)
    deadline = Text(max_length=TEXT_MAX)


_HYPOTHESES = ("hypotheses_shape", "tabletop.hypotheses_shape")


class TabletopHypothesisShape(TabletopResultShape, Part):
    """A battle's hypothetical result (A10.1 (b)): `"auto"`, or a result as A6.1 has it."""

    wrong = _HYPOTHESES

    def validate_empty_values(self, data: Any) -> tuple[bool, Any]:
        if data is None:
            raise _fail(*self.wrong)
        return super().validate_empty_values(data)

    def to_internal_value(self, data: Any) -> Any:
        if data == AUTO:
            return data
        if not isinstance(data, Mapping):
            raise _fail(*self.wrong)
        return super().to_internal_value(data)


class TabletopPreviewShape(Shape):
    """`{"hypotheses": {"region:K1": "auto" | {...}}}`."""

    hypotheses = Keyed(
        max_length=ITEMS_MAX, key_max_length=_KEY_MAX, child=TabletopHypothesisShape(), wrong=_HYPOTHESES
    )

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if "hypotheses" in value and not isinstance(value["hypotheses"], Mapping):
            raise ValidationError({"hypotheses": [refused_detail(*_HYPOTHESES)]})
        return value
