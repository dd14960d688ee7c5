"""The engine's input as canonical JSON, and its fingerprint: what a turn was resolved from.

Turn processing stores both with the turn (`TurnSnapshot`), the GM's preview too (`TurnPreview`): the
engine is deterministic, so the same fingerprint means the same result. The JSON is kept as text, as
written: it is what the fingerprint hashes, and a text column takes it faster than a parsed JSON one.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from rules.engine import TurnInput
from rules.engine.state import json_data


def input_canonical(turn_input: TurnInput, seed: int) -> str:
    """The input and the seed as JSON with sorted keys and no spaces: one spelling for one input."""
    return json.dumps(
        {"input": json_data(turn_input), "seed": str(seed)},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )


def input_fingerprint(canonical: str) -> str:
    return hashlib.sha256(canonical.encode()).hexdigest()


def input_read(canonical: str) -> dict[str, Any]:
    """The TurnInput back as JSON data: regions, stacks, orders... keyed as the dataclasses' fields."""
    return json.loads(canonical)["input"]
