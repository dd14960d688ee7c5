"""Load-test order submission over HTTP against a minimal DRF write, on PostgreSQL under gunicorn;
then time the campaign page of the same campaign over one connection.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/ironfist_bench \\
        .venv/bin/python manage.py bench_api --clients 32 --seconds 20

Creates the database if needed and migrates it, imports a generated campaign whose every region holds
plenty of JV (so every submission stays valid), gives each nation a player with a token, starts gunicorn
on 127.0.0.1 with persistent connections and IRONFIST_BENCH=1 (which routes /api/bench/ping-write/),
and drives both endpoints with wrk from loopback: the same clients, tokens and concurrency. Each wrk
client is a player; it sends moves of 1 JV between two adjacent regions of its nation, picked at random.
Bounded in time (--seconds) and count (--max-requests per client). Prints throughput and latency of
both, and the ratios the goal is judged by (issue 15): orders >= 0.8 of the throughput and <= 1.5x the
p99 of the minimal write, best of the rounds. Last, one wrk client fetches the campaign page (the map and
order panel, as the first player sees it, with the orders the run wrote) over one keep-alive connection
for --seconds: its p99 is judged against 300 ms. Deletes the campaign afterwards unless --keep.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from campaign.generate import scenario_generate
from campaign.models import Campaign
from campaign.scenario import scenario_parse
from campaign.services import membership_set, scenario_import
from orders.models import Order

HOST = "127.0.0.1"  # the load goes to loopback only
PAGE_GOAL_MS = 300
THROUGHPUT_GOAL = 0.8  # issue 15: order submission at least 0.8 of the minimal write's requests a second
P99_GOAL = 1.5  # and its p99 at most 1.5 times the minimal write's
ROOT = Path(settings.BASE_DIR)
PING = {"object_repr": "ping", "change_message": "one row, one serializer"}

LUA = """
clients = %(clients)s
path = "%(path)s"
limit = %(limit)d
local made = 0

function setup(thread)
  made = made + 1
  thread:set("id", made)
end

function init(args)
  local me = clients[(id - 1) %% #clients + 1]
  math.randomseed(id * 7919)
  for name, value in pairs(me.headers) do wrk.headers[name] = value end
  bodies = me.bodies
  count = 0
end

function request()
  if #bodies == 0 then return wrk.format("GET", path) end
  return wrk.format("POST", path, nil, bodies[math.random(#bodies)])
end

function response(status, headers, body)
  count = count + 1
  if count >= limit then wrk.thread:stop() end
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'RESULT {"requests": %%d, "duration_us": %%d, "p50_us": %%d, "p99_us": %%d, ' ..
    '"max_us": %%d, "non2xx": %%d, "socket_errors": %%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    e.status, e.connect + e.read + e.write + e.timeout))
end
"""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect surfaces as an HTTPError


@dataclass(frozen=True)
class Run:
    name: str
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    non2xx: int
    socket_errors: int

    @property
    def throughput(self) -> float:
        return self.requests / self.seconds

    def line(self) -> str:
        return (
            f"  {self.name:<18} {self.throughput:8.1f} req/s  p50 {self.p50_ms:7.1f} ms"
            f"  p99 {self.p99_ms:7.1f} ms"
            f"  max {self.max_ms:7.1f} ms  ({self.requests} requests, {self.non2xx} non-2xx,"
            f" {self.socket_errors} socket errors)"
        )


def wrk_result(name: str, output: str) -> Run:
    """The RESULT line the Lua script's done() prints, as a Run."""
    match = re.search(r"^RESULT (\{.*\})$", output, re.MULTILINE)
    if match is None:
        raise CommandError(f"wrk printed no RESULT line:\n{output}")
    r = json.loads(match.group(1))
    return Run(
        name=name,
        requests=r["requests"],
        seconds=r["duration_us"] / 1e6,
        p50_ms=r["p50_us"] / 1000,
        p99_ms=r["p99_us"] / 1000,
        max_ms=r["max_us"] / 1000,
        non2xx=r["non2xx"],
        socket_errors=r["socket_errors"],
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def database_create() -> None:
    """CREATE DATABASE when it does not exist, through the server's maintenance database."""
    import psycopg

    db = settings.DATABASES["default"]
    params = {"host": db["HOST"] or None, "port": db["PORT"] or None, "user": db["USER"] or None}
    params["password"] = db["PASSWORD"] or None
    with psycopg.connect(dbname="postgres", autocommit=True, **params) as maintenance:
        exists = maintenance.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]).fetchone()
        if not exists:
            maintenance.execute(f'CREATE DATABASE "{db["NAME"]}"')


class Command(BaseCommand):
    help = __doc__.split("\n\n")[0]

    def add_arguments(self, parser):
        parser.add_argument("--regions", type=int, default=2000)
        parser.add_argument("--nations", type=int, default=32)
        parser.add_argument("--clients", type=int, default=32, help="concurrent connections, one per player")
        parser.add_argument("--seconds", type=int, default=20, help="length of each measured run")
        parser.add_argument("--max-requests", type=int, default=20000, help="per client and run, at most")
        parser.add_argument("--workers", type=int, default=(os.cpu_count() or 1) * 2, help="gunicorn workers")
        parser.add_argument("--port", type=int, default=0, help="0: a free port the system picks")
        parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each endpoint")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--keep", action="store_true", help="keep the campaign and its orders")

    def handle(self, *args, **o):
        if connection.vendor != "postgresql":
            raise CommandError(
                "run it on PostgreSQL: DATABASE_URL=postgresql://postgres@127.0.0.1:5432/ironfist_bench"
            )
        wrk = shutil.which("wrk")
        if wrk is None:
            raise CommandError("wrk is not installed (Debian: apt-get install wrk)")
        database_create()
        call_command("migrate", verbosity=0)

        campaign, clients = self._campaign_create(o["regions"], o["nations"], o["seed"])
        try:
            self._measure(campaign, clients, wrk, o)
        finally:
            if not o["keep"]:
                campaign.delete()

    def _campaign_create(self, regions: int, nations: int, seed: int) -> tuple[Campaign, list[dict]]:
        data = scenario_generate(regions=regions, nations=nations, seed=seed)
        for stacks in data["units"].values():
            for units in stacks.values():
                units["JV"] = 100_000  # enough that no submission in the run runs out
        slug = f"bench-api-{secrets.token_hex(3)}"
        campaign = scenario_import(scenario=scenario_parse(data), slug=slug)
        owner = {r["code"]: r["owner"] for r in data["regions"]}
        moves: dict[str, list[str]] = {}
        for a, b in data["borders"]:
            if owner[a] == owner[b]:
                for origin, target in ((a, b), (b, a)):
                    body = {"kind": "move", "origin": origin, "target": target, "units": {"JV": 1}}
                    moves.setdefault(owner[a], []).append(json.dumps(body))
        clients = []
        for nation in campaign.nations.order_by("position"):
            if nation.code not in moves:
                continue  # a nation of one region has no move inside its borders
            user = membership_set(
                campaign=campaign,
                username=f"{slug}-{nation.code}",
                password=secrets.token_hex(8),
                nation=nation,
            ).user
            token = Token.objects.create(user=user)
            clients.append({"token": token.key, "user": user, "bodies": moves[nation.code]})
        self.stdout.write(
            f"campaign {slug}: {regions} regions, {nations} nations, {len(clients)} players with tokens"
        )
        return campaign, clients

    def _measure(self, campaign: Campaign, clients: list[dict], wrk: str, o: dict) -> None:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_SECRET_KEY": settings.SECRET_KEY,  # the key this process signs the page's session with
            "DJANGO_ALLOWED_HOSTS": HOST,
            "DJANGO_SECURE_SSL_REDIRECT": "false",
            "DJANGO_LOG_LEVEL": "WARNING",
            "DB_CONN_MAX_AGE": "600",
            "IRONFIST_BENCH": "1",
        }
        bind = f"{HOST}:{o['port'] or free_port()}"
        scripts: dict[str, Path] = {}
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "-b",
                bind,
                "-w",
                str(o["workers"]),
                "--log-level",
                "warning",
                "--backlog",
                "256",
            ],
            cwd=ROOT,
            env=env,
        )
        try:
            # Our campaign, with one of our tokens: proof that the server answering is this gunicorn.
            self._wait_until_serving(
                f"http://{bind}/api/campaigns/{campaign.slug}/", clients[0]["token"], server
            )
            callers = [(self._api_headers(c), [json.dumps(PING)]) for c in clients]
            scripts["minimal write"] = self._lua(callers, "/api/bench/ping-write/", o)
            callers = [(self._api_headers(c), c["bodies"]) for c in clients]
            scripts["order submission"] = self._lua(callers, f"/api/campaigns/{campaign.slug}/orders/", o)
            self.stdout.write(
                f"gunicorn: {o['workers']} sync workers on {bind}, CONN_MAX_AGE 600; wrk: {o['clients']} "
                f"clients, {o['seconds']} s per run, {o['rounds']} round(s)"
            )
            for name, script in scripts.items():  # warm up workers, connections and caches
                self._wrk(wrk, name, script, bind, 3, o["clients"])
            orders_before = Order.objects.filter(turn__campaign=campaign).count()
            runs: dict[str, list[Run]] = {name: [] for name in scripts}
            for _ in range(o["rounds"]):
                for name, script in scripts.items():
                    run = self._wrk(wrk, name, script, bind, o["seconds"], o["clients"])
                    runs[name].append(run)
                    self.stdout.write(run.line())
            written = Order.objects.filter(turn__campaign=campaign).count() - orders_before
            browser = Client()
            browser.force_login(clients[0]["user"])
            cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
            scripts["campaign page"] = self._lua([({"Cookie": cookie}, [])], f"/c/{campaign.slug}/", o)
            self._page_check(f"http://{bind}/c/{campaign.slug}/", cookie, campaign.name)
            # Long enough for every worker to have drawn the map once (its first drawing parses the
            # regions' outlines, some 60 ms more): the figure is the page of a running server.
            self._wrk(wrk, "campaign page", scripts["campaign page"], bind, 5, 1)
            page = self._wrk(wrk, "campaign page", scripts["campaign page"], bind, o["seconds"], 1)
            self.stdout.write(page.line())
        finally:
            server.terminate()
            server.wait(timeout=30)
            for script in scripts.values():
                script.unlink(missing_ok=True)
        self._verdict(runs, written)
        self.stdout.write(
            f"campaign page of {campaign.regions.count()} regions, one connection: p50 {page.p50_ms:.1f} ms, "
            f"p99 {page.p99_ms:.1f} ms (goal < {PAGE_GOAL_MS} ms): "
            f"{'MET' if page.p99_ms < PAGE_GOAL_MS else 'MISSED'}"
        )

    def _wait_until_serving(self, url: str, token: str, server: subprocess.Popen) -> None:
        deadline = time.monotonic() + 60
        request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"})
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise CommandError(f"gunicorn exited with {server.returncode}")
            try:
                with urllib.request.urlopen(request, timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise CommandError(f"gunicorn did not answer {url} within 60 s")

    def _page_check(self, url: str, cookie: str, name: str) -> None:
        """The page answers the player itself, not a redirect to the login: else the figure would lie."""
        request = urllib.request.Request(url, headers={"Cookie": cookie})
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=30) as response:
                page = response.read().decode()
        except urllib.error.HTTPError as error:
            raise CommandError(f"the campaign page answered {error.code}, not the page") from error
        if name not in page:
            raise CommandError("the campaign page does not name the campaign: not the page")

    @staticmethod
    def _api_headers(client: dict) -> dict[str, str]:
        return {"Authorization": f"Token {client['token']}", "Content-Type": "application/json"}

    def _lua(self, callers: list[tuple[dict[str, str], list[str]]], path: str, o: dict) -> Path:
        """A wrk script: each connection is one caller, sending its headers and a random one of its
        bodies in a POST (a GET when it has none)."""

        def lua_string(text: str) -> str:
            return json.dumps(text)  # a JSON string literal is a valid Lua string literal here

        rows = []
        for headers, bodies in callers:
            named = ", ".join(f"[{lua_string(k)}] = {lua_string(v)}" for k, v in headers.items())
            listed = ", ".join(lua_string(b) for b in bodies)
            rows.append(f"{{headers = {{{named}}}, bodies = {{{listed}}}}}")
        script = LUA % {"clients": "{\n" + ",\n".join(rows) + "\n}", "path": path, "limit": o["max_requests"]}
        handle = tempfile.NamedTemporaryFile("w", suffix=".lua", prefix="bench_api_", delete=False)
        with handle:
            handle.write(script)
        return Path(handle.name)

    def _wrk(self, wrk: str, name: str, script: Path, bind: str, seconds: int, clients: int) -> Run:
        command = [
            wrk,
            "-t",
            str(clients),
            "-c",
            str(clients),
            "-d",
            f"{seconds}s",
            "--timeout",
            "10s",
            "-s",
            str(script),
            f"http://{bind}/",
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
        if done.returncode != 0:
            raise CommandError(f"wrk failed: {done.stderr}")
        run = wrk_result(name, done.stdout)
        if run.non2xx or run.socket_errors:
            # A refused order would measure the refusal, not the submission: the figures would lie.
            raise CommandError(f"{name}: {run.non2xx} non-2xx answers, {run.socket_errors} socket errors")
        return run

    def _verdict(self, runs: dict[str, list[Run]], written: int) -> None:
        def best(name: str) -> Run:
            return max(runs[name], key=lambda r: r.throughput)

        minimal, orders = best("minimal write"), best("order submission")
        accepted = sum(r.requests - r.non2xx for r in runs["order submission"])
        ratio, p99 = orders.throughput / minimal.throughput, orders.p99_ms / minimal.p99_ms
        self.stdout.write(
            f"best runs: orders {orders.throughput:.1f} req/s vs minimal {minimal.throughput:.1f} req/s "
            f"= {ratio:.2f} (goal >= {THROUGHPUT_GOAL:.2f}); "
            f"p99 {orders.p99_ms:.1f} ms vs {minimal.p99_ms:.1f} ms "
            f"= {p99:.2f}x (goal <= {P99_GOAL:.2f}x): "
            f"{'MET' if ratio >= THROUGHPUT_GOAL and p99 <= P99_GOAL else 'MISSED'}"
        )
        self.stdout.write(
            f"orders written in the measured runs: {written}; wrk counted {accepted} answers "
            "(the rest were in flight as it stopped)"
        )
