"""Every 4xx of the API is the one envelope of BATTLE_SYSTEMS.md, with the status of its error's kind:
400 invalid input, 403 refused, 404 not visible, 409 in conflict with the current state; the message in the
reader's language; the schema declares it on every 4xx (campaign.api_errors, config.schema)."""

from __future__ import annotations

import pytest

from campaign.messages import said_in
from rules.engine.messages import ErrorKind, Fault, InputError, Message, Refusal, kinds_register
from rules.engine.order_words import kind_word
from tests.api.conftest import client_for
from tests.errors import errors, said

A = "/api/campaigns/demo"
ORDER = {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 2}}
HOLD_WITH_TARGET = {"kind": "hold", "origin": "N5", "target": "M2", "units": {"JV": 2}}


def test_an_order_the_rules_refuse_is_a_400_with_its_code_field_and_params(world, player) -> None:
    response = client_for(player).post(f"{A}/orders/", HOLD_WITH_TARGET, format="json")

    assert response.status_code == 400
    [error] = errors(response)
    assert (error["code"], error["field"], error["ref"]) == ("no_target_allowed", "target", None)
    assert set(error["params"]) == {"kind"}
    assert error["message"] == "a hold order has no target"


def test_it_says_the_same_refusal_in_finnish_to_a_finnish_reader(world, player) -> None:
    response = client_for(player).post(
        f"{A}/orders/", HOLD_WITH_TARGET, format="json", HTTP_ACCEPT_LANGUAGE="fi"
    )

    [error] = errors(response)
    assert error["code"] == "no_target_allowed"
    assert error["message"] == said_in("fi", Message("no_target_allowed", {"kind": kind_word("hold")}))
    assert error["message"] != "a hold order has no target"


def test_an_order_for_a_closed_turn_is_a_409(world, player) -> None:
    world.open.status = "processing"
    world.open.save()

    response = client_for(player).post(f"{A}/orders/", ORDER, format="json")

    assert (response.status_code, [c for _, c, _ in said(response)]) == (409, ["orders_closed"])


def test_the_gms_action_asked_by_a_player_is_a_403_in_the_envelope(world, player) -> None:
    response = client_for(player).post(f"{A}/turns/2/process/")

    assert response.status_code == 403
    assert [e["code"] for e in errors(response)] == ["permission_denied"]


def test_what_the_reader_may_not_see_is_a_404_in_the_envelope(world, rival) -> None:
    response = client_for(rival).get(f"{A}/orders/{world.own_order.pk}/")

    assert response.status_code == 404
    assert [e["code"] for e in errors(response)] == ["not_found"]


def test_a_missing_login_is_a_401_in_the_envelope(world) -> None:
    response = client_for(None).get(f"{A}/orders/")

    assert response.status_code == 401
    assert [e["code"] for e in errors(response)] == ["not_authenticated"]


def test_each_field_of_a_body_of_the_wrong_shape_is_its_own_error(world, player) -> None:
    response = client_for(player).post(f"{A}/orders/", {"kind": None, "units": {"JV": "many"}}, format="json")

    assert response.status_code == 400
    assert {e["field"] for e in errors(response)} == {"kind", "origin", "units.JV"}


# The kind of a refusal is its most telling fault's, whatever their order.
@pytest.mark.parametrize(
    ("kinds", "expected"),
    [
        ((), ErrorKind.INVALID),
        ((ErrorKind.INVALID,), ErrorKind.INVALID),
        ((ErrorKind.INVALID, ErrorKind.CONFLICT), ErrorKind.CONFLICT),
        ((ErrorKind.CONFLICT, ErrorKind.REFUSED, ErrorKind.INVALID), ErrorKind.REFUSED),
        ((ErrorKind.REFUSED, ErrorKind.NOT_VISIBLE), ErrorKind.NOT_VISIBLE),
    ],
)
def test_a_refusal_takes_the_most_telling_kind_of_its_faults(kinds, expected) -> None:
    for kind in ErrorKind:
        kinds_register(kind, (f"test.envelope.{kind}",))
    faults = [Fault("x", Message(f"test.envelope.{kind}")) for kind in reversed(kinds)]

    assert Refusal(faults).kind is expected


def test_a_variant_of_a_codes_text_keeps_the_codes_kind() -> None:
    kinds_register(ErrorKind.CONFLICT, ("test.envelope.variant",))

    assert InputError("turn", Message("test.envelope.variant.waiting")).kind is ErrorKind.CONFLICT
    assert InputError("turn", Message("test.envelope.other")).kind is ErrorKind.INVALID


def test_the_schema_declares_the_envelope_on_every_4xx_and_a_409_on_every_write(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    envelope = {"$ref": "#/components/schemas/ErrorEnvelope"}
    writes = 0

    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            for status, response in responses.items():
                if status.startswith("4") and status != "429":
                    assert response["content"]["application/json"]["schema"] == envelope, (
                        path,
                        method,
                        status,
                    )
            if method in ("post", "put", "patch", "delete"):
                writes += 1
                assert "409" in responses, (path, method)
    assert writes > 20
    entry = schema["components"]["schemas"]["Error"]
    assert set(entry["required"]) == {"code", "message"}
    assert set(entry["properties"]) == {"code", "ref", "field", "message", "params"}
