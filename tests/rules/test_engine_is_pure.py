"""rules/engine is plain Python: importing and running it loads no Django and reads no clock."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_it_imports_and_resolves_a_turn_without_django() -> None:
    program = (
        "import sys\n"
        "from rules.engine import resolve_turn, ruleset_build\n"
        "from rules.bench.turn import random_turn\n"
        "resolve_turn(random_turn(regions=30, nations=3, seed=1), ruleset_build(), 1)\n"
        "print(sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT, timeout=60
    )

    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_no_engine_module_imports_django_time_or_global_random() -> None:
    for path in (ROOT / "rules" / "engine").rglob("*.py"):
        source = path.read_text()
        assert "django" not in source, path.name
        assert "import time" not in source and "datetime" not in source, path.name
        for call in ("random.randint(", "random.choice(", "random.random(", "random.seed("):
            assert call not in source, f"{path.name} uses the global generator: {call}"
