"""Email is the mail in play-by-mail, a human interface like the pages: turn mails (`turns`: reminders and
each reader's results) and orders by email (`orders`: read a player's mail, reply with what stands).
Each is written for one reader, in their language and time zone, from what they may see on the web."""
