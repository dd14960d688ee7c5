"""Reconnaissance on the campaign map (COMPANY.md §10): recon orders at processing, the snapshots they
leave, and what a viewer's map shows of another nation's units at each level.

`contact_reveal` is the one place that decides what a level shows; `contacts_view` builds the API's
`contacts` of a region from it, so nothing shows more than its level.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .campaign import CampaignState, Snapshot
from .dice import Recorder, part
from .orders import Order
from .rolls import recon_contest
from .roster import Unit, unit_damaged, unit_tt
from .ruleset import CompanyRuleset
from .settings import CONTACT_LEVELS

# What each level reveals of one unit (§10.3): suspicion nothing per unit, known the type, observed the card.
REVEALS = {
    "none": (),
    "suspicion": (),
    "known": ("type",),
    "observed": ("id", "name", "type", "tk", "tk_max", "damaged", "tt", "abilities"),
}


def unit_card(unit: Unit, ruleset: CompanyRuleset) -> dict[str, Any]:
    """Everything an observed contact may show, frozen at recon time."""
    return {
        "id": unit.id,
        "name": unit.name,
        "type": unit.type,
        "tk": unit.tk,
        "tk_max": unit.tk_max,
        "damaged": unit_damaged(unit),
        "tt": unit_tt(unit, ruleset),
        "abilities": list(unit.abilities),
    }


def contact_reveal(card: Mapping[str, Any], level: str) -> dict[str, Any]:
    return {key: card[key] for key in REVEALS[level]}


def recon_orders_roll(
    state: CampaignState, recon_orders: Sequence[tuple[int, Order]], ruleset: CompanyRuleset, dice: Recorder
) -> tuple[list[Snapshot], list[dict[str, Any]]]:
    """§10.2: each recon order's scout rolls against every active unit in the target region after movement.

    Orders go by (scouting nation in nation-id order, submission order), targets by id (§8.6). Returns the
    new snapshots and, per roll, what the scouting nation's report shows (its dice, total and level)."""
    ordered = sorted(recon_orders, key=lambda item: (state.nations.index(item[1].nation), item[0]))
    cover = ruleset.get("recon.region_cover")
    best: dict[tuple[str, str], dict[int, str]] = {}
    cards: dict[tuple[str, str], dict[int, dict[str, Any]]] = {}
    rolls = []
    for index, order in ordered:
        scout = state.units[order.units[0]]
        region = state.regions[order.target]
        targets = [u for u in state.active_units() if u.region == region.id and u.nation != order.nation]
        key = (order.nation, region.id)
        for target in targets:
            terrain = part("terrain", cover[region.terrain], terrain=region.terrain)
            contest = recon_contest(scout, target, terrain, ruleset, dice)
            rolls.append(
                {
                    "order": index,
                    "scout": scout.id,
                    "target": target.id,
                    "scout_dice": contest["scout_dice"],
                    "scout_total": contest["scout_total"],
                    "level": contest["level"],
                    "target_dice": contest["target_dice"],
                    "target_total": contest["target_total"],
                }
            )
            levels = best.setdefault(key, {})
            if contest["level"] != "none" and _rank(contest["level"]) > _rank(levels.get(target.id, "none")):
                levels[target.id] = contest["level"]
                cards.setdefault(key, {})[target.id] = unit_card(target, ruleset)
    snapshots = [
        Snapshot(viewer, region, state.turn, dict(sorted(levels.items())), cards[(viewer, region)])
        for (viewer, region), levels in best.items()
        if levels  # recon that finds nothing makes no snapshot, so older knowledge stays (§10.3)
    ]
    return snapshots, rolls


def _rank(level: str) -> int:
    return CONTACT_LEVELS.index(level)


def snapshot_valid(snapshot: Snapshot, turn: int, ruleset: CompanyRuleset) -> bool:
    return snapshot.turn <= turn <= snapshot.turn + ruleset.get("recon.duration")


def contacts_view(state: CampaignState, viewer: str, ruleset: CompanyRuleset) -> dict[str, dict[str, Any]]:
    """The viewer's `contacts` per region with a valid snapshot (§10.3); a region it owns shows none.

    With `recon.mode: off` everyone sees every unit (§10.1): each region's units, observed now."""
    if ruleset.get("recon.mode") == "off":
        return _everything(state, viewer, ruleset)
    # Recon is the viewer's own unless the GM shares it among allies (`recon.share_with_allies`, §10.3).
    sharing = ruleset.get("recon.share_with_allies")
    sources = {viewer} | {n for n in state.nations if sharing and state.relation(viewer, n) == "alliance"}
    newest: dict[str, Snapshot] = {}
    for snapshot in state.snapshots:
        if snapshot.viewer not in sources or not snapshot_valid(snapshot, state.turn, ruleset):
            continue
        if state.owner(snapshot.region) == viewer:
            continue
        if snapshot.region not in newest or snapshot.turn > newest[snapshot.region].turn:
            newest[snapshot.region] = snapshot
    return {region: snapshot_contacts(snapshot, ruleset) for region, snapshot in sorted(newest.items())}


def _everything(state: CampaignState, viewer: str, ruleset: CompanyRuleset) -> dict[str, dict[str, Any]]:
    seen: dict[str, dict[int, dict[str, Any]]] = {}
    for unit in state.active_units():
        if unit.nation != viewer and state.owner(unit.region) != viewer:
            seen.setdefault(unit.region, {})[unit.id] = unit_card(unit, ruleset)
    return {
        region: snapshot_contacts(
            Snapshot(viewer, region, state.turn, dict.fromkeys(cards, "observed"), cards), ruleset
        )
        for region, cards in sorted(seen.items())
    }


def snapshot_contacts(snapshot: Snapshot, ruleset: CompanyRuleset) -> dict[str, Any]:
    """Each unit once, at its own level only; `suspected` when one is at exactly suspicion (§10.3)."""
    levels = snapshot.levels
    known = [contact_reveal(snapshot.units[u], "known") for u in levels if levels[u] == "known"]
    observed = [
        contact_reveal(snapshot.units[u], "observed") for u in sorted(levels) if levels[u] == "observed"
    ]
    return {
        "seen_turn": snapshot.turn,
        "valid_through_turn": snapshot.turn + ruleset.get("recon.duration"),
        "suspected": any(level == "suspicion" for level in levels.values()),
        "known": sorted(known, key=lambda c: c["type"]),
        "observed": observed,
    }


def snapshots_expire(
    snapshots: Sequence[Snapshot], turn: int, ruleset: CompanyRuleset
) -> tuple[Snapshot, ...]:
    """§6 step 5: a snapshot is dropped once the current turn passes N + duration."""
    return tuple(s for s in snapshots if turn <= s.turn + ruleset.get("recon.duration"))


def contacts_all(state: CampaignState, ruleset: CompanyRuleset) -> dict[str, dict[str, dict[str, Any]]]:
    """Every nation's contacts, as the case files and the GM see them."""
    return {nation: contacts_view(state, nation, ruleset) for nation in state.nations}
