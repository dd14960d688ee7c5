"""Region battles (IRON_FIST.md §5, §7, §7.1): normal and joint attacks, and unopposed occupation."""

from __future__ import annotations

from .forces import (
    attacking_side,
    defender_takes_losses,
    groups_take_losses,
    modifiers_for,
    nation_units,
    units_of,
)
from .messages import Message, gettext_noop, messages_register
from .phase import Phase
from .seam import BattleOutcome, BattleSide, Force, Pending
from .world import homes_of

messages_register(
    {
        "outcome.unopposed": gettext_noop("no defending ground units ({rule})"),
        "outcome.neither_left": gettext_noop(
            "neither side has ground units left: the region stays with the defender ({rule})"
        ),
        "outcome.attacker_none_left": gettext_noop(
            "the attacker has no ground units left and conquers nothing ({rule})"
        ),
        "outcome.defender_none_left": gettext_noop(
            "the defender has no ground units left and loses the region ({rule})"
        ),
        "outcome.draw": gettext_noop("a draw: the region stays with the defender ({rule})"),
        "outcome.defender_won": gettext_noop("the defender won and holds the region ({rule})"),
        "outcome.attacker_won": gettext_noop("the attacker won and takes the region ({rule})"),
        "outcome.attacker_won_not_decisive": gettext_noop(
            "the attacker won, not decisively: the region stays with the defender ({rule})"
        ),
    }
)


def region_battles_resolve(phase: Phase) -> None:
    """Fight the battle of every attacked region, in region-id order."""
    world = phase.world
    for region in sorted(phase.groups):
        groups = phase.groups_into(region)
        if not groups:
            continue
        if region in phase.blocked:
            # An end of a meeting engagement without a result: the battle waits for it (TABLETOP A4.2).
            phase.waiting[f"region:{region}"] = list(phase.blocked[region])
            continue
        defender = world.owner[region]
        defending = phase.ground(region, defender) if defender else {}
        attackers = world.nation_order({g.nation for g in groups})
        if not defending:
            # §7.1: no defending ground units, no combat: the attackers occupy it.
            phase.battles.append(
                {
                    "kind": "unopposed",
                    "region": region,
                    "regions": [region],
                    "nations": attackers,
                    "defender": defender,
                    "units": {n: nation_units(groups, n) for n in attackers},
                    "winner": "+".join(sorted(attackers)),
                    "conquest": True,
                    "decided_by": Message("outcome.unopposed", {"rule": "§7.1"}).to_dict(),
                }
            )
            phase.report_stamp(phase.battles[-1], f"unopposed:{region}")
            _conquer(phase, region, attackers)
            continue

        spot = world.regions[region]
        attack = attacking_side(phase, groups, region, pincer=True)
        defence = BattleSide(
            nations=(defender,),
            role="defender",
            forces=(Force(defender, region, defending),),
            support=phase.supporters((defender,), (region,), exclude=(defender, region)),
            fort=spot.fort,
            home=defender in homes_of(spot),
            modifiers=modifiers_for(phase, region, (defender,)),
        )
        kind = "joint" if len(attackers) > 1 else "normal"
        outcome = phase.fight(
            kind,
            f"region:{region}",
            region,
            (region,),
            spot.terrain,
            world.region_weather(region),
            (attack, defence),
            fort=spot.fort,
            home=spot.home,
        )
        if isinstance(outcome, Pending):
            phase.battles.append(outcome.report)
            continue
        groups_take_losses(groups, outcome)
        defender_takes_losses(phase, region, defence, outcome)

        attackers_left = units_of(groups)
        defenders_left = sum(phase.ground(region, defender).values())
        conquest, why = _outcome(outcome, attackers_left, defenders_left)
        outcome.report["conquest"] = conquest
        outcome.report["decided_by"] = why.to_dict()
        phase.battles.append(outcome.report)
        if conquest:
            _conquer(phase, region, [n for n in attackers if nation_units(groups, n)])


def _outcome(outcome: BattleOutcome, attackers_left: int, defenders_left: int) -> tuple[bool, Message]:
    """Does the attacker conquer, and why (§5 and its three exceptions), from the winner and `decisive`."""
    if attackers_left == 0 and defenders_left == 0:
        return False, Message("outcome.neither_left", {"rule": "§5 exception 3"})
    if attackers_left == 0 and outcome.winner == 0:
        return False, Message("outcome.attacker_none_left", {"rule": "§5 exception 1"})
    if defenders_left == 0:
        return True, Message("outcome.defender_none_left", {"rule": "§5 exception 2"})
    if outcome.winner is None:
        return False, Message("outcome.draw", {"rule": "§5"})
    if outcome.winner == 1:
        return False, Message("outcome.defender_won", {"rule": "§5"})
    if outcome.why is not None:
        return outcome.decisive, outcome.why
    code = "outcome.attacker_won" if outcome.decisive else "outcome.attacker_won_not_decisive"
    return outcome.decisive, Message(code, {"rule": "§5"})


def _conquer(phase: Phase, region: str, nations: list[str]) -> None:
    """One conqueror holds the region; several settle it after all region battles (§7.2)."""
    if len(nations) == 1:
        phase.holders[region] = nations[0]
    elif nations:
        phase.conquered[region] = nations
