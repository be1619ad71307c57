"""A JSON Schema (draft 2020-12) validator for the keywords the compat data's schemas use, and
no others: a schema with any other keyword is refused, so the subset cannot silently skip a rule.
(The ``jsonschema`` package is not a dependency of the project.)
"""

from __future__ import annotations

import re

#: Keywords that only describe or name: nothing to check.
_ANNOTATIONS = {"$schema", "$id", "$defs", "title", "description"}
_CHECKED = {"type", "const", "enum", "pattern", "properties", "required", "additionalProperties",
            "propertyNames", "items", "oneOf", "$ref"}
_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(instance: object, name: str) -> bool:
    if name == "integer":
        return isinstance(instance, int) and not isinstance(instance, bool)
    if name == "number":
        return isinstance(instance, (int, float)) and not isinstance(instance, bool)
    return isinstance(instance, _TYPES[name])


def _same(a: object, b: object) -> bool:
    """JSON equality: ``true`` is not ``1``."""
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def validate(instance: object, schema: dict, root: dict | None = None, where: str = "$") -> list[str]:
    """Every way ``instance`` breaks ``schema`` (``root``: the schema ``$ref`` resolves in),
    each naming where; empty when it is valid."""
    root = schema if root is None else root
    unknown = set(schema) - _ANNOTATIONS - _CHECKED
    if unknown:
        raise ValueError(f"{where}: keywords outside the subset this validator knows: {sorted(unknown)}")
    errors: list[str] = []
    if "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            raise ValueError(f"{where}: only references into $defs of the same file: {ref}")
        errors += validate(instance, root["$defs"][ref.removeprefix("#/$defs/")], root, where)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_is(instance, t) for t in types):
            return errors + [f"{where}: {instance!r:.60} is not of type {' or '.join(types)}"]
    if "const" in schema and not _same(instance, schema["const"]):
        errors.append(f"{where}: {instance!r:.60} is not {schema['const']!r}")
    if "enum" in schema and not any(_same(instance, v) for v in schema["enum"]):
        errors.append(f"{where}: {instance!r:.60} is not one of {schema['enum']}")
    if "pattern" in schema and isinstance(instance, str) and not re.search(schema["pattern"], instance):
        errors.append(f"{where}: {instance!r:.60} does not match {schema['pattern']}")
    if "oneOf" in schema:
        passing = [i for i, option in enumerate(schema["oneOf"]) if not validate(instance, option, root, where)]
        if len(passing) != 1:
            errors.append(f"{where}: {instance!r:.80} matches {len(passing)} of the oneOf schemas, not one")
    if isinstance(instance, dict):
        properties = schema.get("properties", {})
        errors += [f"{where}: {name!r} is required" for name in schema.get("required", ()) if name not in instance]
        for name, value in instance.items():
            if "propertyNames" in schema:
                errors += validate(name, schema["propertyNames"], root, f"{where} (key {name!r})")
            if name in properties:
                errors += validate(value, properties[name], root, f"{where}.{name}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{where}: {name!r} is not allowed")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += validate(value, schema["additionalProperties"], root, f"{where}[{name!r}]")
    if isinstance(instance, list) and "items" in schema:
        for number, item in enumerate(instance):
            errors += validate(item, schema["items"], root, f"{where}[{number}]")
    return errors


DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def schema_problems(schema: dict) -> list[str]:
    """What keeps ``schema`` from being a draft 2020-12 schema of this subset: a root that does not
    name the draft, a keyword anywhere outside the subset, a ``$ref`` to a missing ``$defs`` entry."""
    problems = [] if schema.get("$schema") == DRAFT_2020_12 else [f"$schema is not {DRAFT_2020_12}"]

    def walk(node: dict, where: str) -> None:
        unknown = set(node) - _ANNOTATIONS - _CHECKED
        problems.extend(f"{where}: keyword {name!r} outside the subset" for name in sorted(unknown))
        ref = node.get("$ref")
        if ref is not None and ref.removeprefix("#/$defs/") not in schema.get("$defs", {}):
            problems.append(f"{where}: $ref {ref} names no $defs entry")
        children = [*[(f"{where}.properties.{k}", v) for k, v in node.get("properties", {}).items()],
                    *[(f"{where}.$defs.{k}", v) for k, v in node.get("$defs", {}).items()],
                    *[(f"{where}.oneOf[{i}]", v) for i, v in enumerate(node.get("oneOf", ()))],
                    *[(f"{where}.{k}", node[k]) for k in ("items", "propertyNames", "additionalProperties")
                      if isinstance(node.get(k), dict)]]
        for child_where, child in children:
            walk(child, child_where)

    walk(schema, "$")
    return problems
