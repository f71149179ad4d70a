#!/usr/bin/env python3
"""ULC and x-callback-url on the WHATWG URL standard, through ada-url (pip install ada-url):
what a browser, Node or a WHATWG-based service reads."""
import os
import sys

from urllib.parse import unquote

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

    def split(self, text):
        url = _url(text)
        if url is None:
            return None
        path = url.pathname[1:] if url.pathname.startswith("/") else url.pathname
        # decodeURIComponent, as a WHATWG app would write it.
        return (url.protocol.rstrip(":"), url.hostname, unquote(path, errors="strict"),
                list(URLSearchParams(url.search).items()))

    def x_callback_url(self, scheme, action, items):
        url = _url(scheme + "://x-callback-url/" + action)
        if url is None:
            return None
        params = URLSearchParams("")
        for name, value in items:
            params.append(name, "" if value is None else value)
        url.search = str(params)
        return url.href

    def add_to_query(self, text, items):
        url = _url(text)
        if url is None:
            return None
        params = URLSearchParams(url.search)
        for name, value in items:
            params.append(name, "" if value is None else value)
        url.search = str(params)
        return url.href


if __name__ == "__main__":
    typical_app.serve(Ada())
