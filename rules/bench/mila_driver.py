"""MILA's side of `python -m rules bench-mila`: run by the Python of MILA's own virtual environment.

It imports nothing of the project, only MILA's `diplomacy` and the standard library. Each line read from
standard input is a number of movement phases to play on the standard map, every unit given a random valid
order (the same random sequence on every run); it answers with one JSON line: the CPU seconds spent in
`Game.process()` on those phases and the number of orders they held. Retreat and adjustment phases are
played (with random valid orders too) but not timed.
"""

from __future__ import annotations

import json
import random
import sys
import time


def main() -> None:
    # Imported here, not at the top: the project imports its every module (its tests do), and MILA's
    # package is installed only in the benchmark's own environment.
    from diplomacy import Game

    rng = random.Random(1)
    game = Game()
    for line in sys.stdin:
        wanted, timed, seconds, orders = int(line), 0, 0.0, 0
        while timed < wanted:
            if game.is_game_done:
                game = Game()
            possible = game.get_all_possible_orders()
            given = 0
            for power in game.powers.values():
                locations = game.get_orderable_locations(power.name)
                chosen = [rng.choice(possible[loc]) for loc in locations if possible[loc]]
                game.set_orders(power.name, chosen)
                given += len(chosen)
            movement = game.get_current_phase().endswith("M")
            begun = time.process_time()
            game.process()
            if movement:
                seconds += time.process_time() - begun
                orders += given
                timed += 1
        print(json.dumps({"seconds": seconds, "orders": orders}), flush=True)


if __name__ == "__main__":
    main()
