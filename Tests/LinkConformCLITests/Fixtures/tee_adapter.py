#!/usr/bin/env python3
"""Sits between the harness and an adapter and logs every line each side sends.

usage: tee_adapter.py LOGDIR COMMAND...
Writes LOGDIR/to-adapter.jsonl and LOGDIR/from-adapter.jsonl, byte for byte. With
TEE_DELAY_SECONDS set, waits that long before passing on each line to the adapter (a slow
adapter, for tests that must catch a run in the middle).
"""
import os
import subprocess
import sys
import threading
import time

logdir, command = sys.argv[1], sys.argv[2:]
delay = float(os.environ.get("TEE_DELAY_SECONDS", "0"))
os.makedirs(logdir, exist_ok=True)
child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def upstream():
    with open(os.path.join(logdir, "to-adapter.jsonl"), "ab") as log:
        for line in sys.stdin.buffer:
            log.write(line)
            log.flush()
            if delay:
                time.sleep(delay)
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except BrokenPipeError:
                break
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass


def downstream():
    with open(os.path.join(logdir, "from-adapter.jsonl"), "ab") as log:
        for line in child.stdout:
            log.write(line)
            log.flush()
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()


threads = [threading.Thread(target=upstream, daemon=True), threading.Thread(target=downstream)]
for t in threads:
    t.start()
threads[1].join()
sys.exit(child.wait())
