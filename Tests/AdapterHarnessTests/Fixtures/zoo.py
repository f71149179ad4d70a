#!/usr/bin/env python3
"""A zoo of adapters that misbehave on purpose, one behaviour per mode (argv[1]).

Cases whose id contains the word "bad" get the misbehaviour (every case, in mode hang-all);
other cases get a well-formed
answer ({"output": {"echo": <case id>}}), so that a test can check that only the culprit is blamed.
"""
import json
import os
import subprocess
import sys
import time

mode = sys.argv[1]


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def raw(text):
    sys.stdout.write(text)
    sys.stdout.flush()


if mode == "exit-during-start":
    sys.stderr.write("cannot load my configuration\n")
    sys.exit(3)

if mode == "peek-start":
    # Reads ahead while it starts (300 ms), as an adapter with a reader thread does: a "bad"
    # case already written to it by then kills it before it answers start. After start, a
    # "bad" case kills it too; other cases are echoed.
    import select
    buffered = b""
    def lines():
        global buffered
        while True:
            while b"\n" not in buffered:
                chunk = os.read(0, 65536)
                if not chunk:
                    return
                buffered += chunk
            line, buffered = buffered.split(b"\n", 1)
            yield line
    for line in lines():
        msg = json.loads(line)
        if msg.get("cmd") == "start":
            time.sleep(0.3)
            while select.select([0], [], [], 0)[0]:
                chunk = os.read(0, 65536)
                if not chunk:
                    break
                buffered += chunk
            if b'"bad' in buffered:
                os._exit(5)
            send({"version": 1, "implementation": {"name": "zoo-peek-start", "version": "0", "language": "Python",
                                                  "homepage": "https://example.invalid"}, "operations": ["ulc.parse"]})
        elif msg.get("cmd") == "stop":
            break
        elif "bad" in msg["case"]:
            os._exit(5)
        else:
            send({"seq": msg["seq"], "output": {"echo": msg["case"]}})
    sys.exit(0)

held = []
answered = 0
highest = -1
behind = 0
for line in sys.stdin:
    msg = json.loads(line)
    cmd = msg.get("cmd")
    if cmd == "start":
        if mode == "hang-start":
            time.sleep(3600)
        if mode == "close-output-start":
            # Closes its output instead of answering, and lives on (until the harness ends it).
            sys.stderr.write("closing my output\n")
            sys.stderr.flush()
            os.close(1)
            time.sleep(3600)
        if mode == "refuse-version":
            send({"version": 2, "refused": "I only speak version 2"})
            sys.exit(1)
        operations = ["ulc.parse"] + (["ulc.Parse", "xcallback.parze"] if mode == "misspelt-operations" else [])
        send({"version": 1, "implementation": {"name": "zoo-" + mode, "version": "0", "language": "Python",
                                              "homepage": "https://example.invalid"},
              "operations": operations})
        if mode == "flood-stderr":
            sys.stderr.write("x" * 10_000_000 + "\nthe last words before the flood ended\n")
            sys.stderr.flush()
        continue
    if cmd == "stop":
        break
    seq, case = msg["seq"], msg["case"]
    good = {"seq": seq, "output": {"echo": case}}
    bad = "bad" in case or mode == "hang-all"
    # --- modes for issue 17, items 5 and 6 (kill during a run, large outputs) ---
    if mode == "slow":
        # Every case answered well, each after argv[2] milliseconds (default 20); with argv[3],
        # the time (time.time()) at which each answer was sent is appended there, one a line;
        # with argv[4], no answer after that many (the adapter then hangs, so a run cannot end
        # before a test that waits for that many answers has acted).
        if len(sys.argv) > 4 and answered >= int(sys.argv[4]):
            sys.stdin.read()   # silent until the harness goes away (its end of stdin closes)
            sys.exit(0)
        answered += 1
        time.sleep((int(sys.argv[2]) if len(sys.argv) > 2 else 20) / 1000)
        send(good)
        if len(sys.argv) > 3:
            with open(sys.argv[3], "a") as log:
                log.write("%f\n" % time.time())
        continue
    if mode == "huge":
        # Every case answered with an output of about 1 MB, a different one per case (so the
        # store cannot keep them once by content).
        send({"seq": seq, "output": {"kind": "notULC", "echo": case, "text": case + " " + "a" * 1_000_000}})
        continue
    # --- end of the modes for items 5 and 6 ---
    if mode == "order":
        # Every case answered well, with how many requests so far arrived after one with a
        # higher seq (the harness writes requests in the order their deadlines run from).
        if seq < highest:
            behind += 1
        highest = max(highest, seq)
        send({"seq": seq, "output": {"echo": case, "behind": behind}})
        continue
    if mode == "hang-all":
        time.sleep(3600)
    if mode == "signals":
        # What this process was started with: its blocked and ignored signal sets (hex masks,
        # bit n-1 for signal n), as the kernel reports them.
        status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
        send({"seq": seq, "output": {"blocked": status["SigBlk"].strip(), "ignored": status["SigIgn"].strip()}})
        continue
    if mode == "fds":
        # The descriptors this process was started with (listing them opens one more, which
        # is closed again by the time the list is read).
        send({"seq": seq, "output": {"fds": sorted(int(n) for n in os.listdir("/proc/self/fd"))}})
        continue
    if mode == "reverse":
        held.append(good)
        if len(held) == 4:
            for answer in reversed(held):
                send(answer)
            held = []
        continue
    # Evidence when blame cannot be pinned (issue 17, item 7).
    if mode == "crash-once" and not os.path.exists(sys.argv[2]):
        # The first process dies once argv[3] requests (default 2) are outstanding; every later
        # process (a restart) answers them all: only the notes can keep what it said. It counts
        # the requests rather than waiting a while for them: on a loaded machine the test's
        # tasks may send them seconds apart, and a death with one request outstanding is
        # pinned on that request.
        open(sys.argv[2], "w").close()
        for _ in range(int(sys.argv[3]) - 1 if len(sys.argv) > 3 else 1):
            if not sys.stdin.readline():
                break
        sys.stderr.write("fatal: worker 3 ran out of memory\n")
        sys.stderr.flush()
        os._exit(9)
    if mode == "crash-once":
        send(good)
        continue
    if not bad:
        send(good)
        continue
    if mode == "hang":
        time.sleep(3600)
    elif mode == "orphan":
        # Dies, leaving a child that holds stdout and stderr open for a long time.
        child = subprocess.Popen(["sleep", "300"])
        sys.stderr.write("leaving child %d behind\n" % child.pid)
        sys.stderr.flush()
        os._exit(7)
    elif mode == "answer-then-close-output":
        # Answers well, then closes its output and lives on: the next case would never be answered.
        send(good)
        os.close(1)
        time.sleep(3600)
    elif mode == "close-input":
        # Closes its input (what was written to it and not read yet is lost) and lives on
        # without answering.
        os.close(0)
        time.sleep(3600)
    elif mode == "close-output":
        # Closes its output (a library that closed stdout by mistake) and lives on, reading
        # nothing more: it can never answer again, and has not died either.
        sys.stdout.flush()
        os.close(1)
        time.sleep(3600)
    elif mode == "endless-line":
        # Writes far past the line limit without a newline, then stays silent.
        sys.stdout.write("x" * 5_000_000)
        sys.stdout.flush()
        time.sleep(3600)
    elif mode in ("crash", "flood-stderr"):
        sys.stderr.write("fatal: cannot handle " + case + "\n")
        sys.stderr.flush()
        os._exit(7)
    elif mode == "not-json":
        raw("this is not json\n")
    elif mode == "not-object":
        raw("[1, 2, 3]\n")
    elif mode == "too-long":
        raw('{"seq": %d, "output": "%s"}\n' % (seq, "a" * 2_000_000))
    elif mode == "wrong-seq":
        send({"seq": seq + 1000, "output": {}})
    elif mode == "duplicate":
        send(good)
        send(good)
    elif mode == "none":
        send({"seq": seq})
    elif mode == "two":
        send({"seq": seq, "output": {}, "skipped": "both"})
    elif mode == "bad-skipped":
        send({"seq": seq, "skipped": 42})
    else:
        send(good)
