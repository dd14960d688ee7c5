"""The OpenAPI schema documents the errors each operation can answer, not only its success.

drf-spectacular documents the 2xx an operation returns; the 4xx come from DRF's machinery, the same for
every view, so they are added here from what the view declares rather than repeated on each one:

- 400 everywhere: a body or query that does not parse or validate, or a NUL in the address;
- 401 where a login is needed (token first, so an anonymous request is a 401, not a 403);
- 403 where a permission beyond being logged in is checked (the GM's, a player's to write), or where the
  view's services refuse by role (`refuses_by_role`);
- 404 everywhere: what the path names is not there for you (a campaign you are not in, an order of another
  nation), or `?format=` names a format there is none of;
- 405 for a method the path does not take; 406 for an Accept it cannot serve; 415 for a body it cannot read.

- 409 on every write: the request conflicts with the current state (a closed turn, a stale version).

Every 4xx body is the one error envelope of BATTLE_SYSTEMS.md (campaign.api_errors), an operation's own 4xx
included: the login's 429 too, its `retry_after` among the error's params (frontend.views.lockout).
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated


def aliases_drop(endpoints: list[tuple]) -> list[tuple]:
    """The schema's preprocessing hook: the routes kept only as aliases of another address
    (campaign.api.api_alias) are not documented; their address is."""
    return [e for e in endpoints if not getattr(e[3], "api_alias", False)]


class ErrorSerializer(serializers.Serializer):
    """One error: `code` is stable, `message` in the reader's language (campaign.api_errors)."""

    code = serializers.CharField(help_text="A stable code, the spec's (`not_adjacent`, `stale_sheet`).")
    ref = serializers.JSONField(
        required=False, help_text="What the error refers to, as the spec writes it: `N:T`, a unit id, a key."
    )
    field = serializers.CharField(required=False, help_text="The input at fault: `target`, `orders[2].to`.")
    message = serializers.CharField(help_text="What is wrong, in the reader's language.")
    params = serializers.DictField(required=False, help_text="The message's parameters.")


class ErrorEnvelope(serializers.Serializer):
    errors = ErrorSerializer(many=True)


WORDS = {
    "400": "The request does not parse or validate: each error with its code and field.",
    "401": "Not logged in: send `Authorization: Token KEY`.",
    "403": "Logged in, but this is not yours to do (the GM's, or another nation's).",
    "404": "Not there for you (a campaign you are not in, what your nation may not see), or no such "
    "?format=.",
    "405": "The path does not take this method.",
    "406": "No answer in the media type the Accept header asks for.",
    "409": "In conflict with the current state: a turn or battle not open, a version not current.",
    "415": "A body in a media type the endpoint does not read.",
}


class AutoSchema(SpectacularAutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        permissions = [type(p) for p in self.view.get_permissions()]
        codes = ["400", "404", "405", "406"]
        if any(issubclass(p, IsAuthenticated) for p in permissions):
            codes.append("401")
        # A view whose services refuse by role (`refuses_by_role`: the GM's actions, a side's answers)
        # answers a 403 of its own, beyond its permission classes.
        if getattr(self.view, "refuses_by_role", False) or any(
            not issubclass(p, (IsAuthenticated, AllowAny)) for p in permissions
        ):
            codes.append("403")
        if self.method in ("POST", "PUT", "PATCH"):
            codes.append("415")
        if self.method in ("POST", "PUT", "PATCH", "DELETE"):
            codes.append("409")
        for code in codes:
            if code not in responses:
                responses[code] = {"description": WORDS[code]}
        for code, response in responses.items():
            if code.startswith("4") or code == "503":
                enveloped = self._get_response_for_code(ErrorEnvelope, code, direction=direction)
                response["content"] = enveloped["content"]
        return dict(sorted(responses.items()))
