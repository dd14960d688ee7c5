"""The i18n cast: the demo cast with a turn played (NOR took the empty M2 from N5), and clients that read
the pages in English or in Finnish."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from rules.services import turn_process

ORDERS = [("NOR", "attack", "N3", "K1", {"JV": 2}), ("NOR", "attack", "N5", "M2", {"JV": 4, "PA": 3})]


@pytest.fixture(autouse=True)
def english_after():
    """A Finnish request leaves Finnish active in this thread (LocaleMiddleware activates, it does not
    restore): put the default back, so that later tests formatting dates outside a request read English."""
    yield
    translation.deactivate()


@pytest.fixture
def played(demo, player, rival, gm, place_orders):
    """Turn 1 resolved: NOR attacked KAR's K1 from N3 (a battle with every KTA term) and took the empty
    M2 from N5; turn 2 is open."""
    turn1 = demo.turns.get(number=1)
    place_orders(turn1, ORDERS)
    turn = turn_process(turn_id=turn1.pk)
    assert turn.status == "resolved", turn.error
    return turn


def _client(user, language: str | None) -> Client:
    client = Client(headers={"accept-language": language} if language else {})
    client.force_login(user)
    return client


@pytest.fixture
def finnish_player(player):
    """The player's browser asks for Finnish first."""
    return _client(player, "fi-FI,fi;q=0.9,en;q=0.5")


@pytest.fixture
def english_player(player):
    """The player's browser says nothing of languages: the site's default, English."""
    return _client(player, None)


@pytest.fixture
def finnish_gm(gm):
    return _client(gm, "fi")
