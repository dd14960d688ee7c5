"""Sodankäynti's part of the mails (frontend.systems.MailParts): its own orders in an orders mail
(SODANKAYNTI.md §4.1, §4.2), which name no units and so have no line in the generic syntax
(frontend.mail.order_lines), the kind first:

    doctrine bold                         the doctrine of all the nation's battles...
    doctrine B: steady retreat_below=75   ...or of its battles in B, with parameters
    ambush B -> A                         its defenders of B lie in wait for an attack from A
"""

from __future__ import annotations

import re

from orders.services import OrderDraft

_DOCTRINE = re.compile(
    r"^doctrine\s+(?:(?P<region>[\w-]+)\s*:\s*)?(?P<name>[a-z_]+)(?P<params>(?:\s+\w+\s*=\s*\S+)*)$",
    re.IGNORECASE,
)
_AMBUSH = re.compile(r"^ambush\s+(?P<origin>[\w-]+)\s*(?:->|→)\s*(?P<target>[\w-]+)$", re.IGNORECASE)
_PARAM = re.compile(r"(\w+)\s*=\s*(\S+)")


def order_line(line: str) -> OrderDraft | None:
    """The doctrine or ambush order a line of a mail says; None where it says neither."""
    doctrine = _DOCTRINE.match(line)
    if doctrine is not None:
        params = {k.lower(): _param_value(v) for k, v in _PARAM.findall(doctrine["params"])}
        region = doctrine["region"].upper() if doctrine["region"] else ""
        given = {"doctrine": doctrine["name"].lower(), "params": params}
        return OrderDraft(kind="doctrine", origin=region, target=None, units={}, params=given)
    ambush = _AMBUSH.match(line)
    if ambush is not None:
        return OrderDraft(
            kind="ambush", origin=ambush["origin"].upper(), target=ambush["target"].upper(), units={}
        )
    return None


def _param_value(text: str) -> int | bool | str | None:
    """A doctrine parameter as written: 75, none, true; the rules judge whether it fits (§10.1)."""
    lowered = text.lower()
    if lowered in ("none", "null"):
        return None
    if lowered in ("true", "yes", "false", "no"):
        return lowered in ("true", "yes")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else lowered
