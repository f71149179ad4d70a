#!/usr/bin/env python3
"""ULC on the WHATWG URL standard, through ada-url (pip install ada-url): what a browser, Node
or a WHATWG-based service reads."""
import os
import sys

from ada_url import URL, URLSearchParams

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python-common"))
import typical_app  # noqa: E402

try:
    from importlib.metadata import version as _version
    ADA_VERSION = _version("ada-url")
except Exception:  # pragma: no cover
    ADA_VERSION = "?"


def _url(text):
    try:
        return URL(text)
    except ValueError:
        return None


class Ada(typical_app.Library):
    name = "ada-url"
    version = ADA_VERSION
    homepage = "https://github.com/ada-url/ada-python"

    def query_items(self, link):
        url = _url(link)
        return None if url is None else list(URLSearchParams(url.search).items())

    def pick(self, items, name):
        # What URLSearchParams.get returns: the first repeat wins.
        return next((value for key, value in items if key == name), None)

    def https_host(self, text):
        url = _url(text)
        return None if url is None else (url.protocol.rstrip(":"), url.hostname)

    def without_callbacks(self, link):
        url = _url(link)
        if url is None:
            return None
        params = URLSearchParams(url.search)
        params.delete("ulc-success")
        params.delete("ulc-error")
        url.search = str(params)
        url.hash = ""
        return url.href

    def path_of(self, link):
        url = _url(link)
        return None if url is None else (url.hostname, url.pathname or "/")

    def append_callbacks(self, action, success, error):
        url = _url(action)
        if url is None:
            return None
        params = URLSearchParams(url.search)
        params.append("ulc-success", success)
        params.append("ulc-error", error)
        url.search = str(params)
        return url.href


if __name__ == "__main__":
    typical_app.serve(Ada())
