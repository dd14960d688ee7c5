"""The close-combat round calculator's one action (TABLETOP.md Part B), shared by its page and its API.

The standalone calculator stores nothing; it only draws the seed when the server is to roll (B6), which the
pure engine cannot do.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from rules.engine.tabletop import RoundOutcome, close_combat_round


def round_work_out(data: Any, *, preview: bool = False, new_seed: bool = False) -> RoundOutcome:
    """The round worked out: previewed (no dice), rolled from the dice in `data`, or from a new seed."""
    if new_seed and not preview and isinstance(data, Mapping):
        # B6: the standalone calculator draws the seed and prints it, so the round can be replayed.
        data = {**data, "dice": {"seed": secrets.randbits(63)}}
    return close_combat_round(data, roll=not preview)
