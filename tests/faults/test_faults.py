"""Whatever dies mid-turn (the worker, the database, the broker), the turn is resolved by itself, once, with
the result a fault-free run gives: the engine's own from the scenario file. Real processes on private
servers (tests/faults/conftest.py); each test takes some seconds (the lost-turn threshold is 4 s here).

    pytest -m faults tests/faults        # with DATABASE_URL (PostgreSQL) and REDIS_URL set, as in .ci/run
"""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import pytest

from tests.campaign.test_turn_processing import engine_result_for_demo
from tests.conftest import ROOT
from tests.faults.conftest import free_port, wait_until

pytestmark = [pytest.mark.faults]


def _engine_result(state: dict) -> dict:
    """The engine's result for the orders as the stack stored them (their ids are in the result)."""
    orders = [
        SimpleNamespace(
            pk=pk,
            nation=SimpleNamespace(code=nation),
            kind=kind,
            origin=SimpleNamespace(code=origin),
            target=SimpleNamespace(code=target) if target else None,
            units=units,
        )
        for pk, nation, kind, origin, target, units in state["orders"]
    ]
    return engine_result_for_demo(orders)


def _assert_resolved_once(state: dict) -> None:
    assert state["status"] == "resolved", state["error"]
    assert state["result"] == _engine_result(state)
    assert state["snapshots"] == 1, "resolved once"
    assert state["reports"] == len(state["result"]["battles"])
    assert state["turns"] == [[1, "resolved"], [2, "open"]]


def test_a_fault_free_run_gives_the_engines_result(stack):
    stack.worker_start()
    stack.beat_start()

    stack.stage("queue")

    state = stack.wait_resolved()
    _assert_resolved_once(state)
    assert state["requeues"] == 0


def _caught_mid_turn(stack, hold) -> None:
    """The service running (a worker, a beat) and the turn queued, its worker waiting in mid-write."""
    stack.worker_start()
    stack.beat_start()
    hold.hold()
    stack.stage("queue")
    wait_until(hold.waiting, timeout=60, what="the worker caught mid-turn")


def test_kill_9_of_the_worker_mid_turn(stack, turn_holds_mid_write):
    _caught_mid_turn(stack, turn_holds_mid_write)

    stack.kill("worker")
    turn_holds_mid_write.release()  # its transaction, orphaned, cannot commit: it is rolled back
    stack.worker_start()  # the service comes back; the sweeper finds the lost turn

    state = stack.wait_resolved()
    _assert_resolved_once(state)
    assert state["requeues"] >= 1 and state["fault"].startswith("queued again: no progress since")


def test_postgresql_restarts_mid_turn(stack, turn_holds_mid_write):
    _caught_mid_turn(stack, turn_holds_mid_write)

    stack.postgres.restart()  # cuts every connection: the worker's transaction and the hold's
    turn_holds_mid_write.conn = None

    state = stack.wait_resolved()
    _assert_resolved_once(state)
    # The fault is on the turn, written once the database was back (on the retry, if not before).
    assert state["requeues"] >= 1 and state["fault"].startswith("database unavailable, retry 1: "), state


def test_redis_restarts_with_the_job_queued(stack):
    stack.stage("queue")  # no worker yet: the job waits in Redis

    stack.redis.restart()  # it kept nothing on disk: the job is gone
    stack.worker_start()
    stack.beat_start()

    state = stack.wait_resolved()
    _assert_resolved_once(state)
    assert state["requeues"] >= 1 and state["fault"].startswith("queued again: no progress since")


def test_a_kept_web_connection_survives_a_database_restart(stack, tmp_path):
    """gunicorn keeps its database connection between requests (DB_CONN_MAX_AGE); after a restart of the
    database the next request gets a fresh one (CONN_HEALTH_CHECKS), not a 500."""
    port = free_port()
    env = {**stack.env, "DB_CONN_MAX_AGE": "600", "DJANGO_ALLOWED_HOSTS": "127.0.0.1"}
    log = (tmp_path / "gunicorn.log").open("w")
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "config.wsgi:application",
        "-b",
        f"127.0.0.1:{port}",
        "-w",
        "1",
    ]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        import urllib.error
        import urllib.request

        def login_status() -> int:  # a wrong password: a query for the user, then a 400
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/auth/token/",
                data=b'{"username": "nobody", "password": "wrong"}',
                headers={"Content-Type": "application/json"},
            )
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status
            except urllib.error.HTTPError as error:
                return error.code
            except OSError:
                return 0

        assert wait_until(login_status, timeout=60, what="gunicorn answering") == 400
        stack.postgres.restart()

        assert [login_status() for _ in range(3)] == [400, 400, 400]
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()
