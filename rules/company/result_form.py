"""A company battle's result as a plain HTML form (COMPANY.md §5.1): one row per unit of the snapshot, one
block per participating nation, the notes. The form is read back into exactly the §5.1 JSON, which goes to
the one service (rules.company.results.company_result_save) like the JSON entry; what it refuses comes back
beside the row or field its ref names (§5.3), with what was typed kept. Nothing here checks an entry.

Fog of war (§10.3): a unit the viewer's sheet does not show (an enemy's) gets a row by its id only, as the
JSON entry always listed it: no name, nation or TK."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign.messages import said
from rules.company.dice_forms import unit_label
from rules.company.kp import ledger_of
from rules.engine.company_d20.ruleset import CompanyRuleset

STATES = ("pinned", "retreating", "hidden")
NOTES_MAX = 2000


def _number(text: str) -> int | str | None:
    """A whole number as the engine takes it; anything else as typed, for the engine to refuse (§5.3)."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def entry_from_post(post: Mapping[str, Any], battle) -> dict[str, Any]:
    """The §5.1 entry the form's fields say: every snapshot unit once, every participating nation."""
    units = []
    for key in battle.data["units"]:
        row: dict[str, Any] = {"unit": int(key)}
        for name in ("tk_lost", "vp"):
            value = _number(post.get(f"u-{key}-{name}", ""))
            row[name] = 0 if value is None else value
        row["destroyed"] = post.get(f"u-{key}-destroyed") == "on"
        row["states"] = [s for s in STATES if s in post.getlist(f"u-{key}-states")]
        units.append(row)
    sides = {}
    for nation in battle.data["sides"]:
        objective = _number(post.get(f"s-{nation}-objective_vp", ""))
        sides[nation] = {
            "objective_vp": 0 if objective is None else objective,
            "field_promotion": _number(post.get(f"s-{nation}-field_promotion", "")),
        }
    entry: dict[str, Any] = {"units": units, "sides": sides}
    notes = post.get("notes", "")
    if notes:
        entry["notes"] = notes
    if post.get("fingerprint"):
        entry["fingerprint"] = post["fingerprint"]
    return entry


def errors_placed(errors) -> dict[str, Any]:
    """Each refusal's text by where its ref points: a unit's row, a nation's block, the notes, or the form."""
    placed: dict[str, Any] = {"units": {}, "sides": {}, "notes": [], "form": []}
    for e in errors:
        ref = e.ref if not isinstance(e.ref, tuple) else ":".join(str(r) for r in e.ref)
        text = said(e.message)
        code = getattr(e, "code", "")
        if code == "notes_too_long":
            placed["notes"].append(text)
        elif isinstance(ref, int):
            placed["units"].setdefault(str(ref), []).append(text)
        elif code.startswith(("side_", "objective_", "promotion_")) or code == "not_an_integer":
            placed["sides"].setdefault(str(ref), []).append(text)
        else:
            placed["form"].append(text)
    return placed


def result_form(
    *,
    battle,
    sheet: dict[str, Any],
    ruleset: CompanyRuleset,
    entry: Any,
    errors=(),
) -> dict[str, Any]:
    """The form's rows, filled from `entry` (the typed one, the current version's, or none: the ledger's
    promotions and the defaults)."""
    entry = entry if isinstance(entry, dict) else {}
    given = {}
    for row in entry.get("units") or []:
        if isinstance(row, dict) and "unit" in row:
            given.setdefault(str(row["unit"]), row)
    placed = errors_placed(errors)
    shown = {str(u["id"]): (side["nation"], u) for side in sheet["sides"] for u in side.get("units", [])}
    order = list(shown) + sorted((k for k in battle.data["units"] if k not in shown), key=int)
    rows = []
    for key in order:
        nation, unit = shown.get(key, (None, None))
        row = given.get(key, {})
        states = row.get("states") if isinstance(row.get("states"), list) else []
        rows.append(
            {
                "id": key,
                "name": unit["name"] if unit else None,
                "nation": nation,
                "tk_start": unit["tk"] if unit else None,
                "tk_lost": row.get("tk_lost", 0),
                "destroyed": row.get("destroyed") is True,
                "states": [(s, s in states) for s in STATES],
                "vp": row.get("vp", 0),
                "errors": placed["units"].get(key, []),
            }
        )
    ledger = ledger_of(battle, ruleset).sides if ruleset.get("kp.tracking") else {}
    given_sides = entry.get("sides") if isinstance(entry.get("sides"), dict) else {}
    hidden = [(k, f"#{k}") for k in order if k not in shown]
    sides = []
    for side in sheet["sides"]:
        nation = side["nation"]
        own = side.get("units")
        choices = [(str(u["id"]), unit_label(u)) for u in own] if own is not None else hidden
        typed = given_sides.get(nation) if isinstance(given_sides.get(nation), dict) else None
        if typed is not None:
            promotion = typed.get("field_promotion")
        else:
            promotion = ledger[nation].promoted if nation in ledger else None
        sides.append(
            {
                "nation": nation,
                "objective_vp": (typed or {}).get("objective_vp", 0),
                "field_promotion": "" if promotion is None else str(promotion),
                "choices": choices,
                "errors": placed["sides"].get(nation, []),
            }
        )
    # A ref the form has no place for (a unit or nation not in the battle, from the JSON entry) goes on top.
    placed["form"] += [t for k, ts in placed["units"].items() if k not in battle.data["units"] for t in ts]
    placed["form"] += [t for k, ts in placed["sides"].items() if k not in battle.data["sides"] for t in ts]
    notes = entry.get("notes")
    return {
        "rows": rows,
        "sides": sides,
        "notes": notes if isinstance(notes, str) else "",
        "notes_errors": placed["notes"],
        "form_errors": placed["form"],
        "refused": bool(errors),
        "states": STATES,
        "notes_max": NOTES_MAX,
    }
