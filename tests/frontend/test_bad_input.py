"""GM input that once gave a server error, or was stored wrapped around, is refused beside its field."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaign.models import AuditEntry, GMModifier, Profile, Stack
from tests.frontend.conftest import demo_url


def test_it_refuses_a_deadline_past_the_horizon_and_every_zone_still_shows_the_page(
    as_gm, turn1, player, client
):
    response = as_gm.post(demo_url("gm_deadline"), {"deadline": "9999-12-31T23:59"})

    assert response.status_code == 400
    assert "a deadline can be at most 100 years ahead" in response.content.decode()
    turn1.refresh_from_db()
    assert turn1.deadline.year < 9999
    Profile.objects.update_or_create(user=player, defaults={"time_zone": "Pacific/Kiritimati"})
    client.force_login(player)
    assert client.get(reverse("frontend:campaign", args=["demo"])).status_code == 200


def test_it_refuses_to_extend_past_the_horizon_in_steps(as_gm, turn1):
    for _ in range(3):
        response = as_gm.post(demo_url("gm_extend"), {"extend-extra": str(40 * 365 * 24)})

    assert response.status_code == 400
    turn1.refresh_from_db()
    assert turn1.deadline < timezone.now() + timedelta(days=100 * 365)


@pytest.mark.parametrize(
    "name, data, field",
    [
        ("gm_extend", {"extend-extra": "99999999999"}, "extra"),
        (
            "gm_lifecycle",
            {"lifecycle-reminder_before": "12", "lifecycle-civil_disorder_after": "40000"},
            "civil",
        ),
        (
            "gm_lifecycle",
            {"lifecycle-reminder_before": "99999999999", "lifecycle-civil_disorder_after": "3"},
            "rem",
        ),
        ("gm_modifier", {"region": "M1", "nation": "NOR", "value": "99999999999"}, "value"),
        (
            "gm_roster",
            {"region": "N1", "nation": "NOR", "unit_type": "JV", "count": "99999999999", "reason": "x"},
            "count",
        ),
    ],
)
def test_it_refuses_a_number_the_column_cannot_hold(as_gm, turn1, name, data, field):
    audited = AuditEntry.objects.count()

    response = as_gm.post(demo_url(name), data)

    assert response.status_code == 400
    assert "less than or equal to" in response.content.decode()
    assert AuditEntry.objects.count() == audited
    assert not GMModifier.objects.filter(value__gt=2**31 - 1).exists()
    assert not Stack.objects.filter(count__gt=2**31 - 1).exists()


def test_it_stores_the_largest_count_the_column_holds(as_gm, turn1):
    data = {"region": "N1", "nation": "NOR", "unit_type": "JV", "count": str(2**31 - 1), "reason": "x"}

    as_gm.post(demo_url("gm_roster"), data)

    assert Stack.objects.get(region__code="N1", nation__code="NOR", unit_type="JV").count == 2**31 - 1
