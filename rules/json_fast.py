"""JSON for a turn's large writes, encoded by orjson: its reports, its result, its snapshot, its row sets.

At 10,000 regions json.dumps takes 85 ms for a turn's battle reports and 40 ms for its result, and building
the result's dict (`TurnResult.to_dict`) 47 ms more; orjson takes 15 ms and 6 ms, the latter straight from
the result's dataclasses. Turn processing's writes use it (rules.bulk, rules.services); the rest of the
project keeps Django's JSONField, which encodes with json. What is stored reads back the same either way
(tests/rules/test_json_fast.py). Where the two encoders differ:

- orjson takes only string keys and integers within 64 bits: a value with anything else is encoded by json
  instead, which spells such a key as a string ("1" for 1) as before.
- orjson writes NaN and the infinities as null, json as NaN (which PostgreSQL refuses). None occurs: the
  engine counts in integers, and its input comes from JSON columns, which cannot hold NaN.
- orjson writes a dataclass as its fields, in their order: `result_json` relies on that.
- orjson returns UTF-8 bytes; `json_text` gives a string, for a text parameter.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from psycopg.types.json import Jsonb

from rules.engine import TurnResult
from rules.engine.state import json_data


def json_bytes(value: Any) -> bytes:
    """`value` as JSON, as json.dumps would give it back when read."""
    try:
        return orjson.dumps(value)
    except TypeError:  # a key that is not a string, an integer past 64 bits: the module's docstring
        return json.dumps(value, ensure_ascii=False).encode()


def json_text(value: Any) -> str:
    return json_bytes(value).decode()


def jsonb(value: Any) -> Jsonb:
    """`value` as a PostgreSQL jsonb parameter (a COPY row's too), encoded by `json_bytes`."""
    return Jsonb(value, dumps=json_bytes)


def jsonb_encoded(encoded: bytes) -> Jsonb:
    """JSON encoded already, as a PostgreSQL jsonb parameter."""
    return Jsonb(encoded, dumps=bytes)


def result_json(result: TurnResult) -> bytes:
    """`result.to_dict(battles=False)` as JSON, encoded from the result's dataclasses without building that
    dict first: orjson writes a dataclass as its fields, as `json_data` does. The rejected orders, few,
    take to_dict's own way, with their English reason."""
    data = {name: value for name, value in vars(result).items() if name not in ("plan", "battles")}
    data["rejected_orders"] = [{**json_data(r), "reason": r.reason} for r in result.rejected_orders]
    try:
        return orjson.dumps(data)
    except TypeError:  # what orjson refuses (the module's docstring), or a mapping that is not a dict
        return json.dumps(result.to_dict(battles=False), ensure_ascii=False).encode()
