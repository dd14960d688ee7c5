"""Close-combat rounds of a tabletop battle through the API (TABLETOP.md B9, A12): list them, save one.

GET  .../battles/<key>/rounds/   the battle's saved rounds, by game turn then sequence: its nations and the GM
POST .../battles/<key>/rounds/   {round: <the calculator's input (B2)>, label, game_turn, battle_sides}
                                 saves and rolls (B1): dice as entered, or `dice: {seed: …}` for the
                                 server's roll from the battle's derived seed (B6). 201 with the round;
                                 400 with B7's or B9's errors, `{"errors": [{"code", "ref", "message"}]}`
POST .../battles/<key>/rounds/<sequence>/   the same and a `reason`: replaces the round (B9's corrections)

A battle the reader may not see is a 404 (rules.tabletop.api); its rounds are the battle's nations' and the
GM's (A11.2): a nation that only supports the battle reads its sheet, not its rounds.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from rules.models import Battle, CombatRound
from rules.tabletop.api import BattleScoped
from rules.tabletop.archive import round_fields
from rules.tabletop.rounds import (
    close_combat_round_correct,
    close_combat_round_save,
    rounds_readable,
    rounds_visible,
)


def round_shown(round_: CombatRound) -> dict[str, Any]:
    return {
        **round_fields(round_),
        "dice": {
            "mode": round_.dice_mode,
            "seed": round_.seed or None,
            "used": round_.output["dice"]["used"],
        },
        "author": round_.author.username if round_.author else None,
        "created_at": round_.created_at.isoformat(),
        "after_publication": round_.after_publication,
        "replaced": len(round_.replaced),
    }


def _body(request: Request) -> dict[str, Any]:
    return request.data if isinstance(request.data, dict) else {}


def _round_entered(body: dict[str, Any]) -> dict[str, Any]:
    """The round a body enters, as a save and a correction both take it: the calculator's input, its game
    turn and the battle's sides it names (anything but a list: none)."""
    sides = body.get("battle_sides")
    return {
        "data": body.get("round"),
        "game_turn": body.get("game_turn"),
        "battle_sides": sides if isinstance(sides, list) else None,
    }


class RoundsScoped(BattleScoped):
    def rounds_battle_get(self) -> Battle:
        """The battle whose rounds the viewer reads (its nations and the GM); a 404 for anyone else."""
        battle, _ = self.battle_get()
        if not rounds_readable(viewer=self.viewer, battle=battle):
            raise Http404("no such battle")
        return battle


class BattleRounds(RoundsScoped):
    """The battle's saved close-combat rounds: read them (its nations and the GM), or save one."""

    @extend_schema(request=None, responses=dict, operation_id="battle_rounds_list")
    def get(self, request: Request, slug: str, number: int, key: str) -> Response:
        battle = self.rounds_battle_get()
        return Response([round_shown(r) for r in rounds_visible(viewer=self.viewer, battle=battle)])

    @extend_schema(request=dict, responses=dict, operation_id="battle_round_save")
    def post(self, request: Request, slug: str, number: int, key: str) -> Response:
        battle, _ = self.battle_get()
        body = _body(request)
        saved = close_combat_round_save(
            viewer=self.viewer,
            battle=battle,
            label=str(body.get("label") or ""),
            **_round_entered(body),
        )
        return Response(round_shown(saved), status=status.HTTP_201_CREATED)


class BattleRoundCorrect(RoundsScoped):
    """Replace a saved round (B9): its author while the battle has no confirmed result, a seeded one the GM
    only, with its seed; the version replaced is kept with the round and in the audit log."""

    @extend_schema(request=dict, responses=dict, operation_id="battle_round_correct")
    def post(self, request: Request, slug: str, number: int, key: str, sequence: int) -> Response:
        battle = self.rounds_battle_get()
        found = battle.rounds.filter(sequence=sequence).first()
        if found is None:
            raise Http404("no such round")
        body = _body(request)
        corrected = close_combat_round_correct(
            viewer=self.viewer,
            round_=found,
            reason=str(body.get("reason") or ""),
            label=str(body["label"]) if "label" in body else None,
            **_round_entered(body),
        )
        return Response(round_shown(corrected))
