"""Border pairs as a graph. Pure Python (no Django), so the scenario checks, the random map generator and
the engine's benchmark share it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def adjacency(codes: Iterable[str], borders: Iterable[Sequence[str]]) -> dict[str, list[str]]:
    """Each region's neighbours, from unordered border pairs."""
    neighbours: dict[str, list[str]] = {code: [] for code in codes}
    for a, b in borders:
        neighbours[a].append(b)
        neighbours[b].append(a)
    return neighbours
