"""Typed JSON data: frozen dataclasses (and named tuples) to and from plain JSON values.

A dataclass is a JSON object with exactly its fields (a field's JSON name is its own, or
``field(metadata={"json": name})`` for a name Python reserves, such as ``from``); a named
tuple and ``tuple[X, ...]`` are arrays, ``Mapping[str, X]`` an object, ``X | None`` may be
``null``, and a field with ``metadata={"optional": True}`` may be absent (``None`` then, and
left out when written).  :func:`read` checks every value against the field types and raises
:class:`StateFormatError` for anything else, so a typed view is never built from bad data;
:func:`trusted_reader` builds the same values from data known to fit (the game's own output)
without those checks.
:func:`json_schema` writes the JSON Schema of the same values (a field with
``metadata={"secret": True}`` holds nothing in a spectator's variant).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from shadowtable.core.errors import StateFormatError

T = TypeVar("T")
Reader = Callable[[Any], Any]
Writer = Callable[[Any], Any]

_READERS: dict[Any, Reader] = {}
_WRITERS: dict[Any, Writer] = {}


def json_name(f: dataclasses.Field[Any]) -> str:
    """The name of dataclass field ``f`` in JSON."""
    name: str = f.metadata.get("json", f.name)
    return name


def field_types(cls: type) -> dict[str, Any]:
    """JSON name -> resolved type of every field of dataclass or named tuple ``cls``, in order."""
    hints = typing.get_type_hints(cls)
    if dataclasses.is_dataclass(cls):
        return {json_name(f): hints[f.name] for f in dataclasses.fields(cls)}
    return {name: hints[name] for name in getattr(cls, "_fields", ())}


def read(cls: type[T], data: Any) -> T:
    """``data`` (plain JSON) as a ``cls``; :class:`StateFormatError` if it does not fit."""
    value: T = reader(cls)(data)
    return value


def write(value: Any) -> Any:
    """``value`` as plain JSON: dataclasses as objects, tuples as arrays, mappings as objects."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return writer(type(value))(value)
    if isinstance(value, tuple | list):
        return [write(item) for item in value]
    if isinstance(value, Mapping):
        return {key: write(item) for key, item in value.items()}
    return value


def writer(hint: Any) -> Writer:
    """The function writing a value of type ``hint`` as plain JSON (built once per type)."""
    found = _WRITERS.get(hint)
    if found is None:
        found = _WRITERS[hint] = _build_writer(hint)
    return found


def _build_writer(hint: Any) -> Writer:
    origin = typing.get_origin(hint)
    if hint in (int, str, bool, float) or origin is typing.Literal:
        return _same
    if hint is Any:
        return write
    if origin in (typing.Union, types.UnionType):
        inner = writer(next(arg for arg in typing.get_args(hint) if arg is not type(None)))
        return lambda value: None if value is None else inner(value)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] in (int, str, bool, float):
                return list
            item = writer(args[0])
            return lambda value: [item(x) for x in value]
        items = [writer(arg) for arg in args]
        return lambda value: [write_one(x) for write_one, x in zip(items, value, strict=True)]
    if origin in (dict, Mapping):
        item = writer(typing.get_args(hint)[1])
        return lambda value: {key: item(x) for key, x in value.items()}
    if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or hasattr(hint, "_fields")):
        return _record_writer(hint)
    raise TypeError(f"no JSON writer for {hint!r}")


def _same(value: Any) -> Any:
    return value


def _record_writer(cls: type) -> Writer:
    _WRITERS[cls] = lambda value: write_record(value)  # a recursive type writes itself through this
    types_by_key = field_types(cls)
    if not dataclasses.is_dataclass(cls):
        items = [writer(hint) for hint in types_by_key.values()]
        return lambda value: [write_one(x) for write_one, x in zip(items, value, strict=True)]
    fields = [
        (f.name, key, writer(types_by_key[key]), bool(f.metadata.get("optional")))
        for f, key in zip(dataclasses.fields(cls), types_by_key, strict=True)
    ]

    def write_record(value: Any) -> dict[str, Any]:
        data = {}
        for name, key, write_one, optional in fields:
            item = getattr(value, name)
            if item is not None or not optional:
                data[key] = write_one(item)
        return data

    return write_record


def reader(hint: Any) -> Reader:
    """The function reading plain JSON as ``hint`` (built once per type)."""
    found = _READERS.get(hint)
    if found is None:
        found = _READERS[hint] = _build_reader(hint)
    return found


def _build_reader(hint: Any) -> Reader:
    if hint is Any:
        return lambda data: data
    if hint in (int, str, bool, float):
        return _scalar_reader(hint)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return _optional_reader(hint)
    if origin is typing.Literal:
        return _literal_reader(typing.get_args(hint))
    if origin is tuple:
        return _tuple_reader(typing.get_args(hint))
    if origin in (dict, Mapping):
        return _mapping_reader(typing.get_args(hint)[1])
    if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or hasattr(hint, "_fields")):
        return _record_reader(hint)
    raise TypeError(f"no JSON reader for {hint!r}")


def _fail(expected: str, data: Any) -> StateFormatError:
    shown = repr(data)
    return StateFormatError(f"expected {expected}, got {shown if len(shown) <= 40 else shown[:40] + '...'}")


def _scalar_reader(kind: type) -> Reader:
    def read_scalar(data: Any) -> Any:
        if type(data) is kind:
            return data
        if kind is float and isinstance(data, int) and not isinstance(data, bool):
            return data
        if not isinstance(data, kind) or (kind is not bool and isinstance(data, bool)):
            raise _fail(kind.__name__, data)
        return data

    return read_scalar


def _literal_reader(choices: tuple[Any, ...]) -> Reader:
    def read_literal(data: Any) -> Any:
        if isinstance(data, bool) or data not in choices:
            raise _fail(f"one of {choices}", data)
        return data

    return read_literal


def _optional_reader(hint: Any) -> Reader:
    options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
    if len(options) != 1 or len(typing.get_args(hint)) != 2:
        raise TypeError(f"only X | None is supported, not {hint!r}")
    inner = reader(options[0])
    return lambda data: None if data is None else inner(data)


def _tuple_reader(args: tuple[Any, ...]) -> Reader:
    if len(args) == 2 and args[1] is Ellipsis and args[0] is int:
        return _ints_reader
    if len(args) == 2 and args[1] is Ellipsis:
        item = reader(args[0])

        def read_items(data: Any) -> tuple[Any, ...]:
            if not isinstance(data, list | tuple):
                raise _fail("an array", data)
            return tuple(map(item, data))

        return read_items
    items = [reader(arg) for arg in args]

    def read_fixed(data: Any) -> tuple[Any, ...]:
        if not isinstance(data, list | tuple) or len(data) != len(items):
            raise _fail(f"an array of {len(items)}", data)
        return tuple(read_one(x) for read_one, x in zip(items, data, strict=True))

    return read_fixed


_INT = frozenset({int})


def _ints_reader(data: Any) -> tuple[int, ...]:
    if not isinstance(data, list | tuple) or not _INT.issuperset(map(type, data)):
        raise _fail("an array of integers", data)
    return tuple(data)


def _mapping_reader(value_hint: Any) -> Reader:
    value = reader(value_hint)

    def read_mapping(data: Any) -> dict[str, Any]:
        if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
            raise _fail("an object", data)
        return {k: value(v) for k, v in data.items()}

    return read_mapping


def _record_reader(cls: type) -> Reader:
    _READERS[cls] = lambda data: read_record(data)  # a recursive type reads itself through this
    fields = [(key, reader(hint)) for key, hint in field_types(cls).items()]
    as_array = not dataclasses.is_dataclass(cls)
    optional = set() if as_array else {json_name(f) for f in dataclasses.fields(cls) if f.metadata.get("optional")}
    required = {key for key, _ in fields} - optional
    allowed = required | optional

    def read_record(data: Any) -> Any:
        if as_array:
            if not isinstance(data, list | tuple) or len(data) != len(fields):
                raise _fail(f"an array of {len(fields)} ({cls.__name__})", data)
            return cls(*[read_one(x) for (_, read_one), x in zip(fields, data, strict=True)])
        if not isinstance(data, dict) or not required <= data.keys() or not data.keys() <= allowed:
            keys = sorted(data) if isinstance(data, dict) else data
            raise _fail(f"an object with fields {sorted(required)} and maybe {sorted(optional)} ({cls.__name__})", keys)
        if len(data) == len(fields):  # every field present: read them in order
            return cls(*[read_one(data[key]) for key, read_one in fields])
        return cls(*[read_one(data[key]) if key in data else None for key, read_one in fields])

    return read_record


_TRUSTED: dict[object, Reader] = {}


def trusted_reader(hint: object) -> Reader:
    """The function building a ``hint`` from plain JSON known to fit it (what the game itself
    wrote): the value :func:`reader` builds, without its checks (built once per type)."""
    found = _TRUSTED.get(hint)
    if found is None:
        found = _TRUSTED[hint] = _build_trusted(hint)
    return found


def _build_trusted(hint: object) -> Reader:
    origin = typing.get_origin(hint)
    if hint in (int, str, bool, float) or origin is typing.Literal:
        return _same
    if origin in (typing.Union, types.UnionType):
        inner = trusted_reader(next(arg for arg in typing.get_args(hint) if arg is not type(None)))
        return _same if inner is _same else lambda data: None if data is None else inner(data)
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = trusted_reader(args[0])
            return tuple if item is _same else lambda data: tuple(map(item, data))
        items = [trusted_reader(arg) for arg in args]
        return lambda data: tuple([read_one(x) for read_one, x in zip(items, data, strict=True)])
    if origin in (dict, Mapping):
        value = trusted_reader(typing.get_args(hint)[1])
        return dict if value is _same else lambda data: {k: value(v) for k, v in data.items()}
    if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or hasattr(hint, "_fields")):
        return _trusted_record(hint)
    return reader(hint)  # anything else (an untyped part): the checked reader


def _trusted_record(cls: type) -> Reader:
    _TRUSTED[cls] = lambda data: read_record(data)  # a recursive type reads itself through this
    fields = [(key, trusted_reader(hint)) for key, hint in field_types(cls).items()]

    def read_record(data: Mapping[str, object] | list[object]) -> object:
        if isinstance(data, dict):
            return cls(*[read_one(data.get(key)) for key, read_one in fields])
        return cls(*[read_one(x) for (_, read_one), x in zip(fields, data, strict=True)])

    return read_record


def schema_mismatches(hint: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str = "$") -> list[str]:
    """Where JSON Schema ``schema`` (``$ref`` resolved in ``root``) and type ``hint`` disagree:
    an object's field names and required fields, and the JSON type of every value, field by field.
    A schema may narrow ``X | None`` to ``X`` or to ``null`` (a seat's schema and a spectator's)."""
    schema = _resolved(schema, root)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):  # the schema may narrow it to one side
        inner = next(arg for arg in typing.get_args(hint) if arg is not type(None))
        kinds = _kinds(schema, root)
        if kinds == {"null"}:
            return []
        return schema_mismatches(inner, _without_null(schema, root) if "null" in kinds else schema, root, where)
    kinds = _kinds(schema, root)
    expected = _kind(hint)
    if kinds != {expected}:
        return [f"{where}: the type is {expected}, the schema {sorted(kinds)}"]
    if origin is typing.Literal and set(schema.get("enum", ())) != set(typing.get_args(hint)):
        return [f"{where}: the type allows {typing.get_args(hint)}, the schema {schema.get('enum')}"]
    if expected == "array":
        return _array_mismatches(hint, schema, root, where)
    if expected == "object" and origin not in (dict, Mapping):
        return _object_mismatches(hint, schema, root, where)
    if expected == "object":
        values = schema.get("patternProperties") or {}
        value_schemas = list(values.values()) or [schema.get("additionalProperties", {})]
        value_hint = typing.get_args(hint)[1]
        return [m for s in value_schemas for m in schema_mismatches(value_hint, s, root, f"{where}.*")]
    return []


def _object_mismatches(cls: type, schema: Mapping[str, Any], root: Mapping[str, Any], where: str) -> list[str]:
    properties: Mapping[str, Any] = schema.get("properties", {})
    types_by_key = field_types(cls)
    optional = {json_name(f) for f in dataclasses.fields(cls) if f.metadata.get("optional")}
    found = []
    if set(properties) != set(types_by_key):
        found.append(f"{where}: fields {sorted(set(types_by_key) ^ set(properties))} are in one side only")
    if set(schema.get("required", ())) != set(types_by_key) - optional:
        found.append(f"{where}: required {sorted(schema.get('required', ()))}, the type needs every non-optional field")
    for key, hint in types_by_key.items():
        if key in optional:  # absent rather than null
            hint = next(arg for arg in typing.get_args(hint) if arg is not type(None))
        if key in properties:
            found.extend(schema_mismatches(hint, properties[key], root, f"{where}.{key}"))
    return found


def _array_mismatches(hint: Any, schema: Mapping[str, Any], root: Mapping[str, Any], where: str) -> list[str]:
    if hasattr(hint, "_fields"):
        args: tuple[Any, ...] = tuple(field_types(hint).values())
    else:
        args = typing.get_args(hint)
    if len(args) == 2 and args[1] is Ellipsis:
        items = schema.get("items")
        if schema.get("maxItems") == 0:
            return []
        if not isinstance(items, dict):
            return [f"{where}: the type is an array of one kind, the schema names no item schema"]
        return schema_mismatches(args[0], items, root, f"{where}[]")
    prefix = schema.get("prefixItems")
    if not isinstance(prefix, list) or len(prefix) != len(args):
        return [f"{where}: the type is an array of {len(args)}, the schema has no prefixItems of that length"]
    return [
        m
        for i, (a, s) in enumerate(zip(args, prefix, strict=True))
        for m in schema_mismatches(a, s, root, f"{where}[{i}]")
    ]


def _resolved(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    while "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        schema = target
    return schema


def _options(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(schema.get("anyOf", schema.get("oneOf", [schema])))


def _kinds(schema: Mapping[str, Any], root: Mapping[str, Any]) -> set[str]:
    """The JSON types a schema allows."""
    kinds: set[str] = set()
    for option in _options(_resolved(schema, root)):
        option = _resolved(option, root)
        if "anyOf" in option or "oneOf" in option:
            kinds |= _kinds(option, root)
        elif "type" in option:
            kinds |= {option["type"]} if isinstance(option["type"], str) else set(option["type"])
        else:
            values = option.get("enum", [option["const"]] if "const" in option else [])
            kinds |= {_kind(type(v)) for v in values}
    return kinds


def _without_null(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    options = [_resolved(o, root) for o in _options(schema)]
    rest = [o for o in options if o.get("type") != "null"]
    if len(rest) == 1 and isinstance(rest[0].get("type"), list):
        kinds = [k for k in rest[0]["type"] if k != "null"]
        return {**rest[0], "type": kinds[0] if len(kinds) == 1 else kinds}
    return rest[0] if len(rest) == 1 else {"anyOf": rest}


def _kind(hint: Any) -> str:
    """The JSON type of values of ``hint``."""
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return _kind(type(typing.get_args(hint)[0]))
    simple = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}
    if hint in simple:
        return simple[hint]
    if origin is tuple or hasattr(hint, "_fields"):
        return "array"
    return "object"


# -- JSON Schema from the types ----------------------------------------------------------------------
Schema = dict[str, object]
"""A JSON Schema (draft 2020-12) as plain JSON."""
NULL: Schema = {"type": "null"}


def json_schema(hint: object, defs: dict[str, Schema], *, spectator: bool = False) -> Schema:
    """The JSON Schema of the values :func:`reader` accepts for ``hint``: every object closed
    (``additionalProperties: false``), a dataclass or named tuple once in ``defs`` (under its
    class name) and referred to by ``$ref``.  With ``spectator``, a dataclass field marked
    ``metadata={"secret": True}`` holds nothing (:func:`hidden_schema`)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return {}
    simple = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}
    if hint in simple:
        return {"type": simple[hint]}
    if origin is typing.Literal:
        return {"enum": list(typing.get_args(hint))}
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return {"anyOf": [json_schema(options[0], defs, spectator=spectator), NULL]}
    if origin is tuple:
        return _tuple_schema(typing.get_args(hint), defs, spectator)
    if origin in (dict, Mapping):
        values = json_schema(typing.get_args(hint)[1], defs, spectator=spectator)
        return {"type": "object", "patternProperties": {"^.+$": values}, "additionalProperties": False}
    if isinstance(hint, type) and (dataclasses.is_dataclass(hint) or hasattr(hint, "_fields")):
        return _record_ref(hint, defs, spectator)
    raise TypeError(f"no JSON Schema for {hint!r}")


def hidden_schema(hint: object) -> Schema:
    """The schema of a secret part of type ``hint`` as a spectator gets it: ``null`` where it
    may be, arrays and mappings empty (or holding only hidden items), records field by field."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType) and type(None) in typing.get_args(hint):
        return NULL
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = hidden_schema(args[0])
            return {"type": "array", "maxItems": 0} if item is _NOTHING else {"type": "array", "items": item}
        return {"type": "array", "prefixItems": [hidden_schema(arg) for arg in args], "items": False}
    if origin in (dict, Mapping):
        return {"type": "object", "additionalProperties": False}
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _closed({key: hidden_schema(h) for key, h in field_types(hint).items()}, _optional_keys(hint))
    return _NOTHING


_NOTHING: Schema = {"not": {}}
"""A schema no value matches: a hidden value that cannot be ``null``."""


def _tuple_schema(args: tuple[object, ...], defs: dict[str, Schema], spectator: bool) -> Schema:
    if len(args) == 2 and args[1] is Ellipsis:
        return {"type": "array", "items": json_schema(args[0], defs, spectator=spectator)}
    items = [json_schema(arg, defs, spectator=spectator) for arg in args]
    return {"type": "array", "prefixItems": items, "items": False, "minItems": len(items)}


def _optional_keys(cls: type) -> set[str]:
    return {json_name(f) for f in dataclasses.fields(cls) if f.metadata.get("optional")}


def _closed(properties: dict[str, Schema], optional: set[str]) -> Schema:
    """A closed object: exactly these properties, all required but ``optional``."""
    return {
        "type": "object",
        "properties": properties,
        "required": [key for key in properties if key not in optional],
        "additionalProperties": False,
    }


def _record_ref(cls: type, defs: dict[str, Schema], spectator: bool) -> Schema:
    """A ``$ref`` to the schema of dataclass or named tuple ``cls`` in ``defs`` (written once)."""
    if cls.__name__ not in defs:
        defs[cls.__name__] = {}  # a recursive type refers to itself through this
        types_by_key = field_types(cls)
        if not dataclasses.is_dataclass(cls):
            defs[cls.__name__] = _tuple_schema(tuple(types_by_key.values()), defs, spectator)
        else:
            secret = {json_name(f) for f in dataclasses.fields(cls) if f.metadata.get("secret")}
            optional = _optional_keys(cls)
            properties = {
                key: hidden_schema(hint)
                if spectator and key in secret
                else json_schema(_without_none(hint) if key in optional else hint, defs, spectator=spectator)
                for key, hint in types_by_key.items()
            }
            defs[cls.__name__] = _closed(properties, optional)
    return {"$ref": f"#/$defs/{cls.__name__}"}


def _without_none(hint: object) -> object:
    """``X`` of ``X | None`` (an optional field is absent rather than ``null``)."""
    return next(arg for arg in typing.get_args(hint) if arg is not type(None))
