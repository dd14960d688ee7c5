"""Set-based writes: many rows in one statement, whatever their number.

Django's bulk_create and bulk_update split their work into batches of at most 999 parameters on SQLite
(and bulk_update builds one CASE branch per row), so their query count grows with the map. Here the rows
travel as a single JSON parameter that the database unpacks into a table (`jsonb_to_recordset` on
PostgreSQL, `json_each` on SQLite): one statement for any number of rows, on both backends. Inserts on
PostgreSQL go by COPY instead, which is faster still.

On PostgreSQL these statements bind their parameters rather than have psycopg quote them into the SQL
(Django's default, client-side binding): the server would otherwise lex a large JSON value as one string
literal, which took it twice as long as the value bound (a turn's 3 MB result). `row_save` does the same
for one model instance.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import psycopg
from django.db import connection, models
from psycopg.types.json import Jsonb


def rows_table(fields: Sequence[models.Field]) -> str:
    """SQL for a derived table `j` with a column per field, read from one JSON array parameter."""
    if connection.vendor == "postgresql":
        spec = ", ".join(f"{f.column} {f.db_type(connection)}" for f in fields)
        return f"(SELECT * FROM jsonb_to_recordset(%s::jsonb) AS x({spec})) AS j"
    if connection.vendor == "sqlite":
        spec = ", ".join(f"json_extract(value, '$.{f.column}') AS {f.column}" for f in fields)
        return f"(SELECT {spec} FROM json_each(%s)) AS j"
    raise NotImplementedError(f"set-based writes for {connection.vendor}")


def _fields(model: type[models.Model], names: Sequence[str]) -> list[models.Field]:
    return [model._meta.get_field(name) for name in names]


def rows_payload(fields: Sequence[models.Field], rows: Iterable[Mapping[str, Any]]) -> str:
    """The JSON parameter for rows_table: each row's values keyed by field name, sent under its column."""
    return json.dumps([{f.column: row[f.name] for f in fields} for row in rows])


def rows_insert(
    *, model: type[models.Model], columns: Sequence[str], rows: Iterable[Mapping[str, Any]]
) -> None:
    """INSERT every row in one statement (run even with no rows, so the query count stays fixed).

    On PostgreSQL the rows go in by COPY, the fastest way in: a turn's reports took twice as long
    unpacked from one JSON parameter."""
    if connection.vendor == "postgresql":
        _rows_copy(model=model, fields=_fields(model, columns), rows=rows)
    else:
        _rows_insert_select(model=model, columns=columns, rows=rows)


def _rows_insert_select(
    *, model: type[models.Model], columns: Sequence[str], rows: Iterable[Mapping[str, Any]]
) -> None:
    qn = connection.ops.quote_name
    targets = ", ".join(qn(model._meta.get_field(c).column) for c in columns)
    picks = ", ".join(f"j.{model._meta.get_field(c).column}" for c in columns)
    source = rows_table(_fields(model, columns))
    sql = f"INSERT INTO {qn(model._meta.db_table)} ({targets}) SELECT {picks} FROM {source}"
    rows_execute(sql, [rows_payload(_fields(model, columns), rows)])


def rows_update(
    *, model: type[models.Model], key: str, columns: Sequence[str], rows: Iterable[Mapping[str, Any]]
) -> None:
    """UPDATE the rows whose `key` matches, setting `columns`, in one statement."""
    qn = connection.ops.quote_name
    table = qn(model._meta.db_table)
    key_column = model._meta.get_field(key).column
    sets = ", ".join(
        f"{qn(model._meta.get_field(c).column)} = j.{model._meta.get_field(c).column}" for c in columns
    )
    sql = (
        f"UPDATE {table} SET {sets} FROM {rows_table(_fields(model, [key, *columns]))} "
        f"WHERE {table}.{qn(key_column)} = j.{key_column}"
    )
    rows_execute(sql, [rows_payload(_fields(model, [key, *columns]), rows)])


def rows_delete(*, model: type[models.Model], key: str, rows: Iterable[Mapping[str, Any]]) -> None:
    """DELETE the rows whose `key` is one of `rows`' in one statement."""
    qn = connection.ops.quote_name
    column = model._meta.get_field(key).column
    sql = (
        f"DELETE FROM {qn(model._meta.db_table)} WHERE {qn(column)} IN "
        f"(SELECT j.{column} FROM {rows_table(_fields(model, [key]))})"
    )
    rows_execute(sql, [rows_payload(_fields(model, [key]), rows)])


def row_save(instance: models.Model, fields: Sequence[str]) -> None:
    """What `instance.save(update_fields=fields)` writes, in one UPDATE with its values bound: for a row
    with a large JSON value (a turn's result). No signals are sent; the fields' own conversions apply."""
    model = type(instance)
    qn = connection.ops.quote_name
    targets = _fields(model, fields)
    sets = ", ".join(f"{qn(f.column)} = %s" for f in targets)
    sql = f"UPDATE {qn(model._meta.db_table)} SET {sets} WHERE {qn(model._meta.pk.column)} = %s"
    values = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in targets]
    rows_execute(sql, [*values, instance.pk])


def rows_execute(sql: str, params: Sequence[Any]) -> None:
    """Run one statement; on PostgreSQL with its parameters bound (the module's docstring says why)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
        return
    connection.validate_no_broken_transaction()
    begun = time.monotonic()
    # Django's cursor opens the connection; its errors become Django's, as from any other statement (turn
    # processing tells a lost database by them).
    with connection.cursor() as cursor, connection.wrap_database_errors:
        with psycopg.Cursor(cursor.cursor.connection) as bound:
            bound.execute(sql, params)
    _logged(sql, begun)


def _rows_copy(
    *, model: type[models.Model], fields: Sequence[models.Field], rows: Iterable[Mapping[str, Any]]
) -> None:
    qn = connection.ops.quote_name
    sql = f"COPY {qn(model._meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) FROM STDIN"
    as_json = [f.get_internal_type() == "JSONField" for f in fields]
    begun = time.monotonic()
    with connection.cursor() as cursor, connection.wrap_database_errors, cursor.cursor.copy(sql) as copy:
        for row in rows:
            values = (row[f.name] for f in fields)
            copy.write_row(
                [Jsonb(v) if j and v is not None else v for v, j in zip(values, as_json, strict=True)]
            )
    _logged(sql, begun)


def _logged(sql: str, begun: float) -> None:
    # Django logs what goes through its cursors' execute(); a statement run past them is logged here, so
    # that query counts still see it.
    if connection.queries_logged:
        connection.queries_log.append({"sql": sql, "time": f"{time.monotonic() - begun:.3f}"})
