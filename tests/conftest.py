"""The shared cast and world of the tests: a demo campaign with a GM, a player, a rival and an outsider.

With REDIS_URL set, `celery_worker` starts a real worker process on the real broker, against the test
database; tests marked `celery_worker` are skipped, with the reason shown, when no broker is configured.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "campaign" / "scenarios" / "demo.yaml"


def pytest_collection_modifyitems(config, items):
    if settings.REDIS_URL:
        return
    skip = pytest.mark.skip(
        reason="needs a real Celery worker: set REDIS_URL (and DATABASE_URL); .ci/run does"
    )
    for item in items:
        if "celery_worker" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def celery_in_process(request):
    """Tests run queued tasks in process, as `make run` does, even where REDIS_URL names a real broker:
    only the tests marked `celery_worker` send them to the real worker they start."""
    from config.celery import app

    was = app.conf.task_always_eager
    # A test marked `celery_worker` sends its tasks to the broker, whatever a test before it left behind.
    app.conf.task_always_eager = "celery_worker" not in request.keywords
    yield
    app.conf.task_always_eager = was


@pytest.fixture
def demo(db):
    """The demo campaign, freshly imported, turn 1 open."""
    from campaign.scenario import scenario_read
    from campaign.services import scenario_import

    return scenario_import(scenario=scenario_read(DEMO), slug="demo")


@pytest.fixture
def nations(demo):
    return {n.code: n for n in demo.nations.all()}


@pytest.fixture
def regions(demo):
    return {r.code: r for r in demo.regions.all()}


@pytest.fixture
def gm(demo, django_user_model):
    from campaign.services import membership_set

    return membership_set(campaign=demo, username="gm", password="gm-password-1", nation=None).user


@pytest.fixture
def player(demo, nations):
    from campaign.services import membership_set

    return membership_set(
        campaign=demo, username="player", password="player-password-1", nation=nations["NOR"]
    ).user


@pytest.fixture
def rival(demo, nations):
    """Plays EST, at war with the player's NOR."""
    from campaign.services import membership_set

    return membership_set(
        campaign=demo, username="rival", password="rival-password-1", nation=nations["EST"]
    ).user


@pytest.fixture
def karelian(demo, nations):
    """Plays KAR, whose Kaarnala (K1) the player's NOR attacks in `tabletop_turn`."""
    from campaign.services import membership_set

    return membership_set(
        campaign=demo, username="karelian", password="karelian-password-1", nation=nations["KAR"]
    ).user


@pytest.fixture
def tabletop_turn(demo, gm, player, rival, outsider, karelian, place_orders):
    """Turn 1 of the demo as a tabletop campaign (TABLETOP.md): NOR attacks KAR's Kaarnala from N3, and the
    turn waits in battles_pending for the result of `region:K1`."""
    from rules.services import turn_process

    demo.battle_system = "tabletop"
    demo.save(update_fields=["battle_system"])
    turn = demo.turns.get(number=1)
    place_orders(turn, [("NOR", "attack", "N3", "K1", {"JV": 2})])
    turn_process(turn_id=turn.pk)
    turn.refresh_from_db()
    return turn


@pytest.fixture
def outsider(db, django_user_model):
    return django_user_model.objects.create_user(username="outsider", password="outsider-password-1")


def orders_place(turn, orders):
    """Place orders [(nation code, kind, origin, target, {type: count}), ...] on `turn` in submission order,
    as they stand in the database, unjudged (the engine judges them)."""
    from orders.models import Order

    nations = {n.code: n for n in turn.campaign.nations.all()}
    regions = {r.code: r for r in turn.campaign.regions.all()}
    start = (turn.orders.order_by("-sequence").values_list("sequence", flat=True).first() or 0) + 1
    return Order.objects.bulk_create(
        Order(
            turn=turn,
            nation=nations[nation],
            kind=kind,
            origin=regions[origin],
            target=regions[target] if target else None,
            units=units,
            sequence=start + i,
        )
        for i, (nation, kind, origin, target, units) in enumerate(orders)
    )


@pytest.fixture
def place_orders():
    """place_orders(turn, [(nation code, kind, origin, target, {type: count}), ...]) in submission order."""
    return orders_place


def _test_database_url() -> str:
    """The URL of the database pytest-django created, for the worker process."""
    from django.db import connection

    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{name}"
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path=f"/{name}"))


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """A real `celery worker` process on the configured broker, using the test database.

    Session-scoped and started after the test database exists; stopped before it is dropped, because
    the fixture depends on django_db_setup. Tests using it must be transaction=True so the worker can
    see their rows.
    """
    from config.celery import app

    with django_db_blocker.unblock():
        database_url = _test_database_url()
    hostname = f"test-{uuid.uuid4().hex[:8]}@localhost"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": database_url,
        "CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
    }
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    log = log_path.open("w")
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"]
    command += [
        "-Q",
        settings.CELERY_TASK_DEFAULT_QUEUE,
        "-n",
        hostname,
        "--without-gossip",
        "--without-mingle",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[hostname], timeout=0.5):
            if process.poll() is not None or time.monotonic() > deadline:
                tail = log_path.read_text()[-3000:]
                raise RuntimeError(f"the Celery worker did not start (exit code {process.poll()}):\n{tail}")
        yield hostname
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
