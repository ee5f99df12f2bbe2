#!/usr/bin/env python3
"""Abuses the launch server for scripts/load.sh: python3 abuse.py MODE HOST PORT SECONDS.

Modes:
  slow-clients       200 connections, each sending a request (47 bytes) a byte a second.
  oversize-bodies    requests announcing or streaming bodies past the server's limit (1 MiB).
  malformed-bodies   bodies that are not JSON, and request lines that are not HTTP.
  idle-connections   2,000 keep-alive connections, each after one request, left idle.

Prints one summary line and exits 0 when the server answered every complete request it was
sent with the status expected (413, 400) and still answers at the end; 1 otherwise.
"""
import os
import random
import resource
import socket
import sys
import time

mode, host, port, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
deadline = time.time() + seconds
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
rng = random.Random(int(os.environ.get("ABUSE_SEED", "18")))


def connect():
    s = socket.create_connection((host, port), timeout=10)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def status_of(s):
    """The status code of the response on s, or None when the connection closed first."""
    data = b""
    while b"\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            return None
        data += chunk
    return int(data.split(b" ", 2)[1])


def request(method, path, body=b"", headers=""):
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + (body or b"")


def still_answers():
    s = connect()
    s.sendall(request("GET", "/api/launches?per_page=1", None))
    ok = status_of(s) == 200
    s.close()
    return ok


failures = []
if mode == "slow-clients":
    whole = request("GET", "/api/launches", None)
    sockets = [connect() for _ in range(200)]
    sent = 0
    while time.time() < deadline and sent < len(whole):
        for s in sockets:
            s.sendall(whole[sent:sent + 1])
        sent += 1
        time.sleep(1)
    summary = f"200 connections sent {sent} of {len(whole)} bytes each, a byte a second"
    if sent == len(whole):
        answered = sum(1 for s in sockets if status_of(s) == 200)
        summary += f"; {answered} answered 200"
        if answered != len(sockets):
            failures.append("not every slow client was answered")
    for s in sockets:
        s.close()
elif mode == "oversize-bodies":
    counts = {}
    while time.time() < deadline:
        s = connect()
        if rng.random() < 0.5:
            # Announced past the limit: refused on the header.
            s.sendall(request("POST", "/graphql", None, "Content-Type: application/json\r\n"
                              "Content-Length: 1073741824\r\n"))
        else:
            # Chunked, no length: refused once the streamed body passes the limit.
            s.sendall(request("POST", "/graphql", None, "Transfer-Encoding: chunked\r\n"))
            try:
                chunk = b"[" * 65536
                for _ in range(40):
                    s.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
        try:
            status = status_of(s)
        except (ConnectionResetError, socket.timeout):
            status = None
        counts[status] = counts.get(status, 0) + 1
        s.close()
    summary = "oversize bodies, statuses: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=str))
    if set(counts) - {413}:
        failures.append("a status other than 413")
elif mode == "malformed-bodies":
    counts = {}
    while time.time() < deadline:
        s = connect()
        kind = rng.randrange(3)
        if kind == 0:
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 2000)))
            s.sendall(request("POST", "/graphql", body))
        elif kind == 1:
            body = ('{"query": ' + "[" * rng.randrange(400, 600)).encode()
            s.sendall(request("POST", "/graphql", body))
        else:
            s.sendall(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))) + b"\r\n\r\n")
        try:
            status = status_of(s)
        except (ConnectionResetError, socket.timeout):
            status = None
        key = "closed" if status is None else status
        counts[key] = counts.get(key, 0) + 1
        s.close()
    summary = "malformed requests, answers: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=str))
    if set(counts) - {400, "closed"}:
        failures.append("an answer other than 400 or a closed connection")
elif mode == "idle-connections":
    sockets = []
    for _ in range(2000):
        s = connect()
        s.sendall(request("GET", "/api/launches?per_page=1", None, "Connection: keep-alive\r\n"))
        if status_of(s) != 200:
            failures.append("a keep-alive request was not answered")
            break
        sockets.append(s)
    while time.time() < deadline:
        time.sleep(1)
    summary = f"{len(sockets)} keep-alive connections held idle for {seconds:.0f} s"
    for s in sockets:
        s.close()
else:
    sys.exit(f"unknown mode {mode}")

if not still_answers():
    failures.append("the server no longer answers")
print(summary + ("; FAILED: " + "; ".join(failures) if failures else "; the server still answers"))
sys.exit(1 if failures else 0)
