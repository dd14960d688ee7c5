"""Every input bounded by construction: the shapes a request body, a form or a query may have.

A value that reaches a service has passed a form (Django) or a serializer (DRF) whose every field is bounded:
text within the spec's limit where it names one (a dice purpose: 200 characters, COMPANY §8.2), else its
column's; whole numbers within their column's range; lists and mappings within a size; no key the shape does
not know. NUL is refused before any view (config/middleware.py for forms and addresses, config/parsers.py for
JSON). `tests/seam/test_bounds.py` walks every route, serializer and form with `unbounded` and fails where a
field has none, and where a view reads the request without one.

A view takes its body with `body(request, Shape)`: the shape's `validated_data`, or the API's 400 envelope
naming each field at fault.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from django import forms
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError

from campaign.messages import said
from rules.engine.messages import Message, gettext_noop, messages_register

# The range of the columns whole numbers are kept in (PostgreSQL's integer, and bigint).
INT_MAX = 2**31 - 1
BIGINT_MAX = 2**63 - 1
ASCII_WHOLE = re.compile(r"-?[0-9]{1,19}")
# Free text with no column of its own (a comment kept in a JSON document): as long as a letter may be.
TEXT_MAX = 5000
# Lists of a body (units of an order, dice of a roll) when neither the spec nor a setting names a size.
ITEMS_MAX = 200

messages_register(
    {
        "unknown_field": gettext_noop("{field}: not a field of this request"),
        "nul_character": gettext_noop("a NUL character, which no text may hold"),
        "too_many_entries": gettext_noop("at most {limit} entries"),
        "too_long": gettext_noop("at most {limit} characters written out as JSON"),
        "key_too_long": gettext_noop("{key}: a key longer than {limit} characters"),
    },
    prefix="bounds.",
)


class Shape(serializers.Serializer):
    """A request body's shape: its declared fields and nothing else; a key it does not know is refused by
    name (a typo must not be taken for an omitted field, nor anything be stored without a limit)."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise ValidationError({key: [refused_detail("unknown_field", field=key)] for key in unknown})
        return super().to_internal_value(data)


class BoundedDictField(serializers.DictField):
    """A mapping of keys the shape cannot list (a nation's code, a unit type): at most `max_length` of them,
    keys as long as a code may be."""

    def __init__(self, *, max_length: int, key_max_length: int = 30, **kwargs: Any) -> None:
        self.max_length = max_length
        self.key_max_length = key_max_length
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            if len(data) > self.max_length:
                raise ValidationError(refused_detail("too_many_entries", limit=self.max_length))
            long = [str(key)[:40] for key in data if len(str(key)) > self.key_max_length]
            if long:
                raise ValidationError(refused_detail("key_too_long", key=long[0], limit=self.key_max_length))
        return super().to_internal_value(data)


class WholeField(serializers.IntegerField):
    """A whole number in ASCII digits, as a client writes it: Python's int() also reads "٣" and " 3 "."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and not ASCII_WHOLE.fullmatch(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class BoundedJSONField(serializers.JSONField):
    """A value whose shape a battle system judges (a doctrine's fields): any JSON, at most `max_chars` of it
    written out (its depth is the parser's limit)."""

    def __init__(self, *, max_chars: int, **kwargs: Any) -> None:
        self.max_chars = max_chars
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if len(json.dumps(value, ensure_ascii=False)) > self.max_chars:
            raise ValidationError(refused_detail("too_long", limit=self.max_chars))
        return value


def refused_detail(code: str, message: str = "", **params: Any) -> ErrorDetail:
    """A field's error in DRF's terms, its message from the catalogue in the reader's language: the
    `message` code where it is a spec's own (`tabletop.score_too_long`), else this module's."""
    return ErrorDetail(said(Message(message or "bounds." + code, params)), code=code)


def body(request: Any, shape: type[serializers.Serializer], **context: Any) -> dict[str, Any]:
    """The request's body through `shape`: its validated data, plain JSON as the services keep it (dicts
    and lists: DRF's own types are for its answers), or a ValidationError the API's handler puts in its
    envelope (each field at fault named)."""
    serializer = shape(data=request.data, context={"request": request, **context})
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def query(request: Any, shape: type[serializers.Serializer]) -> dict[str, Any]:
    """The query string's parameters through `shape` (its own parameters only: a query may carry others, a
    cache-buster, that nothing reads)."""
    params = request.query_params if hasattr(request, "query_params") else request.GET
    fields = shape().fields
    serializer = shape(data={key: params.get(key) for key in fields if key in params})
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# -- the walk: what a field needs to be bounded -------------------------------------------------------------


def unbounded(shape: Any, path: str = "") -> Iterator[str]:
    """The paths of the fields of a serializer or a form (a class or an instance) that take input without a
    bound; empty when every one has its bound."""
    if isinstance(shape, type) and issubclass(shape, forms.BaseForm):
        for name, field in shape.base_fields.items():  # the declared fields, without the form's arguments
            yield from _form_field(field, f"{path}{name}")
        return
    if isinstance(shape, type):
        shape = shape()
    if isinstance(shape, serializers.ListSerializer):
        if getattr(shape, "max_length", None) is None:
            yield f"{path}[] (no max_length)"
        yield from unbounded(shape.child, f"{path}[].")
        return
    if isinstance(shape, serializers.Serializer):
        if not isinstance(shape, Shape | serializers.ModelSerializer):
            yield f"{path or type(shape).__name__} (unknown keys not refused: subclass campaign.bounds.Shape)"
        for name, field in shape.fields.items():
            if not field.read_only:
                yield from _serializer_field(field, f"{path}{name}")


def _serializer_field(field: serializers.Field, path: str) -> Iterator[str]:
    if isinstance(field, serializers.Serializer | serializers.ListSerializer):
        yield from unbounded(field, f"{path}.")
    elif isinstance(field, serializers.ChoiceField | serializers.BooleanField | serializers.RelatedField):
        return
    elif isinstance(field, serializers.CharField):
        if field.max_length is None:
            yield f"{path} (text without max_length)"
    elif isinstance(field, serializers.IntegerField | serializers.FloatField | serializers.DecimalField):
        if field.min_value is None or field.max_value is None:
            yield f"{path} (a number without min_value and max_value)"
    elif isinstance(field, BoundedJSONField):
        return
    elif isinstance(field, BoundedDictField):
        yield from _serializer_field(field.child, f"{path}{{}}")
    elif isinstance(field, serializers.ListField):
        if field.max_length is None:
            yield f"{path} (a list without max_length)"
        yield from _serializer_field(field.child, f"{path}[]")
    elif isinstance(field, serializers.DictField | serializers.JSONField | serializers.HStoreField):
        yield f"{path} (a mapping without a bound: use campaign.bounds.BoundedDictField or a Shape)"
    elif not isinstance(field, _BOUNDED_BY_FORMAT):
        yield f"{path} ({type(field).__name__}: no known bound)"


# Fields whose values have a fixed format (a date, a time, a UUID, an address): bounded by parsing.
_BOUNDED_BY_FORMAT = (
    serializers.DateTimeField,
    serializers.DateField,
    serializers.TimeField,
    serializers.DurationField,
    serializers.UUIDField,
    serializers.IPAddressField,
    serializers.HiddenField,
    serializers.SerializerMethodField,
    serializers.ReadOnlyField,
)


def _form_field(field: forms.Field, path: str) -> Iterator[str]:
    if isinstance(field, forms.ChoiceField) and type(field).valid_value is not forms.ChoiceField.valid_value:
        # offers choices but takes other values too (frontend.forms.JudgedField): bounded by its length
        if getattr(field, "max_length", None) is None:
            yield f"{path} (takes values beyond its choices, without max_length)"
        return
    if isinstance(field, forms.ChoiceField | forms.ModelChoiceField | forms.BooleanField):
        return
    if isinstance(field, forms.JSONField):  # a CharField to Django: its text, not its shape, is bounded
        yield f"{path} (JSON without a bound)"
    elif isinstance(field, forms.CharField):
        if field.max_length is None:
            yield f"{path} (text without max_length)"
    elif isinstance(field, forms.IntegerField):  # FloatField and DecimalField are IntegerFields to Django
        if field.min_value is None or field.max_value is None:
            yield f"{path} (a number without min_value and max_value)"
    elif isinstance(field, forms.FileField):
        if getattr(field, "max_bytes", None) is None:
            yield f"{path} (a file without max_bytes)"
    elif not isinstance(field, forms.DateField | forms.DateTimeField | forms.TimeField | forms.DurationField):
        yield f"{path} ({type(field).__name__}: no known bound)"
