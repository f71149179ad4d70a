"""The logic of a typical app handling Universal Link Callbacks, x-callback-urls and XignSys
links, written once and run on different URL libraries (urllib.parse, ada-url). Each adapter supplies a `Library` with the few
things that differ; everything else here is what a straightforward app does.

The app follows the ULC document literally and leans on its URL library for everything:
- parse: read the link's query with the library, take ulc-success and ulc-error (whatever the
  library does with repeats, '+' and bad escapes), and accept a callback when the library reads
  it as an https URL with a host;
- build: append the two callbacks with the library's own query encoding;
- handle: one logout request to the back end with URLSession's default 60-second timeout, no
  retry; open the success URL if it worked and the error URL if not, with universalLinksOnly;
  the session token is kept in persistent storage, as the document advises.
"""
import json
import sys

URLSESSION_TIMEOUT = 60.0


class Library:
    """What an adapter provides. All methods take and return plain strings."""
    name = "?"
    version = "?"
    homepage = ""

    def query_items(self, link):
        """[(name, value)] decoded, or None when the library cannot parse the link."""
        raise NotImplementedError

    def pick(self, items, name):
        """The value the library's usual accessor returns for a repeated name."""
        raise NotImplementedError

    def https_host(self, url):
        """(scheme, host) as the library reads an absolute URL, or None when it cannot."""
        raise NotImplementedError

    def without_callbacks(self, link):
        """The link with ulc-success and ulc-error removed, re-serialised by the library."""
        raise NotImplementedError

    def path_of(self, link):
        """(host, path) of a link, or None."""
        raise NotImplementedError

    def append_callbacks(self, action, success, error):
        """The action with the two callbacks appended, or None when the library refuses."""
        raise NotImplementedError

    # x-callback-url

    def split(self, url):
        """(scheme, host, action, items): the library's scheme and host, the path without its
        leading '/' decoded the library's usual way, and the query's [(name, value)] decoded;
        None when the library cannot parse the URL."""
        raise NotImplementedError

    def x_callback_url(self, scheme, action, items):
        """scheme://x-callback-url/action with the items as its query, encoded by the library."""
        raise NotImplementedError

    def add_to_query(self, url, items):
        """The URL with the items added to its query the library's way, or None."""
        raise NotImplementedError


def usable(lib, url):
    read = lib.https_host(url) if url is not None else None
    return read is not None and read[0] == "https" and bool(read[1])


def parse(lib, link):
    items = lib.query_items(link)
    if items is None:
        return {"kind": "notULC"}
    names = [n for n, _ in items]
    if "ulc-success" not in names:
        return {"kind": "notULC"}
    success = lib.pick(items, "ulc-success")
    error = lib.pick(items, "ulc-error") if "ulc-error" in names else None
    ok = usable(lib, success) and (error is None or usable(lib, error))
    out = {"kind": "ulc" if ok else "invalid", "success": success}
    if error is not None:
        out["error"] = error
    action = lib.without_callbacks(link)
    if action is not None:
        out["action"] = action
    return out


def build(lib, action, success, error):
    link = lib.append_callbacks(action, success, error)
    return {"refused": []} if link is None else {"link": link}


def handle(lib, scenario):
    registered = lib.path_of(scenario["logoutAction"])
    store = {"token": "session-1"} if scenario.get("signedIn") else {}
    signed_in = bool(scenario.get("signedIn"))
    backend_open = signed_in
    script = scenario.get("backend") or [{"answer": "closed", "seconds": 0.2}]
    attempts_made = 0
    opened, elapsed, now = [], [], 0.0
    for link in scenario["links"]:
        started = now
        parsed = parse(lib, link)
        if parsed["kind"] == "notULC" or lib.path_of(link) != registered:
            elapsed.append(0.0)
            continue
        ok = True
        if store:
            attempt = script[min(attempts_made, len(script) - 1)]
            attempts_made += 1
            answer = attempt["answer"]
            seconds = attempt.get("seconds", 0.2)
            if answer == "hang" or seconds > URLSESSION_TIMEOUT:
                now += URLSESSION_TIMEOUT
                ok = False
            else:
                now += seconds
                ok = answer in ("closed", "alreadyClosed")
            if ok:
                backend_open = False
                store = {}
        signed_in = False
        target = parsed.get("success") if ok else parsed.get("error")
        if target is not None and usable(lib, target):
            opened.append({"url": target, "universalLinksOnly": True, "atSeconds": now})
        elapsed.append(now - started)
    return {"opened": opened, "prompts": 0, "backendAttempts": attempts_made, "userSignedIn": signed_in,
            "backendSessionOpen": backend_open, "elapsedSeconds": elapsed}


# x-callback-url, the way a typical target app reads it: the library splits the URL, the host
# must read "x-callback-url", the action is the path, the four x- parameters are taken with the
# library's usual accessor and the rest are the action's parameters; a callback is fine when the
# library reads it as an absolute URL. Results go back through the library's own query encoding.
# No scheme policy beyond an allow-list the app is configured with.

X_PARAMETERS = ("x-source", "x-success", "x-error", "x-cancel")


def xcallback_parse(lib, url):
    split = lib.split(url)
    if split is None or split[1] != "x-callback-url":
        return {"kind": "notXCallback"}
    scheme, _, action, items = split
    names = [n for n, _ in items]
    out = {"kind": "xcallback", "scheme": scheme, "action": action,
           "parameters": [{"name": n, "value": v} for n, v in items if n not in X_PARAMETERS]}
    for key, name in (("source", "x-source"), ("success", "x-success"), ("error", "x-error"), ("cancel", "x-cancel")):
        if name in names:
            out[key] = lib.pick(items, name)
    callbacks = [out[k] for k in ("success", "error", "cancel") if k in out]
    if not action or not all(value and lib.https_host(value) is not None for value in callbacks):
        out["kind"] = "invalid"
    return out


def xcallback_build(lib, request):
    items = [(name, request[key]) for key, name in (("source", "x-source"), ("success", "x-success"),
                                                   ("error", "x-error"), ("cancel", "x-cancel")) if key in request]
    items += [(p["name"], p.get("value")) for p in request.get("parameters", [])]
    url = lib.x_callback_url(request["scheme"], request["action"], items)
    return {"refused": []} if url is None else {"url": url}


def xcallback_callback(lib, request):
    parsed = xcallback_parse(lib, request["url"])
    outcome = request["outcome"]
    target = parsed.get({"success": "success", "error": "error", "cancel": "cancel"}[outcome])
    if parsed["kind"] == "notXCallback" or not target:
        return {"open": None, "reason": "no callback for this outcome"}
    allowed = request.get("allowedSchemes")
    read = lib.https_host(target)
    if read is None or (allowed is not None and read[0].lower() not in [a.lower() for a in allowed]):
        return {"open": None, "reason": "not an allowed URL"}
    if outcome == "success":
        results = [(r["name"], r.get("value")) for r in request.get("results", [])]
    elif outcome == "error":
        results = [("errorCode", request.get("errorCode", "")), ("errorMessage", request.get("errorMessage", ""))]
    else:
        results = []
    opened = lib.add_to_query(target, results) if results else target
    return {"open": opened}


# XignSys links, the way a typical app checks them when one arrives: the library splits the
# link; a deep link's scheme must be one the app registered and its host names the process; an
# app link is http(s) on the manager's host under /in-app/process/ with the process in action;
# pid, source-url and browser are taken with the library's usual accessor. Nothing else is
# checked: no repeats refused, source-url not looked at.

XIGN_PROCESSES = ("authentication", "personalization", "transaction")


def xignqr_redirect(lib, request):
    schemes = request.get("schemes", ["xignqr"])
    hosts = request.get("hosts", ["xign.me"])
    split = lib.split(request["url"])
    if split is None:
        return {"kind": "none"}
    scheme, host, path, items = split
    names = [n for n, _ in items]
    if scheme in schemes:
        form, process = "deepLink", host
    elif scheme in ("https", "http") and host in hosts and ("/" + path).startswith("/in-app/process/"):
        form, process = "appLink", lib.pick(items, "action") if "action" in names else None
    else:
        return {"kind": "none"}
    if process not in XIGN_PROCESSES or "pid" not in names or not lib.pick(items, "pid"):
        return {"kind": "none"}
    out = {"kind": process, "form": form, "pid": lib.pick(items, "pid")}
    if "source-url" in names:
        out["sourceUrl"] = lib.pick(items, "source-url")
    if "browser" in names:
        out["browser"] = lib.pick(items, "browser")
    return out


def serve(lib, language="Python"):
    operations = {"ulc.parse": lambda i: parse(lib, i["link"]),
                  "ulc.build": lambda i: build(lib, i["action"], i["success"], i["error"]),
                  "ulc.handle": lambda i: handle(lib, i),
                  "xcallback.parse": lambda i: xcallback_parse(lib, i["url"]),
                  "xcallback.build": lambda i: xcallback_build(lib, i),
                  "xcallback.callback": lambda i: xcallback_callback(lib, i),
                  "xignqr.redirect": lambda i: xignqr_redirect(lib, i)}
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "start":
            me = {"name": lib.name, "version": lib.version, "language": language, "homepage": lib.homepage}
            answer = {"version": 1, "implementation": me, "operations": sorted(operations)}
        elif msg["cmd"] == "run":
            try:
                answer = {"seq": msg["seq"], "output": operations[msg["operation"]](msg["input"])}
            except Exception as e:  # the library threw: report it, as an app's crash log would
                answer = {"seq": msg["seq"], "errored": {"message": f"{type(e).__name__}: {e}"}}
        else:
            break
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
