"""Close-combat rounds of a tabletop battle through the API (TABLETOP.md B9, A12): list them, save one.

GET  .../battles/<id>/rounds/   the battle's saved rounds, by game turn then sequence: its nations and the GM
POST .../battles/<id>/rounds/   {round: <the calculator's input (B2)>, label, game_turn, battle_sides}
                                 saves and rolls (B1): dice as entered, or `dice: {seed: …}` for the
                                 server's roll from the battle's derived seed (B6). 201 with the round;
                                 400 with B7's or B9's errors, `{"errors": [{"code", "ref", "message"}]}`
POST .../battles/<id>/rounds/<sequence>/   the same and a `reason`: replaces the round (B9's corrections)

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

from campaign.bounds import body
from rules.models import CombatRound, TableBattle
from rules.tabletop.api import BattleScoped
from rules.tabletop.archive import round_fields
from rules.tabletop.rounds import (
    close_combat_round_correct,
    close_combat_round_save,
    rounds_readable,
    rounds_visible,
)
from rules.tabletop.shapes import TabletopRoundCorrectShape, TabletopRoundSaveShape


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


def _body(view: RoundsScoped, shape: type[TabletopRoundSaveShape], battle: TableBattle) -> dict[str, Any]:
    """The body through `shape`, its round bounded by the dice the campaign's settings roll (B6)."""
    settings = battle.turn.campaign.ruleset().tabletop.close_combat
    return body(view.request, shape, settings=settings)


def _round_entered(body: dict[str, Any]) -> dict[str, Any]:
    """The round a body enters, as a save and a correction both take it: the calculator's input, its game
    turn and the battle's sides it names (anything but a list: none)."""
    sides = body.get("battle_sides")
    return {
        "data": body.get("round"),
        "game_turn": body.get("game_turn"),
        "battle_sides": sides if isinstance(sides, list) else None,
    }


def _label(body: dict[str, Any]) -> str:
    label = body.get("label")
    return "" if label is None else str(label)


class RoundsScoped(BattleScoped):
    def rounds_battle_get(self) -> TableBattle:
        """The battle whose rounds the viewer reads (its nations and the GM); a 404 for anyone else."""
        battle, _ = self.battle_get()
        if not rounds_readable(viewer=self.viewer, battle=battle):
            raise Http404("no such battle")
        return battle


class BattleRounds(RoundsScoped):
    """The battle's saved close-combat rounds: read them (its nations and the GM), or save one."""

    @extend_schema(request=None, responses=dict, operation_id="battle_rounds_list")
    def get(self, request: Request, **route: Any) -> Response:
        battle = self.rounds_battle_get()
        return Response([round_shown(r) for r in rounds_visible(viewer=self.viewer, battle=battle)])

    serializer_class = TabletopRoundSaveShape

    @extend_schema(request=TabletopRoundSaveShape, responses=dict, operation_id="battle_round_save")
    def post(self, request: Request, **route: Any) -> Response:
        battle, _ = self.battle_get()
        given = _body(self, TabletopRoundSaveShape, battle)
        saved = close_combat_round_save(
            viewer=self.viewer, battle=battle, label=_label(given), **_round_entered(given)
        )
        return Response(round_shown(saved), status=status.HTTP_201_CREATED)


class BattleRoundCorrect(RoundsScoped):
    """Replace a saved round (B9): its author while the battle has no confirmed result, a seeded one the GM
    only, with its seed; the version replaced is kept with the round and in the audit log."""

    serializer_class = TabletopRoundCorrectShape

    @extend_schema(request=TabletopRoundCorrectShape, responses=dict, operation_id="battle_round_correct")
    def post(self, request: Request, sequence: int, **route: Any) -> Response:
        battle = self.rounds_battle_get()
        found = battle.rounds.filter(sequence=sequence).first()
        if found is None:
            raise Http404("no such round")
        given = _body(self, TabletopRoundCorrectShape, battle)
        corrected = close_combat_round_correct(
            viewer=self.viewer,
            round_=found,
            reason=str(given.get("reason") or ""),
            label=_label(given) if "label" in given else None,
            **_round_entered(given),
        )
        return Response(round_shown(corrected))
