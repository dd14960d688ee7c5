"""Battles fought at the table through the API, whatever the table system (BATTLE_SYSTEMS.md, "Results
entry"): the turn's battles in one list, and each battle at one address,
`campaigns/<slug>/turns/<number>/battles/<id>/`, the id of its `rules.models.TableBattle`. Under that
address each system routes its own actions (frontend.systems.ApiUrls.battle), taking the battle with
`TableBattleScoped.table_battle_get`; what a battle's address answers is its system's
(frontend.systems.TableBattles.detail). Names no system.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from django.http import Http404
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from campaign.api import IsGM
from campaign.api_errors import invalid
from campaign.bounds import Shape, body
from frontend.systems import battle_visible, pages_of
from rules.api import TurnScoped
from rules.models import ResultVersion, TableBattle
from rules.table_deadlines import battle_deadline_move

BATTLE = OpenApiParameter("battle", int, OpenApiParameter.PATH, description="The battle's id (its `id`).")


class TextRenderer(BaseRenderer):
    """A battle's sheet as plain text (TABLETOP A12); an error's body as its JSON, so that it says what went
    wrong."""

    media_type = "text/plain"
    format = "text"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context=None) -> bytes:
        text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=2)
        return text.encode(self.charset)


def table_battle_result(battle: TableBattle) -> ResultVersion | None:
    """The battle's version that counts now: the current one, or its confirmed entry."""
    return battle.versions.filter(state__in=ResultVersion.LIVE).order_by("number").last()


def table_battle_summary(battle: TableBattle) -> dict[str, Any]:
    """What every table battle says of itself: where it stands, its nations, its current result."""
    current = table_battle_result(battle)
    return {
        "id": battle.pk,
        "key": battle.key,
        "kind": battle.kind,
        "state": battle.state,
        "deadline": battle.deadline.isoformat() if battle.deadline else None,
        "waits_for": battle.waits_for,
        "nations": battle.nations,
        "result": None if current is None else {"version": current.number, "state": current.state},
    }


def table_battles_visible(*, viewer, turn) -> list[TableBattle]:
    """The turn's table battles the viewer may see, in the turn's battle order; none that is gone or of
    a rolled-back turn."""
    battles = TableBattle.objects.filter(turn=turn, archived=False).exclude(state=TableBattle.State.GONE)
    return [b for b in battles.order_by("position", "key") if battle_visible(viewer, b)]


class TableBattleScoped(TurnScoped):
    """An endpoint of one table battle: a battle the viewer may not see is a 404, as one that does not
    exist is."""

    queryset = TableBattle.objects.none()
    refuses_by_role = True  # the GM's actions and a side's answers are refused to others with a 403

    def table_battle_get(self) -> TableBattle:
        turn = self.turn_get()
        battle = TableBattle.objects.filter(turn=turn, pk=self.kwargs["battle"]).first()
        if battle is None or not battle_visible(self.viewer, battle):
            raise Http404("no such battle")
        battle.turn = turn
        return battle


class TableBattleList(TurnScoped):
    """The turn's battles fought at the table that you may see, in battle order, with their state,
    deadline and current result."""

    queryset = TableBattle.objects.none()

    @extend_schema(request=None, responses=dict, operation_id="battles_list")
    def get(self, request: Request, slug: str, number: int) -> Response:
        turn = self.turn_get()
        return Response(
            [table_battle_summary(b) for b in table_battles_visible(viewer=self.viewer, turn=turn)]
        )


class TableBattleDetail(TableBattleScoped):
    """A battle fought at the table, as its system tells it (tabletop: the sheet, under fog of war, and
    the history of its results; company_d20: the battle, its units and its result). As text
    (`?format=text` or `Accept: text/plain`): the sheet as its mail has it, in the reader's language."""

    renderer_classes = [*api_settings.DEFAULT_RENDERER_CLASSES, TextRenderer]

    @extend_schema(request=None, responses=dict, operation_id="battle_retrieve", parameters=[BATTLE])
    def get(self, request: Request, slug: str, number: int, battle: int) -> Response:
        found = self.table_battle_get()
        table = pages_of(self.viewer.campaign.battle_system).table_battles
        if table is None:
            raise Http404("no such battle")
        as_text = request.accepted_renderer.format == TextRenderer.format
        return Response(table.detail(self.viewer, found, as_text=as_text))


class DeadlineShape(Shape):
    """A battle's new result deadline: ISO 8601 with its offset, and the GM's reason (the audit log's)."""

    deadline = serializers.CharField(max_length=64)
    reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, trim_whitespace=False)


def deadline_given(given: dict[str, Any]) -> datetime:
    """The deadline of a body, as a time; `deadline_format` where it is none (or the form of one, 25:00)."""
    try:
        moved = parse_datetime(str(given.get("deadline") or ""))
    except ValueError:
        moved = None
    if moved is None:
        raise invalid("deadline", "deadline_format")
    return moved


class TableBattleDeadline(TableBattleScoped):
    """The GM sets or moves an open battle's result deadline while the turn waits for its battles (TABLETOP
    A8.1, COMPANY §5.2): met, or missed, and reminded anew; logged with the reason."""

    permission_classes = [IsAuthenticated, IsGM]
    serializer_class = DeadlineShape

    @extend_schema(request=DeadlineShape, responses=dict, operation_id="battle_deadline", parameters=[BATTLE])
    def post(self, request: Request, slug: str, number: int, battle: int) -> Response:
        found = self.table_battle_get()
        given = body(request, DeadlineShape)
        battle_deadline_move(
            viewer=self.viewer, battle=found, deadline=deadline_given(given), reason=given.get("reason", "")
        )
        found.refresh_from_db()
        return Response(table_battle_summary(found))
