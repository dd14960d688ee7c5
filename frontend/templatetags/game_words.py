"""`{{ turn.status|game_word:"status" }}`: a stored word of the game in the reader's language;
`{{ line|said }}`: a message in it."""

from __future__ import annotations

from django import template

from frontend.terms import said, system_title, word
from rules.engine.messages import Message

register = template.Library()


@register.filter
def game_word(value: str | None, kind: str) -> str:
    return word(kind, value)


register.filter("system_title", system_title)


@register.filter(name="said")
def said_filter(message: Message | str) -> str:
    """`{{ line|said }}`: a message (rules.engine.messages) in the reader's language."""
    return said(message)


# The warnings a result version keeps (TABLETOP.md A6.4) are stored as `code:side`; each reads as its message.
WARNING_PARAMS = {"winner_wiped_out": "W", "defender_wiped_out": "D"}


@register.filter
def result_warning(stored: str, key: str) -> str:
    """`{{ w|result_warning:version.battle.key }}`: a kept warning of the battle `key` in the reader's
    language, its code first; a code without a message stays as it is."""
    code, _, side = str(stored).partition(":")
    if code not in WARNING_PARAMS:
        return str(stored)
    params = {WARNING_PARAMS[code]: side, "place": str(key).partition(":")[2]}
    return f"{stored} — {said(Message('tabletop.' + code, params))}"
