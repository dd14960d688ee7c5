"""Schemathesis against our own OpenAPI schema, as a player and as the GM: no input gives a server error,
and every answer's status is one the schema documents. On the demo campaign (Iron Fist) every operation; on
a tabletop campaign with a battle waiting and a company_d20 campaign with one, the table battles' operations,
their paths aimed at what exists (the campaign, the turn, the battle) so that the bodies reach the checks.

Bounded (a few examples per operation, no shrinking) so that it runs within a minute or two; the examples
it draws vary from run to run, and IRONFIST_FUZZ=long (CI sets it) draws five times as many.
"""

from __future__ import annotations

import json

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from tests.api.conftest import client_for
from tests.company.conftest import attack_and_scout, battle, company  # noqa: F401 (fixtures)
from tests.conftest import examples

# No server error, and no answer the schema does not document (every 4xx is in it).
CHECKS = [not_a_server_error, status_code_conformance]
EXAMPLES = examples(25)


def _schema() -> schemathesis.specs.openapi.schemas.OpenApiSchema:
    """Our schema as the server serves it, driving our WSGI application in process."""
    from django.core.wsgi import get_wsgi_application
    from drf_spectacular.generators import SchemaGenerator

    spec = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))
    loaded = schemathesis.openapi.from_dict(spec)
    loaded.app = get_wsgi_application()
    return loaded


schema = _schema()


@pytest.fixture(autouse=True)
def _in_the_test_transaction(settings):
    # As the test client does: a request must not close the connection that holds the test's transaction.
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


def _token(user) -> dict[str, str]:
    client = client_for(user)
    return {"Authorization": client._credentials["HTTP_AUTHORIZATION"]}


@pytest.fixture
def tokens(world, gm, player) -> dict[str, dict[str, str]]:
    return {"player": _token(player), "gm": _token(gm)}


_BOUNDED = hypothesis_settings(
    max_examples=EXAMPLES,
    phases=[Phase.explicit, Phase.generate],
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


@schema.parametrize()
@_BOUNDED
def test_it_answers_a_player_with_no_server_error(case, tokens) -> None:
    case.call_and_validate(headers=tokens["player"], checks=CHECKS)


@schema.parametrize()
@_BOUNDED
def test_it_answers_the_gm_with_no_server_error(case, tokens) -> None:
    case.call_and_validate(headers=tokens["gm"], checks=CHECKS)


def _aimed(case, params: dict[str, object]) -> None:
    """The path's parameters that name what exists, set to it; the others (an action, a version) drawn."""
    for name in case.path_parameters or {}:
        if name in params:
            case.path_parameters[name] = params[name]


TABLE = schema.include(path_regex=r"/(battles|battles-preview|companies|contacts|map|company-[a-z]+)/")
# Fewer a table operation: each world is set up once and every operation hunted in it, both roles a case.
TABLE_EXAMPLES = max(1, EXAMPLES // 3)


def _hunt(params: dict[str, object], users: list) -> None:
    """Every table operation in one world (set up once): its cases drawn, aimed, sent as each user."""
    headers = [_token(user) for user in users]
    for found in TABLE.get_all_operations():
        operation = found.ok()

        @given(case=operation.as_strategy())
        @hypothesis_settings(_BOUNDED, max_examples=TABLE_EXAMPLES)
        def hunt(case) -> None:
            _aimed(case, params)
            for each in headers:
                case.call_and_validate(headers=each, checks=CHECKS)

        hunt()


def test_a_tabletop_battle_answers_with_no_server_error(tabletop_battle, gm, player) -> None:
    turn = tabletop_battle.turn
    _hunt({"slug": turn.campaign.slug, "number": turn.number, "key": tabletop_battle.key}, [player, gm])


def test_a_company_battle_answers_with_no_server_error(battle, gm, player) -> None:  # noqa: F811
    turn = battle.turn
    _hunt({"slug": turn.campaign.slug, "number": turn.number, "id": battle.pk, "nation": "NOR"}, [player, gm])
