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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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


class InputError(ValueError):
    """An input that cannot be accepted (an order, a GM's change): `field` names the part at fault for
    forms and the API, `message` says why. Raised by the services, rendered by the page, mail or API."""

    def __init__(self, field: str, message: Message) -> None:
        super().__init__(str(message))
        self.field = field
        self.message = message

    @classmethod
    def of(cls, field: str, code: str, /, **params: Any) -> InputError:
        return cls(field, Message(code, params))

    @property
    def code(self) -> str:
        return self.message.code
