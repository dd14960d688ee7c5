"""The GM's preview of a tabletop turn with hypothetical results through the API (TABLETOP.md A10.1 (b)): the
same service as the page (rules.tabletop.preview). A POST because it takes a body; it stores nothing."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.api import IsGM
from campaign.bounds import body
from rules.api import TurnScoped
from rules.models import TableBattle
from rules.tabletop.preview import BattlesPreview, turn_battles_preview
from rules.tabletop.shapes import TabletopPreviewShape


def _error(code: str, ref: str, message: str) -> dict[str, str]:
    return {"code": code, "ref": ref, "message": message}


def preview_data(preview: BattlesPreview) -> dict[str, Any]:
    return {
        "complete": preview.complete,
        "open": list(preview.state.open),
        "entered": list(preview.entered),
        "assumed": {key: dict(result) for key, result in preview.assumed.items()},
        "auto_resolved": list(preview.auto),
        "errors": {
            key: [_error(e.code, ":".join(e.ref), e.message.render(translate=gettext)) for e in errors]
            for key, errors in preview.errors.items()
        },
        "owners_changed": [
            {"region": region, "before": before, "after": after}
            for region, before, after in preview.owners_changed()
        ],
        "battles": [dict(report) for report in preview.reports],
    }


class TurnBattlesPreview(TurnScoped):
    """GM: the turn as it would complete with the entries so far and, per battle without one, `"auto"` or
    a result as A6.1 has it (no fingerprint needed): `{"hypotheses": {"region:K1": {...}}}`. Nothing is
    stored. 400 for a body of the wrong shape; 409 when the turn is not waiting for its battles."""

    permission_classes = [IsAuthenticated, IsGM]
    queryset = TableBattle.objects.none()

    serializer_class = TabletopPreviewShape

    @extend_schema(request=TabletopPreviewShape, responses=dict, operation_id="battles_preview")
    def post(self, request: Request, slug: str, number: int) -> Response:
        turn = self.turn_get()
        hypotheses = body(request, TabletopPreviewShape).get("hypotheses") or {}
        preview = turn_battles_preview(turn_id=turn.pk, by=request.user, hypotheses=hypotheses)
        return Response(preview_data(preview))
