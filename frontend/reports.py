"""Battle report cards: the engine's report dict laid out so that every number explains itself (UX.md).

Pure functions from the stored report (and the reader's own support rolls) to plain dicts for the template.
"""

from __future__ import annotations

from typing import Any

from frontend.rules_doc import rule_anchor

KIND_WORDS = {
    "normal": "normal battle",
    "meeting": "meeting engagement",
    "joint": "joint attack",
    "control": "battle for control",
    "unopposed": "unopposed",
}


TITLES = {"meeting": "Meeting engagement of ", "control": "Battle for control of "}


def units_text(units: dict[str, int] | None) -> str:
    return ", ".join(f"{t} {c}" for t, c in (units or {}).items() if c) or "none"


def battle_card(
    data: dict[str, Any], *, names: dict[str, str], support: dict[str, list[dict[str, Any]]] | None = None
) -> dict[str, Any]:
    """One battle as a card: sides in columns, one row per KTA term, then dice, losses and the result."""
    kind = data.get("kind", "")
    region = data.get("region", "")

    def name(code: str | None) -> str:
        return names.get(code, code) if code else "nobody"

    card: dict[str, Any] = {
        "kind": kind,
        "kind_words": KIND_WORDS.get(kind, kind),
        "region": region,
        "anchor": card_anchor(kind, region),
        "terrain": data.get("terrain"),
        "weather": data.get("weather"),
        "conquest": bool(data.get("conquest")),
        "decided_by": data.get("decided_by", ""),
        "decided_anchor": rule_anchor(data.get("decided_by")),
        "owner_after": name(data.get("owner_after")) if "owner_after" in data else None,
        "title": TITLES.get(kind, "Battle of ") + region.replace("|", " and "),
    }
    if kind == "unopposed":
        attackers = data.get("nations", [])
        card["headline"] = (
            f"{' and '.join(name(n) for n in attackers)} attack{'s' if len(attackers) == 1 else ''}"
        )
        card["unopposed"] = [
            {"nation": name(n), "units": units_text(data.get("units", {}).get(n))} for n in attackers
        ]
        card["result"] = (
            f"{' and '.join(name(n) for n in attackers)} take{'s' if len(attackers) == 1 else ''} {region} "
            + (f"from {name(data['defender'])} " if data.get("defender") else "(unowned) ")
            + "without a fight."
        )
        holder = data.get("owner_after")
        if len(attackers) > 1 and holder:
            card["result"] += f" {name(holder)} holds it (§7.2)."
        card["sides"] = []
        card["subtitle"] = _subtitle(card)
        _support_rows(card, data, support, names)
        return card

    sides = data.get("sides", [])
    card["sides"] = [
        {
            "name": " and ".join(name(n) for n in side.get("nations", [side.get("name")])),
            "role": side.get("role", ""),
            "units": "; ".join(
                (f"{name(n)}: " if len(side.get("units", {})) > 1 else "") + units_text(u)
                for n, u in side.get("units", {}).items()
            )
            or "none",
            "kta": side.get("kta"),
            "dice": side.get("dice", []),
            "outcome": side.get("outcome", ""),
            "loss_percent": side.get("loss_percent"),
            "losses": units_text(_side_losses(side, data.get("losses", {}))),
            "after": units_text(_after(side, data.get("losses", {}))),
            "loss_notes": [f"{t}: {note}" for t, note in (side.get("loss_notes") or {}).items()],
            "support": [
                f"{s.get('count')} {s.get('unit_type')} of {name(s.get('nation'))} from {s.get('region')}"
                for s in side.get("support", [])
            ],
        }
        for side in sides
    ]
    roles = [s["role"] for s in card["sides"]]
    card["headline"] = (
        f"{card['sides'][0]['name']} ({roles[0]}) against {card['sides'][1]['name']} ({roles[1]})"
        if len(sides) == 2
        else ""
    )
    card["term_rows"] = _term_rows(sides)
    card["max_kta"] = max([1, *(s["kta"] or 0 for s in card["sides"])])
    low, high = ([*(data.get("row_range") or []), None, None])[:2]
    loser, winner = ([*(data.get("row") or []), None, None])[:2]
    span = f"{low}–{high}" if high is not None else f"{low} or more"
    card["difference"] = data.get("difference")
    card["row_text"] = (
        f"loss table row {span}: the loser loses {loser} %, the winner {winner} %"
        if loser is not None
        else ""
    )
    card["past_threshold"] = data.get("past_threshold")
    card["winner"] = name(_side_name(sides, data.get("winner"))) if data.get("winner") else None
    cap = data.get("winners_cap")
    card["cap_text"] = (
        f"{name(_side_name(sides, cap.get('side')))}'s losses capped from {cap.get('from')} "
        f"to {cap.get('to')}: a winner never loses more units than the loser"
        if cap
        else ""
    )
    if kind == "meeting":
        card["result"] = _meeting_result(data, card["winner"], name)
    elif card["conquest"]:
        card["result"] = f"{card['owner_after'] or card['winner']} takes {region}."
    elif card["winner"]:
        card["result"] = f"{card['winner']} wins; {region} does not change hands."
    else:
        card["result"] = f"A draw; {region} does not change hands."
    card["subtitle"] = _subtitle(card)
    _support_rows(card, data, support, names)
    return card


def card_anchor(kind: str, region: str) -> str:
    """The card's id on the turn page; a battle for control follows a joint conquest of the same region."""
    return f"battle-{region.replace('|', '-')}" + ("-control" if kind == "control" else "")


def _meeting_result(data: dict[str, Any], winner: str | None, name) -> str:
    """A meeting engagement takes no region: past the threshold the winner goes on, the rest go home."""
    said = f"{winner} wins the meeting engagement" if winner else "The meeting engagement is a draw"
    going_on = data.get("continues")
    if going_on:
        said += f"; {units_text(going_on.get('units'))} go on to attack {going_on.get('into')}"
    home = [f"{name(n)} to {origin}" for n, origin in (data.get("returned") or {}).items()]
    if home:
        said += "; back home: " + ", ".join(home)
    return said + "."


def _subtitle(card: dict[str, Any]) -> str:
    """ "region M2, rough, rain · normal battle — Suomi (attacker) against Neuvosto (defender)" """
    place = ", ".join(p for p in (card["terrain"], card["weather"]) if p)
    first = " · ".join(p for p in (place, card["kind_words"]) if p)
    return f"{first} — {card['headline']}" if card.get("headline") else first


def _side_name(sides: list[dict[str, Any]], key: str | None) -> str | None:
    for side in sides:
        if side.get("name") == key:
            nations = side.get("nations") or [key]
            return nations[0] if len(nations) == 1 else key
    return key


def _side_losses(side: dict[str, Any], losses: dict[str, dict[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for nation in side.get("nations", []):
        for unit_type, count in (losses.get(nation) or {}).items():
            total[unit_type] = total.get(unit_type, 0) + count
    return total


def _after(side: dict[str, Any], losses: dict[str, dict[str, int]]) -> dict[str, int]:
    """The side's ground units after its losses."""
    left: dict[str, int] = {}
    for units in side.get("units", {}).values():
        for unit_type, count in units.items():
            left[unit_type] = left.get(unit_type, 0) + count
    for unit_type, lost in _side_losses(side, losses).items():
        left[unit_type] = left.get(unit_type, 0) - lost
    return left


def _term_rows(sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Terms in the order they first appear on either side, each with a cell per side (or an empty one)."""
    order: list[str] = []
    by_side: list[dict[str, dict[str, Any]]] = []
    for side in sides:
        terms = {}
        for term in side.get("terms", []):
            if term["term"] not in order:
                order.append(term["term"])
            terms[term["term"]] = term
        by_side.append(terms)
    # Fortune of war last on both sides, whatever terms only one side has: the dice come after the sums.
    order.sort(key=lambda t: t == "fortune of war")
    rows = []
    for term in order:
        cells = [terms.get(term) for terms in by_side]
        rule = next((c.get("rule") for c in cells if c and c.get("rule")), "")
        rows.append({"term": term, "rule": rule, "anchor": rule_anchor(rule), "cells": cells})
    return rows


def _support_rows(
    card: dict[str, Any],
    data: dict[str, Any],
    support: dict[str, list[dict[str, Any]]] | None,
    names: dict[str, str],
) -> None:
    """The reader's own support units that fought here: their loss chance and every roll."""
    card["support_chances"], card["support_rolls"] = [], []
    if not support:
        return
    region = data.get("region")
    for chance in support.get("chances", []):
        battles = [b.get("battle") for b in chance.get("battles", [])]
        if region in battles:
            card["support_chances"].append(chance)
            card["support_rolls"].extend(
                r
                for r in support.get("rolls", [])
                if (r.get("region"), r.get("unit_type")) == (chance.get("region"), chance.get("unit_type"))
            )
