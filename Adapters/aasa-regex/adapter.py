#!/usr/bin/env python3
"""Apple App Site Association matching the way a careful regex-based tool does it: every pattern
is translated into a Python regular expression and compared with re.fullmatch.

- translation: `*` -> `.*`, `?` -> `.`, `$(name)` -> an alternation of the values of the custom
  variable `name` from applinks.substitutionVariables (each value translated the same way, but
  without variables of its own), any other character re.escape'd; an unknown `$(name)` stays
  literal text;
- caseSensitive and percentEncoded: the component's own key, then details[].defaults, then
  applinks.defaults, then true; caseSensitive false adds re.IGNORECASE, percentEncoded false
  decodes the URL's path, query and fragment (or each query item's name and value) with
  urllib.parse.unquote before comparing;
- `/`, `?`, `#` left out of a component match anything (only those two settings have defaults);
  `exclude` is the component's own; a `?` dictionary compares each named item (split on `&`, name
  and value at the first `=`, the last repeat kept), and an absent item does not match;
- legacy `paths` (an entry without components) with `NOT ` exclusions, case-sensitive, as written;
- entries and components that are not objects are passed over.
Only aasa.match is implemented.
"""
import json
import os
import re
import sys
from urllib.parse import unquote, urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))
import adapter_protocol  # noqa: E402

VARIABLE = re.compile(r"\$\(([^)]*)\)")


def glob_regex(pattern):
    return "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)


def pattern_regex(pattern, variables):
    """The regular expression of a pattern, its $(name) replaced by the variable's alternatives."""
    parts, last = [], 0
    for found in VARIABLE.finditer(pattern):
        values = variables.get(found.group(1))
        if not isinstance(values, list):
            continue  # not a variable this file defines: left as literal text
        parts.append(glob_regex(pattern[last:found.start()]))
        parts.append("(?:" + "|".join(glob_regex(v) for v in values) + ")")
        last = found.end()
    parts.append(glob_regex(pattern[last:]))
    return "".join(parts)


def setting(key, component, entry, applinks):
    for source in (component, entry.get("defaults"), applinks.get("defaults")):
        if isinstance(source, dict) and key in source:
            return source[key]
    return True


def compare(pattern, text, variables, case_sensitive):
    flags = 0 if case_sensitive else re.IGNORECASE
    return re.fullmatch(pattern_regex(pattern, variables), text, flags) is not None


def query_items(query, decode):
    items = {}
    for item in query.split("&") if query else []:
        name, _, value = item.partition("=")
        items[decode(name)] = decode(value)
    return items


def component_matches(component, url, entry, applinks, variables):
    case_sensitive = setting("caseSensitive", component, entry, applinks)
    encoded = setting("percentEncoded", component, entry, applinks)
    decode = (lambda s: s) if encoded else unquote
    path = url.path or "/"
    if "/" in component and not compare(component["/"], decode(path), variables, case_sensitive):
        return False
    if "?" in component:
        query = component["?"]
        if isinstance(query, dict):
            items = query_items(url.query, decode)
            for name, pattern in query.items():
                if name not in items or not compare(pattern, items[name], variables, case_sensitive):
                    return False
        elif not compare(query, decode(url.query), variables, case_sensitive):
            return False
    if "#" in component and not compare(component["#"], decode(url.fragment), variables, case_sensitive):
        return False
    return True


def match(request):
    aasa = json.loads(request["file"])
    applinks = aasa.get("applinks") if isinstance(aasa, dict) else None
    if not isinstance(applinks, dict):
        return {"result": "no_match"}
    url = urlsplit(request["url"])
    if url.scheme != "https" or url.hostname != request["domain"].lower():
        return {"result": "no_match"}
    variables = applinks.get("substitutionVariables")
    variables = variables if isinstance(variables, dict) else {}
    details = applinks.get("details")
    for index, entry in enumerate(details if isinstance(details, list) else []):
        if not isinstance(entry, dict):
            continue
        app_ids = entry["appIDs"] if isinstance(entry.get("appIDs"), list) else [entry.get("appID")]
        if request["appID"] not in app_ids:
            continue
        if isinstance(entry.get("components"), list):
            for number, component in enumerate(entry["components"]):
                if isinstance(component, dict) and component_matches(component, url, entry, applinks, variables):
                    return {"result": "exclude" if component.get("exclude") is True else "match",
                            "detail": index, "component": number, "pattern": component.get("/", "*")}
        elif isinstance(entry.get("paths"), list):
            for number, pattern in enumerate(entry["paths"]):
                excluded = pattern.startswith("NOT ")
                if excluded:
                    pattern = pattern[len("NOT "):]
                if compare(pattern, url.path or "/", variables, True):
                    return {"result": "exclude" if excluded else "match",
                            "detail": index, "component": number, "pattern": pattern}
    return {"result": "no_match"}


if __name__ == "__main__":
    me = {"name": "aasa-regex", "version": "python %d.%d.%d" % sys.version_info[:3], "language": "Python",
          "homepage": "https://docs.python.org/3/library/re.html"}
    adapter_protocol.serve(me, {"aasa.match": match})
