"""Orders entered at the same moment over HTTP: a nation's are judged one at a time (no unit is given
twice), different nations' side by side, and every order gets its own place in the submission order.

Needs PostgreSQL: the live server answers in threads, each with its own connection and row locks.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from orders.models import Order
from tests.api.test_live_http import call

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL (set DATABASE_URL)"
)


def at_once(requests):
    """Send every (user, body) at the same moment; the statuses in the same order."""
    barrier = threading.Barrier(len(requests))
    statuses = [None] * len(requests)

    def send(i, base, user, body):
        try:
            barrier.wait()
            statuses[i] = call(base, "POST", "/api/campaigns/demo/orders/", user=user, body=body)[0]
        finally:
            connections.close_all()  # the token lookup opened one in this thread

    threads = [threading.Thread(target=send, args=(i, *r)) for i, r in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return statuses


def test_a_nations_units_are_not_given_twice_by_orders_entered_at_once(live_server, player) -> None:
    one_jv = {"kind": "attack", "origin": "N5", "target": "M2", "units": {"JV": 1}}

    statuses = at_once([(live_server.url, player, one_jv)] * 8)

    assert sorted(statuses) == [201] * 4 + [400] * 4, "N5 holds 4 JV"
    assert sum(o.units["JV"] for o in Order.objects.all()) == 4


def test_orders_of_several_nations_at_once_each_get_their_own_place(live_server, player, rival) -> None:
    nor = {"kind": "hold", "origin": "N2", "units": {"JV": 1}}
    est = {"kind": "hold", "origin": "E1", "units": {"JV": 1}}

    statuses = at_once([(live_server.url, player, nor), (live_server.url, rival, est)] * 4)

    assert statuses == [201] * 8
    assert len(set(Order.objects.values_list("sequence", flat=True))) == 8
