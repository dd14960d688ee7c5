"""Battle report cards: the engine's report dict laid out so that every number explains itself (UX.md).

Pure functions from the stored report (and the reader's own support rolls) to plain dicts for the template.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from frontend.rules_doc import rule_anchor
from frontend.systems import Card, SystemPages, pages_of, pages_register
from frontend.terms import and_list, kta_term, message_rule, message_text, word
from rules.engine.systems import DEFAULT_SYSTEM

TITLES = {
    "meeting": gettext_lazy("Meeting engagement of %(region)s"),
    "control": gettext_lazy("Battle for control of %(region)s"),
}


def units_text(units: dict[str, int] | None) -> str:
    return ", ".join(f"{t} {c}" for t, c in (units or {}).items() if c) or _("none")


def battle_card(
    data: dict[str, Any],
    *,
    names: dict[str, str],
    colors: dict[str, str] | None = None,
    settlements: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One battle as a card, laid out by the card of its battle system (its `SystemPages.card`).

    A report stored before reports named their system is Iron Fist's; a system without a card of its own
    gets the plain card: the sides, their units and losses, and the result. What the pipeline decides for
    every system is added here: the sides' colours, and who holds a jointly conquered region and why
    (IRON_FIST §7.2, from the turn's `settlements`).
    """
    system = data.get("system", DEFAULT_SYSTEM)
    shown = pages_of(system).card or PLAIN_CARD
    card = shown.lay_out(data, names=names)
    card.update(system=system, template=shown.page, text_template=shown.mail)
    colors = colors or {}
    for side, raw in zip(card.get("sides", []), data.get("sides", []), strict=False):
        first = (raw.get("nations") or [raw.get("name")])[0]
        side["color"] = colors.get(first, "#888888")
    card["settlement"] = settlement_words(card["region"], settlements or [], names)
    return card


def settlement_words(region: str, settlements: list[dict[str, Any]], names: dict[str, str]) -> str:
    """Who holds a region that several nations at peace conquered together, and why (§7.2): the most ground
    units; a tie drawn by lot, with the die and roll the engine recorded (a result stored before it did:
    the holder's place among the tied, which is what the roll was)."""
    parts = []
    for s in settlements:
        if s.get("region") != region:
            continue
        units = ", ".join(
            _("%(nation)s %(count)s") % {"nation": _name(names, n), "count": c} for n, c in s["units"].items()
        )
        holder = _name(names, s.get("holder"))
        tied = s.get("tied") or []
        if tied and s.get("holder") in tied:
            parts.append(
                _(
                    "Ground units in %(region)s after the battle: %(units)s. A tie, drawn by lot among "
                    "%(choices)s: %(die)s rolled %(roll)s, so %(holder)s holds %(region)s (§7.2)."
                )
                % {
                    "region": region,
                    "units": units,
                    "choices": ", ".join(f"{i} = {_name(names, n)}" for i, n in enumerate(tied, 1)),
                    "die": s.get("die") or f"1d{len(tied)}",
                    "roll": s.get("roll") or tied.index(s["holder"]) + 1,
                    "holder": holder,
                }
            )
        else:
            parts.append(
                _(
                    "Ground units in %(region)s after the battle: %(units)s. %(holder)s has the most and "
                    "holds %(region)s (§7.2)."
                )
                % {"region": region, "units": units, "holder": holder}
            )
    return " ".join(parts)


def plain_card(data: dict[str, Any], *, names: dict[str, str]) -> dict[str, Any]:
    """What every battle report has (BATTLE_SYSTEMS.md): the sides and their units, losses, the winner."""
    card = _card_head(data, names)
    if data.get("kind") == "unopposed":
        return _unopposed(card, data, names)
    sides = data.get("sides", [])
    losses = data.get("losses", {})
    card["sides"] = [_side_head(side, losses, names) for side in sides]
    _headline(card)
    card["winner"] = _name(names, _side_name(sides, data.get("winner"))) if data.get("winner") else None
    _result(card, data, names)
    return card


def iron_fist_card(data: dict[str, Any], *, names: dict[str, str]) -> dict[str, Any]:
    """Iron Fist's card: the plain card, with one row per KTA term, the dice, the loss-table row, the
    rounding of each loss and the support each side had (its loss rolls are the turn's: `support_block`)."""
    card = plain_card(data, names=names)
    if card["kind"] == "unopposed":
        return card
    sides = data.get("sides", [])
    for shown, side in zip(card["sides"], sides, strict=True):
        shown.update(
            kta=side.get("kta"),
            dice=side.get("dice", []),
            loss_percent=side.get("loss_percent"),
            loss_notes=[f"{t}: {message_text(note)}" for t, note in (side.get("loss_notes") or {}).items()],
            support=[
                _("%(count)s %(unit_type)s of %(nation)s from %(region)s")
                % {
                    "count": s.get("count"),
                    "unit_type": s.get("unit_type"),
                    "nation": _name(names, s.get("nation")),
                    "region": s.get("region"),
                }
                for s in side.get("support", [])
            ],
        )
    card["term_rows"] = _term_rows(sides)
    card["max_kta"] = max([1, *(s["kta"] or 0 for s in card["sides"])])
    low, high = ([*(data.get("row_range") or []), None, None])[:2]
    loser, winner = ([*(data.get("row") or []), None, None])[:2]
    span = f"{low}–{high}" if high is not None else _("%(low)s or more") % {"low": low}
    card["difference"] = data.get("difference")
    card["row_text"] = (
        _("loss table row %(span)s: the loser loses %(loser)s %%, the winner %(winner)s %%")
        % {"span": span, "loser": loser, "winner": winner}
        if loser is not None
        else ""
    )
    card["past_threshold"] = data.get("past_threshold")
    cap = data.get("winners_cap")
    card["cap_text"] = (
        _(
            "%(side)s's losses capped from %(before)s to %(after)s: "
            "a winner never loses more units than the loser"
        )
        % {
            "side": _name(names, _side_name(sides, cap.get("side"))),
            "before": cap.get("from"),
            "after": cap.get("to"),
        }
        if cap
        else ""
    )
    return card


# The card of a system without one of its own, and the default system's.
PLAIN_CARD = Card(plain_card, "frontend/cards/plain.html", "frontend/cards/plain.txt")
pages_register(
    SystemPages(
        DEFAULT_SYSTEM,
        card=Card(iron_fist_card, "frontend/_battle_card.html", "frontend/email/_battle_card.txt"),
    )
)


def _name(names: dict[str, str], code: str | None) -> str:
    return names.get(code, code) if code else _("nobody")


def _card_head(data: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """What every card starts with: the place, the kind of battle and why it ended as it did."""
    kind = data.get("kind", "")
    region = data.get("region", "")
    return {
        "kind": kind,
        "kind_words": word("battle", kind),
        "region": region,
        "anchor": card_anchor(kind, region),
        "terrain": word("terrain", data.get("terrain")) or None,
        "weather": word("weather", data.get("weather")) or None,
        "conquest": bool(data.get("conquest")),
        "decided_by": message_text(data.get("decided_by")),
        "decided_anchor": rule_anchor(message_rule(data.get("decided_by"))),
        "owner_after": _name(names, data.get("owner_after")) if "owner_after" in data else None,
        "title": str(TITLES.get(kind, gettext_lazy("Battle of %(region)s")))
        % {"region": and_list(region.split("|"))},
    }


def _unopposed(card: dict[str, Any], data: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """An occupation without a battle (IRON_FIST.md §7.1): who moved in, from whom."""
    region = card["region"]
    attackers = data.get("nations", [])
    who = and_list(_name(names, n) for n in attackers)
    card["headline"] = ngettext("%(who)s attacks", "%(who)s attack", len(attackers)) % {"who": who}
    card["unopposed"] = [
        {"nation": _name(names, n), "units": units_text(data.get("units", {}).get(n))} for n in attackers
    ]
    if data.get("defender"):
        card["result"] = ngettext(
            "%(who)s takes %(region)s from %(defender)s without a fight.",
            "%(who)s take %(region)s from %(defender)s without a fight.",
            len(attackers),
        ) % {"who": who, "region": region, "defender": _name(names, data["defender"])}
    else:
        card["result"] = ngettext(
            "%(who)s takes %(region)s (unowned) without a fight.",
            "%(who)s take %(region)s (unowned) without a fight.",
            len(attackers),
        ) % {"who": who, "region": region}
    holder = data.get("owner_after")
    if len(attackers) > 1 and holder:
        card["result"] += " " + _("%(nation)s holds it (§7.2).") % {"nation": _name(names, holder)}
    card["sides"] = []
    card["subtitle"] = _subtitle(card)
    return card


def _side_head(side: dict[str, Any], losses: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A side as every card shows it: its nations, role, units, losses, what was left and how it did."""
    return {
        "name": and_list(_name(names, n) for n in side.get("nations", [side.get("name")])),
        "role": word("role", side.get("role", "")),
        "units": "; ".join(
            (f"{_name(names, n)}: " if len(side.get("units", {})) > 1 else "") + units_text(u)
            for n, u in side.get("units", {}).items()
        )
        or _("none"),
        "outcome": word("outcome", side.get("outcome", "")),
        "losses": "; ".join(
            f"{_name(names, n)}: {units_text(losses.get(n))}" for n in side.get("nations", [])
        )
        if len(side.get("nations", [])) > 1
        else units_text(_side_losses(side, losses)),
        "after": units_text(_after(side, losses)),
    }


def _headline(card: dict[str, Any]) -> None:
    sides = card["sides"]
    card["headline"] = (
        _("%(first)s (%(first_role)s) against %(second)s (%(second_role)s)")
        % {
            "first": sides[0]["name"],
            "first_role": sides[0]["role"],
            "second": sides[1]["name"],
            "second_role": sides[1]["role"],
        }
        if len(sides) == 2
        else ""
    )


def _result(card: dict[str, Any], data: dict[str, Any], names: dict[str, str]) -> None:
    """The result in one sentence, and the subtitle under the title."""
    region = card["region"]
    if card["kind"] == "meeting":
        card["result"] = _meeting_result(data, card["winner"], lambda code: _name(names, code))
    elif card["conquest"]:
        card["result"] = _("%(nation)s takes %(region)s.") % {
            "nation": card["owner_after"] or card["winner"],
            "region": region,
        }
    elif card["winner"]:
        card["result"] = _("%(nation)s wins; %(region)s does not change hands.") % {
            "nation": card["winner"],
            "region": region,
        }
    else:
        card["result"] = _("A draw; %(region)s does not change hands.") % {"region": region}
    card["subtitle"] = _subtitle(card)


def card_anchor(kind: str, region: str) -> str:
    """The card's id on the turn page; a battle for control follows a joint conquest of the same region."""
    return f"battle-{region.replace('|', '-')}" + ("-control" if kind == "control" else "")


def _meeting_result(data: dict[str, Any], winner: str | None, name) -> str:
    """A meeting engagement takes no region: past the threshold the winner goes on, the rest go home."""
    if winner:
        said = _("%(nation)s wins the meeting engagement") % {"nation": winner}
    else:
        said = _("The meeting engagement is a draw")
    going_on = data.get("continues")
    if going_on:
        said += "; " + _("%(units)s go on to attack %(region)s") % {
            "units": units_text(going_on.get("units")),
            "region": going_on.get("into"),
        }
    home = [
        _("%(nation)s to %(region)s") % {"nation": name(n), "region": origin}
        for n, origin in (data.get("returned") or {}).items()
    ]
    if home:
        said += "; " + _("back home: %(list)s") % {"list": ", ".join(home)}
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
        cells = [{**c, "detail": message_text(c.get("detail"))} if c else c for c in cells]
        rule = next((c.get("rule") for c in cells if c and c.get("rule")), "")
        rows.append({"term": kta_term(term), "rule": rule, "anchor": rule_anchor(rule), "cells": cells})
    return rows


def support_block(support: dict[str, list[dict[str, Any]]] | None) -> dict[str, list[dict[str, Any]]]:
    """The reader's own support units' loss chances and rolls, once per turn (they are rolled once, at the
    end of the phase, however many battles a unit supported: IRON_FIST §8-9)."""
    if not support:
        return {"chances": [], "rolls": []}
    # A unit that supported no battle has nothing to roll for: left out.
    chances = [c for c in support.get("chances", []) if c.get("battles")]
    return {"chances": chances, "rolls": list(support.get("rolls", []))}
