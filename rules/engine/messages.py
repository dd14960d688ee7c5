"""Messages as data: what a person reads is a `Message`, a stable code with its parameters.

Engines, services and validation emit messages; they never build sentences. The English template of each code
is registered once, in the catalogue of the system or layer that owns the code (`messages_register`), marked
with `gettext_noop` so that `makemessages` collects it; the edge (pages, mails, the API) renders a
message in the reader's language by translating the template and filling in the
parameters. Nothing parses a sentence back.

Templates use `str.format` fields: ``"{target} is not adjacent to {origin}"``. A parameter may itself be a
`Message` (a reason within a reason), rendered in the same language. Parameters are plain JSON values, so
that a message can be stored (`to_dict`) and rendered years later in a language chosen then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


def gettext_noop(text: str) -> str:
    """Marks a template for the translation catalogue (`makemessages` finds the name); the edge translates."""
    return text


CATALOGUE: dict[str, str] = {}


def messages_register(templates: Mapping[str, str], prefix: str = "") -> None:
    """Add codes and their English templates; a code is owned by one place only. `prefix` begins every code
    (a layer's own, like "results."), so that a catalogue names each code once, without it."""
    for code, template in templates.items():
        code = prefix + code
        if CATALOGUE.get(code, template) != template:
            raise ValueError(f"message code {code!r} is registered twice with different texts")
        CATALOGUE[code] = template


@dataclass(frozen=True)
class Message:
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": {k: _plain(v) for k, v in self.params.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        return cls(str(data["code"]), {k: _revived(v) for k, v in (data.get("params") or {}).items()})

    def render(
        self, translate: Callable[[str], str] = str, param: Callable[[str, Any], Any] | None = None
    ) -> str:
        """The text: the template through `translate`, each parameter through `param(name, value)` (which
        may render a value of its own kind, a duration say); a Message within, or a list of them (joined
        with ", "), is rendered the same way."""
        template = translate(CATALOGUE[self.code]) if self.code in CATALOGUE else self.code

        def value(name: str, v: Any) -> Any:
            if param is not None:
                v = param(name, v)
            if isinstance(v, Message):
                return v.render(translate, param)
            if isinstance(v, list | tuple):
                return ", ".join(str(value(name, item)) for item in v)
            return v

        values = {k: value(k, v) for k, v in self.params.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return CATALOGUE.get(self.code, self.code)

    def __str__(self) -> str:
        """English, for logs, exceptions and the API's readable `message`."""
        return self.render()


def message_data(code: str, params: dict[str, Any]) -> dict[str, Any]:
    """A message as `Message.to_dict` stores it, made straight from parameters that are plain JSON values
    already (numbers, text, stored messages): a report's arithmetic writes thousands of these a turn."""
    return {"code": code, "params": params}


def _plain(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_dict()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _revived(value: Any) -> Any:
    if isinstance(value, Mapping) and set(value) == {"code", "params"}:
        return Message.from_dict(value)
    if isinstance(value, list):
        return [_revived(v) for v in value]
    return value


class ErrorKind(StrEnum):
    """What a refusal says of the request, which the API answers with its HTTP status (BATTLE_SYSTEMS.md,
    results entry): the input is wrong (400), the action is not the reader's (403), what it names is not
    there for the reader (404), or was there and is gone for good (410: an invitation link used, expired or
    revoked), or it conflicts with the current state (409: a closed turn, a stale version), or cannot be done
    now for a fault of the server's own (503: the task queue does not answer)."""

    INVALID = "invalid"
    REFUSED = "refused"
    NOT_VISIBLE = "not_visible"
    CONFLICT = "conflict"
    GONE = "gone"
    UNAVAILABLE = "unavailable"


# The kind of each code that is not plain invalid input, declared by the owner of the code beside its text.
KINDS: dict[str, ErrorKind] = {}
# When one refusal holds faults of several kinds, the answer is the first of these it has.
PRECEDENCE = (
    ErrorKind.NOT_VISIBLE,
    ErrorKind.REFUSED,
    ErrorKind.GONE,
    ErrorKind.CONFLICT,
    ErrorKind.INVALID,
    ErrorKind.UNAVAILABLE,
)


def kinds_register(kind: ErrorKind, codes: Iterable[str], prefix: str = "") -> None:
    """Declare the kind of codes registered with `messages_register` (with the same prefix)."""
    for code in codes:
        KINDS[prefix + code] = kind


@dataclass(frozen=True)
class Fault:
    """One thing wrong with a request, as the API's error envelope gives it: a stable `code` (the spec's),
    what it refers to (`ref`, as the spec writes it: `N:T`, a unit id, a ruleset key), the input `field`
    at fault, and the `message` with its parameters, rendered in the reader's language at the edge."""

    code: str
    message: Message
    ref: Any = None
    field: str | None = None

    @property
    def kind(self) -> ErrorKind:
        """The kind its code declares; a variant of a code's text (`battle_not_open.waiting`) is the
        code's."""
        code = self.message.code
        return KINDS.get(code) or KINDS.get(code.rpartition(".")[0]) or ErrorKind.INVALID


class Refusal(Exception):
    """The one error type of the services and engines that refuse a request: it lists its faults, and its
    kind is the most telling of theirs. The API's one exception handler answers every Refusal with the
    error envelope and the kind's status; the pages render the same faults on their forms."""

    def __init__(self, faults: list[Fault], text: str | None = None) -> None:
        super().__init__(text if text is not None else "; ".join(str(f.message) for f in faults))
        self._faults = list(faults)

    def faults(self) -> list[Fault]:
        return self._faults

    @property
    def kind(self) -> ErrorKind:
        kinds = {f.kind for f in self.faults()}
        return next((k for k in PRECEDENCE if k in kinds), ErrorKind.INVALID)


class InputError(Refusal, ValueError):
    """An input that cannot be accepted (an order, a GM's change): `field` names the part at fault for
    forms and the API, `message` says why. Raised by the services, rendered by the page, mail or API."""

    def __init__(self, field: str, message: Message) -> None:
        super().__init__([Fault(message.code, message, field=field)])
        self.field = field
        self.message = message

    @classmethod
    def of(cls, field: str, code: str, /, **params: Any) -> InputError:
        return cls(field, Message(code, params))

    @property
    def code(self) -> str:
        return self.message.code
