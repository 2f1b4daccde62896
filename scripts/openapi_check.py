"""Check algod conversations against algod's own OpenAPI description.

The spec ships inside the `algonaut` crate's package on crates.io
(`openapi/specs/algod.oas3.json`); `cargo metadata` says where cargo put it, or
`ALGOD_OAS3` names the file. The local node records each exchange it serves
when `ALGOKU_NODE_RECORD=FILE` is set (one JSON object a line: the request's
method, path, query, content type and body, the answer's status, content type and
body); this module checks each one:

* the request: an operation of the spec (path template and method), every query
  parameter declared and within its enum, required ones present, a JSON or
  msgpack body valid against the operation's request schema;
* the answer: valid against the operation's schema for that status (JSON, or
  msgpack decoded), an error as algod's `{"message": ...}`. An answer 501 says the
  node does not serve an operation; it must still be algod's error shape.

msgpack bodies keep their raw bytes, which must stand where algod's model has
bytes (format `byte`); where it has text, msgpack carries base64 text as JSON does.

Usage: python scripts/openapi_check.py RECORD_FILE   (prints each operation seen,
with its count; exit 1 and the first problems when any exchange breaks the spec)
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema
import msgpack

SPEC_IN_CRATE = Path("openapi/specs/algod.oas3.json")
RAW_BODIES = ("text/plain", "application/x-binary")


def spec_path() -> Path:
    """algod.oas3.json: `ALGOD_OAS3`, else inside the algonaut package cargo fetched."""
    if os.environ.get("ALGOD_OAS3"):
        return Path(os.environ["ALGOD_OAS3"])
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run(["cargo", "metadata", "--format-version", "1", "--locked"], cwd=root,
                         capture_output=True, text=True, check=True).stdout
    for package in json.loads(out)["packages"]:
        if package["name"] == "algonaut":
            return Path(package["manifest_path"]).parent / SPEC_IN_CRATE
    raise FileNotFoundError("no algonaut package in cargo metadata")


@lru_cache(maxsize=1)
def spec() -> dict[str, Any]:
    return json.loads(spec_path().read_text())


@lru_cache(maxsize=None)
def _template(path: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$")


def operation(method: str, path: str) -> tuple[str, dict[str, Any]] | None:
    """(path template, operation) of the spec for this request, if any."""
    for template, item in spec()["paths"].items():
        if _template(template).match(path) and method.lower() in item:
            return template, item[method.lower()]
    return None


def _deref(obj: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in obj:
        node: Any = spec()
        for part in obj["$ref"].lstrip("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        obj = node
    return obj


# algod describes a signed transaction in a JSON body as an opaque string; in a
# msgpack body it is the transaction's own map.
SIGNED_TXN = {"type": "object", "required": ["txn"], "properties": {"txn": {"type": "object"}}}


def _signed_txns_as_maps(schema: Any) -> Any:
    if isinstance(schema, dict):
        if schema.get("x-algorand-format") == "SignedTransaction":
            return SIGNED_TXN
        return {k: _signed_txns_as_maps(v) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_signed_txns_as_maps(v) for v in schema]
    return schema


@lru_cache(maxsize=1)
def components() -> dict[str, Any]:
    return _signed_txns_as_maps(spec()["components"])


def _type(validator: Any, types: Any, instance: Any, schema: dict[str, Any]) -> Any:
    """`type`, knowing msgpack's raw bytes: they stand for a string of format `byte` (or
    binary) only; where algod's model has plain text (a state key, TealValue bytes),
    msgpack carries base64 text too."""
    if isinstance(instance, bytes):
        if schema.get("format") not in ("byte", "binary"):
            yield jsonschema.ValidationError(f"raw bytes where algod sends text ({types}, format "
                                             f"{schema.get('format')})")
        return
    yield from jsonschema.Draft4Validator.VALIDATORS["type"](validator, types, instance, schema)


Validator = jsonschema.validators.extend(jsonschema.Draft4Validator, validators={"type": _type})


def _validate(schema: dict[str, Any], value: Any) -> list[str]:
    root = {**_signed_txns_as_maps(schema), "components": components()}
    validator = Validator(root)
    return [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message[:200]}"
            for e in validator.iter_errors(value)]


def _decode(content_type: str, body: bytes) -> Any:
    """A body as checked: JSON as is; msgpack with text keys and its bytes kept raw."""
    if not body:
        return None
    if "msgpack" in content_type:
        return _text_keys(msgpack.unpackb(body, raw=False, strict_map_key=False))
    return json.loads(body)


def _text_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {(k.decode() if isinstance(k, bytes) else str(k)): _text_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_text_keys(v) for v in value]
    return value


def check_request(method: str, path: str, query: dict[str, str], content_type: str, body: bytes) -> list[str]:
    found = operation(method, path)
    if found is None:
        return [f"{method} {path}: not an operation of algod's API"]
    template, op = found
    params = [_deref(p) for p in op.get("parameters", [])]
    declared = {p["name"]: p for p in params if p.get("in") == "query"}
    problems = []
    for name, value in query.items():
        if name not in declared:
            problems.append(f"{method} {template}: query parameter {name!r} is not declared")
        elif "enum" in declared[name].get("schema", {}) and value not in declared[name]["schema"]["enum"]:
            problems.append(f"{method} {template}: {name}={value!r} is not one of {declared[name]['schema']['enum']}")
    for name, p in declared.items():
        if p.get("required") and name not in query:
            problems.append(f"{method} {template}: required query parameter {name!r} missing")
    request = _deref(op.get("requestBody", {})) if "requestBody" in op else None
    # A raw body (TEAL text, signed transactions' bytes) is read as bytes whatever its
    # declared type, as algod does.
    raw = request is not None and all(k in RAW_BODIES for k in request["content"])
    if request and body and not raw:
        kind = next((k for k in request["content"] if k.split("/")[-1] in content_type), None)
        if kind is None:
            problems.append(f"{method} {template}: body type {content_type!r} not among {list(request['content'])}")
        elif request["content"][kind]["schema"].get("format") != "binary":
            problems += [f"{method} {template} request {e}" for e in
                         _validate(request["content"][kind]["schema"], _decode(content_type, body))]
    return problems


def check_response(method: str, path: str, status: int, content_type: str, body: bytes) -> list[str]:
    found = operation(method, path)
    value = _decode(content_type, body)
    if found is None or status == 501:
        ok = isinstance(value, dict) and isinstance(value.get("message"), str)
        return [] if ok else [f"{method} {path} {status}: not algod's error shape {{\"message\": ...}}"]
    template, op = found
    responses = op.get("responses", {})
    answer = responses.get(str(status)) or responses.get("default")
    if answer is None:
        return [f"{method} {template}: status {status} is not one algod answers ({sorted(responses)})"]
    answer = _deref(answer)
    content = answer.get("content")
    if not content:
        return []
    kind = "application/msgpack" if "msgpack" in content_type else "application/json"
    schema = (content.get(kind) or next(iter(content.values()))).get("schema")
    if schema is None or value is None:
        return []
    return [f"{method} {template} {status} answer {e}" for e in _validate(schema, value)]


def check_record(line: dict[str, Any]) -> tuple[str, list[str]]:
    """(the operation's name, problems) of one recorded exchange."""
    body = base64.b64decode(line.get("body", ""))
    answer = base64.b64decode(line.get("answer", ""))
    found = operation(line["method"], line["path"])
    name = f"{line['method']} {found[0] if found else line['path']}"
    problems = check_request(line["method"], line["path"], line.get("query", {}), line.get("content_type", ""), body)
    if line["status"] == 501:  # the node's word for what it does not serve: the answer's shape counts
        problems = [p for p in problems if "not an operation" not in p]
    problems += check_response(line["method"], line["path"], line["status"], line.get("answer_type", ""), answer)
    return name, problems


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python scripts/openapi_check.py RECORD_FILE", file=sys.stderr)
        return 2
    seen: Counter[str] = Counter()
    problems: list[str] = []
    with open(argv[0]) as handle:
        for text in handle:
            if text.strip():
                record = json.loads(text)
                if record.get("server", "algod") != "algod":
                    continue
                name, found = check_record(record)
                seen[f"{name} -> {record['status']}"] += 1
                problems += found
    for name, count in sorted(seen.items()):
        print(f"{count:5}  {name}")
    for p in problems[:20]:
        print(f"problem: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
