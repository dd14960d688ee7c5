"""The tabletop battle card (TABLETOP.md A11.1): the entered result and how it was read, or the Iron Fist card
of an auto-resolution with its reason on top; and the battle's saved close-combat rounds (B9), told round by
round, for the readers who may see them (its nations and the GM, A11.2).

The card is a pure function of the stored report, as every card is (frontend.reports); the rounds are the
reader's, attached by the page that knows who reads (`rounds_attach`), as is the history of its result's
versions with every answer (`history_attach`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from campaign.models import Turn
from campaign.selectors import Viewer
from frontend.reports import iron_fist_card, plain_card
from frontend.terms import message_text
from rules.models import CombatRound, ResultVersion
from rules.tabletop.rounds import rounds_by_key
from rules.tabletop.views_calculator import round_words


def tabletop_card(data: dict[str, Any], *, names: dict[str, str]) -> dict[str, Any]:
    """An entered battle: the plain card with the score, the players' notes and why it ended so; an
    auto-resolved one: Iron Fist's card, its reason on top."""
    auto = data.get("resolution") == "auto_resolved"
    card = (iron_fist_card if auto else plain_card)(data, names=names)
    card.update(
        key=data.get("key", ""),
        auto_resolved=auto,
        auto_reason=message_text(data.get("reason")) if auto else "",
        score=data.get("score", ""),
        notes=data.get("notes", ""),
        rounds=[],
        history=[],
    )
    if data.get("resolution") == "entered":
        card["entered"] = (
            _("%(winner)s won decisively") % {"winner": card["winner"]}
            if data.get("decisive")
            else _("%(winner)s won, not decisively") % {"winner": card["winner"]}
            if data.get("winner")
            else _("a draw")
        )
    return card


def saved_round(round_: CombatRound, names: dict[str, str]) -> dict[str, Any]:
    """A saved round as the pages show it: who saved it and when, each calculator side's battle side, and
    the round in words (the calculator's own layout)."""
    sides = [side["name"] for side in round_.output["sides"]]
    belongs = [
        _("%(side)s fights for %(battle_side)s.") % {"side": side, "battle_side": names.get(b, b)}
        for side, b in zip(sides, round_.battle_sides or [], strict=False)
        if b
    ]
    return {
        "saved": {
            "sequence": round_.sequence,
            "label": round_.label,
            "game_turn": round_.game_turn,
            "author_name": round_.author.username if round_.author else _("nobody"),
            "created_at": round_.created_at,
            "after_publication": round_.after_publication,
            "sides": belongs,
        },
        "round": round_words(round_.output),
    }


def rounds_grouped(rounds: Iterable[CombatRound], names: dict[str, str]) -> list[dict[str, Any]]:
    """The rounds by game turn (A11.1): [{game_turn, rounds}], in the order `rounds_ordered` gave."""
    groups: list[dict[str, Any]] = []
    for r in rounds:
        if not groups or groups[-1]["game_turn"] != r.game_turn:
            groups.append({"game_turn": r.game_turn, "rounds": []})
        groups[-1]["rounds"].append(saved_round(r, names))
    return groups


def rounds_attach(cards: list[dict[str, Any]], *, viewer: Viewer, turn: Turn, names: dict[str, str]) -> None:
    """Each tabletop card gets the saved rounds of its battle that the viewer may read (one query)."""
    if not any(card.get("system") == "tabletop" for card in cards):
        return
    by_key = rounds_by_key(viewer=viewer, turn=turn)
    for card in cards:
        if card.get("system") == "tabletop":
            card["rounds"] = rounds_grouped(by_key.get(card.get("key", ""), []), names)


def history_attach(cards: list[dict[str, Any]], *, viewer: Viewer, turn: Turn) -> None:
    """Each entered tabletop card gets its result's history (A11.1): every version with its author, time and
    state, who agreed and who disputed with their comments, and how it became final; for the readers who
    may read the battle's versions on its page (its nations and the GM). One query and one for answers."""
    keys = {card.get("key", "") for card in cards if card.get("system") == "tabletop"}
    if not keys:
        return
    code = viewer.nation.code if viewer.nation is not None else None
    versions = (
        ResultVersion.objects.filter(battle__turn=turn, battle__key__in=keys)
        .select_related("battle", "nation", "author")
        .prefetch_related("answers__nation")
        .order_by("number")
    )
    by_key: dict[str, list[ResultVersion]] = {}
    for version in versions:
        if viewer.is_gm or (code is not None and code in version.battle.nations):
            by_key.setdefault(version.battle.key, []).append(version)
    for card in cards:
        if card.get("system") == "tabletop":
            card["history"] = by_key.get(card.get("key", ""), [])
