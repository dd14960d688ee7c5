"""Plain SQL for the few statements on the hot path of every request, where the ORM's cost shows: the
campaign app's own (the API's viewer lookup, and with a token under a campaign the token read in the
same statement), and the helpers orders/sql.py shares.

Building a queryset's SQL costs the ORM about 1 ms on the benchmark machine, four times a simple
statement's round trip (`manage.py bench_api`). The API's viewer lookup and order entry therefore run
a handful of hand-written statements, each app's in its `sql.py`; these helpers keep them portable
between PostgreSQL and SQLite, name tables and columns as the models do (`sql_format`), and turn rows
into model instances through the fields' own converters, as the ORM would. What is off the hot path
stays with the ORM.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Model
from rest_framework.authtoken.models import Token

from campaign.models import Campaign, Membership, Nation, Turn

M = TypeVar("M", bound=Model)
User = get_user_model()


class _Table:
    """A model in a statement: `{Region}` is its table, `{Region.campaign}` the column of a field."""

    def __init__(self, model: type[Model]) -> None:
        self._model = model

    def __format__(self, spec: str) -> str:
        return self._model._meta.db_table

    def __getattr__(self, name: str) -> str:
        return self._model._meta.get_field(name).column


@lru_cache(maxsize=512)
def sql_format(sql: str, *models: type[Model]) -> str:
    """The statement with `{Model}` and `{Model.field}` replaced by the names in the models' `_meta`, so
    that a renamed table or column cannot leave a statement behind. Worked out once per statement (tens
    of microseconds, on the path where every millisecond was counted)."""
    return sql.format(**{model.__name__: _Table(model) for model in models})


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


def tables_analyze(*models: type[Model]) -> None:
    """Have PostgreSQL gather the statistics of the models' tables now (nothing on SQLite).

    Its planner estimates a campaign's rows from them. Autovacuum gathers them again only once a tenth of
    a table has changed, so on a server with other campaigns a new one can go unseen for weeks: PostgreSQL
    then takes it for a handful of rows, re-plans order entry's statements on every order (2 ms each) and
    walks every stack of the nation instead of the two regions asked for."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {', '.join(model._meta.db_table for model in models)}")


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


# --- The API's viewer lookup (campaign.selectors.viewer_of) ---------------------------------------------

VIEWER_PARTS = (Membership, Campaign, Nation, Turn)
TOKEN_PARTS = (Token, User)


def viewer_rows(*, user_id: int, slug: str) -> dict[type[Model], Model | None] | None:
    """The user's membership of campaign `slug`, its campaign, nation and unresolved turn, each a model
    instance (None where there is none), in one statement; None when the user is not in the campaign."""
    rows = sql_rows(
        sql_format(
            f"""
            SELECT {_parts_sql(VIEWER_PARTS, "mcnt")}
            FROM {{Membership}} m
            JOIN {{Campaign}} c ON c.{{Campaign.id}} = m.{{Membership.campaign}}
            LEFT JOIN {{Nation}} n ON n.{{Nation.id}} = m.{{Membership.nation}}
            LEFT JOIN {{Turn}} t ON t.{{Turn.campaign}} = c.{{Campaign.id}} AND t.{{Turn.status}} <> %s
            WHERE m.{{Membership.user}} = %s AND c.{{Campaign.slug}} = %s
            """,
            *VIEWER_PARTS,
        ),
        [Turn.Status.RESOLVED, user_id, slug],
    )
    return _parts(rows[0], VIEWER_PARTS) if rows else None


def token_viewer_rows(*, key: str, slug: str) -> dict[type[Model], Model | None] | None:
    """The API token `key` and its user, and what viewer_rows reads of the user in campaign `slug` (all
    None when the user is not in it), in one statement: a token's request under a campaign needs both.
    None when there is no such token."""
    rows = sql_rows(
        sql_format(
            f"""
            SELECT {_parts_sql(TOKEN_PARTS + VIEWER_PARTS, "kumcnt")}
            FROM {{Token}} k
            JOIN {{User}} u ON u.{{User.id}} = k.{{Token.user}}
            LEFT JOIN {{Membership}} m ON m.{{Membership.user}} = k.{{Token.user}}
                AND m.{{Membership.campaign}} = (
                    SELECT g.{{Campaign.id}} FROM {{Campaign}} g WHERE g.{{Campaign.slug}} = %s
                )
            LEFT JOIN {{Campaign}} c ON c.{{Campaign.id}} = m.{{Membership.campaign}}
            LEFT JOIN {{Nation}} n ON n.{{Nation.id}} = m.{{Membership.nation}}
            LEFT JOIN {{Turn}} t ON t.{{Turn.campaign}} = c.{{Campaign.id}} AND t.{{Turn.status}} <> %s
            WHERE k.{{Token.key}} = %s
            """,
            *TOKEN_PARTS,
            *VIEWER_PARTS,
        ),
        [slug, Turn.Status.RESOLVED, key],
    )
    return _parts(rows[0], TOKEN_PARTS + VIEWER_PARTS) if rows else None


def _parts_sql(models: Sequence[type[Model]], aliases: str) -> str:
    return ", ".join(columns_sql(model, alias) for model, alias in zip(models, aliases, strict=True))


def _parts(row: Sequence[Any], models: Sequence[type[Model]]) -> dict[type[Model], Model | None]:
    """The row of `_parts_sql(models, ...)` as an instance per model (None for a missing outer join's)."""
    found = {}
    for model in models:
        width = len(model._meta.concrete_fields)
        values, row = row[:width], row[width:]
        found[model] = instance_from_row(model, values) if values[0] is not None else None
    return found
