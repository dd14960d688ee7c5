"""This checkout's engine against another checkout's on the same turn: `python -m rules bench-compare`.

    python -m rules bench-compare --against /work/wt/base [--input FILE | --regions N --nations M --seed S]

Two checkouts' `random_turn`s need not give the same map (the generator changed with the seam refactor),
so the turn is made once, here, and written as JSON (`--input` reads one written before, `--dump` keeps the
one made); each checkout then reads it into its own dataclasses (rules/bench/compare_driver.py) and
resolves it in a child process of its own, with PYTHONPATH set to that checkout. A round runs `--runs`
resolutions on each side, the first side alternating from round to round; a side's figure for a round is
the median CPU time of its runs, and the ratio (this checkout / the other) is taken round by round, so that
load from other work on a shared machine falls on both sides alike. The last line gives min/median/max
of the ratios, the two sides' fastest runs (the ones other work disturbed least), and whether both sides'
results are the same JSON byte for byte (expected only when the two checkouts' results have the same
layout: the way to show that a change left every report as it was).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from contextlib import AbstractContextManager
from pathlib import Path

from rules.bench.child import child_ask, child_session
from rules.bench.turn import random_turn
from rules.engine.state import json_data

DRIVER = Path(__file__).with_name("compare_driver.py")
HERE = Path(__file__).resolve().parents[2]


def turn_dump(path: Path, *, regions: int, nations: int, seed: int) -> None:
    """This checkout's random turn, as the JSON of its dataclasses."""
    turn = random_turn(regions=regions, nations=nations, seed=seed)
    path.write_text(json.dumps(json_data(turn)), encoding="utf-8")


def side(checkout: Path, turn: Path, seed: int) -> AbstractContextManager[subprocess.Popen]:
    # -P: the driver's own folder (rules/) is not put on the path, where rules/selectors.py would stand in
    # for the standard library's module of that name; PYTHONPATH picks the checkout whose engine runs.
    return child_session(
        [sys.executable, "-P", str(DRIVER), str(turn), str(seed)],
        timeout=120,
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout)},
    )


def runs(child: subprocess.Popen, count: int) -> tuple[list[float], str]:
    """The CPU seconds of `count` resolutions, and the result's fingerprint."""
    answer = child_ask(child, count)
    return answer["seconds"], answer["sha256"]


def bench_compare(
    *,
    against: Path,
    turn: Path | None = None,
    regions: int = 10_000,
    nations: int = 100,
    seed: int = 1,
    rounds: int = 5,
    count: int = 3,
    dump: Path | None = None,
) -> str:
    """Interleaved rounds of both checkouts on one turn; the lines to print."""
    with tempfile.TemporaryDirectory() as scratch:
        if turn is None:
            turn = dump or Path(scratch) / "turn.json"
            turn_dump(turn, regions=regions, nations=nations, seed=seed)
        with side(HERE, turn, seed) as ours, side(against.resolve(), turn, seed) as theirs:
            runs(ours, 1)  # warm up: imports, caches
            runs(theirs, 1)
            lines, ratios, fingerprints, best = [], [], set(), [float("inf"), float("inf")]
            for number in range(rounds):
                order = (ours, theirs) if number % 2 == 0 else (theirs, ours)
                timed = {id(child): runs(child, count) for child in order}
                (us, mine), (them, other) = timed[id(ours)], timed[id(theirs)]
                fingerprints.add((mine, other))
                best = [min(best[0], *us), min(best[1], *them)]
                us, them = statistics.median(us), statistics.median(them)
                ratios.append(us / them)
                lines.append(f"round {number + 1}: this {us:.3f} s  other {them:.3f} s  {us / them:.3f}×")
    same = all(mine == other for mine, other in fingerprints)
    lines.append(
        f"ratio this/other over {rounds} rounds (median CPU of {count} runs each): "
        f"min {min(ratios):.3f} median {statistics.median(ratios):.3f} max {max(ratios):.3f}; "
        # The fastest run of each side is the one other work disturbed least (as timeit takes the best).
        f"fastest runs: this {best[0]:.3f} s, other {best[1]:.3f} s, {best[0] / best[1]:.3f}×; "
        f"results {'identical' if same else 'differ'} (this checkout: {HERE}, other: {against})"
    )
    return "\n".join(lines)
