"""A resolved turn in one line, as the turn's page and each reader's results mail open with it.

The page: "Turn 4: 3 battles, you took M2, you lost N5" (the GM: "..., 2 regions changed hands").
The mail, a sentence of its own: "Turn 4: 3 battles you fought in; you took M2; you lost N5 (to Ostland)."
Region owners are public (the map), so the regions taken and lost are the reader's to know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def turn_summary(
    *,
    number: int,
    battles: int,
    changes: Sequence[Mapping[str, str | None]],
    own: str | None,
    names: Mapping[str, str] | None = None,
) -> str:
    """`own`: the reader's nation code, None for the GM. With `names` (code -> name) it is the mail's
    sentence, naming who took each region the reader lost; without, the page's line."""
    mail = names is not None
    if mail and own is not None:
        head = ngettext(
            "Turn %(number)s: %(count)s battle you fought in",
            "Turn %(number)s: %(count)s battles you fought in",
            battles,
        )
    else:
        head = ngettext("Turn %(number)s: %(count)s battle", "Turn %(number)s: %(count)s battles", battles)
    parts = [head % {"number": number, "count": battles}]
    if own is None:
        moved = ngettext(
            "%(count)s region changed hands", "%(count)s regions changed hands", len(changes)
        ) % {"count": len(changes)}
        return f"{parts[0]}; {moved}." if mail else f"{parts[0]}, {moved}"
    took = [c["region"] for c in changes if c["to"] == own]
    lost = [
        _("%(region)s (to %(nation)s)") % {"region": c["region"], "nation": names.get(c["to"], _("nobody"))}
        if mail
        else c["region"]
        for c in changes
        if c["from"] == own
    ]
    if took:
        parts.append(_("you took %(regions)s") % {"regions": ", ".join(took)})
    if lost:
        parts.append(_("you lost %(regions)s") % {"regions": ", ".join(lost)})
    return "; ".join(parts) + "." if mail else ", ".join(parts)
