"""The language chooser of the top bar: Django's own set_language (a cookie for the web), and for a signed-in
user also the profile's language, so that their mails are written in the language they read the site in."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from campaign.lifecycle import language_first_seen, language_set
from frontend.forms import LanguageChoice


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    response = set_language(request)
    chosen = LanguageChoice(request.POST)
    if request.user.is_authenticated and chosen.is_valid():
        language_set(user=request.user, language=chosen.cleaned_data["language"])
    return response


def language_remember(*, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """At login (user_logged_in): the browser's language (or the chooser's cookie) becomes the language of
    the user's mails, unless they have chosen one already: "the browser's language by default"."""
    if request is not None:
        language_first_seen(user=user, language=translation.get_language_from_request(request))
