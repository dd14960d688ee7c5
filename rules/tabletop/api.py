"""Tabletop battles through the API (TABLETOP.md A12): the turn's battles, a battle's sheet and history, and
the results workflow. Same services as the pages (rules.tabletop.battles); a refused action answers the
error envelope of BATTLE_SYSTEMS.md (campaign.api_errors). A battle's sheet is JSON,
DRF's HTML, or plain text (`?format=text` or `Accept: text/plain`): the text of the sheet mail, A11.3.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from campaign.api import IsGM
from campaign.api_errors import invalid
from campaign.bounds import body
from rules.api import TurnScoped
from rules.models import Battle, ResultVersion
from rules.selectors import battle_sheet_for, battles_visible
from rules.tabletop.archive import version_fields
from rules.tabletop.battles import (
    battle_auto_resolve,
    battle_deadline_move,
    battle_reopen,
    battle_result_agree,
    battle_result_confirm,
    battle_result_dispute,
    battle_result_save,
    battle_result_void,
    battle_result_withdraw,
)
from rules.tabletop.mails import battle_sheet_text
from rules.tabletop.shapes import TabletopAnswerShape, TabletopBattleActionShape, TabletopResultShape


def battle_summary(battle: Battle) -> dict[str, Any]:
    current = battle.versions.exclude(state__in=("superseded", "withdrawn", "voided", "stale")).last()
    return {
        "key": battle.key,
        "kind": battle.kind,
        "state": battle.state,
        "deadline": battle.deadline.isoformat() if battle.deadline else None,
        "waits_for": battle.waits_for,
        "nations": battle.nations,
        "result": None if current is None else {"version": current.number, "state": current.state},
    }


def version_data(version: ResultVersion) -> dict[str, Any]:
    return {
        **version_fields(version),
        "version": version.number,
        "result": version.payload,
        "answers": [
            {"nation": a.nation.code, "answer": a.answer, "comment": a.comment}
            for a in version.answers.select_related("nation")
        ],
    }


class BattleScoped(TurnScoped):
    queryset = Battle.objects.none()
    refuses_by_role = True  # the GM's actions and a side's answers are refused to others with a 403

    def battle_get(self) -> tuple[Battle, dict[str, Any]]:
        """The battle and its sheet as the viewer may see it; a 404 for a battle the viewer may not see."""
        battle = Battle.objects.filter(turn=self.turn_get(), key=self.kwargs["key"]).first()
        sheet = battle_sheet_for(viewer=self.viewer, battle=battle) if battle else None
        if sheet is None:
            raise Http404("no such battle")
        return battle, sheet

    def version_get(self, battle: Battle, number: int) -> ResultVersion:
        version = battle.versions.filter(number=number).first()
        if version is None:
            raise Http404("no such version")
        return version


class BattleList(TurnScoped):
    """The turn's battles you may see, in plan order, with their state, deadline and current result."""

    queryset = Battle.objects.none()

    @extend_schema(request=None, responses=dict, operation_id="battles_list")
    def get(self, request: Request, slug: str, number: int) -> Response:
        battles = battles_visible(viewer=self.viewer, turn=self.turn_get())
        return Response([battle_summary(b) for b in battles])


class SheetTextRenderer(BaseRenderer):
    """The sheet as plain text (A12); an error's body as its JSON, so that it says what went wrong."""

    media_type = "text/plain"
    format = "text"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context=None) -> bytes:
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=2)
        return text.encode(self.charset)


class BattleDetail(BattleScoped):
    """A battle's sheet (fog of war: a supporting nation sees only its own support lines) and, for its
    nations and the GM, the history of its results. As text: the sheet only, as its mail has it, in the
    reader's language and time zone."""

    renderer_classes = [*api_settings.DEFAULT_RENDERER_CLASSES, SheetTextRenderer]

    @extend_schema(request=None, responses=dict, operation_id="battle_retrieve")
    def get(self, request: Request, slug: str, number: int, key: str) -> Response:
        battle, sheet = self.battle_get()
        if request.accepted_renderer.format == SheetTextRenderer.format:
            # Cut by the same rule as `sheet` (rules.selectors.battle_sheet_for): never more than the JSON.
            return Response(battle_sheet_text(viewer=self.viewer, battle=battle))
        data = {**battle_summary(battle), "sheet": sheet}
        if self.viewer.is_gm or (self.viewer.nation and self.viewer.nation.code in battle.nations):
            data["versions"] = [version_data(v) for v in battle.versions.select_related("nation")]
        return Response(data)


class BattleResultSave(BattleScoped):
    """Save a result (A6.1): a player's proposal, or the GM's entry, confirmed at once."""

    serializer_class = TabletopResultShape

    @extend_schema(request=TabletopResultShape, responses=dict, operation_id="battle_result_save")
    def post(self, request: Request, slug: str, number: int, key: str) -> Response:
        battle, _ = self.battle_get()
        result = body(request, TabletopResultShape)
        version = battle_result_save(viewer=self.viewer, battle=battle, result=result)
        return Response(version_data(version), status=status.HTTP_201_CREATED)


def _text(given: dict[str, Any], name: str) -> str:
    """A text of the body as the services take it: absent or null is empty; another scalar, its text."""
    value = given.get(name)
    return "" if value is None else str(value)


# A version's actions: the workflow's function for each, and the text of the body it takes, if any.
ACTIONS = {
    "withdraw": (battle_result_withdraw, None),
    "agree": (battle_result_agree, None),
    "dispute": (battle_result_dispute, "comment"),
    "confirm": (battle_result_confirm, None),
    "void": (battle_result_void, "reason"),
}


class BattleResultAction(BattleScoped):
    """Answer or decide a version: withdraw (its author), agree or dispute (with a `comment`), confirm or
    void (the GM, a void with a `reason`)."""

    serializer_class = TabletopAnswerShape

    @extend_schema(request=TabletopAnswerShape, responses=dict, operation_id="battle_result_action")
    def post(self, request: Request, slug: str, number: int, key: str, version: int, action: str) -> Response:
        battle, _ = self.battle_get()
        found = self.version_get(battle, version)
        if action not in ACTIONS:
            raise Http404("no such action")
        act, text = ACTIONS[action]
        given = body(request, TabletopAnswerShape)
        act(viewer=self.viewer, version=found, **({text: _text(given, text)} if text else {}))
        found.refresh_from_db()
        return Response(version_data(found))


class BattleGMAction(BattleScoped):
    """The GM on a battle: `auto-resolve` (A8.4), `reopen` (A10.2, with a `reason`) or `deadline` (A8.1: a
    new `deadline`, ISO 8601 with its offset, and a `reason`)."""

    permission_classes = [IsAuthenticated, IsGM]
    serializer_class = TabletopBattleActionShape

    @extend_schema(request=TabletopBattleActionShape, responses=dict, operation_id="battle_gm_action")
    def post(self, request: Request, slug: str, number: int, key: str, action: str) -> Response:
        battle, _ = self.battle_get()
        given = body(request, TabletopBattleActionShape)
        if action == "auto-resolve":
            battle_auto_resolve(viewer=self.viewer, battle=battle, why=_text(given, "why"))
        elif action == "reopen":
            battle_reopen(viewer=self.viewer, battle=battle, reason=_text(given, "reason"))
        elif action == "deadline":
            try:
                moved = parse_datetime(_text(given, "deadline"))
            except ValueError:  # the form of a time, but not a time (25:00)
                moved = None
            if moved is None:
                raise invalid("deadline", "deadline_format")
            battle_deadline_move(
                viewer=self.viewer, battle=battle, deadline=moved, reason=_text(given, "reason")
            )
        else:
            raise Http404("no such action")
        battle.refresh_from_db()
        return Response(battle_summary(battle))
