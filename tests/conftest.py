"""The shared cast and world of the tests: a demo campaign with a GM, a player, a rival and an outsider.

With REDIS_URL set, `celery_worker` starts a real worker process on the real broker, against the test
database; tests marked `celery_worker` are skipped, with the reason shown, when no broker is configured.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "campaign" / "scenarios" / "demo.yaml"


# The fuzzers' and the property tests' hunt: a short one by default, the long one where IRONFIST_FUZZ=long
# (.ci/run sets it).
FUZZ_LONG = os.environ.get("IRONFIST_FUZZ") == "long"


def examples(long: int) -> int:
    """How many examples a fuzzer or a property test draws: `long` in the long hunt, a fifth of it (at
    least five, at most `long`) otherwise, so that `make test` stays quick and CI still hunts."""
    return long if FUZZ_LONG else max(min(long, 5), long // 5)


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


def _member(campaign, username, nation=None):
    """`username` (password "<username>-password-1") joins `campaign` playing `nation`, or as its GM."""
    from campaign.services import membership_set

    password = f"{username}-password-1"
    return membership_set(campaign=campaign, username=username, password=password, nation=nation).user


@pytest.fixture
def gm(demo, django_user_model):
    return _member(demo, "gm")


@pytest.fixture
def player(demo, nations):
    return _member(demo, "player", nations["NOR"])


@pytest.fixture
def rival(demo, nations):
    """Plays EST, at war with the player's NOR."""
    return _member(demo, "rival", nations["EST"])


@pytest.fixture
def karelian(demo, nations):
    """Plays KAR, whose Kaarnala (K1) the player's NOR attacks in `tabletop_turn`."""
    return _member(demo, "karelian", nations["KAR"])


@pytest.fixture
def tabletop_ordered(demo, place_orders):
    """Turn 1 of the demo as a tabletop campaign (TABLETOP.md), NOR's attack on KAR's Kaarnala (K1) from N3
    placed and the turn not yet processed."""
    demo.battle_system = "tabletop"
    demo.save(update_fields=["battle_system"])
    turn = demo.turns.get(number=1)
    place_orders(turn, [("NOR", "attack", "N3", "K1", {"JV": 2})])
    return turn


@pytest.fixture
def tabletop_turn(gm, player, rival, outsider, karelian, tabletop_ordered):
    """`tabletop_ordered` processed: the turn waits in battles_pending for the result of `region:K1`."""
    from rules.services import turn_process

    turn_process(turn_id=tabletop_ordered.pk)
    tabletop_ordered.refresh_from_db()
    return tabletop_ordered


@pytest.fixture
def tabletop_battle(tabletop_turn):
    """The battle of `region:K1` that `tabletop_turn` waits for."""
    from campaign.models import Turn
    from rules.models import TableBattle

    assert tabletop_turn.status == Turn.Status.BATTLES_PENDING
    return TableBattle.objects.get(turn=tabletop_turn, key="region:K1")


def k1_id() -> int:
    """The id of the battle of `region:K1` that the demo's turn 1 waits for (`tabletop_battle`)."""
    from rules.models import TableBattle

    return TableBattle.objects.get(turn__campaign__slug="demo", turn__number=1, key="region:K1").pk


def tabletop_result(battle, **changes) -> dict:
    """A result of `tabletop_battle` as a player enters it (NOR wins decisively), with `changes` over it."""
    result = {
        "winner": "NOR",
        "decisive": True,
        "losses": {"NOR": {"JV": 1}, "KAR": {"JV": 3, "PA": 1}},
        "fingerprint": battle.fingerprint,
    }
    return {**result, **changes}


# gm, the attacker's player (NOR), the defender's (KAR), a rival not in the battle (EST), outsider, anonymous
TABLETOP_ROLES = ("gm", "player", "karelian", "rival", "outsider", "anonymous")


@pytest.fixture
def tabletop_cast(gm, player, karelian, rival, outsider) -> dict:
    """The users of `tabletop_turn` by role, in the order of TABLETOP_ROLES; "anonymous" is None."""
    return {
        "gm": gm,
        "player": player,
        "karelian": karelian,
        "rival": rival,
        "outsider": outsider,
        "anonymous": None,
    }


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


def twice_at_once(work, *, timeout: float) -> list:
    """Run `work()` in two threads released together, as two processes racing would, each in its own
    database connection (closed after); what they returned, in the order they finished."""
    from django.db import connections

    barrier = threading.Barrier(2)
    returned = []

    def run():
        try:
            barrier.wait()
            returned.append(work())
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return returned


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


@pytest.fixture
def as_role(client, gm, player, rival, outsider):
    """as_role("rival"): the test client logged in as that member of the cast ("anonymous": as nobody)."""
    users = {"gm": gm, "player": player, "rival": rival, "outsider": outsider, "anonymous": None}

    def login(role):
        client.logout()
        if users[role] is not None:
            client.force_login(users[role])
        return client

    return login
