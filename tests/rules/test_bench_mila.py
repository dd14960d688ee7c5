"""The benchmark against MILA's diplomacy: the turns it times, and the whole run where MILA is there."""

from __future__ import annotations

import re
import subprocess

import pytest

from rules.bench.mila import VENV, bench_mila, diplomacy_sized_turns, engine_seconds


def test_it_times_diplomacy_sized_turns():
    turns = diplomacy_sized_turns(6)

    assert len(turns) == 6
    for turn in turns:
        assert (len(turn.regions), len(turn.nations)) == (75, 7)
        assert 25 <= len(turn.orders) <= 35
    seconds, orders = engine_seconds(turns)
    assert seconds > 0 and orders == sum(len(t.orders) for t in turns)


def _mila_installed() -> bool:
    python = VENV / "bin" / "python"
    return python.exists() and subprocess.run([python, "-c", "import diplomacy"]).returncode == 0


@pytest.mark.skipif(
    not _mila_installed(), reason=f"MILA's diplomacy is not installed in {VENV}: run bench-mila once"
)
def test_it_prints_both_sides_and_the_ratio_per_order():
    output = bench_mila(rounds=2, turns=3)

    assert len(re.findall(r"round \d: engine +\d+\.\d µs/order  MILA +\d+\.\d µs/order", output)) == 2, output
    assert re.search(
        r"the engine takes \d+\.\d\d× MILA's time per order \(goal ≤ 0\.5×: (not )?met\)", output
    )


def test_the_engine_benchmark_prints_wall_and_cpu_seconds():
    from rules.bench.turn import bench_run

    line = bench_run(regions=60, nations=4, seed=1, repeat=1)

    assert re.search(r"regions=60 nations=4 .* seconds=\d+\.\d{3} cpu_seconds=\d+\.\d{3}$", line), line
