"""One checkout's side of `python -m rules bench-compare`: run as `python -P this-file INPUT` with
PYTHONPATH set to the checkout being timed, so that `rules.engine` is that checkout's engine.

It reads the turn from INPUT (the JSON of a `TurnInput`, as rules/bench/compare.py writes it) into the
checkout's own dataclasses, leaving out fields the checkout's engine does not know yet as long as they hold
their default (an older engine has no `Order.params` or `TurnInput.system_inputs`); a field that is set
and not known stops it. Each line read from standard input is a number of runs of `resolve_turn` on that
turn with the default ruleset; it answers with one JSON line: the CPU seconds (`time.process_time`) of
each run and a fingerprint (SHA-256) of the result's JSON, keys in the order the engine wrote them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import time
from typing import Any


def built(cls: type, data: dict[str, Any]) -> Any:
    """`cls` from `data`, fields `cls` does not have left out when they are empty (their default)."""
    known = {f.name for f in dataclasses.fields(cls)}
    for name, value in data.items():
        if name not in known and value not in ({}, [], None, ""):
            sys.exit(f"this checkout's {cls.__name__} has no field {name!r}, and the input sets it")
    return cls(**{k: v for k, v in data.items() if k in known})


def turn_read(path: str) -> Any:
    from rules.engine import GMModifier, Order, Region, Relation, Stack, TurnInput

    data = json.loads(open(path, encoding="utf-8").read())
    parts = {
        "regions": tuple(built(Region, r) for r in data.pop("regions")),
        "borders": tuple(tuple(b) for b in data.pop("borders")),
        "stacks": tuple(built(Stack, s) for s in data.pop("stacks")),
        "orders": tuple(built(Order, o) for o in data.pop("orders", ())),
        "relations": tuple(built(Relation, r) for r in data.pop("relations", ())),
        "gm_modifiers": tuple(built(GMModifier, g) for g in data.pop("gm_modifiers", ())),
        "nations": tuple(data.pop("nations")),
    }
    return built(TurnInput, {**data, **parts})


def main() -> None:
    from rules.engine import resolve_turn, ruleset_build

    turn, seed = turn_read(sys.argv[1]), int(sys.argv[2])
    ruleset = ruleset_build()
    for line in sys.stdin:
        seconds, result = [], None
        for _ in range(int(line)):
            begun = time.process_time()
            result = resolve_turn(turn, ruleset, seed)
            seconds.append(time.process_time() - begun)
        text = json.dumps(result.to_dict(), default=str)  # in the order written: byte for byte
        print(json.dumps({"seconds": seconds, "sha256": hashlib.sha256(text.encode()).hexdigest()}))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
