"""Messages as data: what a person reads is a `Message`, a stable code with its parameters.

Engines, services and validation emit messages; they never build sentences. The English template of each code
is registered once, in the catalogue of the system or layer that owns the code (`messages_register`), marked
with `gettext_noop` so that `makemessages` collects it; the edge (pages, mails, the API) renders a
message in the reader's language by translating the template and filling in the
parameters. Nothing parses a sentence back.

Templates use `str.format` fields: ``"{target} is not adjacent to {origin}"``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


def gettext_noop(text: str) -> str:
    """Marks a template for the translation catalogue (`makemessages` finds the name); the edge translates."""
    return text


CATALOGUE: dict[str, str] = {}


def messages_register(templates: Mapping[str, str]) -> None:
    """Add codes and their English templates; a code is owned by one place only."""
    for code, template in templates.items():
        if CATALOGUE.get(code, template) != template:
            raise ValueError(f"message code {code!r} is registered twice with different texts")
        CATALOGUE[code] = template


@dataclass(frozen=True)
class Message:
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        return cls(str(data["code"]), dict(data.get("params") or {}))

    def render(
        self, translate: Callable[[str], str] = str, param: Callable[[str, Any], Any] | None = None
    ) -> str:
        """The text: the template through `translate`, each parameter through `param(name, value)`."""
        template = translate(CATALOGUE[self.code]) if self.code in CATALOGUE else self.code
        values = {k: (param(k, v) if param else v) for k, v in self.params.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return CATALOGUE.get(self.code, self.code)

    def __str__(self) -> str:
        """English, for logs, exceptions and the API's readable `message`."""
        return self.render()
