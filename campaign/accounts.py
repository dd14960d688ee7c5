"""Accounts of their own: signing up, and confirming the email address that mail goes to (issue 27).

A new account has no address until it is confirmed. Sign-up takes one and mails a link to it (the pages'
business); the address becomes the account's when the link is opened (`email_confirm`). So a confirmed
address is the only kind an account has (until the settings page sets one by hand), and everything that
mails people (reminders, results, orders by mail, password resets) reaches only confirmed ones: they mail
`user.email` and skip an empty one.

An unconfirmed account can do everything else: log in, join a campaign by invitation, give orders, read its
reports. The pages tell it to confirm.

The link is signed (django.core.signing, the site's secret key) and holds the account, the address and the
address the account had when it was sent; it works for EMAIL_CONFIRM_DAYS, and not at all once the
account's address has changed since, so an old link cannot set back an address the user changed.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.db import IntegrityError, transaction

from campaign.services import account_email_set
from rules.engine.messages import (
    ErrorKind,
    InputError,
    gettext_noop,
    kinds_register,
    messages_register,
)

EMAIL_CONFIRM_DAYS = 3
SALT = "campaign.accounts.email_confirm"

PREFIX = "account."
messages_register(
    {
        "username_taken": gettext_noop("A user with that name already exists: choose another."),
        "email_taken": gettext_noop(
            "Another account already uses this address: log in to it, or reset its password."
        ),
        "confirm_invalid": gettext_noop(
            "This confirmation link is not valid: it is too old, or not whole. Ask for a new one."
        ),
        "confirm_stale": gettext_noop(
            "This confirmation link was for an address your account no longer waits for. Ask for a new one."
        ),
    },
    prefix=PREFIX,
)
kinds_register(ErrorKind.CONFLICT, ["username_taken", "email_taken", "confirm_stale"], prefix=PREFIX)


def email_taken(*, email: str, user: AbstractBaseUser | None = None) -> bool:
    """Whether another account has this address (in any case: mail servers do not tell them apart)."""
    others = get_user_model().objects.filter(email__iexact=email.strip())
    if user is not None:
        others = others.exclude(pk=user.pk)
    return others.exists()


def account_create(*, username: str, password: str) -> AbstractBaseUser:
    """A new account, with its password (checked by the form against the site's password validators) and no
    address yet: the sign-up's address waits for its confirmation (`email_confirm_token`)."""
    User = get_user_model()
    try:
        with transaction.atomic():
            if User.objects.filter(username__iexact=username).exists():
                raise InputError.of("username", PREFIX + "username_taken")
            return User.objects.create_user(username=username, password=password, email="")
    except IntegrityError as error:  # the same name, signed up at the same moment
        raise InputError.of("username", PREFIX + "username_taken") from error


def email_confirm_token(*, user: AbstractBaseUser, email: str) -> str:
    """The signed token of the confirmation link that makes `email` the account's address."""
    return signing.dumps({"u": user.pk, "e": email.strip(), "was": user.email}, salt=SALT, compress=True)


def email_confirm_read(token: str) -> dict[str, Any]:
    """What a confirmation token says: the user's id, the address and the one it replaces; InputError for a
    token that is not one of ours, or is older than EMAIL_CONFIRM_DAYS."""
    try:
        data = signing.loads(token, salt=SALT, max_age=EMAIL_CONFIRM_DAYS * 24 * 3600)
    except signing.BadSignature as error:  # SignatureExpired is one
        raise InputError.of("token", PREFIX + "confirm_invalid") from error
    if not isinstance(data, dict) or not {"u", "e", "was"} <= data.keys():
        raise InputError.of("token", PREFIX + "confirm_invalid")
    return data


def email_confirm(*, token: str) -> AbstractBaseUser:
    """Open a confirmation link: its address becomes the account's, which mail goes to from now on. Opening
    it again changes nothing; a link for an address the account no longer waits for, or that another
    account has taken meanwhile, is refused."""
    data = email_confirm_read(token)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=data["u"]).first()
        if user is None:
            raise InputError.of("token", PREFIX + "confirm_invalid")
        if user.email == data["e"]:
            return user  # opened before
        if user.email != data["was"]:
            raise InputError.of("token", PREFIX + "confirm_stale")
        if email_taken(email=data["e"], user=user):
            raise InputError.of("email", PREFIX + "email_taken")
        account_email_set(user=user, email=data["e"])
    return user
