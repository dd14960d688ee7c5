"""The campaign's part of the REST API: campaigns, the map (regions, borders), the stacks in sight, turns.

Every endpoint under /api/campaigns/<slug>/ first finds the viewer (campaign.selectors.viewer_of): a user
who is not in the campaign gets a 404, as for a campaign that does not exist. Reads go through the
selectors, which filter by the viewer, so another nation's object is never reachable by id.
"""

from __future__ import annotations

from functools import cached_property, wraps

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from campaign.models import Border, Campaign, Region, Stack, Turn
from campaign.selectors import (
    Viewer,
    borders_of,
    campaigns_of,
    regions_changed_hands,
    regions_of,
    stacks_visible,
    token_viewer_of,
    turns_of,
    viewer_of,
)
from campaign.serializers import (
    BorderSerializer,
    CampaignDetailSerializer,
    CampaignSerializer,
    RegionSerializer,
    StackSerializer,
    TurnDetailSerializer,
    TurnSummarySerializer,
)

SLUG = OpenApiParameter("slug", str, OpenApiParameter.PATH, description="The campaign's slug.")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The turn's number.")


def api_alias(view):
    """A route kept for clients of an earlier address (a battle by its key, a company battle by its own
    id): it answers as its view does, and the schema leaves it out (config.schema.aliases_drop). The view
    itself is left as it is: its address is documented."""

    @wraps(view)
    def alias(request, *args, **kwargs):
        return view(request, *args, **kwargs)

    alias.api_alias = True
    return alias


class IsGM(BasePermission):
    """The campaign's game master; anyone else in the campaign gets a 403."""

    message = "only the campaign's game master may do this"

    def has_permission(self, request, view) -> bool:
        return view.viewer.is_gm


class IsPlayerToWrite(BasePermission):
    """Anyone in the campaign reads; only a player of a nation writes (the GM gives no orders)."""

    message = "only a player of a nation in this campaign can give orders"

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or view.viewer.nation is not None


class SeatTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, which under a campaign reads the user's seat in it (viewer_of) in the
    same statement as the token: one statement for both, on the path of every order a script enters.
    A token it does not accept (unknown, or its user inactive) it leaves to DRF's, to refuse in its words."""

    def __init__(self, slug: str) -> None:
        self.slug = slug
        self.read = False  # whether `seat` was read with the token
        self.seat: tuple[Viewer, Turn | None] | None = None  # None: the user is not in the campaign

    def authenticate_credentials(self, key: str):
        found = token_viewer_of(key=key, slug=self.slug)
        if found is None or not found[0].user.is_active:
            return super().authenticate_credentials(key)  # a 401, as DRF says it
        token, self.seat = found
        self.read = True
        return token.user, token


class CampaignScoped(generics.GenericAPIView):
    """An endpoint under /api/campaigns/<slug>/: the viewer is a member, or the whole campaign is a 404."""

    def get_authenticators(self) -> list:
        """The configured authenticators, the token's reading the viewer with the token."""
        authenticators = super().get_authenticators()
        if "slug" not in self.kwargs:
            # The schema's generator, looking at the view without a request: it is DRF's token to a client.
            return authenticators
        slug = self.kwargs["slug"]
        return [
            SeatTokenAuthentication(slug) if type(a) is TokenAuthentication else a for a in authenticators
        ]

    @cached_property
    def _seat(self) -> tuple[Viewer, Turn | None]:
        authenticator = self.request.successful_authenticator
        if isinstance(authenticator, SeatTokenAuthentication) and authenticator.read:
            found = authenticator.seat
        else:  # a session (the API browser), or no one
            found = viewer_of(user=self.request.user, slug=self.kwargs["slug"])
        if found is None:
            raise Http404("no such campaign")
        return found

    @property
    def viewer(self) -> Viewer:
        return self._seat[0]

    @property
    def turn_current(self) -> Turn | None:
        """The campaign's turn in play, read with the viewer (campaign.selectors.turn_current)."""
        return self._seat[1]

    def initial(self, request: Request, *args, **kwargs) -> None:
        super().initial(request, *args, **kwargs)  # authentication first: anonymous is a 401, not a 404
        self.viewer  # noqa: B018 -- resolve now, so permission classes and handlers can rely on it

    def get_serializer_context(self) -> dict:
        return {**super().get_serializer_context(), "slug": self.kwargs.get("slug")}

    def turn_get(self) -> Turn:
        turn = turns_of(campaign=self.viewer.campaign).filter(number=self.kwargs["number"]).first()
        if turn is None:
            raise Http404("no such turn")
        return turn


class CampaignList(generics.ListAPIView):
    """The campaigns you play in or run."""

    serializer_class = CampaignSerializer

    def get_queryset(self):
        return campaigns_of(user=self.request.user)


@extend_schema(parameters=[SLUG], responses=CampaignDetailSerializer)
class CampaignDetail(CampaignScoped):
    """A campaign: its nations, who you are in it, and the turn that orders go to."""

    queryset = Campaign.objects.none()  # for the schema; the campaign comes from the viewer

    def get(self, request: Request, slug: str) -> Response:
        campaign = self.viewer.campaign
        data = {
            "campaign": campaign,
            "you": self.viewer,
            "nations": campaign.nations.order_by("position"),
            "current_turn": self.turn_current,
        }
        return Response(CampaignDetailSerializer(data, context=self.get_serializer_context()).data)


@extend_schema_view(get=extend_schema(parameters=[SLUG]))
class RegionList(CampaignScoped, generics.ListAPIView):
    """The map: every region, its terrain, fort level, home nation and owner (nation codes)."""

    serializer_class = RegionSerializer
    queryset = Region.objects.none()

    def get_queryset(self):
        return regions_of(campaign=self.viewer.campaign)


@extend_schema_view(
    get=extend_schema(
        parameters=[SLUG, OpenApiParameter("code", str, OpenApiParameter.PATH, description="Region code.")]
    )
)
class RegionDetail(CampaignScoped, generics.RetrieveAPIView):
    serializer_class = RegionSerializer
    queryset = Region.objects.none()
    lookup_field = "code"

    def get_queryset(self):
        return regions_of(campaign=self.viewer.campaign)


@extend_schema_view(get=extend_schema(parameters=[SLUG]))
class BorderList(CampaignScoped, generics.ListAPIView):
    """Which regions border which, each pair once: a and b are region codes."""

    serializer_class = BorderSerializer
    queryset = Border.objects.none()

    def get_queryset(self):
        return borders_of(campaign=self.viewer.campaign)


@extend_schema_view(get=extend_schema(parameters=[SLUG]))
class StackList(CampaignScoped, generics.ListAPIView):
    """The units you can see: your own, and under fog of war others' only in and next to your regions."""

    serializer_class = StackSerializer
    queryset = Stack.objects.none()

    def get_queryset(self):
        return stacks_visible(viewer=self.viewer).order_by("region__code", "nation__position", "unit_type")


@extend_schema_view(get=extend_schema(parameters=[SLUG]))
class TurnList(CampaignScoped, generics.ListAPIView):
    serializer_class = TurnSummarySerializer
    queryset = Turn.objects.none()

    def get_queryset(self):
        return turns_of(campaign=self.viewer.campaign)


@extend_schema(parameters=[SLUG, NUMBER], responses=TurnDetailSerializer)
class TurnDetail(CampaignScoped):
    """A turn: its status and deadline, and once resolved the regions that changed hands."""

    queryset = Turn.objects.none()

    def get(self, request: Request, slug: str, number: int) -> Response:
        turn = self.turn_get()
        changed = regions_changed_hands(turn=turn) if turn.status == Turn.Status.RESOLVED else []
        context = {**self.get_serializer_context(), "changed_hands": changed}
        return Response(TurnDetailSerializer(turn, context=context).data)
