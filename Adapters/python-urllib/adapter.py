#!/usr/bin/env python3
"""ULC and x-callback-url the way a typical Python service does it: urllib.parse from the
standard library."""
import os
import sys
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))
import typical_app  # noqa: E402


class Urllib(typical_app.Library):
    name = "python-urllib"
    version = "%d.%d.%d" % sys.version_info[:3]
    homepage = "https://docs.python.org/3/library/urllib.parse.html"

    def query_items(self, link):
        return parse_qsl(urlsplit(link).query, keep_blank_values=True)

    def pick(self, items, name):
        return dict(items).get(name)  # the usual dict(parse_qsl(...)): the last repeat wins

    def https_host(self, url):
        parts = urlsplit(url)
        return (parts.scheme, parts.hostname or "") if parts.scheme else None

    def without_callbacks(self, link):
        parts = urlsplit(link)
        rest = [(n, v) for n, v in parse_qsl(parts.query, keep_blank_values=True) if n not in ("ulc-success", "ulc-error")]
        return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(rest), ""))

    def path_of(self, link):
        parts = urlsplit(link)
        return ((parts.hostname or "").lower(), parts.path or "/")

    def append_callbacks(self, action, success, error):
        separator = "&" if urlsplit(action).query else "?"
        return action + separator + urlencode([("ulc-success", success), ("ulc-error", error)])

    def split(self, url):
        parts = urlsplit(url)
        if not parts.scheme:
            return None
        return (parts.scheme, parts.hostname or "", unquote(parts.path[1:] if parts.path.startswith("/") else parts.path),
                parse_qsl(parts.query, keep_blank_values=True))

    def x_callback_url(self, scheme, action, items):
        query = urlencode([(n, "" if v is None else v) for n, v in items])
        return scheme + "://x-callback-url/" + quote(action) + ("?" + query if query else "")

    def add_to_query(self, url, items):
        parts = urlsplit(url)
        added = urlencode([(n, "" if v is None else v) for n, v in items])
        query = parts.query + "&" + added if parts.query else added
        return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


if __name__ == "__main__":
    typical_app.serve(Urllib())
