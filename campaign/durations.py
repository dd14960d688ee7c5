"""Durations in words, for the three places that say how long: the GM's clock and audit log ("2 days 3
hours"), a reminder mail's subject ("12 hours"), the top bar's countdown ("2 d 3 h left"). One split into
days, hours and minutes; the unit words are the same msgids everywhere, so one translation serves all.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, ngettext_lazy

UNITS = (
    ngettext_lazy("%(count)s day", "%(count)s days", "count"),
    ngettext_lazy("%(count)s hour", "%(count)s hours", "count"),
    ngettext_lazy("%(count)s minute", "%(count)s minutes", "count"),
)


def _split(minutes: int) -> tuple[int, int, int]:
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    return days, hours, minutes


def duration_words(left: timedelta | None) -> str:
    """ "2 days 3 hours", "12 hours", "45 minutes": rounded to the minute, the two largest units."""
    if left is None:
        return ""
    counts = _split(round(left.total_seconds() / 60))
    parts = [words % {"count": n} for n, words in zip(counts, UNITS, strict=True) if n]
    return " ".join(parts[:2]) or UNITS[2] % {"count": 0}


def due_in_words(left: timedelta) -> str:
    """ "12 hours", "2 days", "45 minutes": whole hours (rounded) from an hour and a half up."""
    minutes = round(left.total_seconds() / 60)
    if minutes < 90:
        return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}
    hours = round(minutes / 60)
    if hours >= 48 and hours % 24 == 0:
        return ngettext("%(count)s day", "%(count)s days", hours // 24) % {"count": hours // 24}
    return ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours}


def time_left_words(left: timedelta) -> str:
    """The top bar's countdown, whole minutes down: "2 d 3 h left", "3 h 5 min left", "deadline passed"."""
    seconds = int(left.total_seconds())
    if seconds <= 0:
        return _("deadline passed")
    days, hours, minutes = _split(seconds // 60)
    if days:
        return _("%(days)s d %(hours)s h left") % {"days": days, "hours": hours}
    if hours:
        return _("%(hours)s h %(minutes)s min left") % {"hours": hours, "minutes": minutes}
    return _("%(minutes)s min left") % {"minutes": minutes}
