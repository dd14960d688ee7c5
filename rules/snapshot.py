"""The engine's input as plain, canonical JSON, and its fingerprint: what a turn was resolved from.

Turn processing stores both with the turn (`TurnSnapshot`), the GM's preview stores the fingerprint: the
engine is deterministic, so the same fingerprint means the same result.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from rules.engine import TurnInput


def input_plain(turn_input: TurnInput) -> dict[str, Any]:
    """The TurnInput as JSON data: dataclasses as objects of their fields, tuples as lists."""
    return _plain(turn_input)


def input_fingerprint(plain: Mapping[str, Any], seed: int) -> str:
    """SHA-256 of the input's canonical JSON (sorted keys, no spaces) and the seed."""
    canonical = json.dumps(
        {"input": plain, "seed": str(seed)}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def _plain(value: Any) -> Any:
    # Hand-rolled rather than dataclasses.asdict, which deep-copies every leaf: this runs on every turn.
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: _plain(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value
