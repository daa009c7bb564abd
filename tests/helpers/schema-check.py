#!/usr/bin/env python3
"""Validate JSON documents against a JSON Schema (draft-07 subset).

    schema-check.py SCHEMA DOCUMENT...

Exit status 0 when every document is valid, 1 when one is not (each
violation printed as "DOCUMENT: PATH: message"), 2 for bad arguments or a
schema using a keyword this checker does not implement: an unknown keyword
is an error rather than something silently ignored, so a schema cannot
seem stricter than what is checked.

Implemented: $schema, $ref (local "#/definitions/..." only), title,
description, definitions, type (a name or a list; "integer" is a number
without a fraction, booleans are not numbers), enum, const, properties,
required, additionalProperties (false or a schema), items (one schema),
minItems, maxItems, minimum, maximum, exclusiveMinimum,
exclusiveMaximum, minLength, maxLength (in code points), pattern
(Python re.search), oneOf, anyOf, allOf. Debian's python3 has no
jsonschema module, hence this.
"""
import json
import math
import re
import sys

KNOWN = {
    "$schema", "$ref", "title", "description", "definitions", "type",
    "enum", "const", "properties", "required", "additionalProperties",
    "items", "minItems", "maxItems", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
    "pattern", "oneOf", "anyOf", "allOf",
}


class SchemaError(Exception):
    pass


def type_ok(value, name):
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if isinstance(value, bool):
        return False
    if name == "number":
        return isinstance(value, (int, float))
    if name == "integer":
        return isinstance(value, int) or (
            isinstance(value, float) and math.isfinite(value)
            and value.is_integer())
    raise SchemaError(f"unknown type '{name}'")


def same(a, b):
    """JSON equality: 1 == 1.0, but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


class Checker:
    def __init__(self, root):
        self.root = root
        self.errors = []

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise SchemaError(f"unsupported $ref '{ref}'")
        node = self.root
        for part in ref[2:].split("/"):
            if not isinstance(node, dict) or part not in node:
                raise SchemaError(f"unresolvable $ref '{ref}'")
            node = node[part]
        return node

    def fail(self, path, msg):
        self.errors.append((path, msg))

    def valid(self, value, schema, path):
        """Check without recording errors; True when valid."""
        saved = self.errors
        self.errors = []
        self.check(value, schema, path)
        ok = not self.errors
        self.errors = saved
        return ok

    def check(self, value, schema, path=""):
        if not isinstance(schema, dict):
            raise SchemaError(f"schema at {path or 'top'} is not an object")
        unknown = set(schema) - KNOWN
        if unknown:
            raise SchemaError(f"unsupported keyword(s) {sorted(unknown)}")
        if "$ref" in schema:
            self.check(value, self.resolve(schema["$ref"]), path)
        if "type" in schema:
            types = schema["type"]
            types = types if isinstance(types, list) else [types]
            if not any(type_ok(value, t) for t in types):
                self.fail(path, f"expected {' or '.join(types)}, "
                          f"found {json.dumps(value)[:60]}")
                return
        if "const" in schema and not same(value, schema["const"]):
            self.fail(path, f"expected {json.dumps(schema['const'])}")
        if "enum" in schema and not any(same(value, e)
                                        for e in schema["enum"]):
            self.fail(path, f"{json.dumps(value)[:60]} not in "
                      f"{json.dumps(schema['enum'])}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if "minimum" in schema and value < schema["minimum"]:
                self.fail(path, f"{value} < minimum {schema['minimum']}")
            if "maximum" in schema and value > schema["maximum"]:
                self.fail(path, f"{value} > maximum {schema['maximum']}")
            if ("exclusiveMinimum" in schema
                    and value <= schema["exclusiveMinimum"]):
                self.fail(path, f"{value} <= {schema['exclusiveMinimum']}")
            if ("exclusiveMaximum" in schema
                    and value >= schema["exclusiveMaximum"]):
                self.fail(path, f"{value} >= {schema['exclusiveMaximum']}")
        if isinstance(value, str):
            if "minLength" in schema and len(value) < schema["minLength"]:
                self.fail(path, f"shorter than {schema['minLength']}")
            if "maxLength" in schema and len(value) > schema["maxLength"]:
                self.fail(path, f"longer than {schema['maxLength']}")
            if "pattern" in schema and not re.search(schema["pattern"],
                                                     value):
                self.fail(path, f"{json.dumps(value)[:60]} does not match "
                          f"{schema['pattern']}")
        if isinstance(value, list):
            if "minItems" in schema and len(value) < schema["minItems"]:
                self.fail(path, f"fewer than {schema['minItems']} items")
            if "maxItems" in schema and len(value) > schema["maxItems"]:
                self.fail(path, f"more than {schema['maxItems']} items")
            if "items" in schema:
                for i, item in enumerate(value):
                    self.check(item, schema["items"], f"{path}[{i}]")
        if isinstance(value, dict):
            props = schema.get("properties", {})
            for name in schema.get("required", []):
                if name not in value:
                    self.fail(path, f"missing member '{name}'")
            for name, item in value.items():
                sub = f"{path}.{name}" if path else name
                if name in props:
                    self.check(item, props[name], sub)
                elif schema.get("additionalProperties") is False:
                    self.fail(path, f"unknown member '{name}'")
                elif isinstance(schema.get("additionalProperties"), dict):
                    self.check(item, schema["additionalProperties"], sub)
        if "allOf" in schema:
            for sub in schema["allOf"]:
                self.check(value, sub, path)
        if "anyOf" in schema and not any(self.valid(value, s, path)
                                         for s in schema["anyOf"]):
            self.fail(path, "matches none of anyOf")
        if "oneOf" in schema:
            n = sum(self.valid(value, s, path) for s in schema["oneOf"])
            if n != 1:
                # When none match, name the errors of the alternative
                # that got furthest: the one with the deepest error.
                if n == 0:
                    best, best_key = [], None
                    for s in schema["oneOf"]:
                        saved = self.errors
                        self.errors = []
                        self.check(value, s, path)
                        key = (max(len(p) for p, _ in self.errors),
                               -len(self.errors))
                        if best_key is None or key > best_key:
                            best, best_key = self.errors, key
                        self.errors = saved
                    self.errors.extend(best)
                    self.fail(path, "matches none of oneOf")
                else:
                    self.fail(path, f"matches {n} of oneOf, not one")


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            schema = json.load(f)
    except (OSError, ValueError) as e:
        print(f"{argv[1]}: {e}", file=sys.stderr)
        return 2
    status = 0
    for path in argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: {e}")
            status = 1
            continue
        checker = Checker(schema)
        try:
            checker.check(doc, schema)
        except SchemaError as e:
            print(f"{argv[1]}: {e}", file=sys.stderr)
            return 2
        for where, msg in checker.errors[:20]:
            print(f"{path}: {where or '(top level)'}: {msg}")
        if checker.errors:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
