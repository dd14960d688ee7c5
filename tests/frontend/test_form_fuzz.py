"""Every form on the GM's and the player's pages, filled with hostile values: never a server error.

The forms are found in the pages themselves (each <form method="post"> and the names of its fields), so a
new form is fuzzed without a word here. Values mix the fields' own choices with what breaks parsers and
columns: numbers past 2³¹ and 2⁶³, digits that are not ASCII, NUL bytes, far dates, long text.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.core.signals import got_request_exception
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.conftest import examples

HOSTILE = [
    "",
    "0",
    "-1",
    "2147483648",
    "-2147483649",
    "99999999999",
    "9223372036854775808",
    "1" * 400,
    "1e309",
    "NaN",
    "²",
    "٣",
    "\x00",
    "N1\x00",
    "9999-12-31T23:59",
    "9999-12-31 23:59",
    "0001-01-01T00:00",
    "2026-02-30T10:00",
    "x" * 5000,
    "Europe/Nowhere",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "on",
]


class _Forms(HTMLParser):
    """(action, {field name: [choices]}) for each POST form of a page; a text field has no choices."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, list[str]]]] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self.forms.append((a.get("action") or "", {}))
        elif not self.forms:
            return
        fields = self.forms[-1][1]
        name = a.get("name")
        if tag in ("input", "textarea") and name and name != "csrfmiddlewaretoken":
            fields.setdefault(name, [])
            if a.get("type") in ("checkbox", "radio") and a.get("value"):
                fields[name].append(a["value"])
        elif tag == "select" and name:
            self._select = name
            fields.setdefault(name, [])
        elif tag == "option" and self._select and a.get("value") is not None:
            fields[self._select].append(a["value"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def _forms_on(client, url: str) -> list[tuple[str, dict[str, list[str]]]]:
    page = client.get(url)
    assert page.status_code == 200, url
    parser = _Forms()
    parser.feed(page.content.decode())
    # The language chooser and logging out are Django's own; they are not what is tested here.
    return [(a, f) for a, f in parser.forms if a and not re.search(r"/(language|logout|i18n)/", a)]


def _value(choices: list[str]) -> st.SearchStrategy[str]:
    hostile = st.sampled_from(HOSTILE) | st.text(max_size=40)
    return (st.sampled_from(choices) | hostile) if choices else hostile


def _filled(fields: dict[str, list[str]]) -> st.SearchStrategy[dict[str, str]]:
    # Each field present with a value, or left out.
    return st.fixed_dictionaries({}, optional={name: _value(choices) for name, choices in fields.items()})


@pytest.fixture
def server_errors():
    """The exceptions a view let escape (Django makes them a 500), however the test client reports them."""
    seen: list[BaseException] = []

    def record(sender, request, **kwargs):
        import sys

        seen.append(sys.exc_info()[1])

    got_request_exception.connect(record)
    yield seen
    got_request_exception.disconnect(record)


def _fuzz(client, forms, data, server_errors) -> None:
    client.raise_request_exception = False
    for action, fields in forms:
        del fields  # the values come from `data`, drawn per form
        response = client.post(action, data[action])
        assert response.status_code < 500, (action, data[action], server_errors[-1:])


FUZZ = settings(
    max_examples=examples(40),
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@pytest.mark.parametrize("role, page", [("gm", "gm"), ("player", "campaign")])
def test_no_form_answers_hostile_input_with_a_server_error(
    as_role, conquest_played, role, page, server_errors
):
    client = as_role(role)
    forms = _forms_on(client, f"/c/demo/{'gm/' if page == 'gm' else ''}")
    assert len(forms) >= (8 if role == "gm" else 1), forms
    strategy = st.fixed_dictionaries({action: _filled(fields) for action, fields in forms})

    @FUZZ
    @given(strategy)
    def fuzz(data):
        _fuzz(client, forms, data, server_errors)

    fuzz()
