#!/usr/bin/env python3
"""Checks a tee_adapter.py log against the protocol's JSON Schemas (Draft 2020-12).

usage: validate_messages.py SCHEMADIR LOGDIR [--operations]
Prints one line per invalid message and exits 1 if there is any; prints counts otherwise.
With --operations, also checks each run request's input against
SCHEMADIR/operations/<operation>.input.json and each answer's output against
<operation>.output.json (an operation without both schemas is a problem), and counts the
inputs and outputs checked per operation.
"""
import json
import os
import sys

from jsonschema import Draft202012Validator

schemas, logdir = sys.argv[1], sys.argv[2]
operations = "--operations" in sys.argv[3:]
validators = {}
for name in ["start-request", "start-response", "run-request", "run-response", "stop-request"]:
    with open(os.path.join(schemas, name + ".json")) as f:
        validators[name] = Draft202012Validator(json.load(f))

problems, counts = [], {}
operation_of_seq = {}


def operation_validator(operation, part):
    """The validator of operations/<operation>.<part>.json, or None (a problem) when there is none."""
    name = f"{operation}.{part}"
    if name not in validators:
        path = os.path.join(schemas, "operations", name + ".json")
        if os.path.exists(path):
            with open(path) as f:
                validators[name] = Draft202012Validator(json.load(f))
        else:
            validators[name] = None
            problems.append(f"no schema operations/{name}.json")
    return validators[name]


def check_operation(operation, part, value, where):
    validator = operation_validator(operation, part)
    if validator is None:
        return
    counts[operation + "." + part] = counts.get(operation + "." + part, 0) + 1
    for error in validator.iter_errors(value):
        pointer = "".join(f"/{step}" for step in error.absolute_path)
        problems.append(f"{where}: {operation}.{part} at '{pointer}': {error.message[:300]}")


def check(kind, line, where):
    counts[kind] = counts.get(kind, 0) + 1
    try:
        message = json.loads(line)
    except ValueError as e:
        problems.append(f"{where}: not JSON: {e}")
        return
    for error in validators[kind].iter_errors(message):
        problems.append(f"{where}: {kind}: {error.message}")
    if not operations or not isinstance(message, dict):
        return
    if kind == "run-request":
        operation_of_seq[json.dumps(message.get("seq"))] = message.get("operation")
        check_operation(message.get("operation"), "input", message.get("input"), where)
    elif kind == "run-response" and "output" in message:
        operation = operation_of_seq.get(json.dumps(message.get("seq")))
        if operation is None:
            problems.append(f"{where}: an answer to a seq never sent")
        else:
            check_operation(operation, "output", message["output"], where)


with open(os.path.join(logdir, "to-adapter.jsonl"), "rb") as f:
    for i, line in enumerate(f, 1):
        cmd = json.loads(line).get("cmd")
        kind = {"start": "start-request", "run": "run-request", "stop": "stop-request"}.get(cmd)
        if kind is None:
            problems.append(f"to-adapter:{i}: unknown cmd {cmd!r}")
        else:
            check(kind, line, f"to-adapter:{i}")
expect_start = True
with open(os.path.join(logdir, "from-adapter.jsonl"), "rb") as f:
    for i, line in enumerate(f, 1):
        check("start-response" if expect_start else "run-response", line, f"from-adapter:{i}")
        expect_start = False

for p in problems[:50]:
    print(p)
print(json.dumps(counts, sort_keys=True))
sys.exit(1 if problems else 0)
