"""Breadth-first reach over borders, written once: the engine's ranges (a rebase's reach, support from
range), the order form's targets, order entry's map around an origin and the scenario check that every
region can be reached all count borders with it."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

Node = TypeVar("Node", bound=Hashable)


def rings(
    start: Node, neighbours: Callable[[list[Node]], Iterable[Node]], radius: int | None = None
) -> dict[Node, int]:
    """Every node reached from `start` crossing at most `radius` borders (None: no limit), with its
    distance (`start` itself: 0). `neighbours(ring)` gives the nodes next to any node of a ring, one call a
    ring, so that a caller reading the map from a database reads it one ring at a time."""
    found = {start: 0}
    ring, distance = [start], 0
    while ring and (radius is None or distance < radius):
        distance += 1
        # In the order the neighbours come, never a set's: the engine's dice follow this order, and a set
        # of strings iterates differently in every process.
        reached = []
        for node in neighbours(ring):
            if node not in found:
                found[node] = distance
                reached.append(node)
        ring = reached
    return found


def within(
    adjacency: Mapping[Node, Iterable[Node]], start: Node, radius: int | None = None
) -> dict[Node, int]:
    """`rings` over a map held in memory: node -> its neighbours."""
    return rings(start, lambda ring: [n for here in ring for n in adjacency.get(here, ())], radius)
