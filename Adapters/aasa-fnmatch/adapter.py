#!/usr/bin/env python3
"""Apple App Site Association files the way a small open-source validator script reads them:
json.loads, a shape check, and shell-style globbing with fnmatch.fnmatchcase for matching.

What it does, on purpose no more:
- aasa.validate: the file's size against Apple's 128 KB, json.loads, then the types of the keys
  Apple documents (applinks, details as an array, appIDs/appID, components, paths);
- aasa.match: urlsplit reads the URL (https and the domain's host, nothing else about the
  authority); the `details` entries whose appIDs (or appID) hold the app ID, in file order; their
  components in order, each `/`, `?` and `#` compared with fnmatchcase (an unspecified one is
  `*`); a `?` dictionary compares each named item of dict(parse_qsl(query)); `exclude` read from
  the component; an entry without components uses its legacy `paths` with `NOT ` exclusions;
- aasa.entitlement: `applinks:<pattern>` entries, first whose host pattern fnmatches the host.
No substitution variables, no defaults, caseSensitive and percentEncoded are not read.
"""
import fnmatch
import json
import os
import sys
from urllib.parse import parse_qsl, urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))
import adapter_protocol  # noqa: E402

MAX_FILE_BYTES = 128 * 1024


# aasa.match

def entries_for(aasa, app_id):
    """(index, entry) of applinks.details listing the app ID, in file order."""
    details = aasa.get("applinks", {}).get("details", [])
    for index, entry in enumerate(details):
        app_ids = entry.get("appIDs", [entry.get("appID")])
        if app_id in app_ids:
            yield index, entry


def component_matches(component, url, path):
    if not fnmatch.fnmatchcase(path, component.get("/", "*")):
        return False
    query = component.get("?", "*")
    if isinstance(query, dict):
        items = dict(parse_qsl(url.query, keep_blank_values=True))
        for name, pattern in query.items():
            if name not in items or not fnmatch.fnmatchcase(items[name], pattern):
                return False
    elif not fnmatch.fnmatchcase(url.query, query):
        return False
    return fnmatch.fnmatchcase(url.fragment, component.get("#", "*"))


def match(request):
    aasa = json.loads(request["file"])
    url = urlsplit(request["url"])
    if url.scheme != "https" or url.hostname != request["domain"].lower():
        return {"result": "no_match"}
    path = url.path or "/"
    for index, entry in entries_for(aasa, request["appID"]):
        if "components" in entry:
            for number, component in enumerate(entry["components"]):
                if component_matches(component, url, path):
                    return {"result": "exclude" if component.get("exclude") else "match",
                            "detail": index, "component": number, "pattern": component.get("/", "*")}
        else:
            for number, pattern in enumerate(entry.get("paths", [])):
                excluded = pattern.startswith("NOT ")
                if excluded:
                    pattern = pattern[len("NOT "):]
                if fnmatch.fnmatchcase(path, pattern):
                    return {"result": "exclude" if excluded else "match",
                            "detail": index, "component": number, "pattern": pattern}
    return {"result": "no_match"}


# aasa.validate

COMPONENT_TYPES = {"/": str, "#": str, "comment": str, "exclude": bool, "caseSensitive": bool,
                   "percentEncoded": bool, "?": (str, dict)}


def check_entry(entry, found):
    if not isinstance(entry, dict):
        found.add("detail-not-object")
        return
    if "appIDs" not in entry and "appID" not in entry:
        found.add("appids-missing")
    if "appIDs" in entry and not (isinstance(entry["appIDs"], list) and all(isinstance(a, str) for a in entry["appIDs"])):
        found.add("appids-wrong-type")
    if "appID" in entry and not isinstance(entry["appID"], str):
        found.add("appid-wrong-type")
    if "components" in entry:
        if not isinstance(entry["components"], list):
            found.add("components-wrong-type")
        else:
            for component in entry["components"]:
                if not isinstance(component, dict):
                    found.add("component-not-object")
                    continue
                for key, expected in COMPONENT_TYPES.items():
                    if key in component and not isinstance(component[key], expected):
                        found.add("component-wrong-type")
    if "paths" in entry and not (isinstance(entry["paths"], list) and all(isinstance(p, str) for p in entry["paths"])):
        found.add("paths-wrong-type")


def validate(request):
    text = request["file"]
    found = set()
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        found.add("file-too-large")
    try:
        aasa = json.loads(text)
    except ValueError:
        return {"diagnostics": sorted(found | {"not-json"})}
    if not isinstance(aasa, dict):
        found.add("not-object")
    elif "applinks" not in aasa:
        found.add("no-applinks")
    elif not isinstance(aasa["applinks"], dict):
        found.add("applinks-not-object")
    elif "details" not in aasa["applinks"]:
        found.add("details-missing")
    elif not isinstance(aasa["applinks"]["details"], list):
        found.add("details-wrong-type")  # the schema says array; the dictionary form is just wrong here
    else:
        for entry in aasa["applinks"]["details"]:
            check_entry(entry, found)
    return {"diagnostics": sorted(found)}


# aasa.entitlement

def entitlement(request):
    host = request["host"]
    for entry in request["entitlements"]:
        if not entry.startswith("applinks:"):
            continue
        pattern = entry[len("applinks:"):].split("?")[0]
        if fnmatch.fnmatchcase(host, pattern):
            return {"entry": entry}
    return {"entry": None}


if __name__ == "__main__":
    me = {"name": "aasa-fnmatch", "version": "python %d.%d.%d" % sys.version_info[:3], "language": "Python",
          "homepage": "https://docs.python.org/3/library/fnmatch.html"}
    adapter_protocol.serve(me, {"aasa.validate": validate, "aasa.match": match, "aasa.entitlement": entitlement})
