"""Is a mail from the player its From header names? Orders by mail must not trust the From header alone.

The receiving mail server checks SPF, DKIM and DMARC and writes what it found in an Authentication-Results
header (RFC 8601) named by its authserv-id; IRONFIST_MAIL_AUTHSERV_ID says which server's headers to
trust (any sender can write such a header too, so only our server's, the first one it added, counts).
Read with `authres`, the header's own parser:

- a pass that is aligned with the From address's domain (dmarc=pass; dkim=pass by that domain or a parent;
  spf=pass for a mail-from in it): the mail is the player's;
- dmarc=fail: the domain's owner says it is not theirs: refused, whatever else it carries;
- otherwise (no such header, no server configured, results none or neutral): the fallback, the player's
  own key in the subject, `[key: 7c2fq9xm]`, which only the player can know. It is on their settings page,
  and every reply to their mail carries it in its subject, so answering a reply keeps it.

A refused mail changes nothing, and the reply goes to the player's real address (the one on their account):
the forger, who wrote that address in From, does not get it.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from email.message import EmailMessage as ParsedMail

import authres
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.utils.crypto import constant_time_compare, salted_hmac

_KEY = re.compile(r"\[\s*key\s*:?\s*([a-z2-7]{8})\s*\]", re.IGNORECASE)


@dataclass(frozen=True)
class SenderVerdict:
    ok: bool
    how: str  # for the log: "dmarc=pass", "key", or what failed: "dmarc=fail", "no key"


def order_mail_key(*, user: AbstractBaseUser) -> str:
    """The player's key for the subject: derived from the server's secret and the account, never stored."""
    digest = salted_hmac("iron-fist.order-mail-key", str(user.pk), algorithm="sha256").digest()
    return base64.b32encode(digest[:5]).decode().lower()


def order_mail_key_tag(*, user: AbstractBaseUser) -> str:
    return f"[key: {order_mail_key(user=user)}]"


def _domain(address: str) -> str:
    return address.rpartition("@")[2].strip().lower().rstrip(".")


def _aligned(domain: str, claimed: str | None) -> bool:
    """The authenticated domain is the From domain or a parent of it (relaxed alignment)."""
    claimed = _domain(str(claimed or ""))
    return bool(claimed) and (domain == claimed or domain.endswith("." + claimed))


def _results(message: ParsedMail) -> list[authres.core.AuthenticationResult] | None:
    """Our server's results (the first header with its authserv-id), or None when it added none."""
    server = settings.IRONFIST_MAIL_AUTHSERV_ID.lower()
    if not server:
        return None
    for raw in message.get_all("Authentication-Results", []):
        try:
            header = authres.AuthenticationResultsHeader.parse_value(" ".join(str(raw).split()))
        except (authres.core.AuthResError, ValueError, IndexError):
            continue  # a header we cannot read is no evidence either way
        if header.authserv_id.lower() == server:
            return list(header.results)
    return None


def sender_verdict(*, message: ParsedMail, user: AbstractBaseUser, subject: str) -> SenderVerdict:
    domain = _domain(user.email)
    results = _results(message) or []
    for result in results:
        props = {(p.type, p.name): p.value for p in result.properties}
        if result.result == "pass" and (
            (result.method == "dmarc" and _aligned(domain, props.get(("header", "from"))))
            or (result.method == "dkim" and _aligned(domain, props.get(("header", "d"))))
            or (result.method == "spf" and _aligned(domain, props.get(("smtp", "mailfrom"))))
        ):
            return SenderVerdict(True, f"{result.method}=pass")
    for result in results:
        if result.method == "dmarc" and result.result in ("fail", "reject", "quarantine"):
            return SenderVerdict(False, "dmarc=fail")
    match = _KEY.search(subject)
    if match and constant_time_compare(match[1].lower(), order_mail_key(user=user)):
        return SenderVerdict(True, "key")
    found = ", ".join(f"{r.method}={r.result}" for r in results)
    return SenderVerdict(False, f"no key ({found})" if found else "no key")
