"""What a browser would send from a page's form: its fields as the page filled them in (inputs, the selected
option of each select, the ticked checkboxes), read with the standard library's HTML parser."""

from __future__ import annotations

from html.parser import HTMLParser


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[list[tuple[str, str]]] = []
        self._select: str | None = None
        self._first: tuple[str, str] | None = None
        self._chosen = False
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append([])
            self._inside = True
        elif not self._inside:
            return
        elif tag == "input" and "name" in a:
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.forms[-1].append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select, self._first, self._chosen = a.get("name"), None, False
        elif tag == "option" and self._select:
            if self._first is None:
                self._first = (self._select, a.get("value", ""))
            if "selected" in a:
                self.forms[-1].append((self._select, a.get("value", "")))
                self._chosen = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select:
            if not self._chosen and self._first is not None:
                self.forms[-1].append(self._first)
            self._select = None
        elif tag == "form":
            self._inside = False


def form_fields(html: str, which: str) -> dict[str, str | list[str]]:
    """The fields of the form whose hidden `form` input is `which`; a name given more than once is a list."""
    parser = _Forms()
    parser.feed(html)
    for fields in parser.forms:
        if ("form", which) in fields:
            data: dict[str, str | list[str]] = {}
            for name, value in fields:
                if name in data:
                    old = data[name]
                    data[name] = [*old, value] if isinstance(old, list) else [old, value]
                else:
                    data[name] = value
            return data
    raise AssertionError(f"no form {which!r} on the page")
