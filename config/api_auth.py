"""The API's token: POST a username and password for it; DELETE it (with it) to revoke it.

DRF's ObtainAuthToken, with the project's parsers (its own list has DRF's JSON parser, which has no limit
on nesting) and django-axes' lockout: a guesser is answered 429 with when to try again, before any
password is hashed. A revoked token stops working at once; the next POST makes a new one.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from campaign.bounds import Shape
from campaign.services import token_revoke
from config.schema import ErrorSerializer
from frontend.views.lockout import lockout_errors


class TokenRequest(Shape, AuthTokenSerializer):
    """DRF's, with its fields bounded: a username as long as Django's column, a password as long as any
    password manager makes (Django hashes whatever it is given)."""

    username = serializers.CharField(label=_("Username"), write_only=True, max_length=150)
    password = serializers.CharField(
        label=_("Password"),
        style={"input_type": "password"},
        trim_whitespace=False,
        write_only=True,
        max_length=4096,
    )


TOKEN = inline_serializer("Token", {"token": serializers.CharField()})


class TokenView(ObtainAuthToken):
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    serializer_class = TokenRequest

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "DELETE" else [AllowAny()]

    @extend_schema(
        request=TokenRequest,
        responses={
            200: TOKEN,
            400: OpenApiResponse(description="Wrong username or password, or a field missing."),
            429: OpenApiResponse(description="Too many failed tries: wait `retry_after` seconds (params)."),
        },
    )
    def post(self, request: Request, *args, **kwargs) -> Response:
        """Your token, for `Authorization: Token KEY`; the same one until you revoke it."""
        serializer = self.get_serializer(data=request.data)
        valid = serializer.is_valid()
        if getattr(request, "axes_locked_out", False):
            body, seconds = lockout_errors(request)
            headers = {"Retry-After": str(seconds)}
            return Response(body, status=status.HTTP_429_TOO_MANY_REQUESTS, headers=headers)
        if not valid:
            raise ValidationError(serializer.errors)  # in the one envelope (campaign.api_errors)
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
