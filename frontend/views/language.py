"""The language chooser of the top bar: Django's own set_language (a cookie for the web), and for a signed-in
user also the profile's language, so that their mails are written in the language they read the site in."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from campaign.lifecycle import language_set


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        language_set(user=request.user, language=language)
    return response
