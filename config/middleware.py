"""Requests refused before any view: a NUL byte in the path, the query string or a form's fields.

No code, slug, number or text of ours holds a NUL, and PostgreSQL cannot store or compare text with one
(psycopg raises before the query is sent), so a NUL that reached a lookup or a column was a 500. A form's
fields are checked here, whatever form reads them, so that no view need remember to; the API's JSON bodies are
checked by its parser (config/parsers.py), an uploaded file's content by whatever reads it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class NulByteMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "%00" in query or "\x00" in query:
            return HttpResponseBadRequest("a NUL byte in the address", content_type="text/plain")
        if request.method == "POST" and request.content_type in FORM_TYPES:
            for name, values in request.POST.lists():
                if "\x00" in name or any("\x00" in value for value in values):
                    where = name.replace("\x00", "\\0")[:60]
                    text = f"a NUL byte in the form's field {where!r}: no text may hold one"
                    return HttpResponseBadRequest(text, content_type="text/plain")
        return self.get_response(request)
