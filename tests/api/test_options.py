"""OPTIONS answers on every route of the API, as the GM, a player and a stranger: never a server error.

DRF answers OPTIONS with a description of the view, which asks the view for its serializer; a view that
declares none answered 500. The routes are the schema's, so a new one is asked without a word here.
"""

from __future__ import annotations

import re

import pytest
from django.core.signals import got_request_exception
from drf_spectacular.generators import SchemaGenerator

from tests.api.conftest import client_for

# Values for the paths' parameters: the demo campaign's, so that a route finds something to describe.
PARAMS = {"slug": "demo", "number": "1", "nation": "NOR", "code": "N1", "key": "N1", "action": "x"}


def _paths() -> list[str]:
    generator = SchemaGenerator()
    generator._initialise_endpoints()
    return sorted({path for path, *_ in generator._get_paths_and_endpoints()})


def _filled(path: str, params: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: params.get(m.group(1), "1"), path)


@pytest.fixture
def errors():
    seen: list[object] = []

    def note(sender, request=None, **kwargs):
        seen.append(request.path if request is not None else sender)

    got_request_exception.connect(note)
    yield seen
    got_request_exception.disconnect(note)


def _ask(path: str, users: list, errors: list) -> None:
    for user in users:
        response = client_for(user).options(path)
        assert response.status_code < 500, (path, response.status_code)
    assert errors == []


@pytest.mark.parametrize("path", _paths())
def test_options_never_answers_a_server_error(world, gm, player, path, errors) -> None:
    _ask(_filled(path, PARAMS), [gm, player, None], errors)


@pytest.mark.parametrize("path", [p for p in _paths() if "{number}" in p])
def test_options_on_a_table_battles_routes_never_answers_a_server_error(
    tabletop_battle, gm, player, path, errors
) -> None:
    params = {**PARAMS, "number": str(tabletop_battle.turn.number), "key": tabletop_battle.key}
    _ask(_filled(path, params), [gm, player], errors)
