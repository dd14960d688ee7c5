"""A refusal (403, 404) is the caller's business, not the server's: logged once, in one line, without a
traceback."""

from __future__ import annotations

import io
import logging

import pytest

from tests.api.conftest import client_for

REFUSALS = [
    ("page", "/c/nope/", 404, "Not Found: /c/nope/"),
    ("page", "/c/demo/gm/", 403, "Forbidden (Permission denied): /c/demo/gm/"),
    ("api", "/api/campaigns/nope/", 404, "Not Found: /api/campaigns/nope/"),
    ("api", "/api/campaigns/demo/turns/1/status/", 403, "Forbidden: /api/campaigns/demo/turns/1/status/"),
]


@pytest.fixture
def console():
    """What the configured console handlers write (Django's and ours, not pytest's), in one buffer."""
    written = io.StringIO()
    loggers = [logging.getLogger(), *(logging.getLogger(n) for n in list(logging.root.manager.loggerDict))]
    handlers = {
        h for logger in loggers for h in getattr(logger, "handlers", []) if type(h) is logging.StreamHandler
    }
    was = {h: h.setStream(written) for h in handlers}
    yield written
    for handler, stream in was.items():
        handler.setStream(stream)


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return {"page": client, "api": client_for(player)}


@pytest.mark.parametrize(("where", "path", "status", "line"), REFUSALS)
def test_a_refusal_is_logged_once_in_one_line_without_a_traceback(
    as_player, console, caplog, settings, where, path, status, line
):
    settings.DEBUG = True  # Django's own console handler writes only then, beside the root's

    with caplog.at_level(logging.INFO):
        assert as_player[where].get(path).status_code == status

    records = [r for r in caplog.records if r.name.startswith("django")]
    assert [(r.getMessage(), r.exc_info, r.exc_text) for r in records] == [(line, None, None)]
    assert console.getvalue().splitlines() == [line]
