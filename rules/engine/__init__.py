"""The Iron Fist rules engine: pure Python, no Django, no clock, no global random.

`resolve_turn(turn_input, ruleset, seed) -> TurnResult` is the one entry point; `ruleset_build` makes
the ruleset from a campaign's overrides; `orders_check` validates orders for order entry.
"""

from .ruleset import Ruleset, RulesetError, ruleset_build
from .state import (
    GMModifier,
    Order,
    OrderKind,
    Region,
    RejectedOrder,
    Relation,
    RelationKind,
    Stack,
    Terrain,
    TurnInput,
    TurnResult,
    Weather,
)
from .turn import resolve_turn
from .validation import orders_check
from .world import TurnInputError

__all__ = [
    "GMModifier",
    "Order",
    "OrderKind",
    "Region",
    "RejectedOrder",
    "Relation",
    "RelationKind",
    "Ruleset",
    "RulesetError",
    "Stack",
    "Terrain",
    "TurnInput",
    "TurnInputError",
    "TurnResult",
    "Weather",
    "orders_check",
    "resolve_turn",
    "ruleset_build",
]
