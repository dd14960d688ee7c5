"""What the company pages show, computed from the selectors' data: the Kasarmi's legal choices (each one
tried on the engine, only the `Done` ones kept, COMPANY.md §11.2) and the battle report's rows with their
arithmetic (§11.1). No queries in templates; nothing here writes."""

from __future__ import annotations

from math import ceil
from typing import Any

from django.utils.translation import get_language

from campaign.models import Campaign, Nation
from rules.company.services import action_try, company_current
from rules.engine.company_d20.problems import Problem


def kasarmi_choices(*, campaign: Campaign, nation: Nation, roster: dict[str, Any]) -> dict[str, Any]:
    """The repair buttons (each TP amount that restores something and is affordable), the types and regions
    a purchase may take, and the abilities each unit may choose now."""
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
    buys = []
    for code, kind in ruleset.catalogue.items():
        legal = {
            (group, region)
            for group in range(0, 4)
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
    return {"repairs": repairs, "buys": buys, "abilities": abilities}


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

    return {**row, "before": text(row["before"]), "after": text(row["after"])}
