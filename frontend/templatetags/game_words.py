"""`{{ turn.status|game_word:"status" }}`: a stored word of the game in the reader's language."""

from __future__ import annotations

from django import template

from frontend.terms import word

register = template.Library()


@register.filter
def game_word(value: str | None, kind: str) -> str:
    return word(kind, value)
