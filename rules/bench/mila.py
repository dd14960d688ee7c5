"""Our engine against MILA's `diplomacy` package on Diplomacy-sized turns: `python -m rules bench-mila`.

Both sides resolve turns of the same size: ours are `random_turn`s of 75 regions and 7 nations holding
25-35 orders; MILA's are movement phases of its standard map (75 regions, 7 powers), every unit given a
random valid order (22-34 of them). A round times a batch of each, one after the other, the first side
alternating from round to round; the figure is CPU time (`time.process_time`) per order, which the other
work on a shared machine disturbs less than the wall clock, and the ratio is taken round by round.

MILA's package is a benchmark's tool, never a dependency of the product: it lives in a virtual environment
of its own, created on first use with pip (`--venv` says where), and runs as a child process
(rules/bench/mila_driver.py) that talks JSON lines over a pipe.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from contextlib import AbstractContextManager
from pathlib import Path

from rules.bench.child import child_ask, child_session
from rules.bench.turn import random_turn
from rules.engine import TurnInput, resolve_turn, ruleset_build

MILA = "diplomacy==1.1.2"
VENV = Path.home() / ".cache" / "iron-fist" / "mila-diplomacy-1.1.2"
DRIVER = Path(__file__).with_name("mila_driver.py")
ORDERS = range(25, 36)  # orders per turn, as in a Diplomacy movement phase
GOAL = 0.5  # issue 15: at most half of MILA's time per order


def mila_python(venv: Path = VENV) -> Path:
    """The Python of MILA's virtual environment, made and filled with pip first when it is missing."""
    python = venv / "bin" / "python"
    if (
        python.exists()
        and subprocess.run([python, "-c", "import diplomacy"], capture_output=True).returncode == 0
    ):
        return python
    print(f"installing {MILA} into {venv} (once)", file=sys.stderr)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    subprocess.run([python, "-m", "pip", "install", "--quiet", MILA], check=True)
    return python


def diplomacy_sized_turns(count: int, seed: int = 1) -> list[TurnInput]:
    """`count` random turns of 75 regions and 7 nations whose orders number 25-35."""
    turns, s = [], seed
    while len(turns) < count:
        turn = random_turn(regions=75, nations=7, seed=s)
        if len(turn.orders) in ORDERS:
            turns.append(turn)
        s += 1
    return turns


def engine_seconds(turns: list[TurnInput]) -> tuple[float, int]:
    """CPU seconds our engine takes to resolve `turns`, and the orders they hold."""
    ruleset = ruleset_build()
    begun = time.process_time()
    for seed, turn in enumerate(turns):
        resolve_turn(turn, ruleset, seed)
    return time.process_time() - begun, sum(len(t.orders) for t in turns)


def mila_session(python: Path) -> AbstractContextManager[subprocess.Popen]:
    # Isolated (-I): the driver's folder is not put on the path, where rules/selectors.py would stand in
    # for the standard library's module of that name.
    return child_session([python, "-I", str(DRIVER)], timeout=60)


def mila_seconds(child: subprocess.Popen, phases: int) -> tuple[float, int]:
    """CPU seconds MILA's `Game.process()` takes on `phases` movement phases, and their orders."""
    answer = child_ask(child, phases)
    return answer["seconds"], answer["orders"]


def bench_mila(*, rounds: int = 8, turns: int = 50, venv: Path = VENV) -> str:
    """Interleaved rounds of both; the lines to print, the last one the median ratio against the goal."""
    python = mila_python(venv)
    pool = diplomacy_sized_turns(turns)
    lines, ratios, ours, theirs = [], [], [], []
    with mila_session(python) as child:
        mila_seconds(child, 5)  # warm up MILA's caches and imports, as ours are warm
        engine_seconds(pool[:5])
        for number in range(rounds):
            if number % 2 == 0:
                engine = engine_seconds(pool)
                mila = mila_seconds(child, turns)
            else:
                mila = mila_seconds(child, turns)
                engine = engine_seconds(pool)
            us, them = engine[0] / engine[1] * 1e6, mila[0] / mila[1] * 1e6
            ours.append(us)
            theirs.append(them)
            ratios.append(us / them)
            lines.append(
                f"round {number + 1}: engine {us:6.1f} µs/order  MILA {them:6.1f} µs/order  {us / them:.2f}×"
            )
    ratio = statistics.median(ratios)
    lines.append(
        f"median: engine {statistics.median(ours):.1f} µs/order, "
        f"MILA {statistics.median(theirs):.1f} µs/order (CPU time, {turns} turns a round): "
        f"the engine takes {ratio:.2f}× MILA's time per order "
        f"(goal ≤ {GOAL}×: {'met' if ratio <= GOAL else 'not met'})"
    )
    return "\n".join(lines)
