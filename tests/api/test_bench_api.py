"""The API benchmark's own pieces that run without PostgreSQL, gunicorn or wrk."""

from __future__ import annotations

import pytest
from django.core.management.base import CommandError

from orders.management.commands.bench_api import LUA, wrk_result

WRK_OUTPUT = """Running 10s test @ http://127.0.0.1:40000/
  32 threads and 32 connections
RESULT {"requests": 2500, "duration_us": 10000000, "p50_us": 12000, "p99_us": 85500, "max_us": 99000, "non2xx": 3, "socket_errors": 0}
"""  # noqa: E501


def test_it_reads_throughput_and_latency_from_the_scripts_result_line() -> None:
    run = wrk_result("orders", WRK_OUTPUT)

    assert (run.throughput, run.p50_ms, run.p99_ms, run.non2xx) == (250.0, 12.0, 85.5, 3)


def test_it_refuses_wrk_output_without_a_result_line() -> None:
    with pytest.raises(CommandError, match="no RESULT line"):
        wrk_result("orders", "unable to connect to 127.0.0.1:40000 Connection refused")


def test_the_lua_script_template_fills_in() -> None:
    script = LUA % {"clients": '{{token = "t", bodies = {"{}"}}}', "path": "/api/x/", "limit": 5}

    assert 'path = "/api/x/"' in script and "limit = 5" in script and "%d" in script
