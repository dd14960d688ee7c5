"""The English templates of what order entry says (orders.services), each marked for the translators;
rendered in the reader's language at the edge (frontend.terms.said), and the API's envelope."""

from __future__ import annotations

from rules.engine.messages import ErrorKind, gettext_noop, kinds_register, messages_register

messages_register(
    {
        "turn_number_expected": gettext_noop("a turn's number, like 3"),
        "no_turn_open": gettext_noop("no turn is open for orders"),
        "order_not_yours": gettext_noop("this order is not your nation's"),
        "orders_closed": gettext_noop("turn {number} is {status}: orders are closed"),
        "orders_wait_for_battles": gettext_noop(
            "turn {number} waits for the results of its battles fought at the table: orders for the next "
            "turn open once every battle has its result"
        ),
        "deadline_passed": gettext_noop("the deadline of turn {number} has passed"),
        "turn_not_open": gettext_noop("turn {number} is not open for orders"),
        "not_a_player": gettext_noop("only a player of a nation in this campaign can give orders"),
        "civil_disorder": gettext_noop(
            "{nation} is in civil disorder: it takes orders again once the GM assigns it a player"
        ),
        "unknown_order_kind_of": gettext_noop("unknown kind of order {kind!r}: one of {kinds}"),
        "no_target_allowed": gettext_noop("a {kind} order has no target"),
        "choose_target": gettext_noop("choose a target region"),
        "counts_expected": gettext_noop('expected counts per unit type, like {{"JV": 3}}'),
        "count_not_whole": gettext_noop("the count of {unit_type} must be a whole number, got {count}"),
        "map_inconsistent": gettext_noop("the map around {region} is inconsistent: {error}"),
        "spoils_order": gettext_noop("this would leave your order #{number} invalid: {reason}"),
    }
)
# The turn's state refuses these, not the order (the API's 409); giving orders is a player's (403).
kinds_register(
    ErrorKind.CONFLICT,
    ("no_turn_open", "orders_closed", "orders_wait_for_battles", "deadline_passed", "turn_not_open"),
)
kinds_register(ErrorKind.REFUSED, ("not_a_player", "civil_disorder"))
