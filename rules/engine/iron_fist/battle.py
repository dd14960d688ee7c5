"""Iron Fist's battle: KTA per side, the loss table, the losses (IRON_FIST.md §4, §5).

`iron_fist_fight(call)` is Iron Fist's side of the seam (`rules/engine/seam.py`): the pipeline builds the
call, this decides the winner, whether the win is decisive (past the conquest threshold) and the losses.
"""

from __future__ import annotations

from typing import Any

from ..messages import Message, gettext_noop, message_data, messages_register
from ..seam import BattleCall, BattleOutcome, BattleSide
from ..sharing import share
from .losses import side_losses, winners_cap
from .ruleset import IronFistRuleset

Counts = dict[str, int]

messages_register(
    {
        "iron_fist.past_threshold": gettext_noop(
            "the attacker won by {difference}, past the conquest threshold of {threshold} ({rule})"
        ),
        "iron_fist.within_threshold": gettext_noop(
            "the attacker won by {difference}, not past the conquest threshold of {threshold} ({rule})"
        ),
        # A KTA term's arithmetic (§3, §4).
        "iron_fist.term.units": gettext_noop("{count} × {value}"),
        "iron_fist.term.support": gettext_noop("{count} × {value} ({sources})"),
        "iron_fist.term.source": gettext_noop("{count} from {region}"),
        "iron_fist.term.fortification": gettext_noop("level {level} × {bonus}"),
        "iron_fist.term.home": gettext_noop("home region"),
        "iron_fist.term.pincer": gettext_noop("from {count} regions"),
        "iron_fist.term.dice": gettext_noop("{die} rolled {rolls}"),
        "iron_fist.term.gm_modifier": gettext_noop("{nation}"),
        "iron_fist.term.gm_modifier_why": gettext_noop("{nation}: {reason}"),
        # How a side's losses of one type were rounded (§5.2).
        "iron_fist.loss.rounded_up": gettext_noop("{percent}% of {count} × {larger}/{total}, rounded up"),
        "iron_fist.loss.superiority": gettext_noop(
            "{percent}% of {count} × {larger}/{total}, rounded down: superiority"
        ),
        "iron_fist.loss.all": gettext_noop("{note}, more than it had: all {count}"),
        # The same in words, with the exact value and what it was rounded to (reports since these codes).
        "iron_fist.loss.up_to": gettext_noop(
            "{percent} % of {count}, scaled by the larger side's {larger} ground units to this side's "
            "{total}: {exact}, rounded up to {loss}"
        ),
        "iron_fist.loss.down_to": gettext_noop(
            "{percent} % of {count}, scaled by the larger side's {larger} ground units to this side's "
            "{total}: {exact}, rounded down to {loss} (superiority)"
        ),
    }
)


def iron_fist_fight(call: BattleCall) -> BattleOutcome:
    """Fight one battle: KTA per side (§4), the outcome and the loss-table row (§5, §5.1), losses (§5.2)."""
    ruleset: IronFistRuleset = call.ruleset
    sides, nation_index = call.sides, call.nation_index
    types = ruleset.ground_types
    counts = [side.counts(types) for side in sides]
    kta_terms = [_kta_terms(side, counts[i], call, ruleset) for i, side in enumerate(sides)]
    # §11: one die per side, sides ordered by their earliest nation in nation-id order.
    dice: list[list[int]] = [[], []]
    die = ruleset.kta_die
    if die is not None:
        die_text = str(die)
        earliest = [min([nation_index[n] for n in side.nations]) for side in sides]
        for i in (0, 1) if earliest[0] <= earliest[1] else (1, 0):
            dice[i] = [call.dice.randint(1, die.sides) for _ in range(die.count)]
            kta_terms[i].append(
                _term(
                    "fortune of war",
                    message_data(
                        "iron_fist.term.dice", {"die": die_text, "rolls": "+".join(map(str, dice[i]))}
                    ),
                    sum(dice[i]) + die.constant,
                    "§4",
                )
            )
    kta = [sum([term["value"] for term in terms]) for terms in kta_terms]
    difference = abs(kta[0] - kta[1])
    winner = None if kta[0] == kta[1] else (0 if kta[0] > kta[1] else 1)
    row = ruleset.loss_row(difference)

    larger = max([sum(c.values()) for c in counts])
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
    side_totals = [r.losses for r in results]  # not copied: winners_cap returns a new dict
    cap = None
    if winner is not None:
        loser_loss = sum(side_totals[1 - winner].values())
        before = sum(side_totals[winner].values())
        if before > loser_loss:
            side_totals[winner] = winners_cap(side_totals[winner], loser_loss, types)
            cap = {"side": sides[winner].name, "from": before, "to": loser_loss}

    def more_units_then_nation_id(nation: str, units: int) -> tuple[int, int]:
        return -units, nation_index[nation]

    losses: dict[str, Counts] = {}
    for side, totals in zip(sides, side_totals, strict=True):
        ground = side.ground
        for nation in side.nations:
            losses[nation] = {}
        for unit_type, total in totals.items():
            weights = [(n, ground.get(n, {}).get(unit_type, 0)) for n in side.nations]
            shares = share(total, weights, more_units_then_nation_id)
            for nation, lost in shares.items():
                if lost:
                    losses[nation][unit_type] = lost

    outcome_for = ("draw", "draw") if winner is None else ("won", "lost") if winner == 0 else ("lost", "won")
    report = {
        **call.report_place(),
        "nations": sorted({n for side in sides for n in side.nations}, key=nation_index.__getitem__),
        "sides": [
            {
                "name": side.name,
                "nations": list(side.nations),
                "role": side.role,
                "units": side.ground,
                "support": [vars(s).copy() for s in side.support],
                "terms": kta_terms[i],
                "dice": dice[i],
                "kta": kta[i],
                "loss_percent": results[i].percent,
                "loss_notes": results[i].notes,
                "outcome": outcome_for[i],
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
    decisive = winner is not None and difference > ruleset.conquest_threshold
    why = Message(
        "iron_fist.past_threshold" if decisive else "iron_fist.within_threshold",
        {"difference": difference, "threshold": ruleset.conquest_threshold, "rule": "§5"},
    )
    return BattleOutcome(winner=winner, decisive=decisive, losses=losses, report=report, why=why)


def _term(term: str, detail: dict[str, Any], value: int, rule: str) -> dict[str, Any]:
    return {"term": term, "detail": detail, "value": value, "rule": rule}


def _kta_terms(
    side: BattleSide, counts: Counts, call: BattleCall, ruleset: IronFistRuleset
) -> list[dict[str, Any]]:
    """Every term of one side's KTA (§4), each with the arithmetic a player can check; `counts` are the
    side's ground units by type."""
    terrain, weather = call.terrain, call.weather
    terms = []
    for unit_type, count in counts.items():
        if count:
            value = ruleset.unit_value(unit_type, terrain, weather)
            terms.append(
                _term(
                    unit_type,
                    message_data("iron_fist.term.units", {"count": count, "value": value}),
                    count * value,
                    "§4",
                )
            )
    supporting: dict[str, int] = {}
    for supporter in side.support:
        supporting[supporter.unit_type] = supporting.get(supporter.unit_type, 0) + supporter.count
    for unit_type, count in supporting.items():
        value = ruleset.unit_value(unit_type, terrain, weather)
        sources = [
            message_data("iron_fist.term.source", {"count": s.count, "region": s.region})
            for s in side.support
            if s.unit_type == unit_type
        ]
        detail = message_data("iron_fist.term.support", {"count": count, "value": value, "sources": sources})
        terms.append(_term(f"{unit_type} support", detail, count * value, "§3"))
    if side.fort:
        terms.append(
            _term(
                "fortification",
                message_data(
                    "iron_fist.term.fortification",
                    {"level": side.fort, "bonus": ruleset.fort_bonus_per_level},
                ),
                side.fort * ruleset.fort_bonus_per_level,
                "§4",
            )
        )
    if side.home:
        terms.append(
            _term("home defence", message_data("iron_fist.term.home", {}), ruleset.home_defence_bonus, "§4")
        )
    pincer = ruleset.pincer(side.origins)
    if pincer:
        terms.append(
            _term("pincer", message_data("iron_fist.term.pincer", {"count": side.origins}), pincer, "§4")
        )
    for modifier in side.modifiers:
        detail = (
            message_data(
                "iron_fist.term.gm_modifier_why", {"nation": modifier.nation, "reason": modifier.reason}
            )
            if modifier.reason
            else message_data("iron_fist.term.gm_modifier", {"nation": modifier.nation})
        )
        terms.append(_term("GM modifier", detail, modifier.value, "§4"))
    return terms
