"""The API's JSON parser: DRF's, with a limit on nesting that the standard library does not have.

`json.loads` recurses once per `[` or `{`: a kilobyte of brackets exhausts Python's stack and raises
RecursionError, which is no ValueError, so DRF answered it with a 500. No request of ours nests deeper than
a few levels; anything past MAX_DEPTH is refused as a 400 before it reaches a serializer.
"""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from campaign.bounds import refused_detail

MAX_DEPTH = 32


class NulError(ValueError):
    """A NUL in a string of the body, at `where` (`origin`, `orders[2].to`; empty: the body itself)."""

    def __init__(self, where: str) -> None:
        super().__init__(f"a NUL character at {where or 'the top'}")
        self.where = where


def json_check(data: Any, *, limit: int = MAX_DEPTH) -> None:
    """Raise ValueError when `data` nests lists and mappings deeper than `limit`, or holds a string that is
    not text (a lone surrogate: JSON may escape half a UTF-16 pair, no database stores it) or holds a NUL
    (PostgreSQL's text cannot), naming where. Iterative; where a value is, is written out only for the one
    at fault (each value carries a link to its parent's place, not a path of its own)."""
    stack: list[tuple[Any, int, Place]] = [(data, 1, None)]
    while stack:
        value, depth, place = stack.pop()
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                where = _written(place)
                raise ValueError(f"not text (a lone UTF-16 surrogate) at {where or 'the top'}") from None
            if "\x00" in value:
                raise NulError(_written(place))
        elif isinstance(value, dict | list):
            if depth > limit:
                raise ValueError(f"nested deeper than {limit} levels")
            if isinstance(value, dict):
                for key, item in value.items():
                    # a key at fault is its mapping's fault: `units`, not `units.JV\0`
                    stack.extend(((key, depth + 1, place), (item, depth + 1, (place, key))))
            else:
                stack.extend((item, depth + 1, (place, i)) for i, item in enumerate(value))


# A value's place: its parent's place and its key or index there; None for the body itself.
Place = tuple[Any, str | int] | None


def _written(place: Place) -> str:
    """A place as the API's errors name a field: `orders[2].to`, `units`; empty for the body itself."""
    parts: list[str | int] = []
    while place is not None:
        place, part = place
        parts.append(part)
    where = ""
    for part in reversed(parts):
        where += f"[{part}]" if isinstance(part, int) else (f"{where and '.'}{part}")
    return where


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
            json_check(data)
        except NulError as error:
            raise ParseError({error.where: [refused_detail("nul_character")]}) from error
        except RecursionError as error:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels") from error
        except ValueError as error:
            raise ParseError(f"JSON parse error - {error}") from error
        return data
