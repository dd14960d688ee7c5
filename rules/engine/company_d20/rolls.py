"""The dice functions of COMPANY.md §8.5.1-8.5.7: `roll`, `test`, `opposed`, `attack`, `damage`, `morale`,
`recon`.

Each is `fn(inputs, ruleset, dice) -> output`, pure. Unit inputs are `Unit` records (the battle snapshot's,
resolved by the caller). Each checks its inputs in the order its section gives and raises `Refused` with
the first problem before drawing any die. Fire support is in `fire.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .dice import (
    Recorder,
    d20_draw,
    expression_of,
    expression_roll,
    integer_input,
    modifiers_check,
    part,
    sources_check,
)
from .problems import refuse
from .roster import Unit, unit_tt
from .ruleset import CompanyRuleset

MORALE_STATES = ("none", "pinned", "retreating")  # in order of worseness
BANDS = ("heavy", "normal", "suppression", "miss")


def roll(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """§8.5.1: any expression, for what the table needs that has no function of its own."""
    values, total = expression_roll(expression_of(inputs.get("expression")), dice)
    return {"dice": values, "total": total}


def tt_part(unit: Unit, ruleset: CompanyRuleset) -> dict[str, Any]:
    """TT = K + ⌊XP / tt_step⌋ (capped), with its origin (§3.3)."""
    return part("tt", unit_tt(unit, ruleset), k=unit.k, xp=unit.xp, step=ruleset.get("xp.tt_step"))


def ability_parts(unit: Unit, effect: str, ruleset: CompanyRuleset) -> list[dict[str, Any]]:
    """The unit's veteran abilities that add to this roll (Tarkka tuli +1, ...)."""
    return [
        part("ability", ruleset.ability_total((a,), effect), ability=a)
        for a in unit.abilities
        if ruleset.has_effect((a,), effect)
    ]


def _total(parts: list[dict[str, Any]]) -> int:
    return sum(p["value"] for p in parts)


def _stat_parts(side: Mapping[str, Any], ruleset: CompanyRuleset, stat: Any) -> list[dict[str, Any]]:
    """A unit's stat (TT, M or none), or an explicit bonus (the GM's, checked by the request, §8.2)."""
    if stat not in ("TT", "M", None, "none"):
        raise refuse("stat_unknown", stat)
    unit = side.get("unit")
    if isinstance(unit, Unit):
        return [tt_part(unit, ruleset)] if stat == "TT" else [part("m", unit.m)] if stat == "M" else []
    bonus = integer_input(side, "bonus")
    return [] if bonus is None else [part("bonus", bonus)]


def dc_test(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """§8.5.2: d20 + bonus + modifiers reaches the DC; naturals do nothing special."""
    tests = ruleset.get("dice.tests")
    kind = inputs.get("kind")
    if kind is not None and kind not in tests:
        raise refuse("test_unknown", kind)
    named = tests.get(kind, {}) if kind is not None else {}
    stat = inputs["stat"] if "stat" in inputs else named.get("stat")
    stat_parts = _stat_parts(inputs, ruleset, stat)
    bonus = _total(stat_parts)
    dc = integer_input(inputs, "dc")
    if dc is None:
        dc = named.get("dc")
    if dc is None:
        raise refuse("dc_required")
    sources = sources_check(inputs, ruleset)
    modifiers = modifiers_check(inputs.get("modifiers"), "test", ruleset)
    min_tt = named.get("min_tt")
    if min_tt is not None:
        unit = inputs.get("unit")
        tt = unit_tt(unit, ruleset) if isinstance(unit, Unit) else None
        if tt is None or tt < min_tt:
            raise refuse("tt_too_low", kind, min_tt=min_tt, tt=tt)
    drawn, kept = d20_draw(sources.mode, dice)
    total = kept + bonus + modifiers.total
    return {
        "mode": sources.mode,
        "dice": drawn,
        "kept": kept,
        "bonus": bonus,
        "modifiers": modifiers.total,
        "bonuses": stat_parts + modifiers.parts,
        "total": total,
        "dc": dc,
        "success": total >= dc,
        "margin": total - dc,
    }


def opposed(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """§8.5.3: the higher total wins; a tie goes to `dice.opposed_tie`."""
    parts = [inputs.get("active") or {}, inputs.get("passive") or {}]
    stat_parts = [_stat_parts(p, ruleset, p.get("stat")) for p in parts]
    bonuses = [_total(p) for p in stat_parts]
    sources = [sources_check(p, ruleset) for p in parts]
    modifiers = [modifiers_check(p.get("modifiers"), "opposed", ruleset) for p in parts]
    draws = [d20_draw(s.mode, dice) for s in sources]
    totals = [kept + b + m.total for (_, kept), b, m in zip(draws, bonuses, modifiers, strict=True)]
    margin = totals[0] - totals[1]
    winner = "active" if margin > 0 else "passive" if margin < 0 else ruleset.get("dice.opposed_tie")
    return {
        "active_mode": sources[0].mode,
        "active_dice": draws[0][0],
        "active_kept": draws[0][1],
        "passive_mode": sources[1].mode,
        "passive_dice": draws[1][0],
        "passive_kept": draws[1][1],
        "active_bonuses": stat_parts[0] + modifiers[0].parts,
        "passive_bonuses": stat_parts[1] + modifiers[1].parts,
        "active_total": totals[0],
        "passive_total": totals[1],
        "margin": margin,
        "winner": winner,
    }


def _cover(ruleset: CompanyRuleset, cover: Any) -> int:
    table = ruleset.get("dice.terrain_cover")
    if cover not in table:
        raise refuse("cover_unknown", cover)
    return table[cover]


def _band(margin: int, ruleset: CompanyRuleset) -> str:
    for band, minimum in ruleset.get("attack.bands").items():
        if margin >= minimum:
            return band
    return "miss"


def attack(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """§8.5.4: one roll for every target, each with its own defence, mode and band (¶38, ¶72-74)."""
    attacker = inputs.get("attacker")
    if isinstance(attacker, Unit):
        attacker_parts = [tt_part(attacker, ruleset), *ability_parts(attacker, "attack_bonus", ruleset)]
    elif isinstance(attacker, Mapping) and "support" in attacker:
        support = ruleset.support.get(attacker["support"])
        if support is None:
            raise refuse("support_unknown", attacker["support"])
        attacker_parts = [part("support", support.attack_bonus, support=support.code)]
    else:
        attacker_parts = _stat_parts(attacker if isinstance(attacker, Mapping) else {}, ruleset, None)
    bonus = _total(attacker_parts)
    attack_mods = modifiers_check(inputs.get("modifiers"), "attack", ruleset)
    targets = inputs.get("targets") or []
    if not targets:
        raise refuse("targets_required")
    checked = []
    for target in targets:
        cover = target.get("cover", "open")
        cover_part = part("cover", _cover(ruleset, cover), cover=cover)
        unit = target.get("unit")
        s_part = part("s", unit.s if isinstance(unit, Unit) else integer_input(target, "s", required=True))
        sources = sources_check(target, ruleset)
        modifiers = modifiers_check(target.get("modifiers"), "attack", ruleset)
        target_id = target.get("id", unit.id if isinstance(unit, Unit) else None)
        defence_parts = [s_part, cover_part]
        checked.append(
            (target_id, _total(defence_parts), sources.mode, modifiers.total, defence_parts, modifiers)
        )
    if all(mode == "normal" for _, _, mode, *_ in checked):
        drawn = [dice.die(20)]
    else:
        drawn = [dice.die(20), dice.die(20)]
    naturals = ruleset.get("attack.naturals")
    results, setback = [], False
    for target_id, defence, mode, target_mods, defence_parts, modifiers in checked:
        kept = drawn[0] if mode == "normal" else max(drawn) if mode == "advantage" else min(drawn)
        total = kept + bonus + attack_mods.total + target_mods
        margin = total - defence
        band = _band(margin, ruleset)
        natural = kept if kept in (1, 20) else None
        if naturals and natural == 20:
            band = {"miss": "suppression", "normal": "heavy"}.get(band, band)
        if naturals and natural == 1:
            setback = True
        results.append(
            {
                "id": target_id,
                "mode": mode,
                "kept": kept,
                "total": total,
                "defence": defence,
                "margin": margin,
                "band": band,
                "natural": natural,
                "defence_parts": defence_parts,
                "bonuses": modifiers.parts,
            }
        )
    bonuses = attacker_parts + attack_mods.parts
    return {"dice": drawn, "bonus": bonus, "bonuses": bonuses, "setback": setback, "targets": results}


def _weapon_expression(weapon: Any, ruleset: CompanyRuleset) -> Any:
    if isinstance(weapon, Unit):
        return expression_of(weapon.ti)
    weapon = weapon if isinstance(weapon, Mapping) else {}
    if "support" in weapon:
        support = ruleset.support.get(weapon["support"])
        if support is None:
            raise refuse("support_unknown", weapon["support"])
        return expression_of(support.damage)
    reason = weapon.get("reason")
    if not (isinstance(reason, str) and reason.strip()):
        raise refuse("reason_required", "dice")
    return expression_of(weapon.get("dice"))


def damage(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """§8.5.5: the weapon's dice (+ extra dice on a heavy hit) + modifiers, halved for a damaged attacker."""
    band = inputs.get("band")
    if band not in BANDS:
        raise refuse("band_unknown", band)
    if band in ("suppression", "miss"):
        raise refuse("no_damage", band)
    expression = _weapon_expression(inputs.get("weapon"), ruleset)
    modifiers = modifiers_check(inputs.get("modifiers"), "damage", ruleset)
    damaged = inputs.get("attacker_damaged", False)
    if not isinstance(damaged, bool):
        raise refuse("not_a_boolean", "attacker_damaged", field="attacker_damaged", name="attacker")
    values, total = expression_roll(expression, dice)
    if band == "heavy":
        values += [dice.die(expression.sides) for _ in range(ruleset.get("attack.heavy_extra_dice"))]
        total = sum(values) + expression.constant
    total += modifiers.total
    if damaged:
        total = (total + 1) // 2 if ruleset.get("attack.damaged_rounding") == "up" else total // 2
    return {"dice": values, "damage": max(0, total), "bonuses": modifiers.parts, "halved": damaged}


def _worse(a: str, b: str) -> str:
    return max(a, b, key=MORALE_STATES.index)


def morale(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """§8.5.6: d20 + M + modifiers against the reason's DC; critical at DC − 5 or below; the state after."""
    unit: Unit = inputs["unit"]
    reason = inputs.get("reason")
    dcs = ruleset.get("morale.dc")
    if reason == "other":
        dc = integer_input(inputs, "dc")
        if dc is None:
            raise refuse("dc_required")
    elif reason in dcs:
        dc = dcs[reason]
    else:
        raise refuse("reason_unknown", reason)
    state = inputs.get("state") or "none"
    if state not in MORALE_STATES:
        raise refuse("state_unknown", state, state=state)
    sources = sources_check(inputs, ruleset)
    modifiers = modifiers_check(inputs.get("modifiers"), "morale", ruleset)
    output = {"mode": sources.mode, "dc": dc, "automatic": False}
    if ruleset.has_effect(unit.abilities, "morale_auto_success"):
        result, drawn, kept, total = "success", [], None, None
        # the entry says why no die was drawn: the ability that makes every morale test succeed
        why = next(a for a in unit.abilities if ruleset.has_effect((a,), "morale_auto_success"))
        output.update(automatic=True, automatic_by=why)
    else:
        drawn, kept = d20_draw(sources.mode, dice)
        automatic_lost = inputs.get("commander_lost") is True and not modifiers.commander_lost
        parts = [part("m", unit.m), *modifiers.parts]
        if automatic_lost:  # filled in by the server from the KP ledger; at most once (§8.4)
            lost = ruleset.get("dice.modifiers.commander_lost.value")
            parts.append(part("modifier", lost, modifier="commander_lost", automatic=True))
        output["bonuses"] = parts
        total = kept + _total(parts)
        if total >= dc:
            result = "success"
        elif total <= dc - ruleset.get("morale.critical_margin") and not ruleset.has_effect(
            unit.abilities, "morale_no_critical"
        ):
            result = "critical"
        else:
            result = "failure"
    if result == "success":
        after = "none" if reason == "rally" else state
    elif result == "critical":
        after = "retreating"
    elif reason in ruleset.get("morale.fail_state"):
        after = _worse(state, ruleset.get("morale.fail_state")[reason])
    else:
        after = state if reason == "rally" else _worse(state, "pinned")
    return {**output, "result": result, "dice": drawn, "kept": kept, "total": total, "state_after": after}


def recon_level(margin: int, ruleset: CompanyRuleset) -> str:
    """By the margin of scout over target (`recon.levels`); a tie goes to the target (§8.5.7)."""
    for level, minimum in ruleset.get("recon.levels").items():
        if margin >= minimum:
            return level
    return "none"


def recon_contest(
    scout: Unit,
    target: Unit,
    cover: dict[str, Any],
    ruleset: CompanyRuleset,
    dice: Recorder,
    *,
    scout_mode: str = "normal",
    target_mode: str = "normal",
    scout_mods: Sequence[dict[str, Any]] = (),
    target_mods: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """The roll itself, shared by the table's `recon` and the campaign map's recon orders (§10.2).

    `cover` is the target's cover bonus as a part: the table's cover, or the region's terrain."""
    scout_dice, scout_kept = d20_draw(scout_mode, dice)
    target_dice, target_kept = d20_draw(target_mode, dice)
    scout_parts = [tt_part(scout, ruleset), *ability_parts(scout, "recon_bonus", ruleset), *scout_mods]
    stealth = [part("h", target.h), *ability_parts(target, "stealth_bonus", ruleset)]
    target_parts = [cover, *(stealth if ruleset.get("recon.add_stealth") else []), *target_mods]
    scout_total = scout_kept + _total(scout_parts)
    target_total = target_kept + _total(target_parts)
    margin = scout_total - target_total
    return {
        "scout_dice": scout_dice,
        "target_dice": target_dice,
        "scout_bonuses": scout_parts,
        "target_bonuses": target_parts,
        "scout_total": scout_total,
        "target_total": target_total,
        "margin": margin,
        "level": recon_level(margin, ruleset),
    }


def recon(inputs: Mapping[str, Any], ruleset: CompanyRuleset, dice: Recorder) -> dict[str, Any]:
    """§8.5.7: scout d20 + TT against target d20 + cover + H; a hidden target cannot be rolled for."""
    target = inputs.get("target") or {}
    if target.get("hidden") is True:
        raise refuse("target_hidden", target["unit"].id if isinstance(target.get("unit"), Unit) else None)
    cover = target.get("cover", "open")
    cover_part = part("cover", _cover(ruleset, cover), cover=cover)
    scout_sources = sources_check(inputs.get("scout_sources") or {}, ruleset)
    target_sources = sources_check(inputs.get("target_sources") or {}, ruleset)
    scout_mods = modifiers_check(inputs.get("scout_modifiers"), "recon", ruleset)
    target_mods = modifiers_check(inputs.get("target_modifiers"), "recon", ruleset)
    return recon_contest(
        inputs["scout"],
        target["unit"],
        cover_part,
        ruleset,
        dice,
        scout_mode=scout_sources.mode,
        target_mode=target_sources.mode,
        scout_mods=scout_mods.parts,
        target_mods=target_mods.parts,
    )
