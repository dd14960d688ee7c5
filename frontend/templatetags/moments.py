"""`{{ moment|utc_aside:"H:i" }}`: a moment shown in the reader's zone also says its UTC time, once.

"Sat 12 Dec, 11:16 EET (09:16 UTC)" for a reader in Helsinki; nothing more for a reader whose clock is
UTC's, who would otherwise read "11:16 UTC (11:16 UTC)"."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django import template
from django.utils import dateformat, timezone

register = template.Library()


@register.filter
def utc_aside(moment: datetime | None, format_string: str = "H:i") -> str:
    if moment is None or timezone.localtime(moment).utcoffset() == timedelta(0):
        return ""
    return f" ({dateformat.format(moment.astimezone(UTC), format_string)} UTC)"
