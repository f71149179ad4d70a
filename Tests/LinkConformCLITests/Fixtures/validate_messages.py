#!/usr/bin/env python3
"""Checks a tee_adapter.py log against the protocol's JSON Schemas (Draft 2020-12).

usage: validate_messages.py SCHEMADIR LOGDIR
Prints one line per invalid message and exits 1 if there is any; prints counts otherwise.
"""
import json
import os
import sys

from jsonschema import Draft202012Validator

schemas, logdir = sys.argv[1], sys.argv[2]
validators = {}
for name in ["start-request", "start-response", "run-request", "run-response", "stop-request"]:
    with open(os.path.join(schemas, name + ".json")) as f:
        validators[name] = Draft202012Validator(json.load(f))

problems, counts = [], {}


def check(kind, line, where):
    counts[kind] = counts.get(kind, 0) + 1
    try:
        message = json.loads(line)
    except ValueError as e:
        problems.append(f"{where}: not JSON: {e}")
        return
    for error in validators[kind].iter_errors(message):
        problems.append(f"{where}: {kind}: {error.message}")


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
