"""Tabletop battles through the API (TABLETOP.md A12): the turn's battles, a battle's sheet and history, and
the results workflow. Same services as the pages (rules.tabletop.battles); a refused action answers the
error envelope of BATTLE_SYSTEMS.md (campaign.api_errors). A battle's sheet is JSON,
DRF's HTML, or plain text (`?format=text` or `Accept: text/plain`): the text of the sheet mail, A11.3.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from campaign.api import IsGM
from campaign.bounds import body
from campaign.selectors import Viewer
from rules.engine.tabletop import SYSTEM
from rules.models import ResultVersion, TableBattle
from rules.selectors import battle_sheet_for
from rules.table_api import TableBattleScoped, TextRenderer, deadline_given, table_battle_summary
from rules.table_deadlines import battle_deadline_move
from rules.tabletop.archive import version_fields
from rules.tabletop.battles import (
    battle_auto_resolve,
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


class BattleScoped(TableBattleScoped):
    """An endpoint of one tabletop battle: at its address (`battles/<id>/`) or, as before, by its key
    (`battles/<key>/`, an alias kept for existing clients)."""

    def battle_get(self) -> tuple[TableBattle, dict[str, Any]]:
        """The battle and its sheet as the viewer may see it; a 404 for a battle the viewer may not see."""
        if self.viewer.campaign.battle_system != SYSTEM.name:
            raise Http404("no such battle")
        if "key" in self.kwargs:
            battle = TableBattle.objects.filter(turn=self.turn_get(), key=self.kwargs["key"]).first()
        else:
            battle = self.table_battle_get()
        sheet = battle_sheet_for(viewer=self.viewer, battle=battle) if battle else None
        if sheet is None:
            raise Http404("no such battle")
        return battle, sheet

    def version_get(self, battle: TableBattle, number: int) -> ResultVersion:
        version = battle.versions.filter(number=number).first()
        if version is None:
            raise Http404("no such version")
        return version


def battle_detail(viewer: Viewer, battle: TableBattle, *, as_text: bool = False) -> dict[str, Any] | str:
    """A battle's sheet (fog of war: a supporting nation sees only its own support lines) and, for its
    nations and the GM, the history of its results. As text: the sheet only, as its mail has it, in the
    reader's language and time zone."""
    sheet = battle_sheet_for(viewer=viewer, battle=battle)
    if sheet is None:
        raise Http404("no such battle")
    if as_text:
        # Cut by the same rule as `sheet` (rules.selectors.battle_sheet_for): never more than the JSON.
        return battle_sheet_text(viewer=viewer, battle=battle)
    data = {**table_battle_summary(battle), "sheet": sheet}
    if viewer.is_gm or (viewer.nation and viewer.nation.code in battle.nations):
        data["versions"] = [version_data(v) for v in battle.versions.select_related("nation")]
    return data


class BattleDetail(BattleScoped):
    """A battle by its key: the alias of its address (rules.table_api.TableBattleDetail)."""

    renderer_classes = [*api_settings.DEFAULT_RENDERER_CLASSES, TextRenderer]

    @extend_schema(request=None, responses=dict, operation_id="battle_retrieve_by_key")
    def get(self, request: Request, **route: Any) -> Response:
        battle, _ = self.battle_get()
        return Response(
            battle_detail(self.viewer, battle, as_text=request.accepted_renderer.format == "text")
        )


class BattleResultSave(BattleScoped):
    """Save a result (A6.1): a player's proposal, or the GM's entry, confirmed at once."""

    serializer_class = TabletopResultShape

    @extend_schema(request=TabletopResultShape, responses=dict, operation_id="battle_result_save")
    def post(self, request: Request, **route: Any) -> Response:
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
    def post(self, request: Request, version: int, action: str, **route: Any) -> Response:
        battle, _ = self.battle_get()
        found = self.version_get(battle, version)
        if action not in ACTIONS:
            raise Http404("no such action")
        act, text = ACTIONS[action]
        given = body(request, TabletopAnswerShape)
        act(viewer=self.viewer, version=found, **({text: _text(given, text)} if text else {}))
        found.refresh_from_db()
        return Response(version_data(found))


# The GM's actions on a battle, by the name in its path (its deadline: rules.table_api.TableBattleDeadline).
GM_ACTIONS = ("auto-resolve", "reopen")


class BattleGMAction(BattleScoped):
    """The GM on a battle: `auto-resolve` (A8.4), `reopen` (A10.2, with a `reason`) or `deadline` (A8.1: a
    new `deadline`, ISO 8601 with its offset, and a `reason`)."""

    permission_classes = [IsAuthenticated, IsGM]
    serializer_class = TabletopBattleActionShape

    @extend_schema(request=TabletopBattleActionShape, responses=dict, operation_id="battle_gm_action")
    def post(self, request: Request, action: str, **route: Any) -> Response:
        battle, _ = self.battle_get()
        given = body(request, TabletopBattleActionShape)
        if action == "auto-resolve":
            battle_auto_resolve(viewer=self.viewer, battle=battle, why=_text(given, "why"))
        elif action == "reopen":
            battle_reopen(viewer=self.viewer, battle=battle, reason=_text(given, "reason"))
        elif action == "deadline":  # at the battle's address, every table battle's (rules.table_api)
            battle_deadline_move(
                viewer=self.viewer,
                battle=battle,
                deadline=deadline_given(given),
                reason=_text(given, "reason"),
            )
        else:
            raise Http404("no such action")
        battle.refresh_from_db()
        return Response(table_battle_summary(battle))
