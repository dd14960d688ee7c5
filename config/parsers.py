"""The API's JSON parser: DRF's, with a limit on nesting that the standard library does not have.

`json.loads` recurses once per `[` or `{`: a kilobyte of brackets exhausts Python's stack and raises
RecursionError, which is no ValueError, so DRF answered it with a 500. No request of ours nests deeper than
a few levels; anything past MAX_DEPTH is refused as a 400 before it reaches a serializer.
"""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

MAX_DEPTH = 32


def json_check(data: Any, *, limit: int = MAX_DEPTH) -> None:
    """Raise ValueError when `data` nests lists and mappings deeper than `limit`, or holds a string that is
    not text (a lone surrogate: JSON may escape half a UTF-16 pair, no database stores it). Iterative."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError("a string that is not text (a lone UTF-16 surrogate)") from None
        elif isinstance(value, dict | list):
            if depth > limit:
                raise ValueError(f"nested deeper than {limit} levels")
            items = [*value.keys(), *value.values()] if isinstance(value, dict) else value
            stack.extend((v, depth + 1) for v in items)


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
            json_check(data)
        except RecursionError as error:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels") from error
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from error
        return data
