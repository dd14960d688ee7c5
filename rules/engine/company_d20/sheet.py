"""What a battle's participants see and when its result is final (COMPANY.md §4.5, §5.2): pure reads for
the battle page, the result form and the GM dashboard.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .campaign import CampaignState
from .recon import contacts_view
from .results import Battle
from .roster import unit_view
from .ruleset import CompanyRuleset


def battle_sheet(
    battle: Battle, state: CampaignState, ruleset: CompanyRuleset, *, viewer: str | None
) -> dict:
    """The sheet (§4.5): kind, regions and terrain, the sides and their roles, every unit of the battle by id,
    name and type (`roster`: the table shows the miniatures), the viewer's own units with every stat
    (`units`); another side's stats only through the viewer's recon contacts. `viewer` None is the GM."""
    regions = battle.key.split("|") if battle.kind == "meeting" else [battle.region or battle.key]
    contacts = {} if viewer is None else contacts_view(state, viewer, ruleset)
    sides = []
    for nation in battle.sides:
        role = "defender" if nation == battle.defender else "attacker"
        side: dict[str, Any] = {
            "nation": nation,
            "role": role,
            "roster": [{"id": u.id, "name": u.name, "type": u.type} for u in battle.side_units(nation)],
        }
        if viewer is None or viewer == nation:
            side["units"] = [
                {**unit_view(u, ruleset), "origin": battle.origins.get(u.id)}
                for u in battle.side_units(nation)
            ]
        sides.append(side)
    return {
        "key": battle.key,
        "kind": battle.kind,
        "regions": [{"id": r, "terrain": state.regions[r].terrain} for r in regions if r in state.regions],
        "sides": sides,
        # a contact carries into a battle in its region as a reminder ("known: 2 × JR", §10.3)
        "contacts": {r: contacts[r] for r in regions if r in contacts},
    }


def result_is_final(
    ruleset: CompanyRuleset,
    *,
    participants: Iterable[str],
    approvals: Iterable[str],
    saved_by: str | None,
    gm_confirmed: bool,
) -> bool:
    """§5.2: `gm` needs the GM's confirmation; `all_sides` is final once every participating nation
    approves the current version (the saver's nation counts as approving), and the GM may still confirm
    earlier."""
    if gm_confirmed:
        return True
    if ruleset.get("result.finalisation") != "all_sides":
        return False
    approved = set(approvals) | ({saved_by} if saved_by else set())
    return set(participants) <= approved


def approvals_missing(
    participants: Iterable[str], approvals: Iterable[str], saved_by: str | None
) -> list[str]:
    """The nations that had not approved when the GM confirmed: the report says which (§5.2)."""
    approved = set(approvals) | ({saved_by} if saved_by else set())
    return [n for n in participants if n not in approved]
