"""The close-combat round calculator through the API (TABLETOP.md Part B): a round's input in, its output out.

POST the round as the calculator page enters it (B2). `?preview=true` works out everything but the dice (B1,
Preview); `?seed=new` has the server roll: it draws a seed (B6: `secrets.randbits(63)`) and returns it in the
output, so the round can be replayed. The standalone calculator stores nothing. An invalid round is a 400
with every error of B7 in the API's error envelope (campaign.api_errors), in the reader's language.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.bounds import body
from rules.engine.messages import Fault, Refusal
from rules.engine.tabletop import RoundOutcome
from rules.tabletop.calculator import round_work_out
from rules.tabletop.shapes import CloseCombatRoundShape

PREVIEW = OpenApiParameter("preview", bool, description="Work out everything but the dice (B1, Preview).")
SEED = OpenApiParameter(
    "seed", str, enum=["new"], description="`new`: the server rolls, from a seed it draws."
)


class RoundQuery(serializers.Serializer):
    """The address's options; other parameters (DRF's `format`) are not ours to refuse."""

    preview = serializers.BooleanField(required=False, default=False)
    seed = serializers.ChoiceField(choices=["new"], required=False)


def round_refusal(outcome: RoundOutcome) -> Refusal:
    """B7's errors as the API's envelope gives them: the code, what it is about (`ref`), the message."""
    return Refusal([Fault(error.code, error.message, ref=error.ref) for error in outcome.errors])


@extend_schema(
    parameters=[PREVIEW, SEED],
    request=CloseCombatRoundShape,
    responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
)
class CloseCombatRound(GenericAPIView):
    """Work out one round of one close combat: the terms, the winner and every break test."""

    permission_classes = [IsAuthenticated]
    serializer_class = CloseCombatRoundShape

    def post(self, request: Request) -> Response:
        query = RoundQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        outcome = round_work_out(
            body(request, CloseCombatRoundShape),
            preview=query.validated_data["preview"],
            new_seed=query.validated_data.get("seed") == "new",
        )
        if outcome.output is None:
            raise round_refusal(outcome)
        return Response(outcome.output)
