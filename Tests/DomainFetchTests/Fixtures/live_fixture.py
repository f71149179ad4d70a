#!/usr/bin/env python3
"""Real TLS servers on loopback for the live-check tests (Tests/DomainFetchTests).

Makes a scratch folder with a CA, certificates (openssl CLI) and one site per case, starts
nginx (Debian's package) as an unprivileged single process with its own prefix and config on a
free loopback port, and serves the cases nginx cannot (a body that never ends, a server that never
answers, a head too large, a hostile Location, a body cut short, a TLS handshake that stalls) from
a small TLS server here, and hostile HTTP/2 frames from another (a header block that never ends).
Prints one JSON line (ports, CA file, hosts), then serves until its standard input closes (the
test process ended, however it ended): then it stops nginx and removes the folder.

Every loop here is bounded in time and bytes, and every socket is on 127.0.0.1.
"""
import gzip
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

DOMAIN = "lc.test"
AASA = json.dumps({"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"],
                                              "components": [{"/": "/buy/*"}, {"/": "/private/*", "exclude": True}]}]}})
ASSETLINKS = json.dumps([{"relation": ["delegate_permission/common.handle_all_urls"],
                          "target": {"namespace": "android_app", "package_name": "com.example.app",
                                     "sha256_cert_fingerprints": [":".join(["AB"] * 32)]}}])
# Over 128 KB, under Android's 1 MiB cap: valid JSON padded with spaces.
LARGE = 200 * 1024

# Cases nginx serves, by host name: (config lines, files {path: bytes}).
def nginx_sites():
    good = {"/.well-known/apple-app-site-association": AASA.encode(), "/.well-known/assetlinks.json": ASSETLINKS.encode()}
    pad = lambda text: (text + " " * (LARGE - len(text))).encode()
    large = {"/.well-known/apple-app-site-association": pad(AASA), "/.well-known/assetlinks.json": pad(ASSETLINKS)}
    return {
        "good": ("default_type application/json;", good),
        "legacy": ("default_type application/json;", {"/apple-app-site-association": AASA.encode(),
                                                      "/.well-known/assetlinks.json": ASSETLINKS.encode()}),
        "redirect": (f"return 301 https://www.{DOMAIN}$request_uri;", {}),
        "missing": ("default_type application/json;", {}),
        "forbidden": ("return 403;", {}),
        "wrong-type": ("default_type text/html;", good),
        "large": ("default_type application/json;", large),
        "huge": ("default_type application/json;", {}),   # 1 GiB sparse files, made below
        "slow": ("default_type application/json; limit_rate 2k;", large),
        "gzip": ("default_type application/json; gzip on; gzip_types application/json; gzip_min_length 1;", good),
        "gzip-large": ("default_type application/json; gzip on; gzip_types application/json; gzip_min_length 1;", large),
        "bad-json": ("default_type application/json;", {"/.well-known/apple-app-site-association": b'{"applinks": \xff\xfe',
                                                        "/.well-known/assetlinks.json": b'{"not": "an array"}'}),
        # Certificates that fail: from a CA the client does not trust, and for another name.
        "untrusted": ("default_type application/json;", good),
        "wrong-name": ("default_type application/json;", good),
    }


def run(command, **kwargs):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)


def make_certificates(d):
    def ca(name):
        run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={name}",
             "-keyout", f"{d}/{name}.key", "-out", f"{d}/{name}.pem",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])

    def leaf(name, issuer, sans):
        ext = f"{d}/{name}.ext"
        with open(ext, "w") as f:
            f.write("basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
                    "extendedKeyUsage=serverAuth\nsubjectAltName=" + ",".join(f"DNS:{s}" for s in sans) + "\n")
        run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={sans[0]}",
             "-keyout", f"{d}/{name}.key", "-out", f"{d}/{name}.csr"])
        run(["openssl", "x509", "-req", "-in", f"{d}/{name}.csr", "-CA", f"{d}/{issuer}.pem", "-CAkey", f"{d}/{issuer}.key",
             "-CAcreateserial", "-days", "2", "-extfile", ext, "-out", f"{d}/{name}.pem"])

    ca("ca")
    ca("other-ca")
    leaf("wildcard", "ca", [f"*.{DOMAIN}"])
    leaf("untrusted", "other-ca", [f"untrusted.{DOMAIN}"])
    leaf("wrong-name", "ca", ["elsewhere.example"])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_nginx(d):
    sites = nginx_sites()
    servers = []
    for name, (lines, files) in sites.items():
        root = f"{d}/sites/{name}"
        os.makedirs(root + "/.well-known", exist_ok=True)
        for path, body in files.items():
            with open(root + path, "wb") as f:
                f.write(body)
        if name == "huge":
            for path in ("/.well-known/apple-app-site-association", "/.well-known/assetlinks.json"):
                with open(root + path, "wb") as f:
                    f.truncate(1 << 30)   # sparse: no disk used
        cert = name if name in ("untrusted", "wrong-name") else "wildcard"
        servers.append(f"""
    server {{
        listen 127.0.0.1:{{port}} ssl http2;
        server_name {name}.{DOMAIN};
        ssl_certificate {d}/{cert}.pem;
        ssl_certificate_key {d}/{cert}.key;
        root {root};
        location / {{ {lines} }}
    }}""")
    for attempt in range(5):
        port = free_port()
        conf = f"""daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/nginx-error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {d}/tmp-body;
    proxy_temp_path {d}/tmp-proxy;
    fastcgi_temp_path {d}/tmp-fastcgi;
    uwsgi_temp_path {d}/tmp-uwsgi;
    scgi_temp_path {d}/tmp-scgi;
    types {{ }}
    sendfile on;
    ssl_protocols TLSv1.2 TLSv1.3;
""" + "".join(s.replace("{port}", str(port)) for s in servers) + "\n}\n"
        with open(f"{d}/nginx.conf", "w") as f:
            f.write(conf)
        process = subprocess.Popen(["nginx", "-p", d, "-c", f"{d}/nginx.conf", "-e", f"{d}/nginx-error.log"],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return process, port
            except OSError:
                time.sleep(0.05)
        process.kill()
        process.wait()
    with open(f"{d}/nginx-error.log") as f:
        raise SystemExit("nginx did not start: " + f.read()[-2000:])


# The hostile cases, by the first label of the Host header.
def helper_response(case, conn, path):
    json_head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
    stop = time.monotonic() + 120   # no loop outlives two minutes
    if case == "keep-alive":
        # The files with their lengths, no "Connection: close", then the connection closes (as
        # a server behind a proxy with a short keep-alive does): each file needs its own connection.
        body = {"/.well-known/apple-app-site-association": AASA, "/.well-known/assetlinks.json": ASSETLINKS}.get(path)
        if body is None:
            conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
        else:
            conn.sendall(f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}".encode())
        return
    if case == "endless":
        # A body that never ends, as fast as the client takes it (no length, no end).
        conn.sendall((json_head + "\r\n[").encode())
        chunk = b" " * 65536
        sent = 0
        while time.monotonic() < stop and sent < (4 << 30):
            conn.sendall(chunk)
            sent += len(chunk)
    elif case == "trickle":
        # Headers, then one byte every 200 ms: never silent for a read timeout, never done.
        conn.sendall((json_head + "\r\n[").encode())
        while time.monotonic() < stop:
            time.sleep(0.2)
            conn.sendall(b" ")
    elif case == "silent":
        # Reads the request and never answers.
        while time.monotonic() < stop:
            time.sleep(0.2)
    elif case == "stall":
        # Half the promised body, then silence.
        conn.sendall((json_head.replace("Connection: close\r\n", "") + "Content-Length: 1000\r\n\r\n[" + " " * 499).encode())
        while time.monotonic() < stop:
            time.sleep(0.2)
    elif case == "short":
        # Promises 1000 bytes, sends 10 and closes.
        conn.sendall((json_head + "Content-Length: 1000\r\n\r\n[        ").encode())
    elif case == "huge-headers":
        conn.sendall((json_head + "X-Filler: " + "a" * (1 << 20) + "\r\n\r\n[]").encode())
    elif case == "hostile":
        # A redirect whose Location carries a bidi override and invalid UTF-8 (bytes HTTP allows).
        conn.sendall(b"HTTP/1.1 301 Moved\r\nLocation: https://evil.example/\xe2\x80\xaetxt.exe\xff\xfe\r\n"
                     b"Content-Length: 0\r\nConnection: close\r\n\r\n")
    elif case == "control":
        # A terminal escape in a header: not HTTP, refused by the parser.
        conn.sendall(b"HTTP/1.1 301 Moved\r\nLocation: https://evil.example/\x1b[31mred\x1b]0;title\x07\r\n"
                     b"Content-Length: 0\r\nConnection: close\r\n\r\n")
    elif case == "gzip-bomb":
        # 8 MiB of JSON once decoded, 8 KB on the wire: the decoder's limit trips at once.
        body = gzip_bomb()
        conn.sendall((json_head + f"Content-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body)
    elif case == "br":
        # A coding the client did not ask for (and the body not even brotli): not the file.
        body = AASA.encode()
        conn.sendall((json_head + f"Content-Encoding: br\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body)
    elif case == "not-modified":
        # 304 to a request that asked for no such thing, and no Location: a status, not a redirect.
        conn.sendall(b"HTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n")
    elif case == "unclean":
        # HTTP/1.0, the body's end marked by the close only, and the close without TLS's
        # close_notify: the connection is dropped under the TLS layer.
        conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n[]")
        raw = socket.socket(fileno=os.dup(conn.fileno()))
        raw.shutdown(socket.SHUT_RDWR)
        raw.close()
    else:
        conn.sendall(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


_bomb = []


def gzip_bomb():
    if not _bomb:
        _bomb.append(gzip.compress(b"[" + b" " * (8 << 20) + b"]", compresslevel=9))
    return _bomb[0]


def serve_helper(context, listener, serve=None):
    def handle(raw):
        try:
            raw.settimeout(10)
            conn = context.wrap_socket(raw, server_side=True)
            if serve is not None:
                conn.settimeout(None)
                return serve(conn)
            request = b""
            while b"\r\n\r\n" not in request and len(request) < 65536:
                data = conn.recv(4096)
                if not data:
                    return
                request += data
            host = b""
            for line in request.split(b"\r\n")[1:]:
                if line.lower().startswith(b"host:"):
                    host = line[5:].strip()
            path = request.split(b"\r\n")[0].split(b" ")[1:2] or [b"/"]
            conn.settimeout(None)
            helper_response(host.split(b".")[0].decode("ascii", "replace"), conn, path[0].decode("ascii", "replace"))
            conn.close()
        except (OSError, ssl.SSLError, EOFError):
            pass
        finally:
            raw.close()

    while True:
        try:
            raw, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=handle, args=(raw,), daemon=True).start()


def stall_handshake(tls, name, context):
    """SNI callback of the helpers: `tls-stall.lc.test` gets no answer to its ClientHello (the
    connection is open, the handshake never finishes) for 30 s, then a handshake failure.
    Otherwise it keeps the name, which picks the HTTP/2 helper's case."""
    tls.case = (name or "").split(".")[0]
    if tls.case == "tls-stall":
        time.sleep(30)
        return ssl.ALERT_DESCRIPTION_HANDSHAKE_FAILURE
    return None


# HTTP/2 without a library: the few frames the cases need (RFC 9113 section 4.1, HPACK literals
# without indexing, RFC 7541 section 6.2.2).
def h2_frame(kind, flags, stream, payload):
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload


def hpack_integer(n):
    if n < 127:
        return bytes([n])
    out, n = [127], n - 127
    while n >= 128:
        out.append(n % 128 + 128)
        n //= 128
    return bytes(out + [n])


def hpack_literal(name, value):
    return b"\x00" + hpack_integer(len(name)) + name + hpack_integer(len(value)) + value


H2_DATA, H2_HEADERS, H2_SETTINGS, H2_CONTINUATION = 0, 1, 4, 9
END_STREAM, END_HEADERS, ACK = 1, 4, 1


def h2_response(case, send, stream, stop):
    status = hpack_literal(b":status", b"200") + hpack_literal(b"content-type", b"application/json")
    if case == "h2-continuation":
        # A header block that never ends: HEADERS without END_HEADERS, then CONTINUATION frames
        # of 10 KB as fast as the client takes them, for two minutes and 1 GB at most.
        send(h2_frame(H2_HEADERS, 0, stream, status))
        fragment = hpack_literal(b"x-filler", b"a" * 1000) * 10
        for _ in range(100_000):
            if time.monotonic() > stop:
                break
            send(h2_frame(H2_CONTINUATION, 0, stream, fragment))
    elif case == "h2-big-header":
        # One 2 MB header value over 16 KB CONTINUATION frames, then the end of the block and a body.
        block = status + hpack_literal(b"x-filler", b"a" * (2 << 20))
        chunks = [block[i:i + 16000] for i in range(0, len(block), 16000)]
        send(h2_frame(H2_HEADERS, 0, stream, chunks[0]))
        for chunk in chunks[1:-1]:
            send(h2_frame(H2_CONTINUATION, 0, stream, chunk))
        send(h2_frame(H2_CONTINUATION, END_HEADERS, stream, chunks[-1]))
        send(h2_frame(H2_DATA, END_STREAM, stream, b"[]"))
    else:
        send(h2_frame(H2_HEADERS, END_HEADERS | END_STREAM, stream, hpack_literal(b":status", b"404")))


def serve_h2(conn):
    """One HTTP/2 connection: the case is the first label of the TLS server name."""
    stop = time.monotonic() + 120
    lock = threading.Lock()

    def send(data):
        with lock:
            conn.sendall(data)

    def read(n):
        data = b""
        while len(data) < n:
            more = conn.recv(n - len(data))
            if not more:
                raise EOFError
            data += more
        return data

    read(24)   # the client's preface
    send(h2_frame(H2_SETTINGS, 0, 0, b""))
    while time.monotonic() < stop:
        header = read(9)
        kind, flags, stream = header[3], header[4], int.from_bytes(header[5:9], "big") & 0x7FFFFFFF
        read(int.from_bytes(header[:3], "big"))
        if kind == H2_SETTINGS and not flags & ACK:
            send(h2_frame(H2_SETTINGS, ACK, 0, b""))
        elif kind == H2_HEADERS:
            threading.Thread(target=h2_response, args=(getattr(conn, "case", ""), send, stream, stop), daemon=True).start()


def main():
    d = tempfile.mkdtemp(prefix="linkconform-live-")
    nginx = None
    try:
        make_certificates(d)
        nginx, nginx_port = start_nginx(d)
        ports = {}
        for name, protocol, serve in (("helperPort", "http/1.1", None), ("h2HelperPort", "h2", serve_h2)):
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(f"{d}/wildcard.pem", f"{d}/wildcard.key")
            context.set_alpn_protocols([protocol])
            context.sni_callback = stall_handshake
            listener = socket.socket()
            listener.bind(("127.0.0.1", 0))
            listener.listen(64)
            threading.Thread(target=serve_helper, args=(context, listener, serve), daemon=True).start()
            ports[name] = listener.getsockname()[1]
        print(json.dumps({"nginxPort": nginx_port, **ports, "caFile": f"{d}/ca.pem",
                          "domain": DOMAIN, "nginxVersion": subprocess.run(["nginx", "-v"], capture_output=True,
                                                                           text=True).stderr.strip()}), flush=True)
        sys.stdin.read()   # until the test process closes its end (or ends)
    except subprocess.CalledProcessError as e:
        print(json.dumps({"error": f"{e.cmd[0]} failed: {e.stderr.decode(errors='replace')[-500:]}"}), flush=True)
    except SystemExit as e:
        print(json.dumps({"error": str(e)}), flush=True)
    finally:
        if nginx is not None:
            nginx.terminate()
            try:
                nginx.wait(timeout=5)
            except subprocess.TimeoutExpired:
                nginx.kill()
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
