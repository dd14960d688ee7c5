"""Tiny helpers that read settings from the environment and fail loudly on bad values.

A typo in a production environment must stop the process at start-up with the variable's name,
not run with a silent default.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str | None:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}: expected true or false (1/0, yes/no, on/off), got {raw!r}")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: expected a whole number, got {raw!r}") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}: must be at least {minimum}, got {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_url(name: str, schemes: tuple[str, ...]) -> str | None:
    """A URL whose scheme must be one of `schemes`; None when the variable is unset or empty."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    scheme = raw.split("://", 1)[0].lower() if "://" in raw else ""
    if scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name}: expected a URL starting with {' or '.join(schemes)}://, got {raw!r}"
        )
    return raw


def env_email(name: str) -> dict[str, object] | None:
    """Django's SMTP settings from one URL: smtp://user:password@host:587 (STARTTLS unless ?tls=false),
    smtps://user:password@host:465 (TLS from the start). None when the variable is unset or empty."""
    raw = env_url(name, ("smtp", "smtps"))
    if raw is None:
        return None
    from urllib.parse import parse_qs, unquote, urlsplit

    url = urlsplit(raw)
    try:
        port = url.port
    except ValueError:
        raise ImproperlyConfigured(f"{name}: the port must be a whole number") from None
    if not url.hostname:
        raise ImproperlyConfigured(f"{name}: no host, expected smtp://user:password@host:587")
    ssl = url.scheme == "smtps"
    tls = parse_qs(url.query).get("tls", ["false" if ssl else "true"])[-1].strip().lower()
    if tls not in _TRUE | _FALSE:
        raise ImproperlyConfigured(f"{name}: ?tls= expects true or false, got {tls!r}")
    return {
        "EMAIL_HOST": url.hostname,
        "EMAIL_PORT": port or (465 if ssl else 587),
        "EMAIL_HOST_USER": unquote(url.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(url.password or ""),
        "EMAIL_USE_SSL": ssl,
        "EMAIL_USE_TLS": not ssl and tls in _TRUE,
    }
