"""A mail's order lines, parsed at the edge into `OrderDraft`s with their line numbers (frontend.mail.orders
handles the mail around them). Two ways to write an order, one a line:

    N5 → M2: attack with 4 JV, 3 PA      forwards, as the pages and the replies write it back (or "->"),
    N4 -> N5: move 3 JV                   in English or in Finnish ("N5 → M2: hyökkäys, 4 JV, 3 PA");
    N2: 4 JV hold                         a line of a reply's list may keep its number ("1. N2: 4 JV hold")
    attack N5 -> M2: JV 4, PA 3           the kind first (or "→"); counts before or after the unit type

The forward words are the catalogue's own (rules.engine.order_words, in every language of the site), so a
line copied from a page or a reply reads back as the same order. A battle system's own orders, which this
syntax cannot say (Sodankäynti's `doctrine B: steady`, `ambush B -> A`), are read by the system's mail
part first (frontend.systems.MailParts.order_line); this module names no system.
"""

from __future__ import annotations

import functools
import re
import string
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

import rules.engine.order_words  # noqa: F401  (registers the order templates read here)
from frontend.systems import mail_order_lines
from orders.services import OrderDraft
from rules.engine import OrderKind
from rules.engine.messages import CATALOGUE

_ARROW = r"(?:->|→)"
_ORDER = re.compile(
    rf"""^(?P<kind>[a-z][a-z_ ]*?)\s+(?P<origin>[\w-]+)      # attack N5
        (?:\s*{_ARROW}\s*(?P<target>[\w-]+))?                # -> M2 (not for hold, stand down)
        \s*:\s*(?P<units>.*)$                                # : JV 4, PA 3""",
    re.IGNORECASE | re.VERBOSE,
)
# Forwards: from where (to where): what. The origin is one word followed by the arrow or the colon, which
# no line of the kind-first syntax has.
_FORWARD = re.compile(
    rf"^(?P<origin>[\w-]+)\s*(?:{_ARROW}\s*(?P<target>[\w-]+)\s*)?:\s*(?P<rest>.*)$", re.IGNORECASE
)
# ASCII digits, and no more than a count column holds ("٣".isdigit(); int() of 5,000 digits raises).
_COUNT = r"[0-9]{1,9}"
_UNIT = rf"(?:{_COUNT}\s*[A-Za-z]\w*|[A-Za-z]\w*\s+{_COUNT})"
_UNIT_LIST = rf"{_UNIT}(?:\s*,\s*{_UNIT})*"
_KIND_THEN_UNITS = re.compile(rf"^(?P<kind>.*?)[\s,]*(?P<units>{_UNIT_LIST})$")
_UNITS_THEN_KIND = re.compile(rf"^(?P<units>{_UNIT_LIST})[\s,]+(?P<kind>.+)$")
_NUMBERED = re.compile(r"^[0-9]{1,3}\.\s+")
_UNITS = re.compile(rf"^(?P<type>[A-Za-z]\w*)\s+(?P<count>{_COUNT})$")
_UNITS_COUNT_FIRST = re.compile(rf"^(?P<count>{_COUNT})\s*(?P<type>[A-Za-z]\w*)$")
KINDS = {k.value for k in OrderKind}
# A turn's orders fit in far fewer; a mail of thousands of lines is a mistake or an attack, refused unread.
ORDERS_MAX = 200


@dataclass(frozen=True)
class MailOrder:
    line: int
    draft: OrderDraft


@dataclass(frozen=True)
class MailOrders:
    """What a mail's body says: its orders in order, whether to delete the turn's orders first, errors."""

    orders: tuple[MailOrder, ...] = ()
    delete_all: bool = False
    errors: tuple[str, ...] = field(default=())


def orders_parse(text: str) -> MailOrders:
    """Parse a mail body into drafts with line numbers; errors say the line and what is wrong with it."""
    orders: list[MailOrder] = []
    errors: list[str] = []
    delete_all = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.rstrip() == "--" or raw.startswith(">") or raw.rstrip().endswith("wrote:"):
            break
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = " ".join(line.lower().split())
        if words == "end":
            break
        if words == "delete all":
            delete_all = True
            continue
        if len(orders) == ORDERS_MAX:
            errors.append(_("at most %(count)s orders in one mail") % {"count": ORDERS_MAX})
            break
        parsed = _order_line(line)
        if isinstance(parsed, str):
            errors.append(_("line %(number)s: %(error)s") % {"number": number, "error": parsed})
        else:
            orders.append(MailOrder(line=number, draft=parsed))
    return MailOrders(orders=tuple(orders), delete_all=delete_all, errors=tuple(errors))


def _order_line(line: str) -> OrderDraft | str:
    for system_line in mail_order_lines():
        draft = system_line(line)
        if draft is not None:
            return draft
    forward = _FORWARD.match(_NUMBERED.sub("", line, count=1))
    if forward is not None:
        return _forward_line(forward)
    match = _ORDER.match(line)
    if match is None:
        return _(
            "expected an order like 'N5 -> M2: attack with 4 JV, 3 PA' or 'attack N5 -> M2: JV 4, PA 3', "
            "got %(line)r"
        ) % {"line": line}
    kind = "_".join(match["kind"].lower().split())
    return _draft(match, kind if kind in KINDS else None, said=match["kind"], units=match["units"])


def _forward_line(match: re.Match[str]) -> OrderDraft | str:
    """ "N5 → M2: attack with 4 JV, 3 PA", "N2: 4 JV hold": the kind's words before or after the units."""
    rest = match["rest"].strip()
    parts = _KIND_THEN_UNITS.match(rest)
    if parts is None or not parts["kind"].strip(" ,"):
        parts = _UNITS_THEN_KIND.match(rest) or parts
    if parts is None:
        return _("expected the kind of order and its units, like 'attack with 4 JV, 3 PA', got %(text)r") % {
            "text": rest
        }
    said = parts["kind"].strip(" ,")
    return _draft(match, forward_words().get(" ".join(said.lower().split())), said=said, units=parts["units"])


def _draft(match: re.Match[str], kind: str | None, *, said: str, units: str) -> OrderDraft | str:
    """The order of a line of either syntax: `match` holds its origin and target, `kind` is None where the
    words `said` name no kind of order."""
    if kind is None:
        return _("unknown kind of order %(kind)r: one of %(kinds)s") % {
            "kind": said,
            "kinds": ", ".join(sorted(KINDS)),
        }
    counts = _units(units)
    if isinstance(counts, str):
        return counts
    target = match["target"].upper() if match["target"] else None
    return OrderDraft(kind=kind, origin=match["origin"].upper(), target=target, units=counts)


def _units(text: str) -> dict[str, int] | str:
    """ "JV 4, PA 3" or "4 JV, 3 PA" as counts by type; the part that is not, in words."""
    units: dict[str, int] = {}
    for part in text.split(","):
        unit = _UNITS.match(part.strip()) or _UNITS_COUNT_FIRST.match(part.strip())
        if unit is None:
            return _("expected units like 'JV 4, PA 3', got %(units)r") % {"units": part.strip()}
        unit_type = unit["type"].upper()
        if unit_type in units:
            return _("%(unit_type)s is named twice") % {"unit_type": unit_type}
        units[unit_type] = int(unit["count"])
    return units


@functools.cache
def forward_words() -> dict[str, str]:
    """Every way a forward order names its kind, lower case, to the kind: the words of the order's template
    ("{origin} → {target}: attack with {units}" gives "attack with"; "{origin}: {units} hold", "hold") and
    the kind's own word, in each language of the site, and the kind's code."""
    words: dict[str, str] = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for kind in KINDS:
                template = _(CATALOGUE[f"order.{kind}"])
                literal = " ".join(text for text, *_field in string.Formatter().parse(template))
                phrase = " ".join(literal.replace("→", " ").replace(":", " ").replace(",", " ").split())
                for said in (phrase, _(CATALOGUE[f"order_kind.{kind}"]), kind, kind.replace("_", " ")):
                    words.setdefault(said.lower(), kind)
    return words
