"""The engine's command line: `check-cases DIR [DIR ...]`, `docs-sync [DIR]` (the rule documents,
rules/docs.py), `bench --regions N --nations M --seed S` and `bench-mila` (against MILA's diplomacy package,
rules/bench/mila.py) and `bench-compare --against DIR` (against another checkout's engine on the same turn,
rules/bench/compare.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rules.engine.systems import DEFAULT_SYSTEM


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description="The Iron Fist rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check-cases", help="run adjudication case files")
    check.add_argument("directories", nargs="+", metavar="DIR")
    bench = commands.add_parser("bench", help="time resolve_turn on a random map")
    bench.add_argument("--regions", type=int, default=10_000)
    bench.add_argument("--nations", type=int, default=100)
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--repeat", type=int, default=3, help="runs to take the median of")
    bench.add_argument("--system", default=DEFAULT_SYSTEM, help="the battle system (iron_fist, sodankaynti)")
    mila = commands.add_parser(
        "bench-mila", help="our engine against MILA's diplomacy package, per order, on Diplomacy-sized turns"
    )
    mila.add_argument("--rounds", type=int, default=8)
    mila.add_argument("--turns", type=int, default=50, help="turns (and MILA phases) a round")
    mila.add_argument("--venv", type=Path, default=None, help="where MILA's virtual environment is kept")
    compare = commands.add_parser(
        "bench-compare", help="this checkout's engine against another checkout's, on the same turn"
    )
    compare.add_argument("--against", type=Path, required=True, metavar="DIR", help="the other checkout")
    compare.add_argument("--input", type=Path, default=None, help="a turn's JSON (else a random turn)")
    compare.add_argument("--dump", type=Path, default=None, help="keep the random turn's JSON here")
    compare.add_argument("--regions", type=int, default=10_000)
    compare.add_argument("--nations", type=int, default=100)
    compare.add_argument("--seed", type=int, default=1)
    compare.add_argument("--rounds", type=int, default=5)
    compare.add_argument("--runs", type=int, default=3, help="resolutions a round, of which the median")
    sync = commands.add_parser("docs-sync", help="copy the rule documents from ../shared/rules")
    sync.add_argument("source", nargs="?", type=Path, default=None, metavar="DIR")
    args = parser.parse_args(argv)

    if args.command == "docs-sync":
        from rules.docs import SHARED, documents_sync

        copied = documents_sync(args.source or SHARED)
        print(
            f"{len(copied)} copied" + (f": {', '.join(copied)}" if copied else ", every copy is its source's")
        )
        return 0

    if args.command == "check-cases":
        from rules.cases import cases_run

        passed, failures = cases_run(args.directories)
        for line in failures:
            print(line)
        print(f"{passed} passed, {len(failures)} failed")
        return 1 if failures else 0

    if args.command == "bench-mila":
        from rules.bench.mila import VENV, bench_mila

        print(bench_mila(rounds=args.rounds, turns=args.turns, venv=args.venv or VENV))
        return 0

    if args.command == "bench-compare":
        from rules.bench.compare import bench_compare

        print(
            bench_compare(
                against=args.against,
                turn=args.input,
                regions=args.regions,
                nations=args.nations,
                seed=args.seed,
                rounds=args.rounds,
                count=args.runs,
                dump=args.dump,
            )
        )
        return 0

    from rules.bench.turn import bench_run

    print(
        bench_run(
            regions=args.regions, nations=args.nations, seed=args.seed, repeat=args.repeat, system=args.system
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
