"""The battle page's dice panel (COMPANY.md §11.2): one form per function of §8.5, where a unit is picked
from the side's own units, each shown with the stats its rolls add (TT, M, S, H, TI), and the inputs go to
the dice service as the API takes them (rules.company.dice.dice_roll), which judges them.

A form lists as targets only the units the viewer may name: its own, those its recon has observed, or, for
the GM, every unit of the battle; never an id the viewer has not seen (§10.3).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from rules.engine.company_d20.log import OWN_UNITS
from rules.engine.company_d20.problems import Problem
from rules.engine.company_d20.ruleset import CompanyRuleset

STATS = [("TT", "TT"), ("M", "M"), ("", "—")]
BANDS = [("normal", "normal"), ("heavy", "heavy")]
STATES = [("none", "none"), ("pinned", "pinned"), ("retreating", "retreating")]
CONTACTS = [("known", "known"), ("observed", "observed"), ("suspicion", "suspicion"), ("none", "none")]
REROLL = [("", "no"), ("1", "1"), ("2", "2")]


def _field(name: str, kind: str, path: str, label: Any, choices: list[tuple[str, str]] | None = None):
    return {"name": name, "kind": kind, "path": path, "label": label, "choices": choices or []}


def _layout(ruleset: CompanyRuleset) -> dict[str, list[dict[str, Any]]]:
    """Each function's fields: kind (own unit, any unit, units, number, text, choice, sources, flag) and
    where its value goes in the inputs (a dotted path; `targets` is the attack's list)."""
    covers = [(c, c) for c in ruleset.get("dice.terrain_cover")]
    tests = [("", "—"), *((t, t) for t in ruleset.get("dice.tests"))]
    reasons = [*((r, r) for r in ruleset.get("morale.dc")), ("other", "other")]
    support = [(s, s) for s in ruleset.get("fire_support.types")]
    advantage = [(s, s) for s in ruleset.get("dice.advantage_sources")]
    disadvantage = [(s, s) for s in ruleset.get("dice.disadvantage_sources")]

    def sources(at: str = "") -> list[dict[str, Any]]:
        """The sources of advantage and disadvantage (§8.3), in the inputs themselves or under `at`."""
        return [
            _field("advantage", "sources", f"{at}advantage", _("Advantage"), advantage),
            _field("disadvantage", "sources", f"{at}disadvantage", _("Disadvantage"), disadvantage),
            _field("source_reason", "text", f"{at}source_reason", _("Why 'other'")),
        ]

    return {
        "roll": [_field("expression", "text", "expression", _("Dice, like 2d6+1"))],
        "test": [
            _field("unit", "own", "unit", _("Unit")),
            _field("stat", "choice", "stat", _("Stat"), STATS),
            _field("dc", "number", "dc", "DC"),
            _field("kind", "choice", "kind", _("Named test"), tests),
            *sources(),
        ],
        "opposed": [
            _field("active", "own", "active.unit", _("Active unit")),
            _field("active_stat", "choice", "active.stat", _("Its stat"), STATS),
            _field("passive", "any", "passive.unit", _("Passive unit")),
            _field("passive_stat", "choice", "passive.stat", _("Its stat"), STATS),
        ],
        "attack": [
            _field("attacker", "own", "attacker", _("Attacker")),
            _field("targets", "targets", "targets", _("Targets")),
            _field("cover", "choice", "targets.cover", _("Their cover"), covers),
            *sources(at="targets."),
        ],
        "damage": [
            _field("weapon", "own", "weapon", _("Weapon (its TI)")),
            _field("band", "choice", "band", _("Band"), BANDS),
            _field("attacker_damaged", "flag", "attacker_damaged", _("The attacker is damaged now")),
        ],
        "morale": [
            _field("unit", "own", "unit", _("Unit")),
            _field("reason", "choice", "reason", _("Reason"), reasons),
            _field("dc", "number", "dc", _("DC (for 'other')")),
            _field("state", "choice", "state", _("Its state now"), STATES),
            *sources(),
        ],
        "recon": [
            _field("scout", "own", "scout", _("Scout")),
            _field("target", "any", "target.unit", _("Target unit")),
            _field("cover", "choice", "target.cover", _("Its cover"), covers),
            _field("hidden", "flag", "target.hidden", _("The target is hidden")),
        ],
        "fire_request": [
            _field("support", "choice", "support", _("Fire support"), support),
            _field("caller", "own", "caller", _("Caller")),
            _field("observer", "own", "observer", _("Observer")),
            _field("observer_tk", "number", "observer_tk", _("Observer's TK now")),
            _field("contact", "choice", "contact", _("Contact with the target"), CONTACTS),
            _field("danger_close", "flag", "danger_close", _("Danger close permitted")),
        ],
        "scatter": [
            _field("support", "choice", "support", _("Fire support"), support),
            _field("observer", "own", "observer", _("Observer")),
        ],
        "scatter_decide": [
            _field("entry", "number", "entry", _("Scatter roll #")),
            _field("reroll", "choice", "reroll", _("Reroll die"), REROLL),
        ],
        "danger_close": [
            _field("strike_damage", "number", "strike_damage", _("The strike's normal damage")),
            _field("units", "units", "units", _("Own units in the impact area")),
        ],
    }


def unit_label(unit: Mapping[str, Any]) -> str:
    """A unit as a dice form offers it: with what its rolls add (TT, M) and what they roll against (S, H)."""
    stats = " · ".join(f"{k.upper()} {unit[k]}" for k in ("tt", "m", "s", "h", "ti") if k in unit)
    return f"#{unit['id']} {unit['name']} ({unit['type']}{' · ' + stats if stats else ''})"


def dice_forms(
    sheet: Mapping[str, Any], ruleset: CompanyRuleset, *, gm: bool, viewer: str | None
) -> list[dict[str, Any]]:
    """The panel's forms, in the order of §8.5. `viewer` is the side rolled for (None: the GM, who rolls for
    every side's units and may name any unit). A player's own units are its side's, with their stats; the
    passive side and the targets are every unit of another side, by id, name and type (§4.5, §8.2:
    `target_own_side`)."""
    own = [u for side in sheet["sides"] for u in side.get("units", []) if gm or side["nation"] == viewer]
    others = [u for side in sheet["sides"] for u in side["roster"] if gm or side["nation"] != viewer]
    units = {
        "own": [(u["id"], unit_label(u)) for u in own],
        "any": [(u["id"], unit_label(u)) for u in others],
    }
    forms = []
    for function, fields in _layout(ruleset).items():
        for field in fields:
            if field["kind"] in ("own", "any", "targets", "units"):
                field["choices"] = units["own" if field["kind"] in ("own", "units") else "any"]
        forms.append({"function": function, "fields": fields})
    return forms


def _number(text: str) -> Any:
    return int(text) if re.fullmatch(r"-?\d{1,9}", text) else text


def _put(inputs: dict[str, Any], path: str, value: Any) -> None:
    *outer, last = path.split(".")
    place = inputs
    for key in outer:
        place = place.setdefault(key, {})
    place[last] = value


def dice_inputs(function: str, post: Any, ruleset: CompanyRuleset) -> dict[str, Any] | Problem:
    """A dice form's fields as the function's inputs; fields left empty are left out (the function's
    defaults apply). `inputs` (JSON) adds what has no field of its own, modifiers say; `unit` alone puts one
    unit where the function reads its roller's unit."""
    try:
        inputs = json.loads(post.get("inputs") or "{}")
    except ValueError:
        return Problem("params_invalid", function)
    if not isinstance(inputs, dict):
        return Problem("params_invalid", function)
    layout = _layout(ruleset).get(function, [])
    unit = str(post.get("unit", "")).strip()
    if unit.isdigit() and OWN_UNITS.get(function):
        _put(inputs, OWN_UNITS[function][0], int(unit))
    per_target: dict[str, Any] = {}
    for field in layout:
        key = f"{function}-{field['name']}"
        if field["kind"] in ("sources", "units", "targets"):
            values = [v for v in post.getlist(key) if v != ""]
            if field["kind"] != "sources":
                values = [_number(v) for v in values]
            value: Any = values or None
        elif field["kind"] == "flag":
            value = True if post.get(key) else None
        else:
            text = str(post.get(key, "")).strip()
            if function == "scatter_decide" and field["name"] == "reroll":
                inputs["reroll"] = _number(text) if text else None  # "no" is an answer too
                continue
            value = (_number(text) if field["kind"] in ("own", "any", "number") else text) if text else None
        if value is None:
            continue
        if field["kind"] == "targets":
            inputs["targets"] = [{"unit": u} for u in value]
        elif field["path"].startswith("targets."):
            per_target[field["path"].split(".", 1)[1]] = value
        else:
            _put(inputs, field["path"], value)
    for target in inputs.get("targets") or []:
        if isinstance(target, dict):
            target.update({k: v for k, v in per_target.items() if k not in target})
    return inputs
