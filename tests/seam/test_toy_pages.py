"""The presentation registry holds (frontend.systems): a toy system's pages, registered by the test through
the registry's own interface, show on the generic pages, which name no system: its card on the turn's
report, its link in the top bar, and no weather where its battles read none."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.urls import reverse

from campaign.models import Turn
from frontend.reports import plain_card
from frontend.systems import Card, SystemPages, pages_of, pages_register, pages_unregister
from tests.api.conftest import client_for
from tests.seam.test_toy_system import registered, toy_fight

A = "/api/campaigns/demo"


def toy_card(data, *, names):
    card = plain_card(data, names=names)
    card["title"] = f"The toys clash at {data['region']}"
    return card


@contextmanager
def toy_pages():
    pages_register(
        SystemPages(
            "toy",
            card=Card(toy_card, "frontend/cards/plain.html", "frontend/cards/plain.txt"),
            links=lambda viewer, turn: [("Toy box", f"/toy/{viewer.campaign.slug}/")],
            weather=False,
        )
    )
    try:
        yield
    finally:
        pages_unregister("toy")


@pytest.fixture
def toy():
    with registered("toy", toy_fight), toy_pages():
        yield


def test_a_system_without_pages_of_its_own_gets_the_generic_ones() -> None:
    pages = pages_of("engine_only")

    assert (pages.card, pages.links, pages.player_panel, pages.orders_panel) == (None, None, None, None)
    assert pages.weather and pages.complete is None and pages.rollback is None
    assert pages.mail.order_line is None, "its orders by mail are the generic syntax's"


def test_a_toy_systems_pages_show_through_the_registry(
    toy, demo, gm, player, client, django_capture_on_commit_callbacks
) -> None:
    demo.battle_system = "toy"
    demo.save(update_fields=["battle_system"])
    body = {"kind": "attack", "origin": "N3", "target": "K1", "units": {"JV": 2}}
    assert client_for(player).post(f"{A}/orders/", body, format="json").status_code == 201
    client.force_login(player)

    campaign = client.get(reverse("frontend:campaign", args=["demo"])).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert client_for(gm).post(f"{A}/turns/1/process/").status_code == 202
    assert demo.turns.get(number=1).status == Turn.Status.RESOLVED
    report = client.get(reverse("frontend:turn", args=["demo", 1]))

    assert '<a href="/toy/demo/">Toy box</a>' in campaign
    assert "Weather:" not in campaign
    card = next(c for c in report.context["cards"] if c["region"] == "K1")
    assert card["title"] == "The toys clash at K1" and card["system"] == "toy"
    assert "The toys clash at K1" in report.content.decode()
