"""Schemathesis against our own OpenAPI schema, as a player and as the GM: no input gives a server error,
and every answer's status is one the schema documents.

Bounded (a few examples per operation, no shrinking) so that it runs in CI within a minute or two; the
examples it draws vary from run to run, and `SCHEMATHESIS_EXAMPLES` draws more of them by hand.
"""

from __future__ import annotations

import json
import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from tests.api.conftest import client_for

# No server error, and no answer the schema does not document (every 4xx is in it).
CHECKS = [not_a_server_error, status_code_conformance]
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25"))


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
