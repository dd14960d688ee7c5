"""`python -m rules bench-compare`: one turn, written once, resolved by two checkouts' engines."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from rules.bench.compare import DRIVER, HERE, bench_compare, turn_dump


def test_it_finds_a_checkout_against_itself_identical(tmp_path: Path):
    turn = tmp_path / "turn.json"

    lines = bench_compare(against=HERE, regions=200, nations=5, rounds=2, count=1, dump=turn).splitlines()

    assert len(lines) == 3 and lines[0].startswith("round 1: this ")
    assert re.search(r"min [\d.]+ median [\d.]+ max [\d.]+; fastest runs: .*; results identical", lines[-1])
    assert json.loads(turn.read_text())["regions"]


def test_the_driver_refuses_an_input_field_its_engine_does_not_know(tmp_path: Path):
    turn = tmp_path / "turn.json"
    turn_dump(turn, regions=50, nations=3, seed=1)
    data = json.loads(turn.read_text())
    data["orders"][0]["priority"] = 2
    turn.write_text(json.dumps(data))

    run = subprocess.run(
        [sys.executable, "-P", str(DRIVER), str(turn), "1"],
        input="1\n",
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(HERE)},
    )

    assert run.returncode != 0 and "Order has no field 'priority'" in run.stderr
