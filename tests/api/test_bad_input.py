"""Input that once gave a server error through the API is answered with a 4xx naming what is wrong."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import client_for
from tests.errors import errors
from tests.errors import fields as error_fields


def test_it_refuses_a_deeply_nested_body_without_logging_in(db) -> None:
    response = APIClient().post("/api/auth/token/", "[" * 1024, content_type="application/json")

    assert response.status_code == 400
    [error] = errors(response)
    assert error["code"] == "parse_error" and "nested deeper" in error["message"]


def test_it_refuses_deep_nesting_in_an_order(world, player) -> None:
    body = '{"kind": "hold", "origin": "N2", "units": ' + "[" * 5000 + "]" * 5000 + "}"

    response = client_for(player).post("/api/campaigns/demo/orders/", body, content_type="application/json")

    assert response.status_code == 400


@pytest.mark.parametrize("number", ["²", "٣", "3 ", "-1", "1e3", "99999999999999999999"])
def test_it_refuses_a_turn_number_that_is_not_plain_digits(world, player, number) -> None:
    response = client_for(player).get("/api/campaigns/demo/orders/", {"turn": number})

    assert response.status_code == 400
    assert error_fields(response) == {"turn"}


def test_it_reads_a_plain_turn_number(world, player) -> None:
    response = client_for(player).get("/api/campaigns/demo/orders/", {"turn": "2"})

    assert response.status_code == 200
    assert [o["id"] for o in response.json()] == [world.own_order.pk]


@pytest.mark.parametrize(
    "url", ["/api/campaigns/demo/regions/N1%00/", "/api/campaigns/demo/orders/?turn=1%00"]
)
def test_a_nul_byte_in_the_address_is_a_bad_request(world, player, url) -> None:
    response = client_for(player).get(url)

    assert response.status_code == 400


@pytest.mark.parametrize("field", ["origin", "target"])
def test_a_nul_byte_in_an_order_is_refused_by_field(world, player, field) -> None:
    order = {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 1}}
    order[field] = order[field] + "\x00"

    response = client_for(player).post("/api/campaigns/demo/orders/", order, format="json")

    assert response.status_code == 400
    assert error_fields(response) == {field}


def test_a_nul_byte_in_a_unit_type_is_refused(world, player) -> None:
    order = {"kind": "hold", "origin": "N2", "units": {"JV\x00": 1}}

    response = client_for(player).post("/api/campaigns/demo/orders/", order, format="json")

    assert response.status_code == 400
    assert error_fields(response) == {"units"}


@pytest.mark.parametrize("action", ["process", "retry", "status"])
def test_options_on_the_gm_endpoints_describes_them(world, gm, action) -> None:
    response = client_for(gm).options(f"/api/campaigns/demo/turns/2/{action}/")

    assert response.status_code == 200
    assert response.json()["name"]
