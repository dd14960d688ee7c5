"""Admin pages for everything; the processed history is read-only."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.urls import reverse

from campaign.models import Turn
from orders.models import Order
from rules.models import Report
from rules.services import turn_process
from tests.campaign.test_turn_processing import ORDERS


@pytest.fixture
def admin_client_with_history(admin_client, demo, place_orders):
    turn = demo.turns.get(number=1)
    place_orders(turn, ORDERS)
    turn_process(turn_id=turn.pk)
    place_orders(demo.turns.get(number=2), [("NOR", "hold", "N1", None, {"JV": 1})])
    return admin_client


def test_it_shows_a_list_and_a_page_for_every_model(admin_client_with_history):
    for model in admin.site._registry:
        meta = model._meta
        listing = admin_client_with_history.get(
            reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        )
        assert listing.status_code == 200, meta.label
        first = model.objects.first()
        if first is not None:
            page = admin_client_with_history.get(
                reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
            )
            assert page.status_code == 200, meta.label


def test_it_keeps_reports_resolved_turns_and_their_orders_read_only(admin_client_with_history, demo):
    resolved = demo.turns.get(number=1)
    report = Report.objects.filter(turn=resolved).first()
    order = Order.objects.filter(turn=resolved).first()
    client = admin_client_with_history

    page = client.get(reverse("admin:rules_report_change", args=[report.pk]))
    assert b'name="_save"' not in page.content
    assert client.get(reverse("admin:rules_report_add")).status_code == 403
    assert (
        client.post(reverse("admin:rules_report_delete", args=[report.pk]), {"post": "yes"}).status_code
        == 403
    )
    assert b'name="_save"' not in client.get(reverse("admin:orders_order_change", args=[order.pk])).content

    client.post(
        reverse("admin:campaign_turn_change", args=[resolved.pk]), {"status": "open", "weather": "snow"}
    )
    resolved.refresh_from_db()
    assert (resolved.status, resolved.weather) == (Turn.Status.RESOLVED, "clear")
    assert (
        b'name="_save"'
        in client.get(reverse("admin:orders_order_change", args=[Order.objects.last().pk])).content
    )
