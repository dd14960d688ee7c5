"""Every input has a bound, by construction (campaign/bounds.py): each route's body has a shape whose fields
are bounded, each form's fields are, and no view reads the request around them.

A new endpoint or form without bounds fails here, naming the field; the hostile-input tests then need no
word about it.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest
from django import forms
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

from campaign.bounds import Shape, unbounded

ROOT = Path(__file__).resolve().parents[2]
APPS = ("campaign", "orders", "rules", "frontend", "config")
BODY_METHODS = {"POST", "PUT", "PATCH"}

# Keys a view may read by hand, each bounded by what reads it.
READ_BY_HAND = {
    "page": "Django's Paginator takes any value (a page that is not one is the last or the first)",
    "next": "checked by url_has_allowed_host_and_scheme before anyone is sent there",
}


def _modules() -> list[str]:
    names = []
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, f"{app}."):
            if ".migrations" not in info.name and not info.name.startswith("rules.engine"):
                names.append(info.name)
    return names


def _bodies() -> list[tuple[str, object]]:
    """(method and path, the shape drf-spectacular documents for its body) of each route that takes one."""
    generator = SchemaGenerator()
    generator._initialise_endpoints()
    return [
        (f"{method} {path}", view.schema.get_request_serializer())
        for path, _, method, view in generator._get_paths_and_endpoints()
        if method in BODY_METHODS
    ]


@pytest.mark.parametrize(("route", "shape"), _bodies(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_body_has_a_bounded_shape(route, shape) -> None:
    if shape is None:  # takes no body: the reading test below holds it to that
        return
    if not isinstance(shape, serializers.BaseSerializer | type) or (
        isinstance(shape, type) and not issubclass(shape, serializers.BaseSerializer)
    ):
        pytest.fail(f"{route}: its body has no shape (declare a campaign.bounds.Shape), got {shape!r}")
    assert list(unbounded(shape)) == [], f"{route}: fields without a bound"


def _forms() -> list[type[forms.BaseForm]]:
    for name in _modules():
        importlib.import_module(name)
    found, todo = [], [forms.BaseForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.split(".")[0] in APPS:
                found.append(sub)
    return found


@pytest.mark.parametrize("form", _forms(), ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_every_form_field_is_bounded(form) -> None:
    assert list(unbounded(form)) == [], f"{form.__module__}.{form.__name__}: fields without a bound"


# -- reading the request by hand ------------------------------------------------------------------------


def _view_files() -> list[Path]:
    files = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel or rel.startswith("rules/engine/"):
                continue
            if rel not in READERS and "request." in path.read_text(encoding="utf-8"):
                files.append(path)
    return files


_INPUTS = {"POST", "GET", "data", "query_params"}
# Modules that read the request for another reason than taking a value in, each with why.
READERS = {
    "config/middleware.py": "the NUL guard looks at every field of every form, before any view",
    "frontend/views/lockout.py": "counts a failed login by the name tried (django-axes), storing nothing",
    "campaign/bounds.py": "reads a query through its shape: the one place that does",
}


def _is_input(node: ast.AST) -> bool:
    """`request.POST`, `request.data`, `self.request.GET`, ..."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr in _INPUTS
        and (
            (isinstance(node.value, ast.Name) and node.value.id == "request")
            or (isinstance(node.value, ast.Attribute) and node.value.attr == "request")
        )
    )


def _is_call_of(node: ast.AST | None, name: str) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def _reads_by_hand(tree: ast.AST) -> list[tuple[int, str]]:
    """Where a view takes a value of the request without a form or a shape: `request.POST.get("x")`,
    `request.POST["x"]`, `request.data` used as a value. Handing the whole input to a form or a shape is the
    bounded way (`Form(request.POST)`, `body(request, Shape)`, `Shape(data=request.data)`); comparing a value
    with a constant takes nothing in."""
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    found = []
    for node in ast.walk(tree):
        if not _is_input(node):
            continue
        parent = parents.get(node)
        # the whole input handed to a form or a shape
        if isinstance(parent, ast.Call) and node in parent.args:
            continue
        if isinstance(parent, ast.keyword) and parent.arg == "data":
            continue
        if isinstance(parent, ast.Compare) or (
            isinstance(parent, ast.Call)
            and isinstance(parent.func, ast.Name)
            and parent.func.id == "isinstance"
        ):
            continue
        read = parent
        key = None
        if isinstance(parent, ast.Attribute) and parent.attr in ("get", "getlist", "lists", "items", "keys"):
            call = parents.get(parent)
            if isinstance(call, ast.Call) and call.args and isinstance(call.args[0], ast.Constant):
                key = call.args[0].value
            read = parents.get(call) if isinstance(call, ast.Call) else None
        elif isinstance(parent, ast.Subscript) and isinstance(parent.slice, ast.Constant):
            key = parent.slice.value
            read = parents.get(parent)
        if key in READ_BY_HAND:
            continue
        if isinstance(read, ast.Compare) and all(isinstance(c, ast.Constant) for c in read.comparators):
            continue  # `request.POST.get("action") == "check"`: compared, not taken in
        found.append((node.lineno, ast.unparse(parent if parent is not None else node)[:80]))
    return found


@pytest.mark.parametrize("path", _view_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_view_reads_the_request_by_hand(path) -> None:
    found = _reads_by_hand(ast.parse(path.read_text(encoding="utf-8")))
    rel = path.relative_to(ROOT).as_posix()
    assert found == [], f"{rel} reads the request without a form or a shape: " + "; ".join(
        f"line {line}: {text}" for line, text in found
    )


# -- the walk itself --------------------------------------------------------------------------------------


class _Loose(Shape):
    note = serializers.CharField()
    count = serializers.IntegerField(min_value=0)
    tags = serializers.ListField(child=serializers.CharField(max_length=5))
    anything = serializers.JSONField()


class _Tight(Shape):
    note = serializers.CharField(max_length=200)
    count = serializers.IntegerField(min_value=0, max_value=10)
    tags = serializers.ListField(child=serializers.CharField(max_length=5), max_length=3)


class _LooseForm(forms.Form):
    reason = forms.CharField()
    group = forms.IntegerField(min_value=1)


def test_the_walk_finds_each_unbounded_field() -> None:
    assert [p.split(" ")[0] for p in unbounded(_Loose)] == ["note", "count", "tags", "anything"]
    assert list(unbounded(_Tight)) == []
    assert [p.split(" ")[0] for p in unbounded(_LooseForm)] == ["reason", "group"]


def test_a_shape_refuses_keys_it_does_not_know() -> None:
    shape = _Tight(data={"note": "x", "count": 1, "tags": [], "comment": "y" * 10})
    assert not shape.is_valid()
    assert shape.errors["comment"][0].code == "unknown_field"


def test_the_reading_walk_finds_reads_by_hand() -> None:
    tree = ast.parse(
        "def v(request):\n"
        "    a = request.POST.get('reason', '')\n"
        "    b = request.POST['group']\n"
        "    c = service(entry=request.data)\n"
        "    if request.POST.get('action') == 'x': pass\n"
        "    f = Form(request.POST)\n"
        "    s = Shape(data=request.data)\n"
        "    p = request.GET.get('page')\n"
    )
    assert sorted(line for line, _ in _reads_by_hand(tree)) == [2, 3, 4]
