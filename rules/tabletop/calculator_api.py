"""The close-combat round calculator through the API (TABLETOP.md Part B): a round's input in, its output out.

POST the round as the calculator page enters it (B2). `?preview=true` works out everything but the dice (B1,
Preview); `?seed=new` has the server roll: it draws a seed (B6: `secrets.randbits(63)`) and returns it in the
output, so the round can be replayed. The standalone calculator stores nothing. An invalid round is a 400
with every error of B7 in the API's error envelope (campaign.api_errors), in the reader's language.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rules.engine.messages import Fault, Refusal
from rules.engine.tabletop import RoundOutcome
from rules.tabletop.calculator import round_work_out

PREVIEW = OpenApiParameter("preview", bool, description="Work out everything but the dice (B1, Preview).")
SEED = OpenApiParameter(
    "seed", str, enum=["new"], description="`new`: the server rolls, from a seed it draws."
)


def round_refusal(outcome: RoundOutcome) -> Refusal:
    """B7's errors as the API's envelope gives them: the code, what it is about (`ref`), the message."""
    return Refusal([Fault(error.code, error.message, ref=error.ref) for error in outcome.errors])


@extend_schema(
    parameters=[PREVIEW, SEED],
    request=OpenApiTypes.OBJECT,
    responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
)
class CloseCombatRound(APIView):
    """Work out one round of one close combat: the terms, the winner and every break test."""

    permission_classes = [IsAuthenticated]

    def post(self, request: Request) -> Response:
        outcome = round_work_out(
            request.data,
            preview=request.query_params.get("preview") in ("1", "true", "yes"),
            new_seed=request.query_params.get("seed") == "new",
        )
        if outcome.output is None:
            raise round_refusal(outcome)
        return Response(outcome.output)
