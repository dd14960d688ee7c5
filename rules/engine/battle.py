"""The battle step: these sides, with these forces and modifiers, fight here -> winner, losses, report.

This is the seam where another battle system plugs in: the turn pipeline builds `Side`s and a `Field`
and calls `battle_fight`; Iron Fist's KTA-and-loss-table resolver is this module (IRON_FIST.md §4, §5).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .losses import share, side_losses, winners_cap
from .ruleset import Ruleset
from .state import GMModifier

Counts = dict[str, int]


@dataclass(frozen=True)
class Supporter:
    nation: str
    region: str
    unit_type: str
    count: int


@dataclass(frozen=True)
class Side:
    nations: tuple[str, ...]  # in nation-id order
    role: str  # attacker | defender
    ground: Mapping[str, Counts]  # nation -> ground units in the battle
    support: tuple[Supporter, ...] = ()
    origins: int = 0  # distinct regions the attacking units came from (pincer); 0 for a defender
    fort: int = 0  # fort level, defender only
    home: bool = False  # defending one of its home regions
    modifiers: tuple[GMModifier, ...] = ()

    @property
    def name(self) -> str:
        return "+".join(sorted(self.nations))

    def counts(self, types: Sequence[str]) -> Counts:
        return {t: sum(units.get(t, 0) for units in self.ground.values()) for t in types}


@dataclass(frozen=True)
class Field:
    kind: str  # normal | meeting | joint | control
    label: str  # the region, or "A|B" for a meeting engagement
    regions: tuple[str, ...]
    terrain: str
    weather: str


@dataclass
class Battle:
    """What a battle decided; the caller adds what it means for the map (conquest, movements)."""

    sides: tuple[Side, Side]
    winner: int | None  # index into sides; None for a draw
    difference: int
    losses: dict[str, Counts]  # nation -> type -> units lost, after sharing
    report: dict[str, Any] = field(default_factory=dict)

    def outcome_for(self, index: int) -> str:
        if self.winner is None:
            return "draw"
        return "won" if self.winner == index else "lost"

    def survivors(self, index: int, types: Sequence[str]) -> int:
        side = self.sides[index]
        return sum(
            units.get(t, 0) - self.losses.get(nation, {}).get(t, 0)
            for nation, units in side.ground.items()
            for t in types
        )


def battle_fight(
    ground_field: Field,
    sides: tuple[Side, Side],
    *,
    ruleset: Ruleset,
    rng: random.Random,
    nation_index: Mapping[str, int],
) -> Battle:
    """Fight one battle: KTA per side (§4), the outcome and the loss-table row (§5, §5.1), losses (§5.2)."""
    kta_terms = [_kta_terms(side, ground_field, ruleset) for side in sides]
    # §11: one die per side, sides ordered by their earliest nation in nation-id order.
    dice: list[list[int]] = [[], []]
    if ruleset.kta_die is not None:
        for i in sorted((0, 1), key=lambda i: min(nation_index[n] for n in sides[i].nations)):
            dice[i] = [rng.randint(1, ruleset.kta_die.sides) for _ in range(ruleset.kta_die.count)]
            kta_terms[i].append(
                _term(
                    "fortune of war",
                    f"{ruleset.kta_die} rolled {'+'.join(map(str, dice[i]))}",
                    sum(dice[i]) + ruleset.kta_die.bonus,
                    "§4",
                )
            )
    kta = [sum(term["value"] for term in terms) for terms in kta_terms]
    difference = abs(kta[0] - kta[1])
    winner = None if kta[0] == kta[1] else (0 if kta[0] > kta[1] else 1)
    row = ruleset.loss_row(difference)

    types = ruleset.ground_types
    counts = [side.counts(types) for side in sides]
    larger = max(sum(c.values()) for c in counts)
    results = []
    for i in (0, 1):
        percent = row.loser if winner is None or winner != i else row.winner
        results.append(
            side_losses(
                ruleset=ruleset,
                percent=percent,
                counts=counts[i],
                enemy=counts[1 - i],
                larger=larger,
                superior=winner == i,
            )
        )
    side_totals = [dict(r.losses) for r in results]
    cap = None
    if winner is not None:
        loser_loss = sum(side_totals[1 - winner].values())
        before = sum(side_totals[winner].values())
        if before > loser_loss:
            side_totals[winner] = winners_cap(side_totals[winner], loser_loss, types)
            cap = {"side": sides[winner].name, "from": before, "to": loser_loss}

    losses: dict[str, Counts] = {}
    for side, totals in zip(sides, side_totals, strict=True):
        for nation in side.nations:
            losses[nation] = {}
        for unit_type, total in totals.items():
            weights = [(n, side.ground.get(n, {}).get(unit_type, 0)) for n in side.nations]
            shares = share(total, weights, lambda n, w: (-w, nation_index[n]))
            for nation, lost in shares.items():
                if lost:
                    losses[nation][unit_type] = lost

    battle = Battle(sides=sides, winner=winner, difference=difference, losses=losses)
    battle.report = {
        "kind": ground_field.kind,
        "region": ground_field.label,
        "regions": list(ground_field.regions),
        "terrain": ground_field.terrain,
        "weather": ground_field.weather,
        "nations": sorted({n for side in sides for n in side.nations}, key=nation_index.__getitem__),
        "sides": [
            {
                "name": side.name,
                "nations": list(side.nations),
                "role": side.role,
                "units": {n: {t: c for t, c in side.ground.get(n, {}).items() if c} for n in side.nations},
                "support": [vars(s).copy() for s in side.support],
                "terms": kta_terms[i],
                "dice": dice[i],
                "kta": kta[i],
                "loss_percent": results[i].percent,
                "loss_notes": results[i].notes,
                "outcome": battle.outcome_for(i),
            }
            for i, side in enumerate(sides)
        ],
        "kta": {side.name: kta[i] for i, side in enumerate(sides)},
        "difference": difference,
        "winner": None if winner is None else sides[winner].name,
        "row": [row.loser, row.winner],
        "row_range": [row.low, row.high],
        "past_threshold": difference > ruleset.conquest_threshold,
        "losses": losses,
        "winners_cap": cap,
    }
    return battle


def _term(term: str, detail: str, value: int, rule: str) -> dict[str, Any]:
    return {"term": term, "detail": detail, "value": value, "rule": rule}


def _kta_terms(side: Side, ground_field: Field, ruleset: Ruleset) -> list[dict[str, Any]]:
    """Every term of one side's KTA (§4), each with the arithmetic a player can check."""
    terrain, weather = ground_field.terrain, ground_field.weather
    terms = []
    for unit_type, count in side.counts(ruleset.ground_types).items():
        if count:
            value = ruleset.unit_value(unit_type, terrain, weather)
            terms.append(_term(unit_type, f"{count} × {value}", count * value, "§4"))
    supporting: dict[str, int] = {}
    for supporter in side.support:
        supporting[supporter.unit_type] = supporting.get(supporter.unit_type, 0) + supporter.count
    for unit_type, count in supporting.items():
        value = ruleset.unit_value(unit_type, terrain, weather)
        sources = ", ".join(f"{s.count} from {s.region}" for s in side.support if s.unit_type == unit_type)
        terms.append(_term(f"{unit_type} support", f"{count} × {value} ({sources})", count * value, "§3"))
    if side.fort:
        terms.append(
            _term(
                "fortification",
                f"level {side.fort} × {ruleset.fort_bonus_per_level}",
                side.fort * ruleset.fort_bonus_per_level,
                "§4",
            )
        )
    if side.home:
        terms.append(_term("home defence", "home region", ruleset.home_defence_bonus, "§4"))
    pincer = ruleset.pincer(side.origins)
    if pincer:
        terms.append(_term("pincer", f"from {side.origins} regions", pincer, "§4"))
    for modifier in side.modifiers:
        terms.append(
            _term("GM modifier", f"{modifier.nation}: {modifier.reason}".rstrip(": "), modifier.value, "§4")
        )
    return terms
