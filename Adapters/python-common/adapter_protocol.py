"""The adapter protocol (docs/adapter-protocol.md, version 1) for adapters that are just a table of
operations: answers `start` with who the adapter is, runs each `run` through the operation's
function, and stops on `stop` or at the end of its input.

- an operation the table does not hold is answered `skipped`;
- an exception raised by an operation (the implementation failing on hostile input) is answered
  `errored`, with its type and message and the traceback as `detail`;
- a line that cannot be read as a request is logged on stderr and left unanswered (it has no
  `seq` to answer to); nothing but answers is ever written on stdout.

(typical_app.serve predates this module and keeps its own loop for the ULC adapters.)
"""
import json
import sys
import traceback

PROTOCOL_VERSION = 1
MESSAGE_LIMIT = 2000       # characters of an exception's message kept in an `errored` answer
TRACEBACK_LIMIT = 20000    # characters of the traceback kept, well under the harness's line limit


def log(text):
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def answer_run(msg, operations):
    """The answer line (without its newline) to one `run` request."""
    seq = msg.get("seq")
    operation = msg.get("operation")
    if operation not in operations:
        return json.dumps({"seq": seq, "skipped": f"this adapter does not implement {operation}"})
    try:
        # serialised inside the try, so that an output json cannot write is an error too
        return json.dumps({"seq": seq, "output": operations[operation](msg.get("input"))})
    except Exception as e:  # RecursionError and MemoryError included: the implementation failed
        text = f"{type(e).__name__}: {e}"
        detail = {"traceback": traceback.format_exc()[-TRACEBACK_LIMIT:]}
        return json.dumps({"seq": seq, "errored": {"message": text[:MESSAGE_LIMIT], "detail": detail}})


def serve(implementation, operations, stdin=None, stdout=None):
    """implementation: the `start` answer's object (name, version, language, homepage);
    operations: {operation name: function(input) -> output object}."""
    if stdin is None:
        sys.stdin.reconfigure(errors="surrogateescape")  # a stray byte must not end the loop
        stdin = sys.stdin
    stdout = stdout or sys.stdout
    for raw in stdin:
        if not raw.strip():
            continue
        try:
            msg = json.loads(raw)
            if not isinstance(msg, dict):
                raise ValueError("not a JSON object")
        except (ValueError, RecursionError) as e:
            log(f"adapter: ignoring an unreadable request line ({e}): {raw[:200]!r}")
            continue
        cmd = msg.get("cmd")
        if cmd == "start":
            if msg.get("version", PROTOCOL_VERSION) != PROTOCOL_VERSION:
                answer = {"version": PROTOCOL_VERSION, "refused": f"this adapter speaks version {PROTOCOL_VERSION}"}
                stdout.write(json.dumps(answer) + "\n")
                stdout.flush()
                return
            answer = json.dumps({"version": PROTOCOL_VERSION, "implementation": implementation,
                                 "operations": sorted(operations)})
        elif cmd == "run":
            answer = answer_run(msg, operations)
        elif cmd == "stop":
            return
        else:
            log(f"adapter: ignoring an unknown command {cmd!r}")
            continue
        stdout.write(answer + "\n")
        stdout.flush()
