"""Rate limits of what anyone may try often (issue 27): signing up, accepting invitation links, asking for a
confirmation mail. DRF's throttles (a count in Django's cache per caller and window), used by the API views
as DRF does and by the pages through `throttle_wait`, so that a page and the API share one count.

Logins are throttled by django-axes (config/settings.py): by account and address together, after failures.
Sign-up has no account yet, so it is counted by address alone, the address as axes reads it (behind a proxy,
the one the proxy saw: AXES_IPWARE_PROXY_COUNT), never the X-Forwarded-For a client may write itself. The
others are counted by the signed-in user.

The counts live in Django's cache: the local memory of each process unless CACHES names a shared one (Redis),
so with several web processes each counts on its own.
"""

from __future__ import annotations

from typing import Any

from axes.helpers import get_client_ip_address
from rest_framework.throttling import SimpleRateThrottle, UserRateThrottle


class SignUpThrottle(SimpleRateThrottle):
    """Sign-up forms sent from one address: enough for a table of friends behind one router."""

    scope = "signup"
    rate = "20/hour"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": get_client_ip_address(request) or "none"}


class AcceptThrottle(UserRateThrottle):
    """Invitation links tried by one user, in the pages and the API together: a link is 256 random bits, so
    this stops a script, not a guess."""

    scope = "invitation_accept"
    rate = "20/hour"


class ConfirmMailThrottle(UserRateThrottle):
    """Confirmation mails one user asks for: each goes to an address they typed, so few."""

    scope = "email_confirm"
    rate = "5/hour"


def throttle_wait(throttle: SimpleRateThrottle, request: Any) -> int | None:
    """For a page: None when the request is within the limit (and counted), else the seconds to wait."""
    if throttle.allow_request(request, None):
        return None
    return max(1, int(throttle.wait() or 1))
