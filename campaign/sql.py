"""Plain SQL for the few reads on the hot path of every request, where the ORM's cost shows.

Building a queryset's SQL costs the ORM about 1 ms on the benchmark machine, four times a simple
statement's round trip (`manage.py bench_api`). The API's viewer lookup and order entry therefore run
a handful of hand-written statements; these helpers keep them portable between PostgreSQL and SQLite
and turn their rows into model instances through the fields' own converters, as the ORM would.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model

M = TypeVar("M", bound=Model)


def sql_rows(sql: str, params: Sequence[Any]) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def sql_in(values: Iterable[Any]) -> tuple[str, list[Any]]:
    """Placeholders for an IN (...) list, and its parameters."""
    values = list(values)
    return ", ".join(["%s"] * len(values)), values


def row_lock_sql(*, of: str = "", share: bool = False) -> str:
    """FOR NO KEY UPDATE [OF alias], or with `share` FOR KEY SHARE, on PostgreSQL; nothing on SQLite,
    which lets one writer in at a time anyway."""
    if connection.vendor != "postgresql":
        return ""
    return f"FOR {'KEY SHARE' if share else 'NO KEY UPDATE'}{f' OF {of}' if of else ''}"


def columns_sql(model: type[Model], alias: str, names: Sequence[str] | None = None) -> str:
    """`alias.column, ...` for the model's fields named (by attribute name), or all of them."""
    return ", ".join(f"{alias}.{column}" for column in _columns(model, names))


def instance_from_row(model: type[M], values: Sequence[Any], names: Sequence[str] | None = None) -> M:
    """A model instance from the values of `columns_sql(model, alias, names)`, converted as the ORM does.

    Fields left out of `names` are deferred: reading one loads it from the database.
    """
    attnames, converters = _conversion(model, None if names is None else tuple(names), connection.vendor)
    converted = []
    for value, (col, steps) in zip(values, converters, strict=True):
        for step in steps:
            value = step(value, col, connection)
        converted.append(value)
    return model.from_db(connection.alias, attnames, converted)


@cache
def _conversion(model: type[Model], names: tuple[str, ...] | None, vendor: str) -> tuple[list[str], list]:
    """The attribute names and, per column, the converters the ORM would apply (they depend on the
    database's vendor only, so they are worked out once)."""
    fields = [model._meta.get_field(name) for name in _names(model, names)]
    converters = []
    for field in fields:
        col = field.cached_col
        converters.append((col, connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
    return [f.attname for f in fields], converters


def _names(model: type[Model], names: Sequence[str] | None) -> list[str]:
    if names is not None:
        return list(names)
    return [f.attname for f in model._meta.concrete_fields]


def _columns(model: type[Model], names: Sequence[str] | None) -> list[str]:
    return [model._meta.get_field(name).column for name in _names(model, names)]
