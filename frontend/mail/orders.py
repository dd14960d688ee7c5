"""Orders by email: a player mails orders as plain text, one a line, and gets a reply saying what stands.

    [demo] or [The Grenzwald Crisis] in the subject names the campaign; the sender's address names the user.

    # a comment; blank lines are fine
    delete all                      (first remove this turn's orders: the mail's orders replace them)
    N5 → M2: attack with 4 JV, 3 PA (forwards, as the pages write it; "->" too; or in Finnish)
    N2: 4 JV hold
    attack N5 -> M2: JV 4, PA 3     (or the kind first)
    move N5 -> N3: TY 1
    rebase N1 -> N5: IV 2
    stand down N1: IV 1             (or stand_down)
    hold N2: JV 4
    doctrine B: steady              (a system's own orders, read by its mail part: Sodankäynti's doctrine
    ambush B -> A                    and ambush, rules.sodankaynti.mails)

Reading stops at a line `end`, at a signature (`-- `) and where a quoted mail begins (`>`, "... wrote:").

Text is parsed at the edge (frontend.mail.order_lines) into `OrderDraft`s with their line numbers; the
drafts go through `orders.services.order_submit`, the same judge as the web form and the API. A mail is
all or nothing: when any line is wrong, nothing changes and the reply lists every error by line ("line 3:
M7 is not adjacent to N5"). The reply is in the player's language (Profile.language, as in every mail);
the log's words (MailOutcome.summary) stay English.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage as ParsedMail
from email.utils import parseaddr

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from campaign.lifecycle import language_of, time_zone_of
from campaign.models import Campaign, InboundMail, Membership, Turn
from campaign.selectors import turn_current
from frontend.mail.order_lines import MailOrders, orders_parse
from frontend.mail.sender import order_mail_key_tag, sender_verdict
from frontend.mail.turns import mail_send, site_url
from frontend.terms import said
from orders.models import Order
from orders.services import OrderError, order_delete, order_describe, order_submit

logger = logging.getLogger(__name__)

MESSAGE_ID_MAX = InboundMail._meta.get_field("message_id").max_length

_TAG = re.compile(r"\[([^\[\]]+)\]")
# Refusals about the turn or the nation rather than the order (deadline passed, civil disorder).
WHOLE_MAIL = frozenset(("turn", "nation"))


# --- Handling a mail ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MailOutcome:
    """What came of a mail: in words for the log, and the reply to send (None: no reply)."""

    summary: str
    reply: EmailMessage | None = None
    campaign: Campaign | None = None


class _Refused(Exception):
    """Some order of the mail was refused: roll back the whole mail."""


def order_mail_receive(
    *, message: ParsedMail, now: Callable[[], datetime] = timezone.now
) -> MailOutcome | None:
    """Handle one inbound mail once, by its Message-ID: None when it was handled before.

    The mail is remembered in the transaction that enters its orders, so a crash midway leaves it unread
    for the next run; the reply goes out once that transaction commits.
    """
    message_id = mail_message_id(message)
    sender = parseaddr(header_text(message, "From"))[1]
    if not sender.isprintable():
        sender = ""  # a NUL or a line break in an address: no one's address
    subject = " ".join(header_text(message, "Subject").split())
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = InboundMail.objects.create(
                    message_id=message_id, sender=sender[:255], subject=subject[:255], received_at=now()
                )
        except IntegrityError:
            return None
        outcome = _mail_handle(message=message, sender=sender, subject=subject, now=now)
        record.outcome = outcome.summary[:300]
        record.campaign = outcome.campaign
        record.save(update_fields=["outcome", "campaign"])
        if outcome.reply is not None:
            outcome.reply.extra_headers.update({"In-Reply-To": message_id, "References": message_id})
            transaction.on_commit(lambda: mail_send([outcome.reply]), robust=True)
    return outcome


def order_mail_set_aside(
    *, message: ParsedMail, error: BaseException, now: Callable[[], datetime] = timezone.now
) -> str:
    """Remember a mail that could not be handled, so that the mailbox goes on and it is not tried again;
    the GM finds it among the inbound mails (the admin) with the reason. Returns the outcome's words."""
    summary = f"set aside: {type(error).__name__}: {error}"[:300]
    summary = "".join(c if c.isprintable() else " " for c in summary)
    InboundMail.objects.get_or_create(
        message_id=mail_message_id(message),
        defaults={
            "sender": parseaddr(header_text(message, "From"))[1][:255],
            "subject": header_text(message, "Subject")[:255],
            "received_at": now(),
            "outcome": summary,
        },
    )
    return summary


def mail_message_id(message: ParsedMail) -> str:
    """The key a mail is remembered by: its Message-ID, whole. One longer than the column, or with
    characters no id has, is kept as the SHA-256 of all of it; a mail without one, as that of its bytes."""
    message_id = header_text(message, "Message-ID").strip()
    if not message_id:
        return "sha256:" + hashlib.sha256(_as_bytes(message)).hexdigest()
    if len(message_id) > MESSAGE_ID_MAX or not message_id.isprintable():
        return "sha256:" + hashlib.sha256(message_id.encode("utf-8", "surrogateescape")).hexdigest()
    return message_id


def header_text(message: ParsedMail, name: str) -> str:
    """A header as text, whatever its charset or defects; NULs and other controls become spaces."""
    try:
        value = str(message.get(name, ""))
    except (LookupError, ValueError, TypeError, IndexError, AttributeError):
        # An encoded word in a charset Python does not know, or a header its parser trips over.
        value = str(message.get_all(name, [""])[0].encode("ascii", "replace"), "ascii")
    return "".join(c if c.isprintable() else " " for c in value)


def _as_bytes(message: ParsedMail) -> bytes:
    try:
        return message.as_bytes()
    except (LookupError, ValueError, TypeError, UnicodeError):
        return str(message.items()).encode("utf-8", "replace")


def mail_text(message: ParsedMail) -> str | None:
    """The mail's plain text, or None when it has none. A charset Python does not know, or bytes that are
    not in the charset declared, are read as UTF-8 with the odd bytes replaced: orders are ASCII."""
    body = message.get_body(preferencelist=("plain",))
    if body is None:
        return None
    try:
        text = body.get_content()
    except (LookupError, UnicodeError, ValueError, AssertionError, KeyError):
        payload = body.get_payload(decode=True)
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else str(payload or "")
    return text


def _mail_handle(
    *, message: ParsedMail, sender: str, subject: str, now: Callable[[], datetime]
) -> MailOutcome:
    if _automatic(message) or not sender:
        return MailOutcome("ignored: an automatic mail or no sender")
    users = list(get_user_model().objects.filter(email__iexact=sender, is_active=True)[:2])
    if len(users) != 1:
        # No reply to strangers: a reply to a forged sender would be spam (backscatter).
        return MailOutcome(f"ignored: {sender} is {'no' if not users else 'more than one'} user's address")
    user = users[0]
    with translation.override(language_of(user=user)):
        verdict = sender_verdict(message=message, user=user, subject=subject)
        if not verdict.ok:
            return _unproven(user=user, subject=subject, how=verdict.how)
        return _member_mail(message=message, user=user, subject=subject, now=now)


def _unproven(*, user: AbstractBaseUser, subject: str, how: str) -> MailOutcome:
    """A mail that may not be the player's: refused, and the player told at the address of their account,
    with their key in the subject so that answering this reply passes (frontend/mail/sender.py)."""
    text = (
        _(
            "A mail in your name was refused and changed nothing: your mail server could not show that it "
            "came from you, and its subject did not hold your key."
        )
        + "\n\n"
        + _(
            "If you sent it, answer this mail with your orders: its subject holds your key. The key is also "
            "on your settings page: %(url)s"
        )
        % {"url": site_url("/settings/")}
        + "\n"
        + _("If you did not send it, someone else tried to give orders in your name.")
        + "\n"
    )
    tag = order_mail_key_tag(user=user)
    return MailOutcome(f"refused: sender not proven ({how})", _reply(user, f"{subject} {tag}", text))


def _member_mail(
    *, message: ParsedMail, user: AbstractBaseUser, subject: str, now: Callable[[], datetime]
) -> MailOutcome:
    """A member's mail, answered in their own language."""
    memberships = list(Membership.objects.filter(user=user).select_related("campaign", "nation"))
    membership = _membership_named(memberships, subject)
    if membership is None:
        tags = ", ".join(f"[{m.campaign.slug}]" for m in memberships) or _("none: you play in no campaign")
        body = (
            _("Which campaign? Put its tag in the subject, like [%(slug)s].")
            % {"slug": memberships[0].campaign.slug}
            + "\n"
            if memberships
            else ""
        )
        return MailOutcome(
            "refused: no campaign named in the subject",
            _reply(user, subject, body + _("Your campaigns: %(tags)s.") % {"tags": tags} + "\n"),
        )
    campaign = membership.campaign
    if membership.nation is None:
        return MailOutcome(
            "refused: not a player",
            _reply(
                user,
                subject,
                _("You run %(campaign)s: only players give orders.") % {"campaign": campaign.name} + "\n",
            ),
            campaign,
        )
    turn = turn_current(campaign=campaign)
    if turn is None or turn.status != Turn.Status.OPEN:
        return MailOutcome(
            "refused: no open turn",
            _reply(user, subject, _("No turn is open for orders now.") + "\n"),
            campaign,
        )
    text = mail_text(message)
    if text is None:
        return MailOutcome(
            "refused: no plain text",
            _reply(user, subject, _("Send your orders as plain text, one order per line.") + "\n"),
            campaign,
        )
    parsed = orders_parse(text)
    errors = list(parsed.errors)
    if not errors and not parsed.orders and not parsed.delete_all:
        errors.append(_("no orders found: write one order per line, like 'attack N5 -> M2: JV 4, PA 3'"))
    if not errors:
        errors = _orders_enter(user=user, turn=turn, parsed=parsed, now=now)
    heading = _("%(campaign)s, turn %(number)s, %(nation)s") % {
        "campaign": campaign.name,
        "number": turn.number,
        "nation": membership.nation.name,
    }
    if errors:
        text = (
            _("%(heading)s: your mail changed nothing. Fix these lines and send all of its orders again.")
            % {"heading": heading}
            + "\n\n"
            + "\n".join(errors)
            + "\n\n"
            + _standing(turn=turn, membership=membership, user=user)
        )
        return MailOutcome(f"refused: {len(errors)} error(s)", _reply(user, subject, text), campaign)
    count = len(parsed.orders)
    entered = f"{count} order{'' if count == 1 else 's'} entered"
    if parsed.delete_all:
        entered += " after deleting the turn's earlier orders"
        said = ngettext(
            "%(count)s order entered after deleting the turn's earlier orders",
            "%(count)s orders entered after deleting the turn's earlier orders",
            count,
        )
    else:
        said = ngettext("%(count)s order entered", "%(count)s orders entered", count)
    text = f"{heading}: {said % {'count': count}}.\n\n" + _standing(
        turn=turn, membership=membership, user=user
    )
    return MailOutcome(f"accepted: {entered}", _reply(user, subject, text), campaign)


def _orders_enter(
    *, user: AbstractBaseUser, turn: Turn, parsed: MailOrders, now: Callable[[], datetime]
) -> list[str]:
    """Enter the mail's orders, all or nothing; the errors of every refused line."""
    errors: list[str] = []
    try:
        with transaction.atomic():
            if parsed.delete_all:
                nation = Membership.objects.get(user=user, campaign_id=turn.campaign_id).nation
                for order in Order.objects.filter(turn=turn, nation=nation).order_by("sequence"):
                    try:
                        order_delete(user=user, order=order, now=now)
                    except OrderError as error:
                        errors.append(_("delete all: %(error)s") % {"error": said(error.message)})
                        raise _Refused from error
            for item in parsed.orders:
                try:
                    with transaction.atomic():
                        order_submit(user=user, turn=turn, draft=item.draft, now=now)
                except OrderError as error:
                    if error.field in WHOLE_MAIL:
                        errors = [said(error.message)]  # the same for every line: say it once
                        break
                    errors.append(
                        _("line %(number)s: %(error)s") % {"number": item.line, "error": said(error.message)}
                    )
            if errors:
                raise _Refused
    except _Refused:
        pass
    return errors


def _standing(*, turn: Turn, membership: Membership, user: AbstractBaseUser) -> str:
    orders = Order.objects.filter(turn=turn, nation=membership.nation).select_related("origin", "target")
    lines = [f"  {n}. " + said(order_describe(o)) for n, o in enumerate(orders.order_by("sequence"), start=1)]
    with timezone.override(time_zone_of(user=user)):
        due = timezone.localtime(turn.deadline)
        # The reader's words: "Thursday 05 November 2026, 12:00"; "torstai 5. marraskuuta 2026 klo 12.00"
        deadline = date_format(due, pgettext("date format of a deadline in a reply", "l d F Y, H:i"))
    return (
        _("Your orders for turn %(number)s now:") % {"number": turn.number}
        + "\n"
        + ("\n".join(lines) if lines else "  " + _("none"))
        + "\n"
        + _("Units without orders hold.")
        + "\n"
        + _("Deadline: %(deadline)s %(zone)s.") % {"deadline": deadline, "zone": due.tzname()}
        + "\n"
        + _("On the web: %(url)s") % {"url": site_url("/c/" + turn.campaign.slug + "/")}
        + "\n"
    )


def _membership_named(memberships: list[Membership], subject: str) -> Membership | None:
    """The membership whose campaign the subject names by a [slug] or [Campaign name] tag."""
    tags = {" ".join(tag.lower().split()) for tag in _TAG.findall(subject)}
    for membership in memberships:
        if membership.campaign.slug.lower() in tags or membership.campaign.name.lower() in tags:
            return membership
    return None


def _automatic(message: ParsedMail) -> bool:
    """An auto-reply or a list's mail: answering it could start a mail loop."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    precedence = str(message.get("Precedence", "")).strip().lower()
    return auto != "no" or precedence in {"bulk", "list", "junk"}


def _reply(user: AbstractBaseUser, subject: str, text: str) -> EmailMessage:
    subject = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    return EmailMessage(
        subject=subject,
        body=text,
        to=[user.email],
        headers={"Auto-Submitted": "auto-replied"},
        reply_to=[settings.IRONFIST_ORDERS_EMAIL] if settings.IRONFIST_ORDERS_EMAIL else None,
    )
