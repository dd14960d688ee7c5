"""Company campaigns' reads, each filtered by who looks (COMPANY.md §8.2, §10, §11): a player sees its own
roster and its own battles whole, another nation's units only through its recon contacts at their level, and
a battle's rolls only when its nation fought there; the GM sees everything.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, Q, QuerySet

from campaign.models import Campaign, Nation, Turn
from campaign.selectors import Viewer
from rules.company import models
from rules.company.mapping import battle_of, roll_of, state_load, unit_of
from rules.company.services import company_ruleset, turn_in_play
from rules.engine.company_d20.log import entry_visible
from rules.engine.company_d20.recon import contact_reveal, contacts_all, contacts_view, unit_card
from rules.engine.company_d20.roster import unit_view
from rules.engine.company_d20.sheet import battle_sheet


def orders_given_in_sets(*, turn, nation) -> Q:
    """A company nation gave orders: an order set with at least one order (COMPANY.md §4.2); registered with
    campaign.selectors.orders_given_register by the app."""
    return Q(Exists(models.OrderSet.objects.filter(turn=turn, nation=nation).exclude(orders=[])))


def is_company(campaign: Campaign) -> bool:
    return campaign.battle_system == "company_d20"


def roster_nation(*, viewer: Viewer, code: str) -> Nation | None:
    """The nation whose roster the viewer may read: its own, or any for the GM; None reads as a 404."""
    if not is_company(viewer.campaign):
        return None
    nation = viewer.campaign.nations.filter(code=code).first()
    if nation is None or not (viewer.is_gm or viewer.nation == nation):
        return None
    return nation


def roster_view(*, campaign: Campaign, nation: Nation) -> dict[str, Any]:
    """The Kasarmi (§11.2): each unit's card with its derived values, by group; the fallen apart; the TP."""
    ruleset = company_ruleset(campaign)
    cards = [
        unit_view(unit_of(row, nation.code), ruleset)
        for row in models.Unit.objects.filter(campaign=campaign, nation=nation)
    ]
    balance, size = models.Balance.objects.filter(nation=nation).values_list(
        "tp", "company_size"
    ).first() or (
        0,
        None,
    )
    return {
        "nation": nation.code,
        "tp": balance,
        "units": [c for c in cards if c["status"] == "active"],
        "fallen": [c for c in cards if c["status"] != "active"],
        "company_size": ruleset.get("company_size") if size is None else size,
        "company_size_override": size,
        "settings": {
            "tk_per_tp": ruleset.get("tp.tk_per_tp"),
            "tt_step": ruleset.get("xp.tt_step"),
            "xp_step": ruleset.get("veteran.xp_step"),
        },
    }


def events_of(*, campaign: Campaign, nation: Nation, unit: int | None = None) -> QuerySet[models.RosterEvent]:
    """The nation's audit trail, oldest first; archived entries (a rolled-back turn's) are kept and marked."""
    events = models.RosterEvent.objects.filter(campaign=campaign, nation=nation).select_related("actor")
    return events.filter(unit=unit) if unit is not None else events


def event_row(event: models.RosterEvent) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "turn": event.turn,
        "kind": event.kind,
        "unit": event.unit,
        "battle": event.battle or None,
        "before": event.before,
        "after": event.after,
        "tp_delta": event.tp_delta,
        "cause": event.cause or None,
        "reason": event.reason or None,
        "actor": "engine" if event.by_engine else (event.actor.username if event.actor else None),
        "at": event.created_at.isoformat(),
        "archived": event.archived_by_id is not None,
    }


def contacts_of(*, viewer: Viewer) -> dict[str, Any]:
    """The viewer's recon contacts per region (§10.3): a player's own; the GM's, every nation's."""
    campaign = viewer.campaign
    turn = turn_in_play(campaign)
    state = state_load(campaign, turn.number if turn else 0)
    ruleset = company_ruleset(campaign)
    if viewer.is_gm:
        return contacts_all(state, ruleset)
    if viewer.nation is None:
        return {}
    return contacts_view(state, viewer.nation.code, ruleset)


def orders_of(*, turn: Turn, nation: Nation) -> list[dict[str, Any]]:
    """The nation's orders for the turn as stored (the caller has checked it is the viewer's own)."""
    found = models.OrderSet.objects.filter(turn=turn, nation=nation).first()
    return list(found.orders) if found else []


def map_of(*, viewer: Viewer) -> list[dict[str, Any]]:
    """The map as COMPANY.md §10.3 shows it: every region with its owner and terrain, and the viewer's
    `contacts` there (null without a valid snapshot). The GM's map has every unit, observed."""
    campaign = viewer.campaign
    turn = turn_in_play(campaign)
    state = state_load(campaign, turn.number if turn else 0)
    ruleset = company_ruleset(campaign)
    if viewer.is_gm:
        units: dict[str, list[dict[str, Any]]] = {}
        for unit in state.active_units():
            units.setdefault(unit.region, []).append(
                {**contact_reveal(unit_card(unit, ruleset), "observed"), "nation": unit.nation}
            )
        return [
            {"id": r.id, "owner": r.owner, "terrain": r.terrain, "units": units.get(r.id, [])}
            for r in sorted(state.regions.values(), key=lambda r: r.id)
        ]
    contacts = contacts_view(state, viewer.nation.code, ruleset) if viewer.nation else {}
    return [
        {"id": r.id, "owner": r.owner, "terrain": r.terrain, "contacts": contacts.get(r.id)}
        for r in sorted(state.regions.values(), key=lambda r: r.id)
    ]


def contacts_view_of(*, campaign: Campaign, nation: Nation) -> dict[str, Any]:
    """One nation's contacts, for its own Kasarmi page (the caller has checked who may read it)."""
    turn = turn_in_play(campaign)
    state = state_load(campaign, turn.number if turn else 0)
    return contacts_view(state, nation.code, company_ruleset(campaign))


def battles_of(*, campaign: Campaign, turn: Turn) -> QuerySet[models.Battle]:
    """Where the battles are and between whom is public (§10.1); what is in them is not."""
    return (
        models.Battle.objects.filter(turn=turn, table__archived=False)
        .select_related("table")
        .order_by("position")
    )


def battle_visible(*, viewer: Viewer, pk: int) -> models.Battle | None:
    """A battle the viewer fought in, or any for the GM; None reads as a 404 (§10.3, never leak ids)."""
    battle = (
        models.Battle.objects.filter(pk=pk, turn__campaign=viewer.campaign)
        .select_related("turn__campaign")
        .first()
    )
    if battle is None:
        return None
    if viewer.is_gm or (viewer.nation is not None and viewer.nation.code in battle.data["sides"]):
        return battle
    return None


def battle_side(*, viewer: Viewer, battle: models.Battle) -> str | None:
    """Whom the viewer rolls for: its nation; the GM rolls as None (§8.2)."""
    return None if viewer.is_gm else viewer.nation.code


def sheet_of(*, viewer: Viewer, battle: models.Battle) -> dict[str, Any]:
    campaign = battle.turn.campaign
    ruleset = company_ruleset(campaign)
    state = state_load(campaign, battle.turn.number)
    side = None if viewer.is_gm else viewer.nation.code
    sheet = battle_sheet(battle_of(battle.data, ruleset), state, ruleset, viewer=side)
    return {**sheet, "id": battle.pk, "status": battle.status, "turn": battle.turn.number}


def rolls_of(*, viewer: Viewer, battle: models.Battle) -> list[dict[str, Any]]:
    """The battle's log as the viewer may see it (§8.2): a secret fire-support roll hides its values."""
    final = battle.status != models.Battle.Status.OPEN
    rows = battle.rolls.select_related("requested_by")
    return [
        {
            **entry_visible(roll_of(r), gm=viewer.is_gm, battle_final=final, table_turn=battle.table_turn),
            "requested_by": r.requested_by.username if r.requested_by else None,
            "at": r.created_at.isoformat(),
            "note": r.note or None,
            "void_reason": r.void_reason or None,
        }
        for r in rows
    ]


def seed_revealed(*, battle: models.Battle) -> bool:
    """The stream's seed (and so every future die) is shown only once the battle is final (§8.2)."""
    return battle.status != models.Battle.Status.OPEN
