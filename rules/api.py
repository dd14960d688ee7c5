"""Turn processing and battle reports through the API.

The GM queues a turn's processing and polls its status; the Celery task does the work (open -> processing
-> resolved or failed), so the endpoint claims nothing itself. Players read the reports of the battles
their nation fought in or supported; the GM reads them all. Never the turn's whole result.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.metadata import SimpleMetadata
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse

from campaign.api import NUMBER, SLUG, CampaignScoped, IsGM
from campaign.bounds import Shape, body
from campaign.gm.processing import COUNT_MISSED_DEFAULT, turn_process_request
from campaign.messages import status_word
from campaign.models import Turn
from campaign.queue import turn_retry
from campaign.selectors import reports_visible
from campaign.serializers import TurnQueuedSerializer, TurnStatusSerializer
from rules.engine.messages import InputError
from rules.models import Report
from rules.serializers import ReportSerializer, ReportSummarySerializer

POSITION = OpenApiParameter(
    "position", int, OpenApiParameter.PATH, description="The battle's place in the turn's resolution order."
)


class _NoBody(SimpleMetadata):
    """OPTIONS on an endpoint that takes no body: its name and description, and no fields to fill in."""

    def determine_actions(self, request: Request, view) -> dict:
        return {}


class TurnScoped(CampaignScoped):
    def get_serializer_context(self) -> dict:
        return {**super().get_serializer_context(), "number": self.kwargs.get("number")}


def _queued(request: Request, slug: str, turn: Turn) -> Response:
    turn.refresh_from_db(fields=["status"])  # with Celery in process (no broker), it may be done already
    status_url = reverse("api:turn-status", kwargs={"slug": slug, "number": turn.number}, request=request)
    data = TurnQueuedSerializer({"number": turn.number, "status": turn.status, "status_url": status_url}).data
    return Response(data, status=status.HTTP_202_ACCEPTED, headers={"Location": status_url})


def _queueing(conflict: str, request: type[serializers.Serializer] | None = None):
    """The schema of a GM action that queues the turn: its body (`request`, else none); 202 with its
    status, 409 (`conflict`), 400 for a bad body, or 503 when the broker does not answer
    (campaign.queue.BrokerAway)."""
    responses = {
        202: TurnQueuedSerializer,
        409: OpenApiResponse(description=conflict),
        503: OpenApiResponse(description="The task queue does not answer: not queued; try again later."),
    }
    if request is not None:
        responses[400] = OpenApiResponse(description="A field of the body is not what it should be.")
    return extend_schema(parameters=[SLUG, NUMBER], request=request, responses=responses)


class _TurnQueueing(TurnScoped):
    """A GM's action that queues the turn's processing (`_queued`); it takes no body."""

    permission_classes = [IsAuthenticated, IsGM]
    queryset = Turn.objects.none()
    metadata_class = _NoBody


class ProcessShape(Shape):
    """What the GM may say when processing the turn: the question the GM's page asks, with its default."""

    count_missed = serializers.BooleanField(
        required=False,
        default=COUNT_MISSED_DEFAULT,
        help_text="Before the deadline: whether nations with a player and no orders count this turn as "
        "missed (bringing civil disorder nearer). Past the deadline it counts whatever this says.",
    )


@_queueing("The turn is not open.", request=ProcessShape)
class TurnProcess(TurnScoped):
    """GM: queue the turn's processing. 202 with the URL of its status; 409 when the turn is not open.

    The body is optional: `count_missed`, as the GM's page asks it (campaign.gm.processing)."""

    permission_classes = [IsAuthenticated, IsGM]
    queryset = Turn.objects.none()
    serializer_class = ProcessShape

    def post(self, request: Request, slug: str, number: int) -> Response:
        turn = self.turn_get()
        if turn.status != Turn.Status.OPEN:
            raise InputError.of(
                "turn", "process_not_open", number=turn.number, status=status_word(turn.status)
            )
        count_missed = body(request, ProcessShape)["count_missed"]
        turn_process_request(by=request.user, turn=turn, count_missed=count_missed)
        return _queued(request, slug, turn)


@_queueing("The turn has not failed.")
class TurnRetry(_TurnQueueing):
    """GM: reopen a failed turn and queue it again; 409 when the turn has not failed."""

    def post(self, request: Request, slug: str, number: int) -> Response:
        turn = self.turn_get()
        if not turn_retry(turn_id=turn.pk):
            raise InputError.of(
                "turn", "retry_not_failed", number=turn.number, status=status_word(turn.status)
            )
        return _queued(request, slug, turn)


@extend_schema(parameters=[SLUG, NUMBER], responses=TurnStatusSerializer)
class TurnStatus(TurnScoped):
    """GM: the turn's processing status, with the error when it failed."""

    permission_classes = [IsAuthenticated, IsGM]
    queryset = Turn.objects.none()

    def get(self, request: Request, slug: str, number: int) -> Response:
        return Response(TurnStatusSerializer(self.turn_get()).data)


@extend_schema_view(get=extend_schema(parameters=[SLUG, NUMBER]))
class ReportList(TurnScoped, generics.ListAPIView):
    """The turn's battle reports you may read, in resolution order."""

    serializer_class = ReportSummarySerializer
    queryset = Report.objects.none()

    def get_queryset(self):
        return reports_visible(viewer=self.viewer, turn=self.turn_get()).prefetch_related("nations")


@extend_schema_view(get=extend_schema(parameters=[SLUG, NUMBER, POSITION]))
class ReportDetail(TurnScoped, generics.RetrieveAPIView):
    """One battle report, every number and roll in it; a 404 for a battle your nation was not in."""

    serializer_class = ReportSerializer
    queryset = Report.objects.none()
    lookup_field = "position"

    def get_queryset(self):
        return reports_visible(viewer=self.viewer, turn=self.turn_get()).prefetch_related("nations")
