"""Reading the API's one error envelope (campaign.api_errors) in tests: `{"errors": [{"code", "ref", "field",
"message", "params"}]}`, nothing beside it."""

from __future__ import annotations

from typing import Any


def errors(response: Any) -> list[dict[str, Any]]:
    body = response.json()
    assert set(body) == {"errors"}, f"not the error envelope: {body}"
    assert body["errors"], "an error envelope lists at least one error"
    for entry in body["errors"]:
        assert {"code", "ref", "message"} <= set(entry) <= {"code", "ref", "field", "message", "params"}, (
            entry
        )
    return body["errors"]


def codes(response: Any) -> list[str]:
    return [e["code"] for e in errors(response)]


def fields(response: Any) -> set[str | None]:
    """The fields at fault; None for an error of the whole body."""
    return {e.get("field") for e in errors(response)}


def said(response: Any) -> list[tuple[str | None, str, str]]:
    """(field, code, message) of each error."""
    return [(e.get("field"), e["code"], e["message"]) for e in errors(response)]
