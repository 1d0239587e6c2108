"""Reading saved JSON with its types checked: a damaged save is a clear `ValueError`, not a crash later."""

from __future__ import annotations

from typing import TypeAlias

JSON: TypeAlias = dict[str, "JSON"] | list["JSON"] | str | int | float | bool | None


def json_list(value: JSON) -> list[JSON]:
    if not isinstance(value, list):
        raise ValueError(f"Expected a list in the saved game, not {value!r}.")
    return value


def json_dict(value: JSON) -> dict[str, JSON]:
    if not isinstance(value, dict):
        raise ValueError(f"Expected an object in the saved game, not {value!r}.")
    return value


def json_int(value: JSON) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"Expected a whole number in the saved game, not {value!r}.")
    return value


def json_ints(value: JSON) -> list[int]:
    return [json_int(v) for v in json_list(value)]
