"""Read orders by email from a mailbox file: `manage.py read_order_mail PATH` (mbox file or Maildir folder).

Run it from cron or a mail delivery hook as often as you like: every message is handled once, by its
Message-ID, and the replies go out by Django's email backend. A message that cannot be handled is set
aside (remembered with the reason, logged) and the rest are read: one bad mail never stops the mailbox.
Only when even that cannot be written (the database is down) does the command stop, to run again later.
"""

from __future__ import annotations

import email
import logging
import mailbox
from email import policy
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from frontend.mail.orders import header_text, order_mail_receive, order_mail_set_aside

logger = logging.getLogger(__name__)


class Command(BaseCommand):
    help = "Enter the orders mailed by players, from an mbox file or a Maildir folder, and reply to each."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="an mbox file, or a Maildir folder (with cur/, new/ and tmp/)")

    def handle(self, *args, path: str, **options) -> None:
        box = _mailbox(Path(path))
        read = handled = 0
        for key in box.iterkeys():
            message = email.message_from_bytes(box.get_bytes(key), policy=policy.default)
            read += 1
            try:
                outcome = order_mail_receive(message=message)
                summary = None if outcome is None else outcome.summary
            except Exception as error:  # any bad mail: set it aside, read on
                logger.exception("order mail %s set aside", key)
                summary = order_mail_set_aside(message=message, error=error)
            if summary is None:
                continue
            handled += 1
            self.stdout.write(
                f"{summary}: {header_text(message, 'Subject')} from {header_text(message, 'From')}"
            )
        self.stdout.write(f"{read} message(s) read, {handled} new, {read - handled} seen before")


def _mailbox(path: Path) -> mailbox.Mailbox:
    if path.is_dir():
        if not (path / "cur").is_dir() or not (path / "new").is_dir():
            raise CommandError(f"{path}: a folder, but not a Maildir (no cur/ and new/ in it)")
        return mailbox.Maildir(path, factory=None, create=False)
    if path.is_file():
        return mailbox.mbox(path, factory=None, create=False)
    raise CommandError(f"{path}: no such file or folder")
