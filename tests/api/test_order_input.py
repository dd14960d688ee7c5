"""Order entry through the API: the service's own validation, as 400s naming the field; never a 500, and
nothing written by a request that fails."""

from __future__ import annotations

import json

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from orders.models import Order
from tests.api.conftest import client_for
from tests.conftest import examples
from tests.errors import errors, said
from tests.errors import fields as error_fields

URL = "/api/campaigns/demo/orders/"


@pytest.fixture
def api(player) -> APIClient:
    return client_for(player)


def post(api, body):
    return api.post(URL, body, format="json")


def test_it_saves_an_order_and_says_what_was_saved(api, demo) -> None:
    response = post(api, {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 4, "PA": 3}})

    assert response.status_code == 201, response.content
    order = response.json()
    assert order["description"] == "N5 → M2: attack with 4 JV, 3 PA"
    assert (order["turn"], order["nation"], order["sequence"]) == (1, "NOR", Order.objects.get().sequence)
    assert response["Location"].endswith(f"/api/campaigns/demo/orders/{order['id']}/")
    assert Order.objects.get().units == {"JV": 4, "PA": 3}


@pytest.mark.parametrize(
    ("body", "field", "code", "message"),
    [
        (
            {"kind": "attack", "origin": "N5", "target": "K1", "units": {"JV": 2}},
            "target",
            "not_adjacent",
            "K1 is not adjacent to N5",
        ),
        (
            {"kind": "attack", "origin": "N4", "target": "W2", "units": {"JV": 2}},
            "target",
            "allied",
            "NOR is allied with WES",
        ),
        (
            {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 5}},
            "units",
            "units_short",
            "only 4 JV left in N5, not 5",
        ),
        (
            {"kind": "attack", "origin": "ZZ9", "target": "M2", "units": {"JV": 2}},
            "origin",
            "unknown_region",
            "unknown region 'ZZ9'",
        ),
        (
            {"kind": "attack", "origin": "N5", "target": "ZZ9", "units": {"JV": 2}},
            "target",
            "unknown_region",
            "unknown region 'ZZ9'",
        ),
        (
            {"kind": "attack", "origin": "N5", "units": {"JV": 2}},
            "target",
            "choose_target",
            "choose a target region",
        ),
        (
            {"kind": "attack", "origin": "K1", "target": "M1", "units": {"JV": 2}},
            "origin",
            "origin_not_held",
            "K1 is not held by NOR",
        ),
        (
            {"kind": "retreat", "origin": "N5", "target": "M2", "units": {"JV": 2}},
            "kind",
            "unknown_order_kind_of",
            "unknown kind of order 'retreat': one of hold, move, rebase, attack, stand_down",
        ),
        (  # Sodankäynti's kind: the campaign's system (its registry entry) offers it not
            {"kind": "ambush", "origin": "N5", "target": "M2", "units": {"JV": 2}},
            "kind",
            "unknown_order_kind_of",
            "unknown kind of order 'ambush': one of hold, move, rebase, attack, stand_down",
        ),
        (
            {"kind": "hold", "origin": "N5", "target": "M2", "units": {"JV": 2}},
            "target",
            "no_target_allowed",
            "a hold order has no target",
        ),
    ],
)
def test_it_answers_400_with_the_rules_code_and_message_for_the_field_at_fault(
    api, demo, body, field, code, message
) -> None:
    response = post(api, body)

    assert (response.status_code, said(response)) == (400, [(field, code, message)])
    assert not Order.objects.exists()


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({}, {"kind", "origin", "units"}),
        ({"kind": "attack", "target": "M2", "units": {"JV": 2}}, {"origin"}),
        ({"kind": "attack", "origin": "N5", "target": "M2"}, {"units"}),
        ({"kind": "attack", "origin": "N5", "target": "M2", "units": [2]}, {"units"}),
        ({"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": "many"}}, {"units.JV"}),
        ({"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 2.5}}, {"units.JV"}),
        ({"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": True}}, {"units.JV"}),
        ({"kind": "attack", "origin": "N5", "target": "M2", "units": {}}, {"units"}),
        ({"kind": "attack", "origin": ["N5"], "target": "M2", "units": {"JV": 2}}, {"origin"}),
        ({"kind": "attack", "origin": "N5", "target": {"code": "M2"}, "units": {"JV": 2}}, {"target"}),
        ({"kind": None, "origin": "N5", "target": "M2", "units": {"JV": 2}}, {"kind"}),
        ({"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": -1}}, {"units"}),
        ([{"kind": "attack"}], {None}),
        ("attack N5 M2", {None}),
    ],
)
def test_it_answers_400_naming_each_field_of_the_wrong_shape(api, demo, body, fields) -> None:
    response = post(api, body)

    assert response.status_code == 400
    assert error_fields(response) == fields
    assert not Order.objects.exists()


@pytest.mark.parametrize("raw", ['{"kind": "attack",', "not json", '{"units": {"JV": 2}}}', "\xff\xfe"])
def test_it_answers_400_to_a_body_that_is_not_json(api, demo, raw) -> None:
    response = api.post(URL, raw.encode("latin-1"), content_type="application/json")

    assert response.status_code == 400
    [error] = errors(response)
    assert error["code"] == "parse_error" and "JSON parse error" in error["message"]
    assert not Order.objects.exists()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from(["attack", "move", "hold", "rebase", "stand_down"]) | JSON,
        "origin": st.sampled_from(["N5", "N1", "M2", "K1"]) | JSON,
        "target": st.sampled_from(["M2", "M1", "N3", ""]) | JSON,
        "units": st.dictionaries(st.sampled_from(["JV", "PA", "TY", "IV", "XX"]), JSON, max_size=3) | JSON,
    },
)


@settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=FIELDS | JSON)
def test_it_never_answers_500_and_writes_only_what_it_accepts(api, demo, body) -> None:
    with transaction.atomic():
        response = api.post(URL, json.dumps(body), content_type="application/json")

        assert response.status_code in (201, 400), (body, response.content)
        assert Order.objects.count() == (1 if response.status_code == 201 else 0)
        if response.status_code == 400:
            assert response.json(), "a 400 says what is wrong"
        transaction.set_rollback(True)


def test_a_patch_changes_only_what_it_names_and_keeps_the_orders_place(api, demo) -> None:
    first = post(api, {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 2}}).json()
    post(api, {"kind": "move", "origin": "N5", "target": "N3", "units": {"PA": 1}})

    response = api.patch(first["url"], {"target": "M1"}, format="json")

    assert response.status_code == 200, response.content
    assert (response.json()["sequence"], response.json()["description"]) == (
        first["sequence"],
        "N5 → M1: attack with 2 JV",
    )


def test_a_refused_change_leaves_the_order_as_it_was(api, demo) -> None:
    first = post(api, {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 2}}).json()
    post(api, {"kind": "move", "origin": "N5", "target": "N3", "units": {"JV": 2}})

    starving = api.patch(first["url"], {"units": {"JV": 3}}, format="json")
    wrong_type = api.put(first["url"], {"kind": "attack", "origin": "N5", "units": "3 JV"}, format="json")

    assert starving.status_code == 400
    [error] = errors(starving)
    assert error["field"] == "units"
    assert error["message"].startswith("this would leave your order #2 invalid: only 1 JV left")
    assert (wrong_type.status_code, error_fields(wrong_type)) == (400, {"units"})
    assert Order.objects.get(pk=first["id"]).units == {"JV": 2}


def test_it_refuses_orders_once_the_turn_is_closed(api, demo) -> None:
    order = post(api, {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 2}}).json()
    demo.turns.filter(number=1).update(status="processing")

    refused = [
        post(api, {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 1}}),
        api.patch(order["url"], {"units": {"JV": 1}}, format="json"),
        api.delete(order["url"]),
    ]

    for response in refused:
        assert (response.status_code, said(response)) == (
            409,
            [("turn", "orders_closed", "turn 1 is processing: orders are closed")],
        )
    assert Order.objects.get().units == {"JV": 2}


def test_a_player_deletes_its_order(api, demo) -> None:
    order = post(api, {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 2}}).json()

    assert api.delete(order["url"]).status_code == 204
    assert not Order.objects.exists()


def test_session_authentication_needs_the_csrf_token_to_write(player, demo) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(player)
    body = {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 2}}

    assert client.get(URL).status_code == 200
    assert client.post(URL, body, format="json").status_code == 403
    client.cookies["csrftoken"] = secret = "k" * 32  # what a page's form or cookie would carry
    assert client.post(URL, body, format="json", HTTP_X_CSRFTOKEN=secret).status_code == 201
