"""The campaign map and its company rosters as one frozen value: what processing and completion read and
return."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..graph import rings
from .dice import region_id_valid
from .problems import Problem
from .roster import Unit


@dataclass(frozen=True)
class Region:
    id: str
    terrain: str  # open | rough | city
    owner: str | None
    home: str | None = None  # the nation whose home region this is


@dataclass(frozen=True)
class Snapshot:
    """One nation's recon into one region in one turn (§10.3): each unit's best level, frozen as it stood."""

    viewer: str
    region: str
    turn: int
    levels: Mapping[int, str]  # unit id -> suspicion | known | observed
    units: Mapping[int, Mapping[str, Any]]  # unit id -> its observed card at recon time


@dataclass(frozen=True)
class CampaignState:
    nations: tuple[str, ...]  # nation-id order
    regions: Mapping[str, Region]
    borders: tuple[tuple[str, str], ...]
    units: Mapping[int, Unit]
    turn: int
    relations: Mapping[frozenset[str], str] = field(default_factory=dict)  # no entry: war (IRON_FIST.md §2.2)
    tp: Mapping[str, int] = field(default_factory=dict)
    snapshots: tuple[Snapshot, ...] = ()
    command_styles: Mapping[str, str] = field(default_factory=dict)  # nation -> company | battle_groups

    def adjacency(self) -> dict[str, set[str]]:
        adjacent: dict[str, set[str]] = {r: set() for r in self.regions}
        for a, b in self.borders:
            adjacent[a].add(b)
            adjacent[b].add(a)
        return adjacent

    def owner(self, region: str) -> str | None:
        return self.regions[region].owner

    def relation(self, a: str, b: str) -> str:
        return self.relations.get(frozenset((a, b)), "war")

    def at_war(self, a: str, b: str) -> bool:
        return a != b and self.relation(a, b) == "war"

    def style(self, nation: str) -> str:
        return self.command_styles.get(nation, "company")

    def active_units(self, nation: str | None = None) -> list[Unit]:
        return sorted(
            (u for u in self.units.values() if u.active and (nation is None or u.nation == nation)),
            key=lambda u: u.id,
        )

    def nation_order(self, nations: Iterable[str]) -> list[str]:
        index = {n: i for i, n in enumerate(self.nations)}
        return sorted(set(nations), key=lambda n: (index.get(n, len(index)), n))


def distances(adjacency: Mapping[str, set[str]], start: str) -> dict[str, int]:
    """Borders from `start` to every region it can reach, over the whole map whoever owns it (IRON_FIST.md
    §3)."""
    return rings(start, lambda ring: [there for here in ring for there in sorted(adjacency.get(here, ()))])


def map_problems(regions: Iterable[str]) -> list[Problem]:
    """A company campaign's map: no region may be `gm` or contain `|`, so no two dice streams share a
    string (§8.1, `region_id_invalid`)."""
    return [Problem("region_id_invalid", region) for region in regions if not region_id_valid(region)]
