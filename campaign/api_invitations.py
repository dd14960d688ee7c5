"""Invitations through the API (issue 27), on the services of campaign.invitations as the GM's dashboard:

    GET  /api/campaigns/{slug}/invitations/               GM: every link of the campaign, with its state
    POST /api/campaigns/{slug}/invitations/               GM: {"nation", "days"?, "email"?} -> 201, the link
    POST /api/campaigns/{slug}/invitations/{id}/revoke/   GM: take an open link back -> 200; 409 if not open
    POST /api/invitations/{token}/accept/                 anyone signed in: play the nation -> 200

As under every campaign route, a player of the campaign gets 403 and anyone else 404. Accepting answers 404
for a token that is none, 410 for a used, expired or revoked one, 409 when the user already has a seat in the
campaign or the nation a player, and 429 past the rate limit (campaign.throttles, shared with the page).
"""

from __future__ import annotations

from django.http import Http404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.metadata import SimpleMetadata
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from campaign.api import SLUG, CampaignScoped, IsGM
from campaign.bounds import Shape, WholeField, body
from campaign.invitations import (
    DAYS_DEFAULT,
    DAYS_MAX,
    DAYS_MIN,
    invitation_accept,
    invitation_create,
    invitation_revoke,
    invitations_of,
)
from campaign.models import Invitation, Nation
from campaign.throttles import AcceptThrottle
from frontend.mail.accounts import invitation_url
from rules.engine.messages import InputError

INVITATION_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="The invitation's id.")
TOKEN = OpenApiParameter(
    "token", str, OpenApiParameter.PATH, description="The invitation link's token (the end of its address)."
)
TOKEN_MAX = Invitation._meta.get_field("token").max_length


class InvitationShape(Shape):
    """A new link: the nation it is for, how many days it stays open, and where to mail it, if anywhere."""

    nation = serializers.CharField(
        max_length=Nation._meta.get_field("code").max_length, help_text="The nation's code, like NOR."
    )
    days = WholeField(
        required=False,
        min_value=DAYS_MIN,
        max_value=DAYS_MAX,
        help_text=f"How many days the link stays open; {DAYS_DEFAULT} when left out.",
    )
    email = serializers.EmailField(
        required=False,
        allow_blank=True,
        max_length=Invitation._meta.get_field("email").max_length,
        help_text="Mail the link here too (in the GM's language).",
    )


class InvitationSerializer(serializers.ModelSerializer):
    """A link: its token and whole address (while open: copy it to a friend), when it expires, and what became
    of it."""

    nation = serializers.CharField(source="nation.code", read_only=True)
    state = serializers.SerializerMethodField(help_text="open, used, expired or revoked")
    url = serializers.SerializerMethodField(help_text="The link's whole address.")
    expires = serializers.DateTimeField(source="expires_at", read_only=True)
    used_by = serializers.CharField(source="used_by.username", read_only=True, allow_null=True, default=None)

    class Meta:
        model = Invitation
        fields = [
            "id",
            "nation",
            "state",
            "token",
            "url",
            "expires",
            "email",
            "created_at",
            "used_by",
            "used_at",
        ]
        fields += ["revoked_at"]
        read_only_fields = fields

    def get_state(self, invitation: Invitation) -> str:
        return invitation.state(self.context["now"])

    def get_url(self, invitation: Invitation) -> str:
        return invitation_url(invitation.token)


class AcceptedSerializer(serializers.Serializer):
    campaign = serializers.CharField(help_text="The campaign's slug: /api/campaigns/{slug}/ is yours now.")
    nation = serializers.CharField(help_text="The code of the nation you play.")


class _NoBody(SimpleMetadata):
    """OPTIONS on an endpoint that takes no body: its name and description, and no fields to fill in."""

    def determine_actions(self, request: Request, view) -> dict:
        return {}


@extend_schema_view(
    get=extend_schema(parameters=[SLUG], operation_id="invitations_list"),
    post=extend_schema(
        parameters=[SLUG],
        request=InvitationShape,
        responses={
            201: InvitationSerializer,
            409: OpenApiResponse(description="The nation has a player, or too many open links."),
        },
        operation_id="invitations_create",
    ),
)
class InvitationList(CampaignScoped, generics.ListAPIView):
    """GM: the campaign's invitation links, newest first by nation; POST makes one."""

    serializer_class = InvitationSerializer
    permission_classes = [IsAuthenticated, IsGM]
    queryset = Invitation.objects.none()

    def get_queryset(self):
        return invitations_of(campaign=self.viewer.campaign)

    def get_serializer_context(self) -> dict:
        return {**super().get_serializer_context(), "now": timezone.now()}

    def post(self, request: Request, slug: str) -> Response:
        data = body(request, InvitationShape)
        campaign = self.viewer.campaign
        nation = campaign.nations.filter(code=data["nation"]).first()
        if nation is None:
            raise InputError.of("nation", "not_in_campaign", code=data["nation"])
        invitation = invitation_create(
            by=request.user,
            campaign=campaign,
            nation=nation,
            days=data.get("days", DAYS_DEFAULT),
            email=data.get("email", ""),
        )
        answer = InvitationSerializer(invitation, context=self.get_serializer_context()).data
        return Response(answer, status=status.HTTP_201_CREATED)


class InvitationRevoke(CampaignScoped):
    """GM: take an open link back; nobody can use it from now on."""

    permission_classes = [IsAuthenticated, IsGM]
    queryset = Invitation.objects.none()
    metadata_class = _NoBody

    @extend_schema(
        parameters=[SLUG, INVITATION_ID],
        request=None,
        responses={200: InvitationSerializer, 409: OpenApiResponse(description="The link is not open.")},
        operation_id="invitation_revoke",
    )
    def post(self, request: Request, slug: str, pk: int) -> Response:
        invitation = invitations_of(campaign=self.viewer.campaign).filter(pk=pk).first()
        if invitation is None:
            raise Http404("no such invitation")
        invitation.campaign = self.viewer.campaign
        revoked = invitation_revoke(by=request.user, invitation=invitation)
        return Response(InvitationSerializer(revoked, context={"now": timezone.now()}).data)


class InvitationAccept(APIView):
    """Play the invitation's nation: its player from now on. A link works once."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [AcceptThrottle]
    metadata_class = _NoBody

    @extend_schema(
        parameters=[TOKEN],
        request=None,
        responses={
            200: AcceptedSerializer,
            404: OpenApiResponse(description="No invitation has this link."),
            409: OpenApiResponse(
                description="You already have a seat in the campaign, or the nation a player."
            ),
            410: OpenApiResponse(
                description="The link was used, expired or was revoked, or the campaign ended."
            ),
            429: OpenApiResponse(description="Too many links tried: wait as Retry-After says."),
        },
        operation_id="invitation_accept",
    )
    def post(self, request: Request, token: str) -> Response:
        if len(token) > TOKEN_MAX:
            raise Http404("no such invitation")
        membership = invitation_accept(user=request.user, token=token)
        return Response({"campaign": membership.campaign.slug, "nation": membership.nation.code})
