"""The API's token: POST a username and password for it; DELETE it (with it) to revoke it.

DRF's ObtainAuthToken, with the project's parsers (its own list has DRF's JSON parser, which has no limit
on nesting) and django-axes' lockout: a guesser is answered 429 with when to try again, before any
password is hashed. A revoked token stops working at once; the next POST makes a new one.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from campaign.services import token_revoke
from config.schema import ErrorSerializer
from frontend.views.lockout import lockout_words

TOKEN = inline_serializer("Token", {"token": serializers.CharField()})
LOCKED = inline_serializer(
    "LockedOut", {"detail": serializers.CharField(), "retry_after": serializers.IntegerField()}
)


class TokenView(ObtainAuthToken):
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "DELETE" else [AllowAny()]

    @extend_schema(
        request=AuthTokenSerializer,
        responses={
            200: TOKEN,
            400: OpenApiResponse(description="Wrong username or password, or a field missing."),
            429: OpenApiResponse(LOCKED, description="Too many failed tries: wait `retry_after` seconds."),
        },
    )
    def post(self, request: Request, *args, **kwargs) -> Response:
        """Your token, for `Authorization: Token KEY`; the same one until you revoke it."""
        serializer = self.get_serializer(data=request.data)
        valid = serializer.is_valid()
        if getattr(request, "axes_locked_out", False):
            text, seconds = lockout_words(request)
            return Response(
                {"detail": text, "retry_after": seconds},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": str(seconds)},
            )
        if not valid:
            return Response(serializer.errors, status=status.HTTP_400_BAD_REQUEST)
        return super().post(request, *args, **kwargs)

    @extend_schema(
        request=None,
        responses={
            204: OpenApiResponse(description="Revoked: the token no longer works."),
            401: OpenApiResponse(ErrorSerializer, description="Not logged in (no token, or a revoked one)."),
        },
    )
    def delete(self, request: Request, *args, **kwargs) -> Response:
        """Revoke your token: scripts using it are refused from now on."""
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
