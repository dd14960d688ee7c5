"""Which targets each origin may send an order of each kind to, and why the others are refused.

The engine's own target rules (rules.engine.validation.target_reason) judge every region within reach of
each origin, so the form offers only the legal targets for the kind chosen and the map's script can infer
the kind from the region clicked and say why a region is not a target. A pure function of the map.
"""

from __future__ import annotations

import re
from typing import Any

from frontend.terms import said
from rules.engine.ruleset import Ruleset
from rules.engine.validation import KIND_ROLES, target_reason
from rules.engine.world import World

TARGETED = ("attack", "move", "rebase")


def targets_judged(
    *,
    regions: list[dict[str, Any]],
    nations: dict[int, dict[str, Any]],
    neighbours: dict[int, set[int]],
    not_at_war: dict[frozenset[str], str],
    nation: str,
    left: dict[str, dict[str, int]],
    ruleset: Ruleset,
) -> dict[str, dict[str, dict[str, str | None]]]:
    """{origin: {kind: {target: None when legal, else the reason in the reader's language}}} for every
    origin in `left` (the nation's units left there by type) and every region within its reach."""
    code_of = {r["id"]: r["code"] for r in regions}
    owner = {r["code"]: nations[r["owner_id"]]["code"] if r["owner_id"] in nations else None for r in regions}
    world = World(
        nations=tuple(n["code"] for n in nations.values()),
        nation_index={n["code"]: i for i, n in enumerate(nations.values())},
        regions=dict.fromkeys(owner),
        adjacency={
            code_of[a]: tuple(code_of[b] for b in sorted(bs) if b in code_of)
            for a, bs in neighbours.items()
            if a in code_of
        },
        owner=owner,
        units={},
        not_at_war=not_at_war,
        weather="",
        gm_modifiers={},
    )
    for code in owner:
        world.adjacency.setdefault(code, ())
    steps = max([1, *ruleset.ranges.values()])
    judged: dict[str, dict[str, dict[str, str | None]]] = {}
    # Rendered once each: the same refusal comes for each kind (attack and move), and renders the same.
    rendered: dict[str, str] = {}  # a message's repr (its code and parameters) -> its text
    for origin, units in left.items():
        if origin not in owner:
            continue
        kinds: dict[str, dict[str, str | None]] = {}
        for kind in TARGETED:
            # Only the kinds this origin has units left for: a stack without IV has nothing to rebase.
            types = [t for t in ruleset.types_with_role(*KIND_ROLES[kind]) if units.get(t, 0) > 0]
            if not types:
                continue
            kinds[kind] = {}
            for target in sorted(world.within(origin, steps)):
                if target == origin:
                    continue
                why = target_reason(
                    world, ruleset, nation=nation, kind=kind, origin=origin, target=target, units=types
                )
                if why is None:
                    kinds[kind][target] = None
                    continue
                key = repr(why.message)
                if key not in rendered:
                    rendered[key] = said(why.message)
                kinds[kind][target] = rendered[key]
        judged[origin] = kinds
    return judged


def targets_legal(judged: dict[str, dict[str, str | None]], kind: str | None) -> list[str]:
    """The legal targets of one origin for `kind`; for an order without a target (hold, stand down: the
    form's starting kind), those of any kind, so that a form without script still offers them all."""
    if kind in judged:
        return sorted(t for t, why in judged[kind].items() if why is None)
    return sorted({t for by_target in judged.values() for t, why in by_target.items() if why is None})


def targets_compact(
    judged: dict[str, dict[str, dict[str, str | None]]],
) -> tuple[dict[str, dict[str, dict[str, int | str | None]]], list[str]]:
    """`judged` (targets_judged) for the page's script, with each reason sent once: a reason that names its
    target and origin is sent as a template, "{target} is not adjacent to {origin}", in a list of the
    distinct templates that the targets point into by position; the script fills them back in. On a
    2,000-region map nearly every refusal is a different "X is not adjacent to Y": a sixth of the page.

    A reason with braces or "%(" of its own (a region's name) stays as it is, where the script uses it as
    it comes."""
    templates: dict[str, int] = {}
    compact: dict[str, dict[str, dict[str, int | str | None]]] = {}
    for origin, kinds in judged.items():
        compact[origin] = {}
        for kind, by_target in kinds.items():
            compact[origin][kind] = {}
            for target, why in by_target.items():
                if why is None or "{" in why or "%(" in why:
                    compact[origin][kind][target] = why
                    continue
                template = _template(why, target=target, origin=origin)
                compact[origin][kind][target] = templates.setdefault(template, len(templates))
    return compact, list(templates)


WORD = re.compile(r"\w+")


def _template(reason: str, *, target: str, origin: str) -> str:
    """The reason with the words that are its target's and origin's codes as {target} and {origin}: one
    pass with one pattern for every reason (a pattern per pair of codes would be compiled each time)."""
    placeholders = {target: "{target}", origin: "{origin}"}
    return WORD.sub(lambda word: placeholders.get(word.group(0), word.group(0)), reason)
