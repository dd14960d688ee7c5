"""Which targets each origin may send an order of each kind to, and why the others are refused.

The engine's own target rules (rules.engine.validation.target_reason) judge every region within reach of
each origin, so the form offers only the legal targets for the kind chosen and the map's script can infer
the kind from the region clicked and say why a region is not a target. A pure function of the map, its
relations and the units: judged once per process for the same of them (targets_judged).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from frontend.terms import said
from rules.engine.graph import within
from rules.engine.messages import Message
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
) -> dict[str, dict[str, dict[str, Message | None]]]:
    """{origin: {kind: {target: None when legal, else the engine's reason}}} for every origin in `left`
    (the nation's units left there by type) and every region within its reach. The reasons are messages,
    not yet words: the page's script gets each of them once (targets_compact).

    Judged once per process for the same map, relations and units (_judge, whose key is everything the
    target rules read): a player's campaign page is shown again after every order, and judging was a
    fifth of it. The result is shared between requests: read it, never change it."""
    code_of = {r["id"]: r["code"] for r in regions}
    id_of = {r["code"]: r["id"] for r in regions}
    owner = {r["code"]: nations[r["owner_id"]]["code"] if r["owner_id"] in nations else None for r in regions}
    steps = max([1, *ruleset.ranges.values()])
    # The world's borders are those that a reach of `steps` from the origins crosses, the borders of the
    # regions fewer than `steps` borders from one: all that the target rules read, and on a 2,000-region
    # map a few hundred regions' instead of every one's.
    near: set[int] = set()
    for origin in left:
        if origin in id_of:
            near.update(within(neighbours, id_of[origin], steps - 1))
    adjacency = {
        code_of[a]: tuple(code_of[b] for b in sorted(neighbours.get(a, ())) if b in code_of)
        for a in near
        if a in code_of
    }
    return _judge(
        Judging(
            nation=nation,
            nations=tuple(n["code"] for n in nations.values()),
            owner=tuple(owner.items()),
            adjacency=tuple(sorted(adjacency.items())),
            not_at_war=frozenset(not_at_war.items()),
            # The rules read only which types an origin has units of, not how many.
            left=tuple((o, frozenset(t for t, n in units.items() if n > 0)) for o, units in left.items()),
            ruleset=Same(ruleset),
        )
    )


class Same:
    """A ruleset in a key, equal to another only when it is the same object: rulesets are frozen and made
    once per campaign's rules (Campaign.ruleset), and unhashable. A key in the cache holds its ruleset,
    so no other ruleset can be made at the same id while the key is there."""

    __slots__ = ("ruleset",)

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.ruleset is self.ruleset

    def __hash__(self) -> int:
        return id(self.ruleset)


@dataclass(frozen=True)
class Judging:
    """Everything the target rules read to judge a nation's targets: the world near its origins, its
    relations, the types each origin has units of, the ruleset."""

    nation: str
    nations: tuple[str, ...]
    owner: tuple[tuple[str, str | None], ...]
    adjacency: tuple[tuple[str, tuple[str, ...]], ...]  # the borders near the origins
    not_at_war: frozenset[tuple[frozenset[str], str]]
    left: tuple[tuple[str, frozenset[str]], ...]  # each origin, with the types it has units of
    ruleset: Same


@lru_cache(maxsize=128)
def _judge(judging: Judging) -> dict[str, dict[str, dict[str, Message | None]]]:
    """targets_judged's verdicts, from its key alone."""
    ruleset = judging.ruleset.ruleset
    owner = dict(judging.owner)
    steps = max([1, *ruleset.ranges.values()])
    world = World(
        nations=judging.nations,
        nation_index={code: i for i, code in enumerate(judging.nations)},
        regions=dict.fromkeys(owner),
        adjacency=dict(judging.adjacency),
        owner=owner,
        units={},
        not_at_war=dict(judging.not_at_war),
        weather="",
        gm_modifiers={},
    )
    judged: dict[str, dict[str, dict[str, Message | None]]] = {}
    for origin, present in judging.left:
        if origin not in owner:
            continue
        kinds: dict[str, dict[str, Message | None]] = {}
        reach = sorted(target for target in world.within(origin, steps) if target != origin)
        for kind in TARGETED:
            # Only the kinds this origin has units left for: a stack without IV has nothing to rebase.
            types = [t for t in ruleset.types_with_role(*KIND_ROLES[kind]) if t in present]
            if not types:
                continue
            kinds[kind] = {}
            for target in reach:
                why = target_reason(
                    world,
                    ruleset,
                    nation=judging.nation,
                    kind=kind,
                    origin=origin,
                    target=target,
                    units=types,
                )
                kinds[kind][target] = None if why is None else why.message
        judged[origin] = kinds
    return judged


def targets_legal(judged: dict[str, dict[str, Message | None]], kind: str | None) -> list[str]:
    """The legal targets of one origin for `kind`; for an order without a target (hold, stand down: the
    form's starting kind), those of any kind, so that a form without script still offers them all."""
    if kind in judged:
        return sorted(t for t, why in judged[kind].items() if why is None)
    return sorted({t for by_target in judged.values() for t, why in by_target.items() if why is None})


def targets_compact(
    judged: dict[str, dict[str, dict[str, Message | None]]],
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """`judged` (targets_judged) in the reader's language for the page's script, each origin as
    {"reach": [target, ...], "kinds": {kind: [verdict, ...]}}: its targets once, in code order, and for
    each kind the verdict on each of them in that order (every kind of an origin judges the same targets:
    a dict of targets per kind said each code three times, a third of the order data).

    Each reason is sent once: a reason that names its target and origin is sent as a template, "{target}
    is not adjacent to {origin}", in a list of the distinct templates that the verdicts point into by
    position; the script fills them back in. On a 2,000-region map nearly every refusal is a different
    "X is not adjacent to Y": a sixth of the page. Each template is also rendered once, with {target}
    and {origin} for the codes: rendering every refusal was a fifth of a busy nation's page.

    A reason the script could not fill back exactly (braces or "%(" in its other parameters or in its
    words, a parameter that is not a plain code or number) is sent as it is, rendered."""
    templates: dict[str, int] = {}
    rendered: dict[tuple, str | None] = {}  # a reason with its codes as placeholders -> its template
    compact: dict[str, dict[str, Any]] = {}
    for origin, kinds in judged.items():
        reach = sorted(next(iter(kinds.values()), ()))
        compact[origin] = {"reach": reach, "kinds": {}}
        for kind, by_target in kinds.items():
            if sorted(by_target) != reach:
                raise ValueError(f"the kinds of {origin} judge different targets")
            compact[origin]["kinds"][kind] = sent = []
            for target in reach:
                why = by_target[target]
                if why is None:
                    sent.append(None)
                    continue
                template = None
                general = _general(why, target=target, origin=origin)
                if general is not None:
                    if general not in rendered:
                        rendered[general] = _template(general)
                    template = rendered[general]
                sent.append(said(why) if template is None else templates.setdefault(template, len(templates)))
    return compact, list(templates)


PLACEHOLDERS = ("{target}", "{origin}")
FILLED = re.compile(r"%\(|\{(?!target\}|origin\})")  # what orders.js's fill() would fill that is not ours


def _general(why: Message, *, target: str, origin: str) -> tuple | None:
    """The reason with the parameters that are its target's and origin's codes as {target} and {origin}
    (the same for every pair of codes it is given for), as a key; None when a parameter is not a plain
    code or number, or has braces or "%(" of its own."""
    params = []
    for name, value in why.params.items():
        if value == target:
            value = "{target}"
        elif value == origin:
            value = "{origin}"
        elif not isinstance(value, str | int) or (isinstance(value, str) and ("{" in value or "%(" in value)):
            return None
        params.append((name, value))
    return (why.code, tuple(params))


def _template(general: tuple) -> str | None:
    """A general reason (_general) in the reader's language; None when its words have braces or "%(" that
    the script would take for a placeholder."""
    code, params = general
    text = said(Message(code, dict(params)))
    return None if FILLED.search(text) else text
