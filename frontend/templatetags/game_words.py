"""`{{ turn.status|game_word:"status" }}`: a stored word of the game in the reader's language;
`{{ line|said }}`: a message in it."""

from __future__ import annotations

from django import template

from frontend.terms import said, word
from rules.engine.messages import Message

register = template.Library()


@register.filter
def game_word(value: str | None, kind: str) -> str:
    return word(kind, value)


@register.filter(name="said")
def said_filter(message: Message | str) -> str:
    """`{{ line|said }}`: a message (rules.engine.messages) in the reader's language."""
    return said(message)
