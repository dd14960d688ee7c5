"""Tabletop's side of the seam (TABLETOP.md A7, A8.4): a battle is decided by its entry, or waits for one.

`tabletop_fight(call)` builds the battle's sheet, looks up the entry for its key among the turn's entries
(`call.inputs["entries"]`) and answers with
- the entered result (A7.0): the winner, "past the threshold" (decisive, or any win when
  `conquest_needs_decisive` is false) and the losses as entered, per nation;
- an auto-resolution (A8.4): Iron Fist's resolver with dice from the derived seed `auto:{key}` (A9.1);
- `Pending` when there is no entry, or its fingerprint is not the sheet's (stale, A10.3).
Conquest, continuations, control, returns and retreats stay the pipeline's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ..iron_fist.battle import iron_fist_fight
from ..messages import Message, gettext_noop, messages_register
from ..seam import BattleCall, BattleOutcome, Pending, SeededDice
from .settings import TabletopRuleset
from .sheet import sheet_build

messages_register(
    {
        "tabletop.entered_decisive": gettext_noop(
            "{winner} won decisively: past the conquest threshold ({rule})"
        ),
        "tabletop.entered_any_win": gettext_noop(
            "{winner} won: every entered win passes the conquest threshold in this campaign ({rule})"
        ),
        "tabletop.entered_not_decisive": gettext_noop(
            "{winner} won, not decisively: not past the conquest threshold ({rule})"
        ),
        "tabletop.auto_resolved": gettext_noop("auto-resolved by the Iron Fist resolver ({rule})"),
    }
)


def derive_seed(seed: int, label: str) -> int:
    """The first 8 bytes, big-endian, of SHA-256 of "{seed}:{label}" (A9.1): a battle's own dice."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{label}".encode()).digest()[:8], "big")


def tabletop_fight(call: BattleCall) -> BattleOutcome | Pending:
    ruleset: TabletopRuleset = call.ruleset
    sheet = sheet_build(call)
    entry = (call.inputs.get("entries") or {}).get(call.key)
    if call.kind == "control" and ruleset.tabletop.control_battles == "auto":
        entry = {"auto_resolve": True, "by": "control_battles: auto"}
    stale = isinstance(entry, Mapping) and entry.get("fingerprint") not in (None, sheet["fingerprint"])
    if not isinstance(entry, Mapping) or stale:
        return Pending(
            call.key,
            {
                "kind": call.kind,
                "region": call.label,
                "regions": list(call.regions),
                "sheet": sheet,
                "stale": stale,
            },  # fmt: skip
        )
    if entry.get("auto_resolve"):
        return _auto_resolved(call, sheet, entry)
    return _entered(call, sheet, entry)


def _auto_resolved(call: BattleCall, sheet: dict[str, Any], entry: Mapping[str, Any]) -> BattleOutcome:
    """IRON_FIST §4-5 on the battle's own forces, one die per side from the derived seed (A8.4)."""
    dice = SeededDice(derive_seed(call.seed, f"auto:{call.key}"))
    outcome = iron_fist_fight(replace(call, dice=dice))
    outcome.report.update(
        {
            "resolution": "auto_resolved",
            "decisive": outcome.decisive,
            "sheet": sheet,
            "auto": {"by": entry.get("by"), "why": entry.get("why"), "rule": "TABLETOP A8.4"},
            "reason": Message("tabletop.auto_resolved", {"rule": "TABLETOP A8.4"}).to_dict(),
        }
    )
    return outcome


def _entered(call: BattleCall, sheet: dict[str, Any], entry: Mapping[str, Any]) -> BattleOutcome:
    """The entered result read as Iron Fist's battle step would produce it (A7.0)."""
    ruleset: TabletopRuleset = call.ruleset
    names = [side.name for side in call.sides]
    winner_name = entry.get("winner")
    winner = names.index(winner_name) if winner_name in names else None
    decisive = winner is not None and entry.get("decisive") is True
    past = winner is not None and (decisive or not ruleset.tabletop.conquest_needs_decisive)
    losses_in = entry.get("losses") if isinstance(entry.get("losses"), Mapping) else {}
    losses = {
        nation: {t: c for t, c in (losses_in.get(nation) or {}).items() if c} for nation in sheet["nations"]
    }
    if winner is None:
        why = None
    elif decisive:
        why = Message("tabletop.entered_decisive", {"winner": winner_name, "rule": "TABLETOP A7.0"})
    elif past:
        why = Message("tabletop.entered_any_win", {"winner": winner_name, "rule": "TABLETOP A7.0"})
    else:
        why = Message("tabletop.entered_not_decisive", {"winner": winner_name, "rule": "TABLETOP A7.0"})
    report = {
        **call.report_place(),
        "resolution": "entered",
        "winner": None if winner is None else winner_name,
        "decisive": decisive,
        "past_threshold": past,
        "losses": losses,
        "score": entry.get("score", ""),
        "notes": entry.get("notes", ""),
        "sides": [
            {
                "name": side.name,
                "nations": list(side.nations),
                "role": sheet["sides"][i]["role"],
                "units": side.ground,
                "support": [vars(s).copy() for s in side.support],
                "outcome": "draw" if winner is None else "won" if winner == i else "lost",
            }
            for i, side in enumerate(call.sides)
        ],
        "sheet": sheet,
    }
    return BattleOutcome(winner=winner, decisive=past, losses=losses, report=report, why=why)
