"""Requests refused before any view: a NUL byte in the path or the query string.

No code, slug or number of ours holds a NUL, and PostgreSQL cannot compare text with one (psycopg raises
before the query is sent), so a lookup by such a code was a 500. Form fields and the API's text fields
refuse NUL themselves (Django's and DRF's CharField); this is for what reaches a view as a URL.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest


class NulByteMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path or "%00" in query or "\x00" in query:
            return HttpResponseBadRequest("a NUL byte in the address", content_type="text/plain")
        return self.get_response(request)
