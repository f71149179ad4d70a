#!/usr/bin/env python3
"""An adapter whose every word is hostile to reports and terminals.

Its name, version, language and homepage, its answers, errors, skip reasons and stderr carry
line breaks that would start Markdown headings, a carriage return, ESC sequences that would
recolour a terminal or retitle its window, BEL, NUL, a bidi override and a <script> tag.
With argv[1] == "exit", it writes the same to stderr and exits during the start handshake.
With argv[1] == "markup", its name, version and language try to close an HTML attribute or
open an element instead, and its homepage is a javascript: URL (what the HTML report must
show as text, never as a link).
"""
import json
import sys

HOSTILE = "x\n# Injected heading\r\n\x1b]0;pwned\x07\x1b[31mred\x00 \u202eevil <script>alert(1)</script> | pipe `tick`"


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


if len(sys.argv) > 1 and sys.argv[1] == "exit":
    sys.stderr.write(HOSTILE + "\n")
    sys.exit(3)

count = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("cmd") == "start":
        sys.stderr.write(HOSTILE + "\n")
        sys.stderr.flush()
        implementation = {"name": "hostile\n# Heading", "version": "2.1.0\r\n",
                          "language": "\x1b[31mPython\u202e", "homepage": "https://h.example/<script>alert(1)</script>\x00"}
        if len(sys.argv) > 1 and sys.argv[1] == "markup":
            implementation = {"name": "\"><img src=x onerror=alert(1)>", "version": "<svg onload=alert(2)>",
                              "language": "'><iframe src=javascript:alert(3)>", "homepage": "javascript:alert(document.domain)"}
        send({"version": 1, "implementation": implementation, "operations": ["ulc.parse", "ulc.build"]})
        continue
    if msg.get("cmd") == "stop":
        break
    count += 1
    seq = msg["seq"]
    if count % 3 == 0:
        send({"seq": seq, "errored": {"message": HOSTILE}})
    elif count % 3 == 1:
        send({"seq": seq, "output": {"kind": HOSTILE}})
    else:
        send({"seq": seq, "skipped": HOSTILE})
