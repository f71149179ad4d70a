#!/usr/bin/env python3
"""An adapter that takes its time: it skips every case, after DELAY seconds each (argv[1]), and
after FIRST seconds for the first case (argv[2], default DELAY).

For tests of what a run shows while it is slow, such as the progress lines of a CI log.
"""
import json
import sys
import time

delay = float(sys.argv[1])
first = float(sys.argv[2]) if len(sys.argv) > 2 else delay
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("cmd") == "start":
        print(json.dumps({"version": 1, "implementation": {"name": "slow", "version": "1", "language": "Python"},
                          "operations": ["ulc.parse", "ulc.build", "ulc.handle"]}), flush=True)
    elif msg.get("cmd") == "stop":
        break
    else:
        time.sleep(first)
        first = delay
        print(json.dumps({"seq": msg["seq"], "skipped": "slow on purpose"}), flush=True)
