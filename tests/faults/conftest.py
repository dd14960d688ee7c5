"""Private servers for the fault tests: a PostgreSQL cluster and a Redis of their own, on free ports.

Other work on this machine shares its PostgreSQL and Redis: these tests kill and restart servers, so
they never touch the shared ones. Each test gets a database cloned from a migrated template, a worker and
a beat (a one-second tick; a turn counts as lost after four seconds), all real processes.

Skipped, with the reason, where the suite runs without REDIS_URL and PostgreSQL (as the celery_worker
tests are), or where this machine lacks the servers' programs.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

from tests.conftest import ROOT

PG_BIN = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)), None)
REQUEUE_AFTER = 4  # seconds: IRONFIST_REQUEUE_AFTER_SECONDS of the stack under test


def pytest_collection_modifyitems(config, items):
    reason = None
    if not settings.REDIS_URL or not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        reason = "needs REDIS_URL and PostgreSQL, as .ci/run sets them (the fault tests run in CI)"
    elif PG_BIN is None or not shutil.which("redis-server") or not shutil.which("runuser"):
        reason = "needs PostgreSQL's initdb and pg_ctl, redis-server and runuser on this machine"
    if reason:
        for item in items:
            if "faults" in item.keywords:
                item.add_marker(pytest.mark.skip(reason=reason))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(check, *, timeout: float, what: str, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"{what}: not within {timeout} s")


class PrivatePostgres:
    """A throwaway cluster run by the postgres user (initdb refuses root), fsync off: it is for tests."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="iron-fist-faults-pg-"))
        shutil.chown(self.root, "postgres", "postgres")
        self.data = self.root / "data"
        self.port = free_port()
        self._pg("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()

    def _pg(self, program: str, *args: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", f"{PG_BIN}/{program}", *args],
            check=True,
            capture_output=True,
            timeout=120,
        )

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.root / "server.log")
        self._pg("pg_ctl", "-D", str(self.data), "-l", log, "-o", options, "-w", "-t", "60", *args)

    def start(self) -> None:
        self._ctl("start")

    def restart(self) -> None:
        """A fast restart: every connection is cut, every open transaction rolled back."""
        self._ctl("-m", "fast", "restart")

    def stop(self) -> None:
        self._ctl("-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def execute(self, sql: str) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(sql)


class PrivateRedis:
    """A Redis that keeps nothing on disk, as the issue's was: a restart loses whatever was queued."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="iron-fist-faults-redis-"))
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.root)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(self._pong, timeout=20, what="redis-server answering")

    def _pong(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=20)
            self.process = None

    def restart(self) -> None:
        self.kill()
        self.start()

    def stop(self) -> None:
        self.kill()
        shutil.rmtree(self.root, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@pytest.fixture(scope="module")
def postgres():
    server = PrivatePostgres()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def template(postgres):
    """A migrated database that each test's database is cloned from (a clone takes a moment, migrating
    does not)."""
    postgres.execute("CREATE DATABASE faults_template")
    env = {
        **os.environ,
        "DATABASE_URL": postgres.url("faults_template"),
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    return "faults_template"


class Stack:
    """The service under test: a database of its own, the private Redis, a worker and a beat."""

    def __init__(self, postgres: PrivatePostgres, redis: PrivateRedis, template: str, logs: Path) -> None:
        self.postgres, self.redis, self.logs = postgres, redis, logs
        self.name = f"faults_{uuid.uuid4().hex[:8]}"
        postgres.execute(f"CREATE DATABASE {self.name} TEMPLATE {template}")
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.test_settings",
            "DATABASE_URL": postgres.url(self.name),
            "REDIS_URL": redis.url,
            "CELERY_QUEUE": f"faults-{self.name}",
            "IRONFIST_TICK_SECONDS": "1",
            "IRONFIST_REQUEUE_AFTER_SECONDS": str(REQUEUE_AFTER),
        }
        self.processes: dict[str, subprocess.Popen] = {}
        self.workers = 0

    def stage(self, command: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "tests.faults.stage", command],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout

    def state(self) -> dict:
        return json.loads(self.stage("state").strip().splitlines()[-1])

    def _start(self, role: str, command: list[str], ready: str | None) -> None:
        log_path = self.logs / f"{self.name}-{role}.log"
        log = log_path.open("a")
        self.processes[role] = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *command],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if ready:
            wait_until(lambda: ready in log_path.read_text(), timeout=60, what=f"the {role} starting")

    def worker_start(self) -> None:
        self.workers += 1
        name = f"w{self.workers}-{self.name}@localhost"
        command = ["worker", "--pool=solo", "--loglevel=INFO", "-Q", self.env["CELERY_QUEUE"], "-n", name]
        self._start("worker", [*command, "--without-gossip", "--without-mingle"], f"{name} ready")

    def beat_start(self) -> None:
        schedule = self.logs / f"{self.name}-beat-schedule"
        self._start("beat", ["beat", "--loglevel=INFO", "-s", str(schedule)], None)

    def kill(self, role: str) -> None:
        """kill -9 of the whole process group: the worker and any child it has, no goodbye."""
        process = self.processes.pop(role)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=20)

    def stop(self) -> None:
        for role in list(self.processes):
            self.kill(role)

    def log(self, role: str) -> str:
        return (self.logs / f"{self.name}-{role}.log").read_text()

    def wait_resolved(self, timeout: float = 90) -> dict:
        return wait_until(
            lambda: (s := self.state())["status"] in ("resolved", "failed") and s,
            timeout=timeout,
            what="turn 1 resolved",
            interval=0.5,
        )


@pytest.fixture
def redis():
    server = PrivateRedis()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def stack(postgres, redis, template, tmp_path):
    running = Stack(postgres, redis, template, tmp_path)
    running.stage("setup")
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def turn_holds_mid_write(stack):
    """hold(): from now on, a turn's writes to the stacks wait (a lock on the table, reads still pass), so
    that a worker can be caught mid-turn; release() lets them go. `waiting()`: a worker is caught."""

    class Hold:
        conn: psycopg.Connection | None = None

        def hold(self) -> None:
            self.conn = psycopg.connect(stack.postgres.url(stack.name))
            self.conn.execute("LOCK TABLE campaign_stack IN EXCLUSIVE MODE")

        def waiting(self) -> bool:
            with psycopg.connect(stack.postgres.url("postgres"), autocommit=True) as conn:
                rows = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                    (stack.name,),
                ).fetchone()
            return rows[0] > 0

        def release(self) -> None:
            if self.conn is not None:
                try:
                    self.conn.close()
                except psycopg.Error:
                    pass
                self.conn = None

    hold = Hold()
    yield hold
    hold.release()
