"""Sodankäynti's battle card (SODANKAYNTI.md §14): the battle action by action, for a player to replay.

Every pool with its rating, advantages, dice and successes; every unit's die and its value; each action with
the doctrine rule that chose it (§10.4) and what it removed, destroyed, spent or withdrew; how the battle
ended; the veterans' rolls; the result and why. Every sentence is a message code (registered here with its
English template, Finnish in the catalogue), rendered in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from frontend.reports import plain_card
from frontend.terms import and_list, message_text, said, word
from rules.engine.messages import Message, gettext_noop, messages_register

messages_register(
    {
        # A die on the card: its type, its size and, once rolled, its value.
        "sk.die": gettext_noop("{type} {die}"),
        "sk.die_value": gettext_noop("{type} {value}"),
        # The pools of a roll (§6).
        "sk.pool": gettext_noop("rating {rating} ({rating_of}){advantages}: {dice} → {successes} successes"),
        "sk.adv.gm": gettext_noop("GM"),
        "sk.adv.fort": gettext_noop("fort"),
        "sk.adv.terrain": gettext_noop("terrain"),
        "sk.adv.home": gettext_noop("home region"),
        "sk.adv.ambush": gettext_noop("ambush"),
        "sk.adv.surprise": gettext_noop("surprise"),
        "sk.adv.pincer": gettext_noop("pincer"),
        "sk.count.winner": gettext_noop("the winner's successes count"),
        "sk.count.net": gettext_noop("the difference in successes counts"),
        "sk.advantage": gettext_noop("{name} {dice}"),
        "sk.advantage_why": gettext_noop("{name} {dice} ({reason})"),
        "sk.politics_skipped": gettext_noop("no politics roll: the GM skipped it here"),
        "sk.politics_won": gettext_noop("{side} wins the politics roll ({rule}): {count} enemy dice removed"),
        "sk.politics_tie": gettext_noop("the politics roll is a tie: no dice removed"),
        "sk.removed": gettext_noop("sit this battle out: {dice}"),
        "sk.unused": gettext_noop("{count} removals found no die to take"),
        # Actions (§9), each followed by the doctrine rule that chose it (§10.4).
        "sk.action.attack": gettext_noop("{by} attacks and destroys {targets}; {by} is spent"),
        "sk.action.sacrifice": gettext_noop(
            "{by} sacrifices itself to take {targets} off the board; {by} is destroyed"
        ),
        "sk.action.retreat": gettext_noop("retreats: destroyed {destroyed}; withdrawn {withdrawn}"),
        "sk.action.pass": gettext_noop("passes"),
        "sk.bonus": gettext_noop("bonus action"),
        "sk.rule.finish": gettext_noop("finish: this clears the enemy's board"),
        "sk.rule.retreat_below": gettext_noop(
            "retreat below {retreat_below} %: its dice were worth less than that share of the enemy's"
        ),
        "sk.rule.helpless": gettext_noop("helpless: no die could act, and the doctrine retreats then"),
        "sk.rule.no_action": gettext_noop("no action: no die could act, and the doctrine stands its ground"),
        "sk.rule.sacrifice.first": gettext_noop("sacrifice first: the doctrine sacrifices whenever it can"),
        "sk.rule.sacrifice.when_needed": gettext_noop(
            "sacrifice when needed: none of its dice could beat the enemy's highest alone"
        ),
        "sk.rule.sacrifice.no_attack": gettext_noop("sacrifice: no attack was possible"),
        "sk.rule.attack.value": gettext_noop("attack by value: the most valuable enemy dice it can beat"),
        "sk.rule.attack.count": gettext_noop("attack by count: as many enemy dice as it can"),
        "sk.rule.standoff.board_value": gettext_noop("standoff: the side whose dice are worth less retreats"),
        "sk.board_after": gettext_noop("board value after: {values}"),
        # How it ended (§9).
        "sk.end.retreat": gettext_noop("{loser} retreated after {actions} actions: {winner} wins"),
        "sk.end.board_empty": gettext_noop("{loser} had no dice left after {actions} actions: {winner} wins"),
        "sk.end.standoff": gettext_noop("a standoff after {actions} actions: neither side could act"),
        "sk.end.max_actions": gettext_noop("stopped after {actions} actions, the most a battle may last"),
        "sk.end.politics": gettext_noop("{loser} had no dice left after the politics roll: {winner} wins"),
        # Fates (§11.1).
        "sk.fate.board": gettext_noop("on the board"),
        "sk.fate.absent": gettext_noop("sat out"),
        "sk.fate.removed": gettext_noop("removed"),
        "sk.fate.destroyed": gettext_noop("destroyed"),
        "sk.fate.withdrawn": gettext_noop("withdrawn"),
        "sk.fate.spent": gettext_noop("spent"),
        "sk.fate.deserted": gettext_noop("deserted"),
        # Veterans (§11.2, §11.3).
        "sk.veteran.new": gettext_noop("{pair} ({die}) rolled {roll}: a veteran {type} joins in {origin}"),
        "sk.veteran.none": gettext_noop("{pair} ({die}) rolled {roll}: no veteran"),
        "sk.veteran.impossible": gettext_noop("{pair} ({die}): no {die} can roll high enough, no veteran"),
        "sk.veteran.unpaired": gettext_noop("{unit} had no pair"),
        # A doctrine in one line (§10.1), from its parameters: on the card and in the order panel.
        "sk.doctrine": gettext_noop("{name}: {retreat}; {helpless}; {sacrifice}; {attack}"),
        "sk.retreat.never": gettext_noop("never retreats while it can act"),
        "sk.retreat.below": gettext_noop("retreats when its dice are worth under {percent} % of the enemy's"),
        "sk.helpless.retreat": gettext_noop("retreats when no die can act"),
        "sk.helpless.pass": gettext_noop("holds when no die can act"),
        "sk.sacrifice.first": gettext_noop("sacrifices dice up to {die} first"),
        "sk.sacrifice.when_needed": gettext_noop(
            "sacrifices dice up to {die} when none of its dice can beat the enemy's highest"
        ),
        "sk.sacrifice.last": gettext_noop("sacrifices dice up to {die} only when it cannot attack"),
        "sk.sacrifice.never": gettext_noop("never sacrifices"),
        "sk.attack.value": gettext_noop("attacks the most valuable dice"),
        "sk.attack.count": gettext_noop("attacks as many dice as it can"),
        "sk.doctrine_from.order": gettext_noop("by order"),
        "sk.doctrine_from.nation attribute": gettext_noop("the nation's standing doctrine"),
        "sk.doctrine_from.ruleset default": gettext_noop("the rules' default"),
    }
)


def doctrine_line(doctrine: Mapping[str, Any]) -> str:
    """What a doctrine does, in one line of the reader's language, from its parameters (§10.1)."""
    below = doctrine.get("retreat_below")
    retreat = Message("sk.retreat.below", {"percent": below}) if below else Message("sk.retreat.never")
    helpless = Message("sk.helpless.retreat" if doctrine.get("retreat_when_helpless") else "sk.helpless.pass")
    mode = doctrine.get("sacrifice", "never")
    sacrifice = Message(f"sk.sacrifice.{mode}", {"die": f"d{doctrine.get('sacrifice_max_die')}"})
    attack = Message(f"sk.attack.{doctrine.get('attack_priority', 'value')}")
    params = {"name": doctrine.get("name"), "retreat": retreat, "helpless": helpless}
    return said(Message("sk.doctrine", params | {"sacrifice": sacrifice, "attack": attack}))


def sodankaynti_card(data: dict[str, Any], *, names: dict[str, str]) -> dict[str, Any]:
    """The card of one Sodankäynti battle; an occupation without a fight is the plain card's."""
    if data.get("kind") == "unopposed":
        return plain_card(data, names=names)
    end = data.get("end") or {}
    # The plain card's head and result sentence, from the winner of §9's end.
    card = plain_card({**data, "sides": [], "winner": end.get("winner")}, names=names)
    units = {u["id"]: u for side in data.get("sides", []) for u in side.get("units", [])}
    values = data.get("roll") or {}
    fates = data.get("fates") or {}
    name = _namer(names)
    card["sides"] = [
        _side(side, values, fates, data.get("losses") or {}, name) for side in data.get("sides", [])
    ]
    if len(card["sides"]) == 2:
        first, second = card["sides"]
        card["headline"] = f"{first['name']} ({first['role']}) — {second['name']} ({second['role']})"
    card["politics"] = _roll(data.get("politics"), units, name, "politics")
    card["tactics"] = _roll(data.get("tactics"), units, name, "tactics")
    card["actions"] = [_action(a, units, name, data) for a in data.get("actions", [])]
    if end:
        params = {
            "winner": name(end.get("winner")),
            "loser": name(end.get("loser")),
            "actions": end.get("actions"),
        }
        card["end"] = said(Message(f"sk.end.{end.get('cause')}", params))
    card["veterans"] = [
        _veteran(v, units) for nation in sorted(data.get("veterans") or {}) for v in data["veterans"][nation]
    ]
    card["subtitle"] = " · ".join(p for p in (card["terrain"], card["kind_words"]) if p)
    return card


def _namer(names: dict[str, str]):
    def name(code: str | None) -> str:
        if not code:
            return ""
        return and_list(names.get(c, c) for c in code.split("+"))

    return name


def _die(unit: Mapping[str, Any] | None, value: Any = None) -> str:
    if unit is None:
        return "?"
    if value is None:
        return said(Message("sk.die", {"type": unit.get("type"), "die": unit.get("die")}))
    return said(Message("sk.die_value", {"type": unit.get("type"), "value": value}))


def _dice(entries: list[Mapping[str, Any]], units: Mapping[str, Any]) -> str:
    return ", ".join(_die(units.get(e["id"]), e.get("value")) for e in entries) or "—"


def _side(side, values, fates, losses, name) -> dict[str, Any]:
    doctrine = side.get("doctrine") or {}
    lost: dict[str, int] = {}
    for nation in side.get("nations", []):
        for unit_type, count in (losses.get(nation) or {}).items():
            lost[unit_type] = lost.get(unit_type, 0) + count
    return {
        "name": name(side.get("name")),
        "role": word("role", side.get("role", "")),
        "commander": name(side.get("commander")),
        "doctrine": doctrine.get("name"),
        "doctrine_from": said(Message(f"sk.doctrine_from.{doctrine.get('from')}")),
        "doctrine_line": doctrine_line(doctrine) if doctrine else "",
        "dice": [
            {
                "label": _die(u),
                "nation": name(u.get("nation")),
                "origin": u.get("origin"),
                "value": values.get(u["id"], "—"),
                "fate": said(Message(f"sk.fate.{fates.get(u['id'], 'board')}")),
            }
            for u in side.get("units", [])
        ],
        "losses": ", ".join(f"{t} {c}" for t, c in lost.items() if c) or "—",
    }


def _roll(roll: Mapping[str, Any] | None, units, name, kind: str) -> dict[str, Any] | None:
    if not roll:
        return None
    if roll.get("skipped"):
        return {"pools": [], "summary": said(Message("sk.politics_skipped"))}
    pools = []
    for nation, pool in (roll.get("pools") or {}).items():
        advantages = [
            Message("sk.advantage_why" if a.get("reason") else "sk.advantage", a)
            for a in pool.get("advantages", [])
        ]
        extra = (" + " + " + ".join(said(a) for a in advantages)) if advantages else ""
        params = {
            "rating": pool.get("rating"),
            "rating_of": name(pool.get("rating_of")),
            "advantages": extra,
            "dice": " ".join(str(d) for d in pool.get("dice", [])) or "—",
            "successes": pool.get("successes"),
        }
        pools.append({"nation": name(nation), "text": said(Message("sk.pool", params))})
    lines = []
    if kind == "politics":
        if roll.get("winner"):
            params = {
                "side": name(roll["winner"]),
                "rule": roll.get("count_rule"),
                "count": roll.get("count"),
            }
            lines.append(said(Message("sk.politics_won", params)))
        else:
            lines.append(said(Message("sk.politics_tie")))
        if roll.get("removed"):
            removed = ", ".join(f"{name(i.split('/')[0])} {_die(units.get(i))}" for i in roll["removed"])
            lines.append(said(Message("sk.removed", {"dice": removed})))
        if roll.get("unused"):
            lines.append(said(Message("sk.unused", {"count": roll["unused"]})))
    else:
        reason = roll.get("first_reason")
        if isinstance(reason, dict) and "side" in (reason.get("params") or {}):  # the side by its name
            reason = {**reason, "params": {**reason["params"], "side": name(reason["params"]["side"])}}
        lines.append(message_text(reason))
    return {"pools": pools, "summary": "; ".join(line for line in lines if line)}


def _action(action: Mapping[str, Any], units, name, data) -> dict[str, Any]:
    kind = action.get("kind")
    by = action.get("by")
    params: dict[str, Any] = {
        "by": _die(units.get(by["id"]), by.get("value")) if by else "",
        "targets": _dice(action.get("targets") or [], units),
        "destroyed": _dice(action.get("destroyed") or [], units),
        "withdrawn": _dice(action.get("withdrawn") or [], units),
    }
    rule = action.get("rule", "")
    side = next((s for s in data.get("sides", []) if s.get("name") == action.get("side")), {})
    rule_params = {"retreat_below": (side.get("doctrine") or {}).get("retreat_below")}
    after = action.get("board_value_after") or {}
    return {
        "n": action.get("n"),
        "side": name(action.get("side")),
        "nation": name(action.get("nation")),
        "bonus": said(Message("sk.bonus")) if action.get("bonus") else "",
        "text": said(Message(f"sk.action.{kind}", params)),
        "rule": rule,
        "why": said(Message(f"sk.rule.{rule}", rule_params)),
        "after": said(
            Message("sk.board_after", {"values": ", ".join(f"{name(s)} {v}" for s, v in after.items())})
        ),
    }


def _veteran(entry: Mapping[str, Any], units) -> str:
    if "unpaired" in entry:
        return said(Message("sk.veteran.unpaired", {"unit": _die(units.get(entry["unpaired"]))}))
    pair = " + ".join(_die(units.get(i)) for i in entry.get("pair", []))
    params = {"pair": pair, "die": entry.get("die"), "roll": entry.get("roll")}
    if entry.get("roll") == "impossible":
        return said(Message("sk.veteran.impossible", params))
    new = entry.get("new")
    if new:
        return said(
            Message("sk.veteran.new", params | {"type": new.get("type"), "origin": new.get("origin")})
        )
    return said(Message("sk.veteran.none", params))
