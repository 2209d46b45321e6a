#!/usr/bin/env python3
"""serve_hostile.py — hostile clients for `dlperf serve`, run by tests/t_serve.sh.

Loopback only (127.0.0.1), bounded in connections and time.  Each
subcommand prints one line per finding and exits 0 when every check holds,
1 otherwise (the first line of stdout then says why).

  malformed PORT
      Requests libmicrohttpd rejects itself (bad/overflowing Content-Length,
      HTTP/9.9, a 70 KB header, bad chunked encoding) and ones the API
      rejects (invalid UTF-8 in the path, %00 in the path, duplicate JSON
      keys): every answer must be a complete HTTP response whose body parses
      as JSON {"error": ...} (and is valid UTF-8), with the expected status.

  slowloris PORT N HEADER_TIMEOUT SECONDS P99_MS
      N connections that trickle one header line every 0.3 s and never end
      their headers.  Meanwhile /api/health is asked on fresh connections,
      one after another, for SECONDS; its p99 latency must be under P99_MS,
      every probe must get 200, and every trickler must be closed by the
      server within HEADER_TIMEOUT (+1.5 s of slack) of its connect.

  slowbody PORT TIMEOUT
      Complete headers, then a body that trickles one byte every 0.3 s:
      closed with a JSON 408 within TIMEOUT (+1.5 s).

  caps PORT N FLAG
      N idle connections are held; one more must be answered a JSON 503
      naming FLAG (--max-per-ip or --max-connections) at once, before it
      sends anything, and closed; after the held ones close, /api/health
      answers 200.
"""
import json
import re
import selectors
import socket
import sys
import time

HOST = "127.0.0.1"


def read_all(s, limit=5.0):
    """Everything the server sends until it closes (or limit seconds)."""
    s.settimeout(limit)
    data = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            data += d
    except (socket.timeout, ConnectionResetError):
        pass
    return data


def parse_response(data):
    """(status, headers dict, body) of one HTTP response, or None."""
    head, sep, rest = data.partition(b"\r\n\r\n")
    if not sep:
        return None
    lines = head.split(b"\r\n")
    parts = lines[0].split(b" ", 2)
    if len(parts) < 2 or not parts[0].startswith(b"HTTP/1."):
        return None
    hdrs = {}
    for ln in lines[1:]:
        k, _, v = ln.partition(b":")
        hdrs[k.strip().lower().decode("latin-1")] = v.strip().decode("latin-1")
    n = int(hdrs.get("content-length", len(rest)))
    return int(parts[1]), hdrs, rest[:n]


def request(port, raw, limit=5.0):
    s = socket.create_connection((HOST, port), timeout=limit)
    try:
        s.sendall(raw)
    except OSError:
        pass        # refused mid-send (too large): the answer may still be there
    data = read_all(s, limit)
    s.close()
    return data


def malformed(port):
    post = b"POST /api/mig HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
    dup = b'{"device":"t4","memory_mb":100,"device":"a100-40gb"}'
    cases = [
        ("content_length_-1", 400, b"POST /api/mig HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n"),
        ("content_length_overflow", 413,
         b"POST /api/mig HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
        ("http_9.9", 505, b"GET /api/health HTTP/9.9\r\nHost: x\r\n\r\n"),
        ("header_70kb", 431, b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70000 + b"\r\n\r\n"),
        ("bad_chunked", 400, post + b"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"),
        ("path_invalid_utf8", 404, b"GET /api/\xff\xfe\xc3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        ("path_percent_invalid_utf8", 404, b"GET /api/%ff%c3%28 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        ("path_nul", 404, b"GET /api/health%00.html HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        ("duplicate_json_key", 400, post + b"Content-Length: %d\r\n\r\n" % len(dup) + dup),
    ]
    bad = []
    for name, want, raw in cases:
        data = request(port, raw)
        r = parse_response(data)
        why = None
        if r is None:
            why = "no HTTP response: %r" % data[:120]
        else:
            st, hdrs, body = r
            try:
                j = json.loads(body.decode("utf-8"))
                if not (isinstance(j, dict) and list(j) == ["error"] and isinstance(j["error"], str)):
                    why = "not {\"error\": ...}: %r" % body[:120]
            except (UnicodeDecodeError, ValueError) as e:
                why = "body is not JSON (%s): %r" % (e, body[:120])
            if st != want:
                why = (why or "") + " status %d, want %d" % (st, want)
            elif not hdrs.get("content-type", "").startswith("application/json"):
                why = (why or "") + " Content-Type %r" % hdrs.get("content-type")
            elif len(re.findall(rb"(?:^|\r\n)HTTP/1\.[01] [0-9]{3} ", data)) != 1:
                why = (why or "") + " %d status lines" % len(re.findall(rb"(?:^|\r\n)HTTP/1\.[01] [0-9]{3} ", data))
            if name == "duplicate_json_key" and not why and "device" not in j["error"]:
                why = "does not name the key: %r" % j["error"]
        print("%s %s %s" % ("ok " if not why else "BAD", name, why or r[2][:100].decode("utf-8", "replace")))
        if why:
            bad.append(name)
    if bad:
        print("malformed: not JSON or wrong status: " + ", ".join(bad))
        return 1
    return 0


def health_probe(port, limit=5.0):
    t0 = time.monotonic()
    try:
        data = request(port, b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", limit)
    except OSError:
        return None, time.monotonic() - t0
    r = parse_response(data)
    return (r[0] if r else None), time.monotonic() - t0


def slowloris(port, n, header_timeout, seconds, p99_ms):
    sel = selectors.DefaultSelector()
    conns = {}
    t_start = time.monotonic()
    for i in range(n):
        s = socket.create_connection((HOST, port), timeout=5)
        s.setblocking(False)
        s.send(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        conns[s] = {"t0": time.monotonic(), "next": time.monotonic() + 0.3, "closed": None, "data": b""}
        sel.register(s, selectors.EVENT_READ)
    opened = time.monotonic() - t_start
    lat, fails = [], []
    deadline = time.monotonic() + max(seconds, header_timeout + 2.0)
    t_probe_end = time.monotonic() + seconds
    while True:
        now = time.monotonic()
        if now >= t_probe_end and (now >= deadline or all(c["closed"] is not None for c in conns.values())):
            break
        for key, _ in sel.select(timeout=0):
            c = conns[key.fileobj]
            try:
                d = key.fileobj.recv(65536)
            except OSError:
                d = b""
            c["data"] += d
            if not d:
                c["closed"] = time.monotonic()
                sel.unregister(key.fileobj)
                key.fileobj.close()
        for s, c in conns.items():
            if c["closed"] is None and now >= c["next"]:
                try:
                    s.send(b"X-Trickle: %d\r\n" % int(now * 1000))
                except OSError:
                    pass       # closed: the read side reports it
                c["next"] = now + 0.3
        if now < t_probe_end:
            st, dt = health_probe(port, 2.0)
            if st == 200:
                lat.append(dt)
            else:
                fails.append(st)
        else:
            time.sleep(0.02)
    still_open = [c for c in conns.values() if c["closed"] is None]
    late = [c["closed"] - c["t0"] for c in conns.values()
            if c["closed"] is not None and c["closed"] - c["t0"] > header_timeout + 1.5]
    early = [c["closed"] - c["t0"] for c in conns.values()
             if c["closed"] is not None and c["closed"] - c["t0"] < header_timeout - 0.5]
    answered = sum(1 for c in conns.values() if c["data"].startswith(b"HTTP/1.1 408"))
    lat.sort()
    p50 = lat[len(lat) // 2] * 1e3 if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1e3 if lat else float("nan")
    worst = lat[-1] * 1e3 if lat else float("nan")
    for c in conns.values():
        if not c["data"]:
            continue
        r = parse_response(c["data"])
        if not r or r[0] != 408:
            fails.append("trickler answer %r" % c["data"][:80])
            break
        json.loads(r[2])
    life = sorted(c["closed"] - c["t0"] for c in conns.values() if c["closed"] is not None)
    print("slowloris: %d tricklers opened in %.2f s; /api/health %d probes, p50 %.1f ms, p99 %.1f ms, max %.1f ms, "
          "%d failed; tricklers closed after %.2f .. %.2f s (deadline %g s), %d answered 408, %d still open, %d late, "
          "%d early" % (n, opened, len(lat), p50, p99, worst, len(fails), life[0] if life else -1,
                        life[-1] if life else -1, header_timeout, answered, len(still_open), len(late), len(early)))
    ok = not fails and len(lat) >= 20 and p99 < p99_ms and not still_open and not late and not early
    for s in list(conns):
        if conns[s]["closed"] is None:
            s.close()
    if not ok:
        print("slowloris failed: fails=%r" % fails[:5])
    return 0 if ok else 1


def slowbody(port, timeout):
    s = socket.create_connection((HOST, port), timeout=5)
    s.sendall(b"POST /api/mig HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
    t0 = time.monotonic()
    s.setblocking(False)
    data = b""
    while time.monotonic() - t0 < timeout + 5:
        try:
            d = s.recv(65536)
            if not d:
                break
            data += d
        except BlockingIOError:
            pass
        except OSError:
            break
        try:
            s.send(b" ")
        except OSError:
            pass
        time.sleep(0.3)
    dt = time.monotonic() - t0
    s.close()
    r = parse_response(data)
    ok = r is not None and r[0] == 408 and "error" in json.loads(r[2]) and timeout - 0.5 < dt < timeout + 1.5
    print("slowbody: closed after %.2f s (timeout %g s): %r" % (dt, timeout, data[:12] + b"..." + data[-90:]))
    return 0 if ok else 1


def caps(port, per_ip, flag):
    held = [socket.create_connection((HOST, port), timeout=5) for _ in range(per_ip)]
    time.sleep(0.3)
    t0 = time.monotonic()
    s = socket.create_connection((HOST, port), timeout=5)
    data = read_all(s, 3.0)   # nothing sent: the answer comes at accept
    dt = time.monotonic() - t0
    s.close()
    r = parse_response(data)
    ok = r is not None and r[0] == 503 and "retry-after" in r[1] and flag in json.loads(r[2])["error"]
    for h in held:
        h.close()
    time.sleep(0.3)
    st, _ = health_probe(port)
    print("caps: connection %d from one address: %r after %.1f ms; /api/health afterwards: %s"
          % (per_ip + 1, r[2][:100] if r else data[:80], dt * 1e3, st))
    return 0 if ok and dt < 1.0 and st == 200 else 1


def main(argv):
    cmd, port = argv[1], int(argv[2])
    if cmd == "malformed":
        return malformed(port)
    if cmd == "slowloris":
        return slowloris(port, int(argv[3]), float(argv[4]), float(argv[5]), float(argv[6]))
    if cmd == "slowbody":
        return slowbody(port, float(argv[3]))
    if cmd == "caps":
        return caps(port, int(argv[3]), argv[4])
    print("unknown subcommand " + cmd)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
