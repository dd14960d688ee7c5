"""An order in words, as a player reads it back ("V3 → K7: attack with 6 JV, 2 PA"), and an order kind's
word inside a sentence: messages, rendered at the edge in the reader's language (pages, mails) or in
English (the API)."""

from __future__ import annotations

from collections.abc import Mapping

from .messages import Message, gettext_noop, messages_register

messages_register(
    {
        # Forwards, as the arrow on the map goes: from where, to where, what.
        "order.hold": gettext_noop("{origin}: {units} hold"),
        "order.stand_down": gettext_noop("{origin}: {units} stand down"),
        "order.attack": gettext_noop("{origin} → {target}: attack with {units}"),
        "order.move": gettext_noop("{origin} → {target}: move {units}"),
        "order.rebase": gettext_noop("{origin} → {target}: rebase {units}"),
        "order_kind.hold": gettext_noop("hold"),
        "order_kind.stand_down": gettext_noop("stand down"),
        "order_kind.attack": gettext_noop("attack"),
        "order_kind.move": gettext_noop("move"),
        "order_kind.rebase": gettext_noop("rebase"),
        # A battle system's own orders (SODANKAYNTI.md §4.1, §4.2).
        "order.doctrine": gettext_noop("doctrine {doctrine}{settings} in every battle"),
        "order.doctrine_in": gettext_noop("doctrine {doctrine}{settings} in battles in {origin}"),
        "order.ambush": gettext_noop("ambush in {origin} facing {target}"),
        "order_kind.doctrine": gettext_noop("doctrine"),
        "order_kind.ambush": gettext_noop("ambush"),
    }
)


def kind_word(kind: str) -> Message:
    """An order kind inside a sentence: "an order to {kind} needs a target region"."""
    return Message(f"order_kind.{kind}")


def order_description(
    *, kind: str, origin: str, target: str | None, units: Mapping[str, int], params: Mapping | None = None
) -> Message:
    """One order as a player reads it back: "V3 → K7: attack with 6 JV, 2 PA", "N2: 4 JV hold",
    "doctrine steady (retreat_below=75) in battles in B"."""
    if kind == "doctrine":
        params = params or {}
        settings = ", ".join(f"{k}={v}" for k, v in sorted((params.get("params") or {}).items()))
        values = {"doctrine": params.get("doctrine"), "settings": f" ({settings})" if settings else ""}
        if params.get("region"):
            return Message("order.doctrine_in", {**values, "origin": params["region"]})
        return Message("order.doctrine", values)
    counts = ", ".join(f"{count} {unit_type}" for unit_type, count in units.items())
    return Message(f"order.{kind}", {"units": counts, "origin": origin, "target": target})
