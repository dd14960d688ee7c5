"""Deadlines are stored in UTC and shown in each user's own time zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.http import HttpResponse
from django.template import Context, Template
from django.test import RequestFactory
from django.utils import timezone

from campaign.gm.access import GMInputError
from campaign.lifecycle import time_zone_of, time_zone_set
from campaign.middleware import SESSION_KEY, TimeZoneMiddleware

DEADLINE = datetime(2026, 10, 25, 12, 0, tzinfo=UTC)
SHOW = Template('{{ deadline|date:"j M H:i T" }}')


def _shown_during_request(user, session):
    """The deadline as a template renders it while the middleware has the viewer's zone active."""
    shown = []

    def view(request):
        shown.append(SHOW.render(Context({"deadline": DEADLINE})))
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user, request.session = user, session
    TimeZoneMiddleware(view)(request)
    return shown[0]


def test_it_shows_a_deadline_in_the_players_time_zone_after_summer_time_ends(player):
    time_zone_set(user=player, time_zone="Europe/Helsinki")
    assert _shown_during_request(player, {}) == "25 Oct 14:00 EET"
    summer = datetime(2026, 10, 24, 12, 0, tzinfo=UTC)
    with timezone.override(time_zone_of(user=player)):
        assert Template('{{ t|date:"H:i T" }}').render(Context({"t": summer})) == "15:00 EEST"


def test_it_shows_utc_to_a_user_who_has_not_chosen(player):
    assert _shown_during_request(player, {}) == "25 Oct 12:00 UTC"


def test_it_keeps_the_zone_in_the_session_from_login_so_pages_pay_no_query(
    client, player, django_assert_num_queries
):
    time_zone_set(user=player, time_zone="America/New_York")
    client.force_login(player)
    assert client.session[SESSION_KEY] == "America/New_York"
    session = {SESSION_KEY: "America/New_York"}
    with django_assert_num_queries(0):
        assert _shown_during_request(player, session) == "25 Oct 08:00 EDT"


def test_it_refuses_a_time_zone_that_does_not_exist(player):
    with pytest.raises(GMInputError, match="unknown time zone 'Mars/Olympus'"):
        time_zone_set(user=player, time_zone="Mars/Olympus")
