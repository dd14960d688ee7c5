"""Dice sources and the parts every roll shares (COMPANY.md §8.1, §8.3, §8.4): streams and their seeds, the
d20 draw, advantage and disadvantage sources, modifiers.

A dice source is anything with `randint(low, high)`; a die of M sides is `randint(1, M)`. In production it
is a `random.Random` seeded per stream (`stream_seed`); the case runner and the tests script it.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.messages import Message, gettext_noop, messages_register
from rules.engine.seam import DiceSource

from ..dice_expression import DiceExpression
from .expressions import expression_parse
from .problems import PREFIX, refuse, whole
from .ruleset import CompanyRuleset


def stream_seed(text: str) -> int:
    """seed(s) = the first 8 bytes of sha256(s), big-endian (§8.1)."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def turn_stream(campaign_seed: int | str, turn: int) -> str:
    """The turn's stream: recon at processing, nothing else."""
    return f"{campaign_seed}:{turn}"


def battle_stream(campaign_seed: int | str, turn: int, battle_key: str) -> str:
    return f"{campaign_seed}:{turn}:{battle_key}"


def gm_stream(campaign_seed: int | str, turn: int) -> str:
    return f"{campaign_seed}:{turn}:gm"


def region_id_valid(region: str) -> bool:
    """No two streams share a string: a region may not be `gm` or contain `|` (§8.1, `region_id_invalid`)."""
    return region != "gm" and "|" not in region


def seeded(text: str) -> random.Random:
    return random.Random(stream_seed(text))


class Recorder:
    """Wraps a dice source and keeps every die drawn, as (sides, value), in draw order (the log, §8.2)."""

    def __init__(self, source: DiceSource) -> None:
        self.source = source
        self.dice: list[tuple[int, int]] = []

    def randint(self, low: int, high: int) -> int:
        value = self.source.randint(low, high)
        self.dice.append((high, value))
        return value

    def die(self, sides: int) -> int:
        return self.randint(1, sides)


def expression_of(text: Any) -> DiceExpression:
    expression = expression_parse(text)
    if expression is None:
        raise refuse("expression_invalid", text)
    return expression


def expression_roll(expression: DiceExpression, dice: Recorder) -> tuple[list[int], int]:
    """Its dice left to right, and their sum + K (§8.3)."""
    values = [dice.die(expression.sides) for _ in range(expression.count)]
    return values, sum(values) + expression.constant


@dataclass(frozen=True)
class Sources:
    advantage: tuple[str, ...]
    disadvantage: tuple[str, ...]

    @property
    def mode(self) -> str:
        """Sources do not stack, and one of each cancels to a normal roll with one die (§8.3, ¶4)."""
        if self.advantage and self.disadvantage:
            return "normal"
        return "advantage" if self.advantage else "disadvantage" if self.disadvantage else "normal"


def sources_check(part: Mapping[str, Any], ruleset: CompanyRuleset) -> Sources:
    """A part's sources (§8.3): `source_unknown` (advantage list first), then `reason_required` for
    `other`."""
    lists = []
    for key in ("advantage", "disadvantage"):
        given = part.get(key) or []
        if not isinstance(given, list | tuple):
            raise refuse("source_unknown", given)
        allowed = ruleset.get(f"dice.{key}_sources")
        for source in given:
            if source not in allowed:
                raise refuse("source_unknown", source)
        lists.append(tuple(given))
    reason = part.get("source_reason")
    if "other" in lists[0] + lists[1] and not (isinstance(reason, str) and reason.strip()):
        raise refuse("reason_required", "source_reason")
    return Sources(lists[0], lists[1])


def d20_draw(mode: str, dice: Recorder) -> tuple[list[int], int]:
    """One d20, or two (first, second) keeping the higher or the lower (§8.3, ¶36)."""
    if mode == "normal":
        die = dice.die(20)
        return [die], die
    first, second = dice.die(20), dice.die(20)
    return [first, second], max(first, second) if mode == "advantage" else min(first, second)


def part(code: str, value: int, **params: Any) -> dict[str, Any]:
    """One resolved bonus with its origin, as the log shows it (§8.2): "TT 3 = K 1 + ⌊23/10⌋", "cover +4".

    A roll's totals are the sums of its parts, so what the log explains is what was added."""
    return {"code": code, "value": value, **params}


PART_TEMPLATES = {
    "tt": gettext_noop("TT {value} = K {k} + ⌊{xp}/{step}⌋"),
    "m": gettext_noop("M {value:+d}"),
    "s": gettext_noop("S {value}"),
    "h": gettext_noop("H {value:+d}"),
    "bonus": gettext_noop("GM bonus {value:+d}"),
    "support": gettext_noop("{support} {value:+d}"),
    "cover": gettext_noop("cover {cover} {value:+d}"),
    "terrain": gettext_noop("terrain {terrain} {value:+d}"),
    "ability": gettext_noop("{ability} {value:+d}"),
    "modifier": gettext_noop("{modifier} {value:+d}"),
}
messages_register(PART_TEMPLATES, prefix=PREFIX + "part.")


def part_message(resolved: Mapping[str, Any]) -> Message:
    """A resolved bonus as a message to render at the edge."""
    return Message(f"{PREFIX}part.{resolved['code']}", {k: v for k, v in resolved.items() if k != "code"})


@dataclass(frozen=True)
class Modifiers:
    total: int
    items: tuple[tuple[str, int], ...]  # (code, value) per declared modifier, for the log's resolved bonuses
    commander_lost: bool  # declared: it counts at most once (§8.4)

    @property
    def parts(self) -> list[dict[str, Any]]:
        return [part("modifier", value, modifier=code) for code, value in self.items]


def modifiers_check(given: Any, function: str, ruleset: CompanyRuleset) -> Modifiers:
    """§8.4, for each modifier in order: `modifier_unknown`, `modifier_not_applicable`, then for `other`
    `reason_required` and `not_an_integer` (value), and `not_an_integer` for a bad `count`."""
    if given is None:
        given = []
    if not isinstance(given, list | tuple):
        raise refuse("modifier_unknown", given)
    table = ruleset.get("dice.modifiers")
    total, items, commander_lost = 0, [], False
    for modifier in given:
        code = modifier.get("code") if isinstance(modifier, Mapping) else modifier
        if code != "other" and code not in table:
            raise refuse("modifier_unknown", code)
        if code != "other" and function not in table[code]["applies"]:
            raise refuse("modifier_not_applicable", code, function=function)
        if code == "other":
            reason = modifier.get("reason")
            if not (isinstance(reason, str) and reason.strip()):
                raise refuse("reason_required", "other")
            value = modifier.get("value")
            if not whole(value):
                raise refuse("not_an_integer", "value", field="value", value=value)
        else:
            value = table[code]["value"]
        count = modifier.get("count", 1) if isinstance(modifier, Mapping) else 1
        if not whole(count) or count < 1:
            raise refuse("not_an_integer", "count", field="count", value=count)
        if code == "commander_lost":
            # at most once per roll, whatever the count or repeats (§8.4, cases/company_d20/15)
            if not commander_lost:
                total += value
                items.append((code, value))
            commander_lost = True
            continue
        total += value * count
        items.append((code, value * count))
    return Modifiers(total, tuple(items), commander_lost)


def integer_input(inputs: Mapping[str, Any], key: str, *, required: bool = False) -> int | None:
    """A number of the inputs (`dc`, `bonus`, `s`, ...): `not_an_integer` unless whole (§8.5)."""
    value = inputs.get(key)
    if value is None and not required:
        return None
    if not whole(value):
        raise refuse("not_an_integer", key, field=key, value=value)
    return value
