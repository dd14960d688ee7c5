"""Email is the mail in play-by-mail, a human interface like the pages: turn mails (`turns`: reminders and
each reader's results) and orders by email (`orders`: read a player's mail, reply with what stands).
Each is written for one reader, in their language and time zone, from what they may see on the web.

These are every system's mails and name none: a battle system adds its part through the presentation
registry (frontend.systems.MailParts), and its own mails (its battles', its turn report) live in its
package (`rules/<system>/mails.py`, their tasks in its `tasks.py`, their templates in its `<app>/email/`),
built on `turns`' parts."""
