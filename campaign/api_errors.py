"""The API's one error envelope (BATTLE_SYSTEMS.md, results entry), for every 4xx of every endpoint:

    {"errors": [{"code": "not_adjacent", "ref": null, "field": "target",
                 "message": "K1 is not adjacent to N5", "params": {"target": "K1", "origin": "N5"}}]}

`code` is stable (the spec's), `message` is in the reader's language, `ref` is what the spec says the error
refers to (`N:T`, a unit id, a ruleset key), `field` the input at fault; `ref` is null where there is none,
and `field` and `params` are left out. The status is the error's kind: 400 invalid input, 403 refused, 404 not
visible, 409 in conflict with the current state, 410 gone for good (an invitation link used, expired or
revoked); 503 (with Retry-After) when the server cannot do it now.

One exception handler makes it, Zulip's way: a service or an engine raises a `Refusal` (rules.engine.messages)
and the view does not catch it; DRF's own exceptions (a body that does not parse, a serializer's checks, a
missing login, a throttle) are put in the same envelope here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rest_framework.exceptions import APIException, ErrorDetail
from rest_framework.response import Response
from rest_framework.views import exception_handler

from campaign.messages import said
from rules.engine.messages import ErrorKind, Fault, Message, Refusal, gettext_noop, messages_register

STATUS = {
    ErrorKind.INVALID: 400,
    ErrorKind.REFUSED: 403,
    ErrorKind.NOT_VISIBLE: 404,
    ErrorKind.CONFLICT: 409,
    ErrorKind.GONE: 410,
    ErrorKind.UNAVAILABLE: 503,
}
# How long a client should wait before it asks again, where the server's fault is one that passes.
RETRY_AFTER = {ErrorKind.UNAVAILABLE: 60}


def fault_data(fault: Fault) -> dict[str, Any]:
    """One entry of the envelope, its message in the active language."""
    entry: dict[str, Any] = {"code": fault.code, "ref": None if fault.ref == "" else fault.ref}
    if fault.field:
        entry["field"] = fault.field
    entry["message"] = said(fault.message)
    params = fault.message.to_dict()["params"]
    if params:
        entry["params"] = params
    return entry


def errors_data(faults: list[Fault]) -> dict[str, Any]:
    return {"errors": [fault_data(f) for f in faults]}


def refusal_response(refusal: Refusal) -> Response:
    wait = RETRY_AFTER.get(refusal.kind)
    headers = {"Retry-After": str(wait)} if wait else None
    return Response(errors_data(refusal.faults()), status=STATUS[refusal.kind], headers=headers)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, Refusal):
        return refusal_response(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None  # not an error of the request: a server error, logged as one
    detail = exc.detail if isinstance(exc, APIException) else response.data.get("detail", "")
    response.data = {"errors": [_entry(code, text, path) for path, code, text in _details(detail)]}
    return response


def _entry(code: str, text: str, path: str) -> dict[str, Any]:
    entry = {"code": code, "ref": None, "field": path, "message": text}
    if not path:
        del entry["field"]
    return entry


def _details(detail: Any, path: str = "") -> Iterator[tuple[str, str, str]]:
    """(field path, code, text) for each message of a DRF error detail, nested serializers included:
    `units.JV`, `orders[2].to`."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(key, int):  # a list field's errors, by the item's index
                yield from _details(value, f"{path}[{key}]")
                continue
            name = "" if key in ("non_field_errors", "detail") else str(key)
            yield from _details(value, f"{path}.{name}" if path and name else path or name)
    elif isinstance(detail, list):
        plain = all(isinstance(item, str) for item in detail)
        for index, item in enumerate(detail):
            yield from _details(item, path if plain else f"{path}[{index}]")
    else:
        code = detail.code if isinstance(detail, ErrorDetail) and detail.code else "invalid"
        yield path, str(code), str(detail)


# The API views' own checks of a body's shape, before any service sees it.
messages_register(
    {
        "not_a_mapping": gettext_noop("Send a JSON object."),
        "deadline_format": gettext_noop("Give the deadline as an ISO 8601 time with its offset."),
    },
    prefix="api.",
)


def invalid(field: str, code: str, /, **params: Any) -> Refusal:
    """A view's own check of its input, refused with a stable code and the field at fault."""
    return Refusal([Fault(code, Message("api." + code, params), field=field or None)])
