#!/usr/bin/env python3
"""An adapter that disagrees with the reference on purpose, for the differential fuzzing tests.

ulc.parse: a link is a ULC when "ulc-success=" is in it, with nothing else reported (so it
misses every invalid link and every action and callback). With argv[1] == "crash-on-double",
it dies on any link holding "%25" (a double encoding). With argv[1] == "slow", each answer
waits argv[2] milliseconds. With argv[1] == "silent-after", it answers argv[2] requests, each
noted in the file argv[3], and then none (not even stop) until its input closes.
"""
import json
import os
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else ""
answered = 0

for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        me = {"name": "disagreeing", "version": "1", "language": "Python", "homepage": "https://example.invalid"}
        print(json.dumps({"version": 1, "implementation": me, "operations": ["ulc.parse"]}), flush=True)
    elif msg["cmd"] == "run":
        link = msg["input"]["link"]
        if mode == "crash-on-double" and "%25" in link:
            os._exit(3)
        if mode == "silent-after":
            if answered >= int(sys.argv[2]):
                sys.stdin.read()
                sys.exit(0)
            answered += 1
            with open(sys.argv[3], "a") as log:
                log.write("answered\n")
        if mode == "slow":
            time.sleep(int(sys.argv[2]) / 1000)
        out = {"kind": "ulc"} if "ulc-success=" in link else {"kind": "notULC"}
        print(json.dumps({"seq": msg["seq"], "output": out}), flush=True)
    elif msg["cmd"] == "stop":
        break
