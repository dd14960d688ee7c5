"""What `make run` prints works as printed: the command that starts the demo over, copied into a shell that
has none of the demo's settings (no DJANGO_SECRET_KEY, no DJANGO_DEBUG), resets the demo."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _printed_reset() -> str:
    recipe = subprocess.run(
        ["make", "-s", "-n", "run"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    found = re.search(r'echo "Start the demo over[^:]*: (.+)"$', recipe, re.MULTILINE)
    assert found, recipe
    return found.group(1)


def test_the_printed_reset_command_resets_the_demo_in_a_shell_without_its_settings(tmp_path) -> None:
    command = _printed_reset()
    assert command.endswith("manage.py load_demo --reset")
    # A new terminal: the user's PATH and nothing of Django's; the demo's database, made as `make run`
    # makes it (migrate), kept apart from the checkout's db.sqlite3.
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    migrate = [".venv/bin/python", "manage.py", "migrate", "--no-input", "-v", "0"]
    subprocess.run(migrate, cwd=ROOT, env={**env, "DJANGO_DEBUG": "true"}, check=True, capture_output=True)

    runs = [subprocess.run(["sh", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True)]
    runs.append(subprocess.run(["sh", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True))

    for run in runs:
        assert run.returncode == 0, run.stderr[-2000:]
        assert "DJANGO_SECRET_KEY" not in run.stderr
        assert "game master: gm / ironfist-gm" in run.stdout
    assert "The demo campaign was deleted." in runs[1].stdout
