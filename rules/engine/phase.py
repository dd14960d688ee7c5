"""The combat phase's working state: where every unit stands after movement, and who supports what.

The resolver's steps (meeting engagements, region battles, control battles, support losses, aftermath)
read and update one `Phase`; nothing outside the engine ever sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .ruleset import Ruleset
from .seam import REPORT_FORMAT, BattleCall, BattleOutcome, BattleSide, DiceSource, Pending, Supporter
from .state import CONSUMING, Movement, Order, OrderKind
from .systems import BattleSystem
from .world import Counts, World


@dataclass(eq=False)  # two groups are the same only when they are the same object
class AttackGroup:
    """One nation's units attacking from one region into another (§2.1 `attack`)."""

    nation: str
    origin: str
    target: str
    units: Counts  # ground units still in the attack

    def total(self) -> int:
        return sum(self.units.values())


class Garrison(dict[str, dict[str, Counts]]):
    """region -> nation -> units standing there (not attacking), starting from the world's (World.units).

    A region the phase has not changed is the world's own dict, not a copy: a turn changes a few regions
    in ten, and copying every region was a tenth of a turn. So the phase changes a region's units only
    through `units_at` and `take`, which copy the region's the first time; everything else only reads."""

    def __init__(self, units: Mapping[str, dict[str, Counts]]) -> None:
        super().__init__(units)
        self.copied: set[str] = set()  # the regions whose dicts are the phase's own

    def units_at(self, region: str, nation: str) -> Counts:
        """The nation's units in `region`, to change."""
        return self._own(region).setdefault(nation, {})

    def take(self, region: str, nation: str) -> Counts:
        """Remove the nation's units from `region` and return them."""
        if nation not in self.get(region, ()):
            return {}
        return self._own(region).pop(nation)

    def _own(self, region: str) -> dict[str, Counts]:
        if region not in self.copied:
            self.copied.add(region)
            self[region] = {nation: dict(units) for nation, units in self.get(region, {}).items()}
        return self[region]


@dataclass
class Phase:
    world: World
    ruleset: Ruleset
    system: BattleSystem
    dice: DiceSource
    garrison: Garrison  # region -> nation -> units standing there (not attacking)
    groups: dict[str, list[AttackGroup]]  # target region -> attacks into it still under way
    supporting: dict[tuple[str, str, str], int]  # (nation, region, type) -> units supporting (§3)
    support_outcomes: dict[tuple[str, str, str], list[tuple[str, str]]] = field(default_factory=dict)
    battles: list[dict[str, Any]] = field(default_factory=list)
    conquered: dict[str, list[str]] = field(default_factory=dict)  # region -> nations still in it, to settle
    holders: dict[str, str | None] = field(default_factory=dict)  # region -> who holds it after the phase
    winning_blocs: dict[str, list[str]] = field(default_factory=dict)  # region -> bloc that won control
    settlements: list[dict[str, Any]] = field(default_factory=list)
    movements: list[Movement] = field(default_factory=list)
    moves_at: dict[str, list[Movement]] = field(default_factory=dict)  # battle region -> where survivors went
    control_rounds: dict[str, int] = field(default_factory=dict)  # region -> control battles fought there
    pending: list[Pending] = field(default_factory=list)  # battles fought elsewhere, still without a result
    inputs: Mapping[str, Any] = field(default_factory=dict)  # the system's own turn inputs
    seed: int = 0  # the turn seed (BattleCall.seed)
    # region -> the pending meeting engagements at it; their armies' fate is unknown, so no battle or
    # occupation there can be fought yet (TABLETOP A4.2)
    blocked: dict[str, list[str]] = field(default_factory=dict)
    waiting: dict[str, list[str]] = field(default_factory=dict)  # battle key -> the meetings it waits for
    _supporters_at: dict[str, list[tuple[str, str, int]]] = field(init=False, repr=False)
    _in_range: dict[tuple[str, ...], list] = field(init=False, repr=False)  # regions -> Phase._in_range_of
    # (nation, region, type) -> its Supporter, made the first time the stack is in range of a battle and
    # shared by every battle after (a Supporter is frozen)
    _supporter: dict[tuple[str, str, str], Supporter] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # `supporting` indexed by region, for finding the supporters around a battle.
        self._supporters_at, self._in_range, self._supporter = {}, {}, {}
        for (nation, region, unit_type), count in self.supporting.items():
            self._supporters_at.setdefault(region, []).append((nation, unit_type, count))

    def units_at(self, region: str, nation: str) -> Counts:
        return self.garrison.units_at(region, nation)

    def add_units(self, region: str, nation: str, units: Counts) -> None:
        here = self.units_at(region, nation)
        for unit_type, count in units.items():
            here[unit_type] = here.get(unit_type, 0) + count

    def ground(self, region: str, nation: str) -> Counts:
        here = self.garrison.get(region, {}).get(nation, {})
        return {t: here[t] for t in self.ruleset.ground_types if here.get(t)}

    def groups_into(self, region: str) -> list[AttackGroup]:
        return self.groups.get(region, [])

    def all_groups(self) -> list[AttackGroup]:
        return [g for target in sorted(self.groups) for g in self.groups[target]]

    def supporters(
        self, nations: Sequence[str], regions: tuple[str, ...], exclude: tuple[str, str] | None
    ) -> tuple[Supporter, ...]:
        """Artillery and air of `nations` whose range covers every one of `regions` (§3, §6).

        `exclude` is (nation, region) of the defender whose artillery fights on the ground there.
        """
        in_range = self._in_range.get(regions)
        if in_range is None:  # both sides of a battle ask about the same regions: found once for both
            in_range = self._in_range[regions] = self._in_range_of(regions)
        unit_types = self.ruleset.unit_types
        return tuple(
            [
                supporter
                for _, supporter in in_range
                if supporter.nation in nations
                and not (
                    (supporter.nation, supporter.region) == exclude
                    and unit_types[supporter.unit_type].role == "artillery"
                )
            ]
        )

    def _in_range_of(self, regions: tuple[str, ...]) -> list[tuple[tuple[int, str, int], Supporter]]:
        """Every supporting stack, of any nation, whose range covers every one of `regions`, as (sort key,
        supporter), in nation-id order, then by region, then artillery before air."""
        ranges = self.ruleset.ranges
        if not ranges or not self.system.policies.support_from_range:
            return []
        farthest = max(ranges.values())
        reach = [self.world.within(r, farthest) for r in regions]
        order = self.world.nation_index
        rank = self.ruleset.support_rank
        beyond = farthest + 1  # farther than any range: not reached from that region
        found = []
        for region in reach[0]:
            here = self._supporters_at.get(region)
            if here is None:
                continue
            # In range of every one of `regions` when in range of the farthest of them.
            distance = max([r.get(region, beyond) for r in reach])
            for nation, unit_type, count in here:
                if distance <= ranges[unit_type]:
                    key = (nation, region, unit_type)
                    supporter = self._supporter.get(key)
                    if supporter is None:
                        supporter = self._supporter[key] = Supporter(nation, region, unit_type, count)
                    found.append(((order[nation], region, rank[unit_type]), supporter))
        found.sort()  # by the key alone: no two stacks share one
        return found

    def report_stamp(self, report: dict[str, Any], key: str) -> None:
        """What every report carries whoever wrote it (BATTLE_SYSTEMS.md, Reports): system, format, key."""
        report.update({"system": self.system.name, "format": REPORT_FORMAT, "key": key})

    def fight(
        self,
        kind: str,
        key: str,
        label: str,
        regions: tuple[str, ...],
        terrain: str,
        weather: str,
        sides: tuple[BattleSide, BattleSide],
        *,
        fort: int = 0,
        home: str | None = None,
    ) -> BattleOutcome | Pending:
        """The battle step: the campaign's battle system decides this battle (rules/engine/seam.py).

        The report is stamped with the system and the report format; supporting stacks remember how
        their side did (§8-9). A pending battle is remembered for the turn's status.
        """
        call = BattleCall(
            key=key,
            kind=kind,
            label=label,
            regions=regions,
            terrain=terrain,
            weather=weather,
            sides=sides,
            ruleset=self.ruleset,
            dice=self.dice,
            nation_index=self.world.nation_index,
            fort=fort,
            home=home,
            inputs=self.inputs,
            seed=self.seed,
        )
        outcome = self.system.fight(call)
        self.report_stamp(outcome.report, key)
        # Who may read the report (fog of war): every nation of either side, in nation-id order.
        if "nations" not in outcome.report:
            outcome.report["nations"] = self.world.nation_order({n for side in sides for n in side.nations})
        if isinstance(outcome, Pending):
            self.pending.append(outcome)
            return outcome
        for index, side in enumerate(sides):
            how = (label, outcome.outcome_for(index))
            for s in side.support:
                self.support_outcomes.setdefault((s.nation, s.region, s.unit_type), []).append(how)
        return outcome


def phase_start(
    world: World,
    ruleset: Ruleset,
    system: BattleSystem,
    orders: Sequence[Order],
    dice: DiceSource,
    inputs: Mapping[str, Any],
    seed: int = 0,
) -> Phase:
    """Apply the accepted orders' movement (§2 step 2) and take the support snapshot (§3)."""
    garrison = Garrison(world.units)
    groups: dict[tuple[str, str, str], AttackGroup] = {}
    standing_down: dict[tuple[str, str, str], int] = {}
    arrivals = []
    for order in orders:
        if order.kind == OrderKind.STAND_DOWN:
            for unit_type, count in order.units.items():
                key = (order.nation, order.origin, unit_type)
                standing_down[key] = standing_down.get(key, 0) + count
            continue
        if order.kind not in CONSUMING:
            continue
        here = garrison.units_at(order.origin, order.nation)
        for unit_type, count in order.units.items():
            here[unit_type] -= count
        if order.kind == OrderKind.ATTACK:
            key = (order.nation, order.origin, order.target)
            group = groups.get(key)
            if group is None:
                group = groups[key] = AttackGroup(order.nation, order.origin, order.target, {})
            for unit_type, count in order.units.items():
                group.units[unit_type] = group.units.get(unit_type, 0) + count
        else:
            arrivals.append(order)
    for order in arrivals:
        here = garrison.units_at(order.target, order.nation)
        for unit_type, count in order.units.items():
            here[unit_type] = here.get(unit_type, 0) + count

    # §13: stand-downs add up and affect at most the units still in the region after movement. In the
    # garrison's order: whoever reads `supporting` in an order sorts it (Phase.supporters, support losses).
    supporting = {}
    support_types = ruleset.support_types
    for region, by_nation in garrison.items():
        for nation, units in by_nation.items():
            for unit_type in support_types:
                count = units.get(unit_type)
                if count:
                    count -= standing_down.get((nation, region, unit_type), 0)
                    if count > 0:
                        supporting[(nation, region, unit_type)] = count
    by_target: dict[str, list[AttackGroup]] = {}
    for group in sorted(groups.values(), key=lambda g: (g.target, g.origin)):
        by_target.setdefault(group.target, []).append(group)
    return Phase(
        world=world,
        ruleset=ruleset,
        system=system,
        dice=dice,
        garrison=garrison,
        groups=by_target,
        supporting=supporting,
        inputs=inputs,
        seed=seed,
    )
