"""Settings come from the environment and fail loudly on bad values; production settings pass --deploy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DJANGO_SECRET_KEY": "k3y-" + "aZ9$fQ2#pL7!mX4%" * 4,
    "DJANGO_DEBUG": "false",
    "DJANGO_ALLOWED_HOSTS": "ironfist.example.org",
}


def python(*args: str, **env: str) -> subprocess.CompletedProcess:
    """Python in a fresh process whose settings come only from `env` (the test run's own are removed)."""
    inherited = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }
    return subprocess.run(
        [sys.executable, *args],
        env={**inherited, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run(code: str, **env: str) -> subprocess.CompletedProcess:
    return python("-c", f"import django; django.setup(); {code}", **env)


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return python("manage.py", *args, **env)


def test_it_passes_the_deployment_checks_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_it_refuses_to_start_in_production_without_a_secret_key():
    env = {**PRODUCTION}
    del env["DJANGO_SECRET_KEY"]
    result = manage("check", **env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("DJANGO_DEBUG", "maybe", "DJANGO_DEBUG: expected true or false"),
        ("DATABASE_URL", "mysql://db/x", "DATABASE_URL: expected a URL starting with postgres"),
        ("REDIS_URL", "localhost:6379", "REDIS_URL: expected a URL starting with redis"),
        ("DJANGO_SECURE_HSTS_SECONDS", "a year", "DJANGO_SECURE_HSTS_SECONDS: expected a whole number"),
    ],
)
def test_it_fails_loudly_on_a_bad_value(variable, value, message):
    result = run("pass", **{**PRODUCTION, variable: value})
    assert result.returncode != 0
    assert message in result.stderr


def test_it_uses_sqlite_and_runs_tasks_in_process_by_default():
    result = run(
        "from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.DEBUG)",
        **PRODUCTION,
    )
    assert result.stdout.split() == ["django.db.backends.sqlite3", "True", "False"], result.stderr


def test_it_selects_postgresql_and_redis_from_urls():
    result = run(
        "from django.conf import settings as s; d = s.DATABASES['default']; "
        "print(d['ENGINE'], d['NAME'], d['HOST'], s.CELERY_BROKER_URL, s.CELERY_RESULT_BACKEND, "
        "s.CELERY_TASK_ALWAYS_EAGER)",
        **PRODUCTION,
        DATABASE_URL="postgres://game:secret@db.internal:5432/ironfist",
        REDIS_URL="redis://cache.internal:6379/2",
    )
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "ironfist",
        "db.internal",
        "redis://cache.internal:6379/2",
        "redis://cache.internal:6379/2",
        "False",
    ], result.stderr


def _compose() -> list[str] | None:
    if (
        shutil.which("docker")
        and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0
    ):
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


@pytest.mark.skipif(_compose() is None, reason="neither `docker compose` nor docker-compose is installed")
def test_it_ships_a_docker_compose_file_that_validates():
    result = subprocess.run(
        [*_compose(), "-f", str(ROOT / "docker-compose.yml"), "config", "--quiet"],
        env={**os.environ, "DJANGO_SECRET_KEY": "compose-check"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
