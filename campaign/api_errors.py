"""The API's 400s: each field's problems as a stable `code` beside a readable English `message`,
{"target": [{"code": "not_adjacent", "message": "K1 is not adjacent to N5"}]}, for the serializers' checks
and the services' refusals alike (a refusal's code is its Message's, rules.engine.messages)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler

from rules.engine.messages import InputError


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = exception_handler(exc, context)
    if response is not None and isinstance(exc, ValidationError):
        response.data = exc.get_full_details()
    return response


def refusal(error: InputError) -> ValidationError:
    """A service's refusal as the API's 400, under the field at fault."""
    return ValidationError({error.field: [ErrorDetail(str(error.message), code=error.code)]})
