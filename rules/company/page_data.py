"""What the company pages show, computed from the selectors' data: the Kasarmi's legal choices (each one
tried on the engine, only the `Done` ones kept, COMPANY.md §11.2) and the battle report's rows with their
arithmetic (§11.1). No queries in templates; nothing here writes."""

from __future__ import annotations

from math import ceil
from typing import Any

from django.urls import reverse
from django.utils.translation import get_language, gettext

from campaign.models import Campaign, Nation
from campaign.selectors import Viewer
from frontend.selectors import MapData
from frontend.terms import word
from rules.company import models
from rules.company.models import Unit
from rules.company.results import current_version
from rules.company.selectors import contacts_view_of
from rules.company.services import action_try, company_current
from rules.engine.company_d20.problems import Problem


def battle_url(battle: models.Battle) -> str:
    """A company battle's page: its table battle's address (frontend.views.battles)."""
    return reverse("frontend:battle", args=[battle.turn.campaign.slug, battle.turn.number, battle.table_id])


def kasarmi_choices(*, campaign: Campaign, nation: Nation, roster: dict[str, Any]) -> dict[str, Any]:
    """The repair buttons (each TP amount that restores something and is affordable), the types and regions
    a purchase may take, the abilities each unit may choose now, and the platoon leaders who may be
    appointed company commander."""
    company, ruleset = company_current(campaign=campaign, nation=nation)

    def _legal(action: str, params: dict[str, Any]) -> bool:
        return not isinstance(action_try(company, ruleset, action, params), Problem)

    per_tp = ruleset.get("tp.tk_per_tp")
    repairs = []
    for card in roster["units"]:
        missing = card["tk_max"] - card["tk"]
        for tp in range(1, ceil(missing / per_tp) + 1 if missing else 1):
            if _legal("repair", {"unit": card["id"], "tp": tp}):
                repairs.append(
                    {
                        "unit": card["id"],
                        "name": card["name"],
                        "tp": tp,
                        "tk": min(tp * per_tp, missing),
                        "balance_after": roster["tp"] - tp,
                    }
                )
    name = "\u2009?"  # a name no unit has, to try the other fields
    # A group is any whole number (§3.5): offered are the company's own groups, 0 and a new one after them.
    held = {card["group"] for card in roster["units"]}
    groups = sorted({0, *held, max(held, default=0) + 1})
    buys = []
    for code, kind in ruleset.catalogue.items():
        legal = {
            (group, region)
            for group in groups
            for region in company.owned
            if _legal("buy", {"type": code, "name": name, "group": group, "region": region})
        }
        if legal:
            buys.append(
                {
                    "type": code,
                    "name": kind.names.get(get_language() or "en") or kind.names.get("en", code),
                    "price": kind.price,
                    "groups": sorted({g for g, _ in legal}),
                    "regions": sorted({r for _, r in legal}),
                    "balance_after": roster["tp"] - kind.price,
                }
            )
    abilities = []
    for card in roster["units"]:
        if card["free_slots"]:
            for ability in ruleset.abilities:
                if _legal("choose_ability", {"unit": card["id"], "ability": ability}):
                    abilities.append({"unit": card["id"], "name": card["name"], "ability": ability})
    # §7.5: with no company commander left, each platoon leader who may take the command.
    appoints = [
        {"unit": card["id"], "name": card["name"], "group": card["group"]}
        for card in roster["units"]
        if card["role"] == "platoon_leader" and _legal("appoint_commander", {"unit": card["id"]})
    ]
    return {"repairs": repairs, "buys": buys, "abilities": abilities, "appoints": appoints}


def report_rows(report: dict[str, Any], *, ruleset, viewer: str | None) -> dict[str, Any]:
    """Each unit's before and after, its XP share and the TP each nation earned, with the arithmetic:
    TP = VP × tp.per_vp; XP to the next TT and slot (§11.1)."""
    final = report.get("final") or {}
    after = final.get("units", {})
    per_vp = ruleset.get("tp.per_vp")
    units = []
    for unit_id, before in report["before"].items():
        now = after.get(unit_id, {})
        units.append(
            {
                "id": unit_id,
                "name": before["name"],
                "nation": before["nation"],
                "type": before["type"],
                "tk_before": before["tk"],
                "tk_after": now.get("tk", before["tk"]),
                "xp_before": before["xp"],
                "xp_share": final.get("xp", {}).get(unit_id, 0),
                "xp_after": now.get("xp", before["xp"]),
                "tt_before": before["tt"],
                "tt_after": now.get("tt", before["tt"]),
                "slot_opened": now.get("slot_opened", False),
                "destroyed": now.get("status") == "destroyed",
                "own": viewer is None or before["nation"] == viewer,
            }
        )
    sides = [
        {"nation": n, "vp": vp, "per_vp": per_vp, "tp": final.get("tp", {}).get(n, 0)}
        for n, vp in final.get("vp", {}).items()
    ]
    return {"units": units, "sides": sides, "outcome": report.get("outcome", {})}


def trail_row(row: dict[str, Any]) -> dict[str, Any]:
    """An audit-trail entry as the page prints it: a GM edit's before and after as "tk 10 · xp 0", a whole
    unit record (a purchase) by its type and TK, rather than Python's dict notation."""

    def text(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, dict):
            if "type" in value and "tk_max" in value:
                return f"{value.get('name', '')} ({value['type']}, TK {value.get('tk')}/{value['tk_max']})"
            return " · ".join(f"{k} {text(v) if v not in (None, '', []) else '—'}" for k, v in value.items())
        if isinstance(value, list):
            return ", ".join(str(v) for v in value) or "—"
        return str(value)

    return {
        **row,
        "what": word("roster_event", row["kind"]),
        "before": text(row["before"]),
        "after": text(row["after"]),
    }


def _types(types: list[str]) -> str:
    """Counters by type, "JR ×2 · KK" (COMPANY.md §10.3)."""
    counted: dict[str, int] = {}
    for code in sorted(types):
        counted[code] = counted.get(code, 0) + 1
    return " · ".join(f"{code} ×{n}" if n > 1 else code for code, n in counted.items())


def contact_label(contact: dict[str, Any]) -> str:
    """One region's contacts as its counter says them, each unit at its own level and no more: "?" for a
    suspicion, the type of a known unit, the name and TK of an observed one."""
    parts = ["?"] if contact.get("suspected") else []
    if contact.get("known"):
        parts.append(_types([k["type"] for k in contact["known"]]))
    parts += [f"{o['name']} ({o['type']} TK {o['tk']}/{o['tk_max']})" for o in contact.get("observed", ())]
    return " · ".join(parts)


CONTACT_COLOR = "#888888"


def company_map(*, viewer: Viewer, data: MapData) -> None:
    """A company campaign's counters on the map and in its table (§10.1, §10.3), in place of stacks: the
    viewer's own units by type, then each region's recon contacts at their level, for as long as they are
    valid; the GM's map shows every nation's units by type."""
    campaign = viewer.campaign
    ids = {r["code"]: r["id"] for r in data.regions}
    by_code = {n["code"]: n for n in data.nations.values()}
    rows = Unit.objects.filter(campaign=campaign, status=Unit.Status.ACTIVE).select_related("nation")
    if not viewer.is_gm:
        rows = rows.filter(nation=viewer.nation) if viewer.nation is not None else rows.none()
    grouped: dict[str, dict[str, list[str]]] = {}
    for row in rows.order_by("nation__position", "number"):
        grouped.setdefault(row.region, {}).setdefault(row.nation.code, []).append(row.type)
    data.stacks = {}
    for region, nations in grouped.items():
        if region in ids:
            data.stacks[ids[region]] = [
                {"nation": code, "color": by_code[code]["color"], "units": [], "label": _types(types)}
                for code, types in nations.items()
            ]
    if viewer.is_gm or viewer.nation is None:
        return
    word = gettext("seen in turn %(turn)s")
    for region, contact in contacts_view_of(campaign=campaign, nation=viewer.nation).items():
        label = contact_label(contact)
        if region in ids and label:
            data.stacks.setdefault(ids[region], []).append(
                {
                    "nation": word % {"turn": contact["seen_turn"]},
                    "color": CONTACT_COLOR,
                    "units": [],
                    "label": label,
                }
            )


def battle_progress(battle) -> str:
    """A battle's status as the GM's list says it (§11.2): awaiting result, draft (approved by ...),
    disputed by ..., final or void."""
    if battle.status == "void":
        return gettext("void")
    if battle.status == "resolved":
        return gettext("final")
    version = current_version(battle)
    if version is None:
        return gettext("awaiting result")
    answers = list(version.answers.select_related("nation").order_by("nation__position"))
    disputed = [a.nation.code for a in answers if a.answer == "dispute"]
    if disputed:
        return gettext("disputed by %(nations)s") % {"nations": ", ".join(disputed)}
    agreed = [a.nation.code for a in answers if a.answer == "agree"]
    if agreed:
        return gettext("draft, approved by %(nations)s") % {"nations": ", ".join(agreed)}
    return gettext("draft")
