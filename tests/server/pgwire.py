#!/usr/bin/env python3
"""pgwire.py -- a raw PostgreSQL v3 protocol client for tests/server.

Protocol checks that psql cannot make: exact startup messages, transaction
status bytes, malformed packets, the connection limit, CancelRequest keys,
concurrent sessions, the extended protocol.  Each check prints

    ok    NAME
    FAIL  NAME: what went wrong

    skip  NAME (known: ...)   a known engine bug, not the server's

and the script ends with "RESULT pgwire: N passed, N failed".

    pgwire.py HOST PORT GROUP...      (HOST: a directory = Unix socket)

Groups: startup, query, errors, malformed, cancel, concurrent, limit
(needs a server started with --max-connections 3), extended, params
(parameters, binary formats, cached plans, incremental portals),
utf8 (22021 for bytes that are not UTF-8: query text, names, Bind
parameters, COPY data, CopyFail),
auth / auth_trust (SCRAM-SHA-256 and
trust against the roles run.sh's auth group makes), authid (pg_authid
through the extended protocol), dbname /
dbname_auth (the database names a client may ask for, on the auth
group's server, whose database is tdb), copy (the
COPY sub-protocol: CopyFail, bad data, a client leaving mid-COPY, other
messages during COPY), deep (statements nested past max_stack_depth and
past the grammar's stack), shutdown_setup /
shutdown_check (around a SIGTERM and restart, see run.sh).
"""
import os
import select
import socket
import struct
import sys
import threading
import time

HOST = None
PORT = None
PASSED = 0
FAILED = 0


def check(name, cond, detail=""):
    global PASSED, FAILED
    if cond:
        PASSED += 1
        print("  ok    %s" % name)
    else:
        FAILED += 1
        print("  FAIL  %s: %s" % (name, detail))
    sys.stdout.flush()
    return cond


def known(name, cond, reason, detail=""):
    """A check that fails today because of a known engine bug (reason):
    counted as skipped until it passes."""
    if cond:
        return check(name, cond)
    print("  skip  %s (known: %s; got %s)" % (name, reason, detail))
    sys.stdout.flush()
    return False


def raw_socket():
    if HOST.startswith("/"):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(os.path.join(HOST, ".s.PGSQL.%d" % PORT))
    else:
        s = socket.create_connection((HOST, PORT))
    s.settimeout(20)
    return s


def startup_packet(params, version=196608):
    body = struct.pack("!I", version)
    for k, v in params.items():
        body += k.encode() + b"\0" + v.encode() + b"\0"
    body += b"\0"
    return struct.pack("!I", len(body) + 4) + body


def parse_fields(body):
    """ErrorResponse / NoticeResponse body -> {code: value}."""
    fields = {}
    i = 0
    while i < len(body) and body[i] != 0:
        code = chr(body[i])
        end = body.index(b"\0", i + 1)
        fields[code] = body[i + 1:end].decode(errors="backslashreplace")
        i = end + 1
    return fields


class Conn:
    """One connection; messages come back as (type, body) tuples."""

    def __init__(self, params=None, sock=None, startup=True):
        self.sock = sock or raw_socket()
        self.buf = b""
        self.params = {}
        self.pid = self.key = None
        self.status = None
        if startup:
            p = {"user": "tester", "database": "postgres"}
            p.update(params or {})
            self.sock.sendall(startup_packet(p))
            self.startup_msgs = self.until_ready()

    def recv_exact(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("connection closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def read_msg(self):
        t = self.recv_exact(1)
        (length,) = struct.unpack("!I", self.recv_exact(4))
        body = self.recv_exact(length - 4)
        return chr(t[0]), body

    def until_ready(self):
        """Messages up to and including ReadyForQuery (or a FATAL)."""
        msgs = []
        while True:
            t, body = self.read_msg()
            msgs.append((t, body))
            if t == "S":
                k, v, _ = body.split(b"\0")
                self.params[k.decode()] = v.decode(errors="backslashreplace")
            elif t == "K":
                self.pid, self.key = struct.unpack("!ii", body)
            elif t == "Z":
                self.status = chr(body[0])
                return msgs
            elif t == "E" and parse_fields(body).get("V") == "FATAL":
                return msgs

    def send(self, t, body=b""):
        self.sock.sendall(t.encode() + struct.pack("!I", len(body) + 4) + body)

    def query(self, sql):
        self.send("Q", sql.encode() + b"\0")
        return self.until_ready()

    def close(self):
        try:
            self.send("X")
        except OSError:
            pass
        self.sock.close()


def rows(msgs):
    """The DataRow values of msgs, as lists of str/None."""
    out = []
    for t, body in msgs:
        if t != "D":
            continue
        (n,) = struct.unpack("!h", body[:2])
        i, row = 2, []
        for _ in range(n):
            (ln,) = struct.unpack("!i", body[i:i + 4])
            i += 4
            if ln < 0:
                row.append(None)
            else:
                row.append(body[i:i + ln].decode())
                i += ln
        out.append(row)
    return out


def types(msgs):
    return "".join(t for t, _ in msgs)


def error_of(msgs):
    for t, body in msgs:
        if t == "E":
            return parse_fields(body)
    return None


def tags(msgs):
    return [body[:-1].decode() for t, body in msgs if t == "C"]


def read_all_until_close(sock, timeout=10):
    """Everything the server sends until it closes the socket."""
    sock.settimeout(timeout)
    data = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return data, True
            data += chunk
    except socket.timeout:
        return data, False
    except ConnectionResetError:
        return data, True


def fatal_in(data):
    """The fields of the first ErrorResponse in raw bytes, or None."""
    i = 0
    while i + 5 <= len(data):
        t = chr(data[i])
        (length,) = struct.unpack("!I", data[i + 1:i + 5])
        body = data[i + 5:i + 1 + length]
        if t == "E":
            return parse_fields(body)
        i += 1 + length
    return None


# ----------------------------------------------------------------------
# Groups
# ----------------------------------------------------------------------

def group_startup():
    c = Conn({"application_name": "pgwire"})
    t = types(c.startup_msgs)
    check("startup: AuthenticationOk first, ReadyForQuery last",
          t[0] == "R" and c.startup_msgs[0][1] == b"\0\0\0\0" and t[-1] == "Z",
          t)
    want = {
        "server_encoding": "UTF8", "client_encoding": "UTF8",
        "DateStyle": "ISO, MDY", "integer_datetimes": "on",
        "standard_conforming_strings": "on", "IntervalStyle": "postgres",
        "is_superuser": "on", "session_authorization": "tester",
        "application_name": "pgwire",
        "default_transaction_read_only": "off", "in_hot_standby": "off",
    }
    bad = {k: c.params.get(k) for k in want if c.params.get(k) != want[k]}
    check("startup: ParameterStatus values", not bad, bad)
    check("startup: 13 ParameterStatus messages", t.count("S") == 13, t)
    check("startup: server_version parses as 15",
          c.params.get("server_version", "").startswith("15."),
          c.params.get("server_version"))
    check("startup: TimeZone reported", c.params.get("TimeZone") in
          ("UTC", "Etc/UTC"), c.params.get("TimeZone"))
    check("startup: BackendKeyData", c.pid is not None and "K" in t, t)
    check("startup: idle status", c.status == "I", c.status)
    c.close()

    # SSLRequest and GSSENCRequest are answered 'N', then startup goes on
    s = raw_socket()
    s.sendall(struct.pack("!II", 8, 80877104))
    a1 = s.recv(1)
    s.sendall(struct.pack("!II", 8, 80877103))
    a2 = s.recv(1)
    c = Conn(sock=s)
    check("startup: GSSENCRequest and SSLRequest answered N",
          a1 == b"N" and a2 == b"N" and c.status == "I", (a1, a2, c.status))
    c.close()

    # a second SSLRequest is not a protocol version we know
    s = raw_socket()
    s.sendall(struct.pack("!II", 8, 80877103))
    s.recv(1)
    s.sendall(struct.pack("!II", 8, 80877103))
    data, closed = read_all_until_close(s)
    e = fatal_in(data)
    check("startup: a second SSLRequest is FATAL",
          closed and e is not None and e.get("C") == "0A000", (e, closed))

    # data pipelined after SSLRequest, before our answer
    s = raw_socket()
    s.sendall(struct.pack("!II", 8, 80877103) +
              startup_packet({"user": "x"}))
    time.sleep(0.2)
    data, closed = read_all_until_close(s)
    e = fatal_in(data[1:])
    check("startup: unencrypted data after SSLRequest is FATAL 08P01",
          data[:1] == b"N" and e is not None and e.get("C") == "08P01",
          (data[:40], e))

    # protocol 2.0: refused with the old-style error
    s = raw_socket()
    s.sendall(startup_packet({"user": "x"}, version=0x20000))
    data, closed = read_all_until_close(s)
    check("startup: protocol 2.0 refused",
          closed and data.startswith(b"E") and
          b"unsupported frontend protocol 2.0" in data, data[:80])

    # protocol 3.1 and _pq_ options: NegotiateProtocolVersion, then on
    s = raw_socket()
    s.sendall(startup_packet({"user": "tester", "database": "postgres",
                              "_pq_.fancy": "1"},
                             version=0x30001))
    c = Conn(sock=s, startup=False)
    msgs = c.until_ready()
    v = [b for t, b in msgs if t == "v"]
    ok = (len(v) == 1 and struct.unpack("!ii", v[0][:8]) == (196608, 1) and
          v[0][8:] == b"_pq_.fancy\0" and c.status == "I")
    check("startup: NegotiateProtocolVersion for 3.1 and _pq_ options", ok,
          (types(msgs), v))
    c.close()

    # no user
    s = raw_socket()
    s.sendall(startup_packet({"database": "x"}))
    data, closed = read_all_until_close(s)
    e = fatal_in(data)
    check("startup: no user is FATAL 28000",
          closed and e and e["C"] == "28000" and e["S"] == "FATAL" and
          e["M"] == "no PostgreSQL user name specified in startup packet", e)

    # an unknown setting is FATAL 42704, as in PostgreSQL
    c = Conn({"nosuch_setting": "1"})
    e = error_of(c.startup_msgs)
    check("startup: unknown setting is FATAL 42704",
          e and e["C"] == "42704" and e["S"] == "FATAL" and
          e["M"] == 'unrecognized configuration parameter "nosuch_setting"',
          e)
    c.sock.close()

    # settings from keys and from options
    c = Conn({"options": "-c work_mem=8MB --extra-float-digits=2",
              "DateStyle": "ISO, MDY", "client_encoding": "UTF8"})
    r = rows(c.query("SHOW work_mem"))
    r2 = rows(c.query("SHOW extra_float_digits"))
    check("startup: options -c and --name=value apply",
          r == [["8MB"]] and r2 == [["2"]], (r, r2))
    c.close()

    c = Conn({"options": "-x"})
    e = error_of(c.startup_msgs)
    check("startup: a bad options word is FATAL",
          e and e["S"] == "FATAL" and "invalid command-line argument" in
          e["M"], e)
    c.sock.close()

    # psql under LANG=C asks for SQL_ASCII: accepted and echoed
    c = Conn({"client_encoding": "SQL_ASCII"})
    check("startup: client_encoding SQL_ASCII echoed",
          c.status == "I" and c.params.get("client_encoding") == "SQL_ASCII",
          c.params.get("client_encoding"))
    c.close()

    # a client that connects and leaves at once is fine
    s = raw_socket()
    s.close()
    c = Conn()
    check("startup: server fine after a silent client", c.status == "I")
    c.close()


def group_query():
    c = Conn()
    m = c.query("SELECT 1 AS a, 'x'::text AS b, NULL::int AS c")
    t = [b for ty, b in m if ty == "T"][0]
    (n,) = struct.unpack("!h", t[:2])
    fields, i = [], 2
    for _ in range(n):
        end = t.index(b"\0", i)
        name = t[i:end].decode()
        i = end + 1
        tab, att, typ, ln, mod, fmt = struct.unpack("!ihihih", t[i:i + 18])
        i += 18
        fields.append((name, typ, ln, mod, fmt))
    check("query: RowDescription names, OIDs, typlen, typmod, format",
          fields == [("a", 23, 4, -1, 0), ("b", 25, -1, -1, 0),
                     ("c", 23, 4, -1, 0)], fields)
    check("query: DataRow text and NULL", rows(m) == [["1", "x", None]],
          rows(m))
    check("query: message order T D C Z", types(m) == "TDCZ", types(m))
    check("query: SELECT tag", tags(m) == ["SELECT 1"], tags(m))

    m = c.query("CREATE TABLE q (a int, b varchar(5), n numeric(10,3))")
    check("query: CREATE TABLE tag", types(m) == "CZ" and
          tags(m) == ["CREATE TABLE"], (types(m), tags(m)))
    m = c.query("SELECT b, n FROM q")
    t = [b for ty, b in m if ty == "T"][0]
    mods = []
    i = 2
    for _ in range(2):
        i = t.index(b"\0", i) + 1
        mods.append(struct.unpack("!i", t[i + 12:i + 16])[0])
        i += 18
    check("query: typmod of varchar(5) and numeric(10,3)",
          mods == [9, 655367], mods)
    check("query: zero rows still get a RowDescription",
          types(m) == "TCZ" and tags(m) == ["SELECT 0"], types(m))

    for text in ["", "   ", ";", "-- only a comment", "/* c */ ;"]:
        m = c.query(text)
        check("query: %r -> EmptyQueryResponse" % text, types(m) == "IZ",
              types(m))
    m = c.query("SELECT 1; ; SELECT 2;;")
    check("query: empty statements between others are dropped",
          types(m) == "TDCTDCZ", types(m))

    m = c.query("INSERT INTO q VALUES (1, 'a', 1.5); "
                "INSERT INTO q VALUES (2, 'b', 2); SELECT count(*) FROM q")
    check("query: multi-statement string, one ReadyForQuery",
          tags(m) == ["INSERT 0 1", "INSERT 0 1", "SELECT 1"] and
          types(m).count("Z") == 1 and rows(m) == [["2"]], (tags(m), rows(m)))

    # implicit transaction: an error rolls back the whole string
    m = c.query("INSERT INTO q VALUES (3, 'c', 3); SELECT 1/0")
    e = error_of(m)
    check("query: error in a string -> E then Z(I)",
          e and e["C"] == "22012" and c.status == "I", (types(m), e))
    check("query: ...and the string's earlier insert is gone",
          rows(c.query("SELECT count(*) FROM q")) == [["2"]])

    # transaction status bytes
    c.query("BEGIN")
    s1 = c.status
    c.query("INSERT INTO q VALUES (4, 'd', 4)")
    s2 = c.status
    m = c.query("SELECT nosuch FROM q")
    s3 = c.status
    m2 = c.query("SELECT 1")
    e2 = error_of(m2)
    m3 = c.query("COMMIT")
    check("query: status T, T, E in a failed block",
          (s1, s2, s3) == ("T", "T", "E"), (s1, s2, s3))
    check("query: 25P02 in a failed block", e2 and e2["C"] == "25P02", e2)
    check("query: COMMIT of a failed block says ROLLBACK, status I",
          tags(m3) == ["ROLLBACK"] and c.status == "I", (tags(m3), c.status))

    # notices: S, V, C, M
    m = c.query("DROP TABLE IF EXISTS nosuch")
    n = [parse_fields(b) for t, b in m if t == "N"]
    check("query: NoticeResponse fields S V M",
          len(n) == 1 and n[0]["S"] == "NOTICE" and n[0]["V"] == "NOTICE" and
          n[0]["M"] == 'table "nosuch" does not exist, skipping', n)
    check("query: NoticeResponse SQLSTATE 00000 for DROP IF EXISTS",
          len(n) == 1 and n[0].get("C") == "00000", n and n[0].get("C"))
    m = c.query("COMMIT")
    n = [parse_fields(b) for t, b in m if t == "N"]
    check("query: WARNING 25P01 for COMMIT outside a block",
          len(n) == 1 and n[0]["S"] == "WARNING" and n[0]["C"] == "25P01", n)
    c.query("SET client_min_messages = warning")
    m = c.query("DROP TABLE IF EXISTS nosuch")
    check("query: client_min_messages=warning hides NOTICE",
          "N" not in types(m), types(m))
    c.query("RESET client_min_messages")

    # ParameterStatus when a reported setting changes
    m = c.query("SET application_name = 'changed'")
    s = [b for t, b in m if t == "S"]
    check("query: ParameterStatus after SET application_name",
          s == [b"application_name\0changed\0"] and types(m) == "CSZ",
          (types(m), s))
    m = c.query("SET application_name = 'changed'")
    check("query: no ParameterStatus when the value did not change",
          "S" not in types(m), types(m))
    m = c.query("SET IntervalStyle = 'iso_8601'; RESET IntervalStyle")
    check("query: no ParameterStatus for a change undone in the string",
          "S" not in types(m), types(m))

    # a long value and many rows in one answer
    big = "x" * 100000
    m = c.query("SELECT repeat('x', 100000)")
    check("query: a 100 kB value", rows(m) == [[big]], len(m))
    m = c.query("SELECT g FROM generate_series(1, 20000) g")
    r = rows(m)
    check("query: 20000 rows", len(r) == 20000 and r[-1] == ["20000"] and
          tags(m) == ["SELECT 20000"], (len(r), tags(m)))

    # Terminate with an open transaction rolls back
    c.query("BEGIN")
    c.query("INSERT INTO q VALUES (5, 'e', 5)")
    c.close()
    c = Conn()
    check("query: Terminate rolls back an open block",
          rows(c.query("SELECT count(*) FROM q WHERE a = 5")) == [["0"]])
    c.query("DROP TABLE q")
    c.close()


def group_errors():
    c = Conn()
    m = c.query("SELEC 1")
    e = error_of(m)
    check("errors: syntax error fields S V C M P",
          e and e["S"] == "ERROR" and e["V"] == "ERROR" and
          e["C"] == "42601" and e["M"] == 'syntax error at or near "SELEC"'
          and e["P"] == "1", e)
    m = c.query("SELECT 'é' || nosuch")
    e = error_of(m)
    check("errors: P counts characters, not bytes",
          e and e["C"] == "42703" and e["P"] == "15", e)
    m = c.query("SELECT nosuch(1)")
    e = error_of(m)
    check("errors: hint (H) of an undefined function",
          e and e["C"] == "42883" and "H" in e and e["P"] == "8", e)
    c.query("CREATE TABLE u (i int NOT NULL)")
    m = c.query("INSERT INTO u VALUES (NULL)")
    e = error_of(m)
    check("errors: detail (D) of a not-null violation",
          e and e["C"] == "23502" and e.get("D") ==
          "Failing row contains (null).", e)
    m = c.query("SELECT $1")
    e = error_of(m)
    check("errors: $1 in a simple Query is 42P02",
          e and e["C"] == "42P02" and
          e["M"] == "there is no parameter $1", e)
    c.query("DROP TABLE u")
    c.close()


def group_malformed():
    # a connection that must survive all of this
    survivor = Conn()
    survivor.query("BEGIN")

    def expect_fatal(name, payload, code="08P01", startup=True):
        if startup:
            s = raw_socket()
        else:
            c = Conn()
            s = c.sock
        s.sendall(payload)
        data, closed = read_all_until_close(s)
        if not startup:
            data = c.buf + data
        e = fatal_in(data)
        check("malformed: " + name,
              closed and e is not None and e.get("S") == "FATAL" and
              e.get("C") == code, (e, closed, data[:60]))
        s.close()

    expect_fatal("HTTP request as a startup packet",
                 b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    expect_fatal("startup length 3", struct.pack("!I", 3) + b"\0" * 8)
    expect_fatal("startup length over 10000",
                 struct.pack("!II", 20000, 196608) + b"user\0x\0\0")
    body = struct.pack("!I", 196608) + b"user\0x\0"  # no final NUL
    expect_fatal("startup without its terminator",
                 struct.pack("!I", len(body) + 4) + body)
    body = struct.pack("!I", 196608) + b"user\0x"  # value without NUL
    expect_fatal("startup with an unterminated value",
                 struct.pack("!I", len(body) + 4) + body)

    # truncated startup packet, then the client leaves
    s = raw_socket()
    s.sendall(struct.pack("!I", 100) + b"\0\3\0\0user")
    s.close()

    expect_fatal("unknown message type", b"~" + struct.pack("!I", 4),
                 startup=False)
    expect_fatal("message length 2", b"Q" + struct.pack("!I", 2),
                 startup=False)
    expect_fatal("Sync with a 1 GB length", b"S" + struct.pack("!I", 1 << 30),
                 startup=False)

    # a Query whose body lies about its string: ERROR, and the
    # connection goes on (as in PostgreSQL)
    c = Conn()
    c.send("Q", b"SELECT 1")  # no NUL
    m = c.until_ready()
    e = error_of(m)
    m2 = c.query("SELECT 2")
    check("malformed: Query without NUL -> ERROR 08P01, connection lives",
          e and e["C"] == "08P01" and e["S"] == "ERROR" and
          rows(m2) == [["2"]], (e, rows(m2)))
    c.close()

    # a lying length: the client claims 1000 bytes and sends 10, then
    # leaves
    c = Conn()
    c.sock.sendall(b"Q" + struct.pack("!I", 1000) + b"SELECT 1;\0")
    c.sock.close()

    # a client that leaves in the middle of a big result
    for _ in range(3):
        c = Conn()
        c.send("Q", b"SELECT g, repeat('x', 100) FROM "
                    b"generate_series(1, 300000) g\0")
        c.recv_exact(1)
        c.sock.close()
    # and one that leaves with a transaction open and rows written
    c = Conn()
    c.query("CREATE TABLE gone (i int)")
    c.query("BEGIN")
    c.query("INSERT INTO gone VALUES (1)")
    c.sock.close()
    c = Conn()
    c.query("SET lock_timeout = '20s'")
    m = c.query("INSERT INTO gone VALUES (2)")  # waits for its writer lock
    r = rows(c.query("SELECT i FROM gone"))
    c.query("DROP TABLE gone")
    c.close()
    check("malformed: a vanished client's transaction rolls back and its "
          "locks go", error_of(m) is None and r == [["2"]], (error_of(m), r))

    # random garbage, many times
    import random
    rnd = random.Random(7)
    for i in range(30):
        s = raw_socket()
        n = rnd.randint(1, 200)
        s.sendall(bytes(rnd.getrandbits(8) for _ in range(n)))
        s.shutdown(socket.SHUT_WR)
        read_all_until_close(s, timeout=5)
        s.close()
    for i in range(30):
        c = Conn()
        n = rnd.randint(1, 200)
        c.sock.sendall(bytes(rnd.getrandbits(8) for _ in range(n)))
        c.sock.shutdown(socket.SHUT_WR)
        read_all_until_close(c.sock, timeout=5)
        c.sock.close()

    # well-framed messages of every frontend type with random bodies:
    # each gets an ERROR or a FATAL, never a crash
    survived = 0
    for i in range(200):
        c = Conn()
        for _ in range(rnd.randint(1, 6)):
            t = rnd.choice("PBDECSHQdcf")
            n = rnd.randint(0, 40)
            body = bytes(rnd.getrandbits(8) for _ in range(n))
            if rnd.random() < 0.5:  # mostly-plausible bodies too
                body = rnd.choice([b"", b"\0", b"S\0", b"P\0", b"\0\0"]) + body
            c.send(t, body)
        c.send("S")
        try:
            c.until_ready()
            m = c.query("SELECT 1")
            if rows(m) == [["1"]]:
                survived += 1
        except (EOFError, OSError):
            pass  # a FATAL closed it: fine
        c.sock.close()
    c = Conn()
    check("malformed: 200 connections of random typed messages, then a "
          "new connection works", rows(c.query("SELECT 1")) == [["1"]],
          survived)
    c.close()

    m = survivor.query("SELECT 42")
    check("malformed: another connection is unaffected",
          rows(m) == [["42"]] and survivor.status == "T", rows(m))
    survivor.query("ROLLBACK")
    survivor.close()
    c = Conn()
    check("malformed: new connections still work",
          rows(c.query("SELECT 1")) == [["1"]])
    c.close()


def group_cancel():
    c = Conn()
    result = {}

    def run():
        result["msgs"] = c.query(
            "SELECT count(*) FROM generate_series(1, 2000000000)")

    th = threading.Thread(target=run)
    th.start()
    time.sleep(0.5)
    # a wrong key does nothing
    s = raw_socket()
    s.sendall(struct.pack("!IIii", 16, 80877102, c.pid, c.key ^ 1))
    data, closed = read_all_until_close(s)
    check("cancel: wrong key gets no reply, socket closed",
          closed and data == b"", data)
    time.sleep(0.3)
    check("cancel: wrong key leaves the query running", th.is_alive())
    s = raw_socket()
    s.sendall(struct.pack("!IIii", 16, 80877102, c.pid, c.key))
    data, closed = read_all_until_close(s)
    th.join(20)
    e = error_of(result.get("msgs", []))
    check("cancel: right key cancels with 57014",
          closed and data == b"" and e and e["C"] == "57014" and
          e["M"] == "canceling statement due to user request" and
          c.status == "I", e)
    check("cancel: the session goes on",
          rows(c.query("SELECT 1")) == [["1"]])

    # cancelling an idle session is harmless
    s = raw_socket()
    s.sendall(struct.pack("!IIii", 16, 80877102, c.pid, c.key))
    read_all_until_close(s)
    time.sleep(0.1)
    check("cancel: an idle cancel does not hit the next query",
          rows(c.query("SELECT 2")) == [["2"]])

    # a session waiting for a lock is cancelled too: c holds the writer
    # lock, w waits for it
    c.query("CREATE TABLE cl (i int)")
    c.query("BEGIN")
    c.query("INSERT INTO cl VALUES (1)")
    w = Conn()
    waited = {}

    def wait_for_writer():
        waited["msgs"] = w.query("INSERT INTO cl VALUES (2)")

    th = threading.Thread(target=wait_for_writer)
    th.start()
    time.sleep(0.5)
    s = raw_socket()
    s.sendall(struct.pack("!IIii", 16, 80877102, w.pid, w.key))
    read_all_until_close(s)
    th.join(10)
    e = error_of(waited.get("msgs", []))
    check("cancel: a lock wait ends with 57014",
          not th.is_alive() and e and e["C"] == "57014", e)
    c.query("COMMIT")
    check("cancel: the cancelled insert left nothing",
          rows(w.query("SELECT count(*) FROM cl")) == [["1"]])
    w.query("DROP TABLE cl")
    w.close()
    c.close()


def group_timeout():
    """statement_timeout and lock_timeout, as PostgreSQL 15 applies them
    (this group passes against PostgreSQL 15 too)."""
    c = Conn()
    timeout_msg = "canceling statement due to statement timeout"

    # simple protocol: the long statement is cancelled, the next one runs
    c.query("SET statement_timeout = 200")
    t0 = time.time()
    e = error_of(c.query("SELECT count(*) FROM generate_series(1, 2000000000)"))
    took = time.time() - t0
    check("timeout: simple query ends with 57014",
          e and e["C"] == "57014" and e["M"] == timeout_msg and
          c.status == "I", e)
    check("timeout: ... after about the timeout", 0.15 < took < 5, took)
    check("timeout: the next statement runs",
          rows(c.query("SELECT 1")) == [["1"]])
    check("timeout: SHOW", rows(c.query("SHOW statement_timeout")) ==
          [["200ms"]])

    # each statement of a query string has its own timeout
    msgs = c.query("SELECT count(*) FROM generate_series(1, 100000); "
                   "SELECT count(*) FROM generate_series(1, 2000000000)")
    e = error_of(msgs)
    check("timeout: per statement of a string",
          rows(msgs)[:1] == [["100000"]] and e and e["M"] == timeout_msg, e)

    # in a transaction block: the block fails
    c.query("BEGIN")
    e = error_of(c.query("SELECT count(*) FROM generate_series(1, 2000000000)"))
    check("timeout: in a block, the block fails",
          e and e["C"] == "57014" and c.status == "E", (e, c.status))
    e = error_of(c.query("SELECT 1"))
    check("timeout: ... then 25P02", e and e["C"] == "25P02", e)
    c.query("ROLLBACK")

    # extended protocol: Parse/Bind/Execute/Sync
    msgs = batch(c, m_parse("", "SELECT count(*) FROM generate_series(1, 2000000000)"),
                 m_bind(), m_execute(), SYNC)
    e = error_of(msgs)
    check("timeout: extended protocol ends with 57014",
          e and e["C"] == "57014" and e["M"] == timeout_msg and
          c.status == "I", e)
    msgs = batch(c, m_parse("", "SELECT 3"), m_bind(), m_execute(), SYNC)
    check("timeout: extended protocol goes on", rows(msgs) == [["3"]], msgs)

    # the timer starts at a batch's first message and runs across the
    # messages until an Execute completes: a client pausing between Bind
    # and Execute uses up the statement's time
    c.send(*m_parse("", "SELECT 4"))
    c.send(*m_bind())
    c.send(*FLUSH)
    time.sleep(0.5)
    msgs = batch(c, m_execute(), SYNC)
    e = error_of(msgs)
    check("timeout: a batch's time runs from its first message",
          e and e["C"] == "57014" and e["M"] == timeout_msg, msgs)
    # ... but a completed Execute stops it: the next one starts afresh
    c.send(*m_parse("", "SELECT 5"))
    c.send(*m_bind())
    c.send(*m_execute())
    c.send(*FLUSH)
    time.sleep(0.5)
    msgs = batch(c, m_bind(), m_execute(), SYNC)
    check("timeout: a completed Execute ends its timeout",
          error_of(msgs) is None and rows(msgs) == [["5"], ["5"]], msgs)

    # a lock wait: c holds a row (PostgreSQL) / the writer lock (tupledb)
    c.query("RESET statement_timeout")
    c.query("CREATE TABLE tl (i int)")
    c.query("INSERT INTO tl VALUES (1)")
    c.query("BEGIN")
    c.query("UPDATE tl SET i = 2")
    w = Conn()
    w.query("SET statement_timeout = '300ms'")
    t0 = time.time()
    e = error_of(w.query("UPDATE tl SET i = 3"))
    took = time.time() - t0
    check("timeout: a lock wait ends with 57014",
          e and e["C"] == "57014" and e["M"] == timeout_msg and
          0.2 < took < 5, (e, took))
    w.query("RESET statement_timeout")
    w.query("SET lock_timeout = '200ms'")
    e = error_of(w.query("UPDATE tl SET i = 4"))
    check("timeout: lock_timeout ends a lock wait with 55P03",
          e and e["C"] == "55P03" and
          e["M"] == "canceling statement due to lock timeout", e)
    # RESET ALL inside the transaction: its lock waits use the session's
    # default from then on (here the startup packet's 200ms; the
    # statement_timeout only keeps a failure from hanging)
    w2 = Conn({"options": "-c lock_timeout=200ms -c statement_timeout=5s"})
    w2.query("SET lock_timeout = 0")
    w2.query("BEGIN")
    w2.query("RESET ALL")
    e = error_of(w2.query("UPDATE tl SET i = 5"))
    check("timeout: RESET ALL in a transaction applies the session's "
          "lock_timeout to its waits",
          e and e["C"] == "55P03" and
          e["M"] == "canceling statement due to lock timeout", e)
    w2.query("ROLLBACK")
    w2.close()
    c.query("COMMIT")
    check("timeout: the cancelled updates left nothing",
          rows(w.query("SELECT i FROM tl")) == [["2"]])
    w.query("DROP TABLE tl")
    w.close()

    # an idle session is never cancelled by a timeout
    c.query("SET statement_timeout = 100")
    time.sleep(0.3)
    check("timeout: idle time does not count",
          rows(c.query("SELECT 6")) == [["6"]])
    c.close()


def group_concurrent():
    a = Conn()
    b = Conn()
    a.query("CREATE TABLE cc (i int)")
    a.query("BEGIN")
    a.query("INSERT INTO cc VALUES (1)")
    r1 = rows(b.query("SELECT count(*) FROM cc"))
    a.query("COMMIT")
    r2 = rows(b.query("SELECT count(*) FROM cc"))
    check("concurrent: uncommitted rows invisible, committed visible",
          r1 == [["0"]] and r2 == [["1"]], (r1, r2))

    # several writers at once; every insert lands exactly once
    errors = []

    def writer(n):
        try:
            c = Conn()
            for i in range(50):
                m = c.query("INSERT INTO cc VALUES (%d)" % (n * 1000 + i))
                if error_of(m):
                    errors.append(error_of(m))
            c.close()
        except Exception as ex:  # noqa
            errors.append(repr(ex))

    ths = [threading.Thread(target=writer, args=(n,)) for n in range(1, 5)]
    for t in ths:
        t.start()
    # a reader scanning while they write
    reads = []
    for _ in range(20):
        reads.append(rows(b.query("SELECT count(*) FROM cc"))[0][0])
    for t in ths:
        t.join(60)
    r = rows(a.query("SELECT count(*), count(DISTINCT i) FROM cc"))
    check("concurrent: 4 writers x 50 inserts", not errors and
          r == [["201", "201"]], (errors[:3], r))
    check("concurrent: reader saw growing counts",
          all(int(x) <= 201 for x in reads) and
          [int(x) for x in reads] == sorted(int(x) for x in reads), reads)
    a.query("DROP TABLE cc")
    a.close()
    b.close()


def group_indexscan():
    """Index scans seen by sessions: an index built after a concurrent
    delete while another transaction is open holds the deleted rows'
    entries (the build keeps what an older snapshot may see, as
    PostgreSQL's does; tupledb runs every transaction READ COMMITTED, so
    the open one reads the present), and a scan through it returns only
    the rows the reader's snapshot sees; a statement planned once with
    parameters computes its index keys at each execution."""
    a = Conn()
    b = Conn()
    b.query("CREATE TABLE ix (a int, b text)")
    b.query("INSERT INTO ix SELECT g, 'r' || g FROM generate_series(1, 5000) g")
    b.query("CREATE TABLE ix_other (i int)")
    a.query("BEGIN ISOLATION LEVEL REPEATABLE READ")
    a.query("SELECT count(*) FROM ix_other")
    b.query("DELETE FROM ix WHERE a BETWEEN 100 AND 109")
    m = b.query("CREATE INDEX ix_a ON ix (a)")
    check("indexscan: CREATE INDEX beside an open REPEATABLE READ",
          not error_of(m), error_of(m))
    a.query("SET enable_seqscan = off")
    plan = rows(a.query("EXPLAIN (COSTS OFF) SELECT b FROM ix WHERE a = 105"))
    r_old = rows(a.query("SELECT b FROM ix WHERE a = 105"))
    n_old = rows(a.query("SELECT count(*) FROM ix WHERE a BETWEEN 95 AND 114"))
    r_new = rows(b.query("SELECT b FROM ix WHERE a = 105"))
    check("indexscan: the deleted rows' entries are skipped by visibility",
          plan == [["Index Scan using ix_a on ix"],
                   ["  Index Cond: (a = 105)"]] and r_old == [] and
          n_old == [["10"]] and r_new == [], (plan, r_old, n_old, r_new))
    a.query("COMMIT")

    # parameters: one plan, new keys at each Bind
    c = Conn()
    m = batch(c, m_parse("pk", "SELECT b FROM ix WHERE a = $1", (23,)),
              m_parse("rng", "SELECT count(*) FROM ix WHERE a BETWEEN $1 AND $2",
                      (20, 20)),
              m_parse("lst", "SELECT a FROM ix WHERE a IN ($1, $2) ORDER BY a",
                      (23, 23)), SYNC)
    got = []
    for params in (("7",), ("105",), ("0",), (None,), ("4999",)):
        got.append(rows(batch(c, m_bind("", "pk", params), m_execute(), SYNC)))
    check("indexscan: a = $1 with each value",
          got == [[["r7"]], [], [], [], [["r4999"]]], got)
    got = []
    for params in (("1", "10"), ("95", "3000000000"), ("10", "1"),
                   ("-3000000000", "3")):
        got.append(rows(batch(c, m_bind("", "rng", params), m_execute(), SYNC)))
    check("indexscan: a BETWEEN $1 AND $2 (int8 bounds on an int4 column)",
          got == [[["10"]], [["4896"]], [["0"]], [["3"]]], got)
    got = []
    for params in (("9", "4"), ("9", "9"), ("9", None), ("100", "101")):
        got.append(rows(batch(c, m_bind("", "lst", params), m_execute(), SYNC)))
    check("indexscan: a IN ($1, $2)",
          got == [[["4"], ["9"]], [["9"]], [["9"]], []], got)

    # a = ANY ($1) with an int4[] parameter, as drivers send IN lists:
    # given as int4[] (text and binary) or left to inference (int4[]);
    # the index condition's elements are read at each execution
    m = batch(c, m_parse("anyt", "SELECT a FROM ix WHERE a = ANY ($1) "
                                 "ORDER BY a", (1007,)),
              m_parse("anyu", "SELECT b FROM ix WHERE a = ANY ($1) "
                              "ORDER BY a"),
              m_describe("S", "anyu"), SYNC)
    check("indexscan: a = ANY ($1) infers int4[]",
          param_types(m) == [1007] and not error_of(m),
          (param_types(m), error_of(m)))
    got = []
    for params in (("{9,4,9}",), ("{}",), (None,), ("{100,4999,5000}",)):
        got.append(rows(batch(c, m_bind("", "anyt", params), m_execute(),
                              SYNC)))
    got.append(rows(batch(c, m_bind("", "anyu", ("{3,1}",)), m_execute(),
                          SYNC)))
    # binary int4[]: ndim 1, no NULLs, int4, 3 elements from 1
    arr = struct.pack("!iiiii", 1, 0, 23, 3, 1) + b"".join(
        struct.pack("!ii", 4, v) for v in (6, 2, 6))
    got.append(rows(batch(c, m_bindx("", "anyt", (arr,), (1,)), m_execute(),
                          SYNC)))
    check("indexscan: a = ANY ($1) with each int4[]",
          got == [[["4"], ["9"]], [], [], [["4999"], ["5000"]],
                  [["r1"], ["r3"]],
                  [["2"], ["6"]]], got)
    c.query("DROP TABLE ix")
    c.query("DROP TABLE ix_other")
    a.close()
    b.close()
    c.close()


def group_settings():
    """TimeZone, DateStyle, IntervalStyle per connection: from the startup
    packet, after SET (with ParameterStatus), through the extended
    protocol, and in two connections at once."""
    c = Conn({"TimeZone": "America/New_York", "DateStyle": "SQL, DMY"})
    check("settings: startup TimeZone and DateStyle reported",
          c.params.get("TimeZone") == "America/New_York" and
          c.params.get("DateStyle") == "SQL, DMY", c.params)
    r = rows(c.query("SELECT '2024-01-01 00:00+00'::timestamptz"))
    check("settings: startup zone and style apply",
          r == [["31/12/2023 19:00:00 EST"]], r)
    m = c.query("SET TimeZone = 'asia/tokyo'; SET DateStyle = german")
    s = sorted(b for t, b in m if t == "S")
    check("settings: ParameterStatus with the canonical values",
          s == [b"DateStyle\0German, DMY\0", b"TimeZone\0Asia/Tokyo\0"], s)
    m = c.query("SET IntervalStyle = 'ISO_8601'")
    s = [b for t, b in m if t == "S"]
    check("settings: ParameterStatus IntervalStyle",
          s == [b"IntervalStyle\0iso_8601\0"], s)
    # now() is the transaction's start (the Parse); statement_timestamp()
    # the Execute's arrival, as in PostgreSQL, which stamps every message
    m = batch(c, m_parse("", "SELECT '2024-07-01 00:00+00'::timestamptz, "
                             "interval '1 day 2 hours', now() <= "
                             "statement_timestamp()"),
              m_bind(), m_execute(), SYNC)
    r = rows(m)
    check("settings: extended protocol uses the session's settings",
          r == [["01.07.2024 09:00:00 JST", "P1DT2H", "t"]], r)
    m = c.query("SET TimeZone = 'nosuch'")
    e = error_of(m)
    check("settings: invalid TimeZone is 22023",
          e and e["C"] == "22023" and
          e["M"] == 'invalid value for parameter "TimeZone": "nosuch"', e)
    c.close()

    # two connections in different zones, querying at the same time
    results = {}

    def zone_reader(zone, want):
        bad = 0
        try:
            cz = Conn({"TimeZone": zone})
            for _ in range(100):
                r = rows(cz.query("SELECT '2024-01-01 00:00+00'::"
                                  "timestamptz::text"))
                if r != [[want]]:
                    bad += 1
            cz.close()
        except Exception as ex:  # noqa
            bad = repr(ex)
        results[zone] = bad

    ths = [threading.Thread(target=zone_reader, args=a) for a in
           (("Asia/Kolkata", "2024-01-01 05:30:00+05:30"),
            ("America/Los_Angeles", "2023-12-31 16:00:00-08"))]
    for t in ths:
        t.start()
    for t in ths:
        t.join(60)
    check("settings: two connections keep their own zones",
          results == {"Asia/Kolkata": 0, "America/Los_Angeles": 0}, results)


def group_limit():
    conns = [Conn() for _ in range(3)]
    check("limit: 3 connections under --max-connections 3",
          all(c.status == "I" for c in conns))
    c = Conn()
    e = error_of(c.startup_msgs)
    check("limit: the 4th gets FATAL 53300",
          e and e["S"] == "FATAL" and e["C"] == "53300" and
          e["M"] == "sorry, too many clients already", e)
    # a cancel request still gets through when the server is full
    result = {}

    def run():
        result["m"] = conns[0].query(
            "SELECT count(*) FROM generate_series(1, 2000000000)")

    th = threading.Thread(target=run)
    th.start()
    time.sleep(0.3)
    s = raw_socket()
    s.sendall(struct.pack("!IIii", 16, 80877102, conns[0].pid, conns[0].key))
    read_all_until_close(s)
    th.join(20)
    e = error_of(result.get("m", []))
    check("limit: CancelRequest works while full", e and e["C"] == "57014", e)
    conns[1].close()
    # the slot is free once the server has seen the Terminate
    deadline = time.time() + 10
    while True:
        c = Conn()
        if c.status == "I" or time.time() > deadline:
            break
        c.sock.close()
        time.sleep(0.05)
    check("limit: a slot freed by a disconnect is reused", c.status == "I")
    c.close()
    for x in (conns[0], conns[2]):
        x.close()


# --- extended protocol messages

STACK_HINT = ('Increase the configuration parameter "max_stack_depth" '
              '(currently %dkB), after ensuring the platform\'s stack depth '
              'limit is adequate.')

# Statements nested as deep as they are long, PostgreSQL 15's answers
# measured with its default max_stack_depth (2MB): "stack depth limit
# exceeded" past 4,064 terms of a + or || chain, 7,232 UNION ALLs, 2,512
# INTERSECTs, 13,056 casts.  Each: name, the statement for n, its rows.
DEEP_SHAPES = [
    ("1+1+...+1", lambda n: "SELECT " + "+".join(["1"] * n),
     lambda n: [[str(n)]]),
    ("'x'||'x'||...", lambda n: "SELECT " + "||".join(["'x'"] * n),
     lambda n: [["x" * n]]),
    ("a+a+...+a over a table",
     lambda n: "SELECT " + "+".join(["a"] * n) + " FROM deep_t",
     lambda n: [[str(n)]]),
    ("SELECT 1 UNION ALL ...",
     lambda n: " UNION ALL ".join(["SELECT 1"] * n), lambda n: [["1"]] * n),
    ("SELECT 1 INTERSECT ...",
     lambda n: " INTERSECT ".join(["SELECT 1"] * n), lambda n: [["1"]]),
    ("1::int::int...", lambda n: "SELECT 1" + "::int" * n,
     lambda n: [["1"]]),
]

# Nested deeper than the grammar's stack (bison's 10,000 entries): the
# parse fails at once with PostgreSQL's "memory exhausted" (42601) at the
# position PostgreSQL 15 reports.
GRAMMAR_SHAPES = [
    ("parentheses", "SELECT " + "(" * 20000 + "1" + ")" * 20000,
     'memory exhausted at or near "("', "10004"),
    ("subqueries", "SELECT " + "(SELECT " * 20000 + "1" + ")" * 20000,
     'memory exhausted at or near "("', "26664"),
    ("CASE", "SELECT " + "CASE WHEN true THEN " * 20000 + "1" +
     " END" * 20000, 'memory exhausted at or near "WHEN"', "39993"),
    ("NOT", "SELECT " + "NOT " * 100000 + "true",
     'memory exhausted at or near "NOT"', "39992"),
    ("function calls", "SELECT " + "abs(" * 20000 + "1" + ")" * 20000,
     'memory exhausted at or near "abs"', "20000"),
    ("parenthesized UNION ALL", "(" * 20000 + "SELECT 1" +
     " UNION ALL SELECT 1)" * 20000, 'memory exhausted at or near "("',
     "9999"),
]


def is_stack_error(e, kb=2048):
    return (e is not None and e.get("C") == "54001" and
            e.get("M") == "stack depth limit exceeded" and
            e.get("H") == STACK_HINT % kb and "P" not in e)


def group_deep():
    """Statements nested past max_stack_depth end in 54001 with
    PostgreSQL's message and hint; the session runs its next statement,
    another session runs all along, the server stays up.  (This group
    passes against PostgreSQL 15 as well.)"""
    a = Conn()
    b = Conn()
    a.query("CREATE TABLE deep_t (a int)")
    a.query("INSERT INTO deep_t VALUES (1)")

    def alive(name):
        ra = rows(a.query("SELECT 1"))
        rb = rows(b.query("SELECT 42"))
        check("deep: %s: the session goes on, and the other one" % name,
              ra == [["1"]] and a.status == "I" and rb == [["42"]],
              (ra, a.status, rb))

    for name, make, result in DEEP_SHAPES:
        for n in (1000, 10000, 100000, 1000000):
            m = a.query(make(n))
            e = error_of(m)
            label = "%s, %d terms" % (name, n)
            if n <= 1000:
                # PostgreSQL runs these, and so must tupledb
                check("deep: %s runs" % label,
                      e is None and rows(m) == result(n), e)
            elif n == 10000:
                # past PostgreSQL's limit; tupledb's recursion takes less
                # stack per level and may still run it, depending on the
                # build: the right answer or PostgreSQL's error
                check("deep: %s: the answer or 54001" % label,
                      (e is None and rows(m) == result(n)) or
                      is_stack_error(e), e)
            else:
                check("deep: %s: 54001 stack depth limit exceeded" % label,
                      is_stack_error(e), e)
            alive(label)

    # the lowest max_stack_depth: both refuse the shorter chains too
    a.query("SET max_stack_depth = '100kB'")
    for name, make, result in DEEP_SHAPES:
        e = error_of(a.query(make(10000)))
        check("deep: %s, 10000 terms, max_stack_depth 100kB: 54001" % name,
              is_stack_error(e, 100), e)
    r = rows(a.query("SHOW max_stack_depth"))
    check("deep: SHOW max_stack_depth", r == [["100kB"]], r)
    a.query("RESET max_stack_depth")
    alive("RESET max_stack_depth")

    for name, sql, message, position in GRAMMAR_SHAPES:
        e = error_of(a.query(sql))
        check("deep: %s nested past the grammar's stack: 42601" % name,
              e is not None and e.get("C") == "42601" and
              e.get("M") == message and e.get("P") == position, e)
        alive(name)

    # in a transaction block: the block fails, as any error fails it
    a.query("BEGIN")
    e1 = error_of(a.query(DEEP_SHAPES[0][1](100000)))
    e2 = error_of(a.query("SELECT 1"))
    a.query("ROLLBACK")
    check("deep: in a transaction block: 54001, then 25P02 until ROLLBACK",
          is_stack_error(e1) and e2 is not None and e2.get("C") == "25P02",
          (e1, e2))
    alive("ROLLBACK")

    # the extended protocol: Parse fails, Sync recovers
    msgs = batch(a, m_parse("", DEEP_SHAPES[1][1](100000)),
                 m_bind(), m_execute(), ("S", b""))
    check("deep: Parse of a deep statement: 54001, then ready",
          is_stack_error(error_of(msgs)) and msgs[-1][0] == "Z", msgs[:3])
    alive("extended protocol")

    # another session runs while one parses a million-term statement
    out = {}

    def sender():
        try:
            c = Conn()
            out["e"] = error_of(c.query(DEEP_SHAPES[3][1](1000000)))
            c.close()
        except Exception as ex:  # noqa
            out["e"] = repr(ex)

    t = threading.Thread(target=sender)
    t.start()
    answers = []
    while t.is_alive() and len(answers) < 1000:
        answers.append(rows(b.query("SELECT 42")))
    t.join(300)
    check("deep: a session answers while another sends 1M UNION ALLs",
          answers and all(r == [["42"]] for r in answers) and
          is_stack_error(out.get("e")), (len(answers), out.get("e")))

    a.query("DROP TABLE deep_t")
    a.close()
    b.close()


def m_parse(name, sql, types=()):
    return ("P", name.encode() + b"\0" + sql.encode() + b"\0" +
            struct.pack("!h", len(types)) +
            b"".join(struct.pack("!i", t) for t in types))


def m_bind(portal="", stmt="", params=(), results=()):
    body = portal.encode() + b"\0" + stmt.encode() + b"\0"
    body += struct.pack("!h", 0) + struct.pack("!h", len(params))
    for p in params:
        if p is None:
            body += struct.pack("!i", -1)
        else:
            p = p.encode()
            body += struct.pack("!i", len(p)) + p
    body += struct.pack("!h", len(results))
    body += b"".join(struct.pack("!h", r) for r in results)
    return ("B", body)


def m_describe(kind, name=""):
    return ("D", kind.encode() + name.encode() + b"\0")


def m_execute(portal="", limit=0):
    return ("E", portal.encode() + b"\0" + struct.pack("!i", limit))


def m_close(kind, name=""):
    return ("C", kind.encode() + name.encode() + b"\0")


SYNC = ("S", b"")
FLUSH = ("H", b"")


def batch(c, *msgs):
    """Send messages; read replies up to the ReadyForQuery if a Sync was
    among them."""
    for t, body in msgs:
        c.send(t, body)
    if any(t == "S" for t, _ in msgs):
        return c.until_ready()
    return []


def group_extended():
    c = Conn()
    c.query("CREATE TABLE x (i int, t text)")
    c.query("INSERT INTO x VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), "
            "(5, 'e')")
    m = batch(c, m_parse("", "SELECT i, t FROM x ORDER BY i"), m_bind(),
              m_describe("P"), m_execute(), SYNC)
    check("extended: unnamed Parse/Bind/Describe/Execute/Sync",
          types(m) == "12TDDDDDCZ" and tags(m) == ["SELECT 5"] and
          rows(m)[0] == ["1", "a"], (types(m), tags(m)))

    m = batch(c, m_parse("", "SELECT 1 AS one"), m_describe("S"), SYNC)
    t = [b for ty, b in m if ty == "t"]
    check("extended: Describe S of a SELECT -> t (no parameters), T",
          types(m) == "1tTZ" and t == [b"\0\0"], types(m))
    m = batch(c, m_parse("ins", "INSERT INTO x VALUES (6, 'f')"),
              m_describe("S", "ins"), m_bind("", "ins"), m_describe("P"),
              m_execute(), SYNC)
    check("extended: named INSERT: Describe S/P -> NoData, INSERT 0 1",
          types(m) == "1tn2nCZ" and tags(m) == ["INSERT 0 1"], types(m))
    m = batch(c, m_bind("", "ins"), m_execute(), SYNC)
    check("extended: a named statement is reused",
          types(m) == "2CZ" and tags(m) == ["INSERT 0 1"], types(m))
    m = batch(c, m_parse("ins", "SELECT 1"), SYNC)
    e = error_of(m)
    check("extended: Parse of an existing name -> 42P05",
          e and e["C"] == "42P05" and
          e["M"] == 'prepared statement "ins" already exists', e)
    m = batch(c, m_close("S", "ins"), m_close("S", "nosuch"), SYNC)
    check("extended: Close S -> CloseComplete, unknown name too",
          types(m) == "33Z", types(m))
    m = batch(c, m_bind("", "ins"), m_execute(), SYNC)
    e = error_of(m)
    check("extended: Bind to a closed statement -> 26000, skip to Sync",
          types(m) == "EZ" and e["C"] == "26000" and
          e["M"] == 'prepared statement "ins" does not exist', types(m))

    # portal suspension
    m = batch(c, m_parse("", "SELECT i FROM x WHERE i <= 5 ORDER BY i"),
              m_bind("", ""), m_describe("P"), m_execute("", 2),
              m_execute("", 2), m_execute("", 2), m_execute("", 2), SYNC)
    check("extended: Execute with a row limit -> PortalSuspended",
          types(m) == "12TDDsDDsDCCZ" and tags(m) == ["SELECT 1", "SELECT 0"]
          and rows(m) == [["1"], ["2"], ["3"], ["4"], ["5"]],
          (types(m), tags(m)))

    # errors: skip to Sync
    m = batch(c, m_parse("", "SELECT 1/0"), m_bind(), m_describe("P"),
              m_execute(), m_parse("", "SELECT 1"), m_bind(), m_execute(),
              SYNC)
    e = error_of(m)
    check("extended: error, then everything skipped until Sync",
          types(m).endswith("EZ") and types(m).count("E") == 1 and
          "D" not in types(m) and e["C"] == "22012" and c.status == "I",
          types(m))
    m = batch(c, m_parse("", "SELEC 1"), m_bind(), m_execute(), SYNC)
    e = error_of(m)
    check("extended: syntax error at Parse, with its position",
          types(m) == "EZ" and e["C"] == "42601" and e["P"] == "1",
          (types(m), e))
    m = batch(c, m_parse("", "SELECT 1; SELECT 2"), SYNC)
    e = error_of(m)
    check("extended: two statements in a Parse -> 42601",
          e and e["C"] == "42601" and e["M"] ==
          "cannot insert multiple commands into a prepared statement", e)
    m = batch(c, m_parse("", ""), m_bind(), m_describe("P"), m_execute(),
              SYNC)
    check("extended: empty query -> NoData, EmptyQueryResponse",
          types(m) == "12nIZ", types(m))
    m = batch(c, m_execute("nosuch"), SYNC)
    e = error_of(m)
    check("extended: Execute of an unknown portal -> 34000",
          e and e["C"] == "34000" and
          e["M"] == 'portal "nosuch" does not exist', e)
    m = batch(c, m_parse("", "SELECT $1"), m_bind(), SYNC)
    e = error_of(m)
    check("extended: wrong parameter count -> 08P01",
          e and e["C"] == "08P01" and e["M"] ==
          'bind message supplies 0 parameters, but prepared statement "" '
          'requires 1', e)
    m = batch(c, m_parse("", "SELECT $1::int + 1"), m_bind(params=["41"]),
              m_execute(), SYNC)
    e = error_of(m)
    check("extended: parameters", rows(m) == [["42"]], e and e["C"])
    m = batch(c, m_parse("", "SELECT 1"), m_bind(results=[1]), m_execute(),
              SYNC)
    e = error_of(m)
    check("extended: binary results", rows(m) == [["\0\0\0\1"]],
          e and e["C"])

    # transaction blocks
    m = batch(c, m_parse("", "BEGIN"), m_bind(), m_execute(), SYNC)
    s1 = c.status
    m = batch(c, m_parse("", "SELECT nosuch FROM x"), m_bind(), m_execute(),
              SYNC)
    s2 = c.status
    m = batch(c, m_parse("", "SELECT 1"), SYNC)
    e = error_of(m)
    m2 = batch(c, m_parse("", "ROLLBACK"), m_bind(), m_execute(), SYNC)
    check("extended: BEGIN -> T, error -> E, Parse -> 25P02, ROLLBACK -> I",
          (s1, s2) == ("T", "E") and e and e["C"] == "25P02" and
          tags(m2) == ["ROLLBACK"] and c.status == "I",
          (s1, s2, e, tags(m2), c.status))

    # Flush sends without a Sync
    c.send(*m_parse("", "SELECT 2"))
    c.send(*FLUSH)
    t, _ = c.read_msg()
    check("extended: Flush sends ParseComplete at once", t == "1", t)
    batch(c, SYNC)

    # a simple Query drops the unnamed statement
    batch(c, m_parse("", "SELECT 3"), SYNC)
    c.query("SELECT 4")
    m = batch(c, m_bind(), SYNC)
    e = error_of(m)
    check("extended: a Query discards the unnamed statement",
          e and e["C"] == "26000" and
          e["M"] == "unnamed prepared statement does not exist", e)

    # portals end with their transaction
    m = batch(c, m_parse("", "SELECT 5"), m_bind("p1", ""), SYNC)
    m = batch(c, m_execute("p1"), SYNC)
    e = error_of(m)
    check("extended: a portal does not outlive its transaction",
          e and e["C"] == "34000", e)
    m = batch(c, m_parse("", "BEGIN"), m_bind(), m_execute(),
              m_parse("", "SELECT 6"), m_bind("p2", ""), SYNC)
    m = batch(c, m_execute("p2"), m_close("P", "p2"), m_parse("", "COMMIT"),
              m_bind(), m_execute(), SYNC)
    check("extended: a named portal lives to the end of its block",
          rows(m) == [["6"]] and types(m) == "DC312CZ", types(m))

    # a failed portal is dropped; a failed unnamed Parse drops the old one
    batch(c, m_parse("", "BEGIN"), m_bind(), m_execute(), SYNC)
    batch(c, m_parse("", "SELECT 1/0"), m_bind("bad", ""), m_execute("bad"),
          SYNC)
    m = batch(c, m_execute("bad"), SYNC)
    e = error_of(m)
    batch(c, m_parse("", "ROLLBACK"), m_bind(), m_execute(), SYNC)
    check("extended: a portal that failed is gone",
          e and e["C"] == "34000", e)
    batch(c, m_parse("", "SELECT 8"), SYNC)
    batch(c, m_parse("", "SELEC 8"), SYNC)
    m = batch(c, m_bind(), SYNC)
    e = error_of(m)
    check("extended: a failed unnamed Parse replaces the old statement",
          e and e["C"] == "26000", e)

    # malformed extended messages: ERROR 08P01, the connection goes on
    c.send("B", b"\0\0\0\0\0\5")
    batch(c, SYNC)
    m = c.query("SELECT 7")
    check("extended: a malformed Bind -> ERROR, connection lives",
          rows(m) == [["7"]], types(m))
    c.query("DROP TABLE x")
    c.close()


# --- parameters, binary formats, cached plans, incremental portals

OID = {"bool": 16, "int2": 21, "int4": 23, "int8": 20, "float4": 700,
       "float8": 701, "numeric": 1700, "text": 25, "varchar": 1043,
       "bpchar": 1042, "name": 19, "oid": 26, "date": 1082, "time": 1083,
       "timestamp": 1114, "timestamptz": 1184, "interval": 1186,
       "char": 18, "unknown": 705, "bytea": 17, "uuid": 2950}


def m_bindx(portal="", stmt="", params=(), pformats=(), results=()):
    """Bind with raw parameter values (bytes or None) and format codes."""
    body = portal.encode() + b"\0" + stmt.encode() + b"\0"
    body += struct.pack("!h", len(pformats))
    body += b"".join(struct.pack("!h", f) for f in pformats)
    body += struct.pack("!h", len(params))
    for p in params:
        if p is None:
            body += struct.pack("!i", -1)
        else:
            body += struct.pack("!i", len(p)) + p
    body += struct.pack("!h", len(results))
    body += b"".join(struct.pack("!h", r) for r in results)
    return ("B", body)


def raw_rows(msgs):
    """DataRow values as bytes/None."""
    out = []
    for t, body in msgs:
        if t != "D":
            continue
        (n,) = struct.unpack("!h", body[:2])
        i, row = 2, []
        for _ in range(n):
            (ln,) = struct.unpack("!i", body[i:i + 4])
            i += 4
            row.append(None if ln < 0 else body[i:i + ln])
            i += max(ln, 0)
        out.append(row)
    return out


def param_types(msgs):
    for t, body in msgs:
        if t == "t":
            (n,) = struct.unpack("!h", body[:2])
            return list(struct.unpack("!%dI" % n, body[2:2 + 4 * n]))
    return None


def rowdesc(msgs):
    """RowDescription -> [(name, tableoid, attnum, typeoid, format)]."""
    for t, body in msgs:
        if t != "T":
            continue
        (n,) = struct.unpack("!h", body[:2])
        i, cols = 2, []
        for _ in range(n):
            end = body.index(b"\0", i)
            name = body[i:end].decode()
            tbl, col, typ, _ln, _mod, fmt = struct.unpack(
                "!IhIhih", body[end + 1:end + 19])
            cols.append((name, tbl, col, typ, fmt))
            i = end + 19
        return cols
    return None


def numeric_bin(ndigits_weight_sign_dscale, digits):
    n, w, s, d = ndigits_weight_sign_dscale
    return struct.pack("!hhHh", n, w, s, d) + b"".join(
        struct.pack("!h", x) for x in digits)


# (type, text in, text out, binary form)
TYPE_CASES = [
    ("bool", "t", "t", b"\1"),
    ("int2", "-12", "-12", struct.pack("!h", -12)),
    ("int4", "42", "42", struct.pack("!i", 42)),
    ("int8", "9000000000", "9000000000", struct.pack("!q", 9000000000)),
    ("float4", "1.5", "1.5", struct.pack("!f", 1.5)),
    ("float8", "-2.25", "-2.25", struct.pack("!d", -2.25)),
    ("numeric", "123.45", "123.45", numeric_bin((2, 0, 0, 2), [123, 4500])),
    ("numeric", "-0.001", "-0.001", numeric_bin((1, -1, 0x4000, 3), [10])),
    ("numeric", "NaN", "NaN", numeric_bin((0, 0, 0xC000, 0), [])),
    ("text", "héllo", "héllo", "héllo".encode()),
    ("varchar", "abc", "abc", b"abc"),
    ("bpchar", "ab", "ab", b"ab"),
    ("name", "relname", "relname", b"relname"),
    ("oid", "4000000000", "4000000000", struct.pack("!I", 4000000000)),
    ("bytea", "\\x00ff41", "\\x00ff41", b"\0\xffA"),
    ("uuid", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
     "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
     bytes.fromhex("a0eebc999c0b4ef8bb6d6bb9bd380a11")),
    ("date", "2000-01-02", "2000-01-02", struct.pack("!i", 1)),
    ("time", "00:00:01.5", "00:00:01.5", struct.pack("!q", 1500000)),
    ("timestamp", "2000-01-01 00:00:01", "2000-01-01 00:00:01",
     struct.pack("!q", 1000000)),
    ("timestamptz", "2000-01-01 00:00:00+00", "2000-01-01 00:00:00+00",
     struct.pack("!q", 0)),
    ("interval", "2 mons 1 day 00:00:03", "2 mons 1 day 00:00:03",
     struct.pack("!qii", 3000000, 1, 2)),
]


def group_params():
    c = Conn({"TimeZone": "UTC"})
    c.query("DROP TABLE IF EXISTS p")
    c.query("CREATE TABLE p (a int, b text, c numeric(10,2), d date, "
            "e bool)")
    c.query("INSERT INTO p VALUES (1, 'one', 1.50, '2020-01-01', true), "
            "(2, 'two', 2.25, '2020-01-02', false), (3, NULL, NULL, NULL, "
            "NULL)")

    # type inference
    def infer(sql, types=()):
        m = batch(c, m_parse("", sql, types), m_describe("S"), SYNC)
        return param_types(m), error_of(m), m

    cases = [
        ("SELECT a FROM p WHERE a = $1 AND b = $2", [23, 25]),
        ("SELECT $1", [25]),
        ("SELECT $1::int8 + $2", [20, 20]),
        ("INSERT INTO p VALUES ($1, $2, $3, $4, $5)",
         [23, 25, 1700, 1082, 16]),
        ("UPDATE p SET b = $2 WHERE a = $1", [23, 25]),
        ("DELETE FROM p WHERE d > $1", [1082]),
        ("SELECT a FROM p ORDER BY a LIMIT $1 OFFSET $2", [20, 20]),
        ("SELECT a FROM p WHERE a IN (SELECT a FROM p WHERE c > $1)",
         [1700]),
        ("SELECT CASE WHEN e THEN $1 ELSE b END FROM p", [25]),
        ("SELECT $1 = 'x'", [25]),
        ("SELECT length($1)", [25]),
    ]
    for sql, want in cases:
        got, e, _ = infer(sql)
        check("params: infer %s" % sql, got == want, (got, e))
    got, e, _ = infer("SELECT $1 + $2", [23, 0])
    check("params: a declared type decides the other", got == [23, 23],
          (got, e))
    got, e, m = infer("SELECT $1 IS NULL")
    check("params: undecidable type -> 42P18",
          e and e["C"] == "42P18" and
          e["M"] == "could not determine data type of parameter $1",
          (e, types(m)))
    got, e, m = infer("SELECT $2::int")
    check("params: an unused $1 -> 42P18",
          e and e["C"] == "42P18" and
          e["M"] == "could not determine data type of parameter $1", e)
    got, e, m = infer("SELECT $0")
    check("params: $0 -> 42P02", e and e["C"] == "42P02" and
          e["M"] == "there is no parameter $0", e)
    got, e, m = infer("SELECT a FROM p WHERE a = $1", [999999])
    check("params: an unknown type OID -> 42704", e and e["C"] == "42704", e)

    # wrong parameter counts
    m = batch(c, m_parse("two", "SELECT $1::int + $2::int"),
              m_bind("", "two", params=["1"]), m_execute(), SYNC)
    e = error_of(m)
    check("params: too few values -> 08P01",
          e and e["C"] == "08P01" and e["M"] ==
          'bind message supplies 1 parameters, but prepared statement '
          '"two" requires 2' and types(m) == "1EZ", (e, types(m)))
    m = batch(c, m_bind("", "two", params=["1", "2", "3"]), m_execute(), SYNC)
    e = error_of(m)
    check("params: too many values -> 08P01", e and e["C"] == "08P01", e)
    m = batch(c, m_bindx("", "two", params=[b"1", b"2"], pformats=[0, 0, 0]),
              SYNC)
    e = error_of(m)
    check("params: format count neither 0, 1 nor n -> 08P01",
          e and e["C"] == "08P01", e)
    m = batch(c, m_bindx("", "two", params=[b"1", b"2"], pformats=[2]), SYNC)
    e = error_of(m)
    check("params: format code 2 -> 22023 with the parameter as CONTEXT",
          e and e["C"] == "22023" and
          e["M"] == "unsupported format code: 2" and
          e.get("W") == "unnamed portal parameter $1", e)
    # PostgreSQL's CONTEXT for a value that does not convert: the
    # parameter, and '...' for its text (log_parameter_max_length_on_error
    # is 0) once the type's input function has it
    m = batch(c, m_bind("", "two", params=["1", "x"]), SYNC)
    e = error_of(m)
    check("params: a bad text value -> CONTEXT unnamed portal parameter "
          "$2 = '...'", e and e["C"] == "22P02" and
          e.get("W") == "unnamed portal parameter $2 = '...'", e)
    m = batch(c, m_bind("p", "two", params=["x", "1"]), SYNC)
    e = error_of(m)
    check("params: ... of a named portal -> portal \"p\" parameter $1",
          e and e.get("W") == "portal \"p\" parameter $1 = '...'", e)
    m = batch(c, m_bindx("", "two", params=[b"\0\0\0\1\0", b"1"],
                         pformats=[1, 0]), SYNC)
    e = error_of(m)
    check("params: a bad binary value -> CONTEXT without the value",
          e and e["C"] == "22P03" and
          e.get("W") == "unnamed portal parameter $1", e)
    m = batch(c, m_bind("", "two", params=["1", "2"]), m_execute(), SYNC)
    check("params: the statement still works", rows(m) == [["3"]], types(m))
    batch(c, m_close("S", "two"), SYNC)

    # every type: text in/out, binary in/out
    for typ, tin, tout, binary in TYPE_CASES:
        sql = "SELECT $1::%s" % typ
        m = batch(c, m_parse("", sql), m_bind(params=[tin]), m_execute(),
                  SYNC)
        check("params: %s text in, text out" % typ,
              rows(m) == [[tout]], (rows(m), error_of(m)))
        m = batch(c, m_parse("", "SELECT $1", [OID[typ]]),
                  m_bindx(params=[binary], pformats=[1], results=[1]),
                  m_execute(), SYNC)
        check("params: %s binary in, binary out" % typ,
              raw_rows(m) == [[binary]], (raw_rows(m), error_of(m)))
        m = batch(c, m_parse("", "SELECT $1::%s" % typ),
                  m_bind(params=[tin], results=[1]), m_execute(), SYNC)
        check("params: %s text in, binary out" % typ,
              raw_rows(m) == [[binary]], (raw_rows(m), error_of(m)))
        m = batch(c, m_parse("", "SELECT $1", [OID[typ]]),
                  m_bindx(params=[binary], pformats=[1]), m_execute(), SYNC)
        check("params: %s binary in, text out" % typ,
              rows(m) == [[tout]], (rows(m), error_of(m)))
    m = batch(c, m_parse("", "SELECT $1::int4, $2::text"),
              m_bind(params=[None, None], results=[1]), m_execute(), SYNC)
    check("params: NULLs in both formats", raw_rows(m) == [[None, None]],
          raw_rows(m))
    m = batch(c, m_parse("", "SELECT $1", [23]),
              m_bindx(params=[b"\0\0\1"], pformats=[1]), m_execute(), SYNC)
    e = error_of(m)
    # PostgreSQL's int4recv reads past the 3 bytes: a protocol error
    check("params: binary int4 of 3 bytes -> 08P01",
          e and e["C"] == "08P01"
          and e["M"] == "insufficient data left in message", e)
    m = batch(c, m_parse("", "SELECT $1::text, $2", [0, 23]),
              m_bindx(params=[b"x", b"\0\0\0\1\0"], pformats=[0, 1]),
              m_execute(), SYNC)
    e = error_of(m)
    check("params: binary int4 of 5 bytes -> 22P03 naming the parameter",
          e and e["C"] == "22P03"
          and e["M"] == "incorrect binary data format in bind parameter 2", e)
    m = batch(c, m_parse("", "SELECT $1::int"), m_bind(params=["x1"]),
              m_execute(), SYNC)
    e = error_of(m)
    check("params: bad text for int -> 22P02 at Bind",
          e and e["C"] == "22P02" and types(m) == "1EZ", (e, types(m)))
    m = batch(c, m_parse("", "SELECT $1", [OID["char"]]),
              m_bindx(params=[b"a"], pformats=[1]), m_execute(), SYNC)
    check("params: a binary \"char\" parameter (every type has a binary "
          "form now)", rows(m) == [["a"]], (rows(m), error_of(m)))
    m = batch(c, m_parse("", "SELECT a, b FROM p WHERE a >= $1 ORDER BY a"),
              m_bind(params=["2"], results=[1, 0]), m_execute(), SYNC)
    check("params: per-column result formats",
          raw_rows(m) == [[struct.pack("!i", 2), b"two"],
                          [struct.pack("!i", 3), None]], raw_rows(m))

    # parameters in every clause
    m = batch(c, m_parse("", "SELECT a FROM p WHERE a > $1 AND a IN "
                         "(SELECT a FROM p WHERE b IS NOT NULL OR a = $2) "
                         "ORDER BY a LIMIT $3"),
              m_bind(params=["0", "3", "2"]), m_execute(), SYNC)
    check("params: WHERE, subquery, LIMIT", rows(m) == [["1"], ["2"]],
          (rows(m), error_of(m)))
    m = batch(c, m_parse("ins", "INSERT INTO p VALUES ($1, $2, $3, $4, $5) "
                         "RETURNING a, c"),
              m_bind("", "ins", params=["4", "four", "4.444", "2020-01-04",
                                        "yes"]),
              m_execute(),
              m_bind("", "ins", params=["5", None, "5", None, None]),
              m_execute(), SYNC)
    check("params: INSERT ... RETURNING, reused with new values",
          rows(m) == [["4", "4.44"], ["5", "5.00"]] and
          tags(m) == ["INSERT 0 1", "INSERT 0 1"], (rows(m), error_of(m)))
    m = batch(c, m_parse("", "UPDATE p SET b = $1 WHERE a = $2"),
              m_bind(params=["FIVE", "5"]), m_execute(),
              m_parse("", "DELETE FROM p WHERE a = $1"),
              m_bind(params=["4"]), m_execute(), SYNC)
    check("params: UPDATE and DELETE", tags(m) == ["UPDATE 1", "DELETE 1"],
          (tags(m), error_of(m)))
    r = rows(c.query("SELECT a, b FROM p WHERE a >= 4 ORDER BY a"))
    check("params: ...committed at Sync", r == [["5", "FIVE"]], r)
    batch(c, m_close("S", "ins"), SYNC)

    # Describe runs nothing; RowDescription has table OID and column
    oid = int(rows(c.query("SELECT oid FROM pg_class WHERE relname = 'p'"))
              [0][0])
    m = batch(c, m_parse("", "INSERT INTO p VALUES (99) RETURNING b, a, "
                         "a + 1 AS s"), m_describe("S"), SYNC)
    n = rows(c.query("SELECT count(*) FROM p WHERE a = 99"))
    check("params: Describe S of an INSERT runs nothing",
          n == [["0"]] and types(m) == "1tTZ", (n, types(m)))
    check("params: RowDescription table OID and column number",
          rowdesc(m) == [("b", oid, 2, 25, 0), ("a", oid, 1, 23, 0),
                         ("s", 0, 0, 23, 0)], (rowdesc(m), oid))
    m = batch(c, m_parse("", "SELECT 1/0 AS x"), m_describe("S"), m_bind(),
              m_describe("P"), SYNC)
    check("params: Describe S of SELECT 1/0 does not run it; Bind plans "
          "(and folds 1/0: 22012)",
          types(m) == "1tTEZ" and error_of(m)["C"] == "22012", types(m))
    m = batch(c, m_parse("", "SELECT * FROM p"), m_bind(results=[1]),
              m_describe("P"), SYNC)
    check("params: Describe P carries the Bind's formats and origins",
          rowdesc(m) and [x[4] for x in rowdesc(m)] == [1] * 5 and
          [x[2] for x in rowdesc(m)] == [1, 2, 3, 4, 5], rowdesc(m))

    # one plan, many executions: the same rows as the simple protocol
    c.query("CREATE TABLE q1 (g int, x int)")
    c.query("INSERT INTO q1 SELECT i % 7, i FROM generate_series(1, 300) i")
    plans = [
        "SELECT g, count(*), sum(x) FROM q1 WHERE x > $1 GROUP BY g "
        "HAVING count(*) > $2 ORDER BY g",
        "SELECT a.x, b.x FROM q1 a JOIN q1 b ON a.x = b.x + $1 "
        "WHERE a.g = $2 ORDER BY 1, 2",
        "SELECT x FROM q1 o WHERE x < $1 AND EXISTS (SELECT 1 FROM q1 i "
        "WHERE i.g = o.g AND i.x > o.x + $2) ORDER BY x",
        "SELECT x, (SELECT max(x) FROM q1 WHERE g = $2) FROM q1 "
        "WHERE x IN (SELECT x + $1 FROM q1 WHERE g = 3) ORDER BY x "
        "LIMIT 5",
        "SELECT DISTINCT g FROM q1 WHERE x BETWEEN $1 AND $1 + $2 "
        "ORDER BY g DESC",
    ]
    values = [("10", "2"), ("100", "3"), ("250", "1")]
    bad = []
    for n, sql in enumerate(plans):
        batch(c, m_parse("plan%d" % n, sql), SYNC)
        for v in values:
            m = batch(c, m_bind("", "plan%d" % n, params=list(v)),
                      m_execute(), SYNC)
            lit = sql.replace("$1", v[0]).replace("$2", v[1])
            want = rows(c.query(lit))
            if rows(m) != want or error_of(m):
                bad.append((n, v, rows(m)[:3], want[:3], error_of(m)))
        batch(c, m_close("S", "plan%d" % n), SYNC)
    check("params: joins, subqueries, aggregates: one plan reused gives "
          "the simple protocol's rows", not bad, bad)
    c.query("DROP TABLE q1")

    # a cached upsert follows its arbiter index: gone -> 42P10, a new
    # unique index on the column -> the upsert works again
    c.query("CREATE TABLE pu (k int, v int)")
    c.query("CREATE UNIQUE INDEX pu_k ON pu (k)")
    batch(c, m_parse("up", "INSERT INTO pu VALUES ($1, $2) ON CONFLICT (k) "
                           "DO UPDATE SET v = EXCLUDED.v"), SYNC)
    m = batch(c, m_bind("", "up", params=["1", "1"]), m_execute(),
              m_bind("", "up", params=["1", "2"]), m_execute(), SYNC)
    check("params: a cached upsert inserts, then updates",
          tags(m) == ["INSERT 0 1", "INSERT 0 1"] and
          rows(c.query("SELECT v FROM pu")) == [["2"]], (tags(m), error_of(m)))
    c.query("DROP INDEX pu_k")
    m = batch(c, m_bind("", "up", params=["1", "3"]), m_execute(), SYNC)
    e = error_of(m)
    check("params: ...after DROP INDEX of its arbiter -> 42P10",
          e and e["C"] == "42P10", e)
    c.query("CREATE UNIQUE INDEX pu_k2 ON pu (k)")
    m = batch(c, m_bind("", "up", params=["1", "4"]), m_execute(), SYNC)
    check("params: ...re-planned on a new unique index",
          tags(m) == ["INSERT 0 1"] and
          rows(c.query("SELECT k, v FROM pu")) == [["1", "4"]],
          (tags(m), error_of(m)))
    batch(c, m_close("S", "up"), SYNC)
    c.query("DROP TABLE pu")

    # a cached plan survives DROP and CREATE of its table
    c.query("CREATE TABLE r (k int, v text)")
    c.query("INSERT INTO r VALUES (1, 'old')")
    m = batch(c, m_parse("get", "SELECT v FROM r WHERE k = $1"),
              m_bind("", "get", params=["1"]), m_execute(), SYNC)
    check("params: cached statement, first run", rows(m) == [["old"]],
          rows(m))
    c.query("DROP TABLE r")
    m = batch(c, m_bind("", "get", params=["1"]), m_execute(), SYNC)
    e = error_of(m)
    check("params: ...after DROP TABLE -> 42P01", e and e["C"] == "42P01", e)
    c.query("CREATE TABLE r (v text, k int)")
    c.query("INSERT INTO r VALUES ('new', 1)")
    m = batch(c, m_bind("", "get", params=["1"]), m_execute(), SYNC)
    check("params: ...re-planned after CREATE TABLE (columns moved)",
          rows(m) == [["new"]], (rows(m), error_of(m)))
    c.query("DROP TABLE r")
    c.query("CREATE TABLE r (k int, v int)")
    m = batch(c, m_bind("", "get", params=["1"]), m_execute(), SYNC)
    e = error_of(m)
    check("params: ...a changed result type -> 0A000",
          e and e["C"] == "0A000" and
          e["M"] == "cached plan must not change result type", e)
    c2 = Conn()
    batch(c2, m_parse("cnt", "SELECT count(*) FROM r"), SYNC)
    c.query("INSERT INTO r VALUES (1, 1), (2, 2)")
    c.query("TRUNCATE r")
    m = batch(c2, m_bind("", "cnt"), m_execute(), SYNC)
    check("params: another session's TRUNCATE is seen by a cached plan",
          rows(m) == [["0"]], (rows(m), error_of(m)))
    c2.close()
    batch(c, m_close("S", "get"), SYNC)

    # incremental portals
    m = batch(c, m_parse("", "SELECT i FROM generate_series(1, 100000) i"),
              m_bind(), SYNC)
    msgs = []
    batch(c, m_parse("", "SELECT i FROM generate_series(1, 100000) i"),
          m_bind())
    for _ in range(30):
        c.send(*m_execute("", 3500))
    c.send(*SYNC)
    msgs = c.until_ready()
    r = rows(msgs)
    check("params: 100000 rows in Executes of 3500 rows",
          len(r) == 100000 and r[0] == ["1"] and r[-1] == ["100000"] and
          types(msgs).count("s") == 28 and
          tags(msgs) == ["SELECT 2000", "SELECT 0"],
          (len(r), types(msgs).count("s"), tags(msgs)))
    t0 = time.time()
    m = batch(c, m_parse("", "SELECT i FROM generate_series(1, 1000000000) "
                         "i"), m_bind(), m_execute("", 5), SYNC)
    check("params: 5 rows of a billion-row portal come at once",
          rows(m) == [["1"], ["2"], ["3"], ["4"], ["5"]] and
          time.time() - t0 < 5 and types(m).endswith("sZ"),
          (types(m), time.time() - t0))
    c.query("CREATE TABLE big (i int)")
    c.query("INSERT INTO big SELECT g FROM generate_series(1, 50000) g")
    m = batch(c, m_parse("", "BEGIN"), m_bind(), m_execute(),
              m_parse("", "SELECT i FROM big WHERE i % $1 = 0"),
              m_bind("cur", "", params=["10"]), m_execute("cur", 2), SYNC)
    m2 = c.query("SELECT count(*) FROM big")
    m3 = batch(c, m_execute("cur", 2), SYNC)
    m4 = batch(c, m_execute("cur", 0), m_close("P", "cur"),
               m_parse("", "COMMIT"), m_bind(), m_execute(), SYNC)
    check("params: a suspended table scan resumes after another query "
          "in its block",
          rows(m) == [["10"], ["20"]] and rows(m2) == [["50000"]] and
          rows(m3) == [["30"], ["40"]] and len(rows(m4)) == 4996 and
          tags(m4)[0] == "SELECT 4996" and c.status == "I",
          (rows(m), rows(m2), rows(m3), len(rows(m4)), tags(m4)))

    # WITH queries computed once (issue 21): a cached plan runs its CTE
    # again per execution; a suspended portal reads the shared rows at
    # each scan's position; a CTE is computed only as far as the Executes
    # ask (the 5th row of r would divide by zero)
    batch(c, m_parse("rnd", "WITH r AS (SELECT g, random() AS x FROM "
                     "generate_series(1, $1::int) g) SELECT count(*) FROM r "
                     "a JOIN r b USING (g, x)"), SYNC)
    m = batch(c, m_bind("", "rnd", params=["5"]), m_execute(),
              m_bind("", "rnd", params=["7"]), m_execute(), SYNC)
    check("params: a prepared volatile CTE read twice is computed once per "
          "execution", rows(m) == [["5"], ["7"]], (rows(m), error_of(m)))
    batch(c, m_close("S", "rnd"), SYNC)
    m = batch(c, m_parse("", "WITH r AS (SELECT g FROM generate_series(1, 6) "
                         "g) SELECT a.g, b.g FROM r a, r b WHERE a.g = b.g"),
              m_bind(), m_execute("", 2), m_execute("", 2), m_execute("", 0),
              SYNC)
    check("params: a portal over a CTE read twice resumes across Executes",
          rows(m) == [[str(i), str(i)] for i in range(1, 7)] and
          types(m).count("s") == 2, (types(m), rows(m), error_of(m)))
    m = batch(c, m_parse("", "WITH r AS MATERIALIZED (SELECT 1 / (5 - g) AS x "
                         "FROM generate_series(1, 10) g) SELECT * FROM r"),
              m_bind(), m_execute("", 4), SYNC)
    check("params: a CTE is computed only as far as the portal is read",
          rows(m) == [["0"], ["0"], ["0"], ["1"]] and
          types(m).endswith("sZ") and error_of(m) is None,
          (types(m), rows(m), error_of(m)))

    # implicit transaction to Sync; errors skip to Sync
    other = Conn()
    c.send(*m_parse("", "INSERT INTO big VALUES (-1)"))
    c.send(*m_bind())
    c.send(*m_execute())
    c.send(*FLUSH)
    got = [c.read_msg()[0] for _ in range(3)]
    before = rows(other.query("SELECT count(*) FROM big WHERE i = -1"))
    m = batch(c, SYNC)
    after = rows(other.query("SELECT count(*) FROM big WHERE i = -1"))
    check("params: an Execute's insert commits at Sync, not before",
          got == ["1", "2", "C"] and before == [["0"]] and
          after == [["1"]], (got, before, after))
    other.close()
    m = batch(c, m_parse("", "INSERT INTO big VALUES ($1)"),
              m_bind(params=["-2"]), m_execute(),
              m_parse("", "SELECT 1/$1::int"), m_bind(params=["0"]),
              m_execute(),
              m_parse("", "INSERT INTO big VALUES (-3)"), m_bind(),
              m_execute(), SYNC)
    n = rows(c.query("SELECT count(*) FROM big WHERE i IN (-2, -3)"))
    check("params: an error in a pipeline skips to Sync and rolls back "
          "its implicit transaction",
          types(m) == "12C12EZ" and error_of(m)["C"] == "22012" and
          n == [["0"]] and c.status == "I", (types(m), n))
    m = batch(c, m_parse("", "BEGIN"), m_bind(), m_execute(),
              m_parse("", "INSERT INTO big VALUES ($1)"),
              m_bind(params=["x"]), m_execute(), SYNC)
    s1 = c.status
    m2 = batch(c, m_parse("", "SELECT 1"), m_bind(), m_execute(), SYNC)
    m3 = batch(c, m_parse("", "ROLLBACK"), m_bind(), m_execute(), SYNC)
    check("params: a failed Bind fails the block; then 25P02 until ROLLBACK",
          s1 == "E" and error_of(m)["C"] == "22P02" and
          error_of(m2)["C"] == "25P02" and tags(m3) == ["ROLLBACK"] and
          c.status == "I", (s1, error_of(m), error_of(m2), tags(m3)))
    m = batch(c, m_parse("", "BEGIN"), m_bind(), m_execute(),
              m_bind("", "nosuch"), SYNC)
    s1 = c.status
    batch(c, m_parse("", "ROLLBACK"), m_bind(), m_execute(), SYNC)
    check("params: a protocol error (26000) also fails the block",
          s1 == "E", s1)
    # DML ... RETURNING under a row limit: all of it happens at the first
    # Execute, the rows come a limit at a time, and the last Execute's
    # tag counts its own rows (PostgreSQL 15: INSERT 0 1 here)
    # binary forms of the catalog types and arrays, bytes as PostgreSQL
    # 15 sends them
    for sql, want in [
            ("SELECT 'a'::\"char\"", b"a"),
            ("SELECT 'pg_class'::regclass", b"\0\0\x04\xeb"),
            ("SELECT 'int4'::regtype", b"\0\0\0\x17"),
            ("SELECT 'public'::regnamespace", b"\0\0\x08\x98"),
            ("SELECT '{1,2}'::oid[]",
             struct.pack("!iiiii", 1, 0, 26, 2, 1) +
             struct.pack("!iIiI", 4, 1, 4, 2)),
            ("SELECT '1 2'::int2vector",
             struct.pack("!iiiii", 1, 0, 21, 2, 0) +
             struct.pack("!ihih", 2, 1, 2, 2)),
            ("SELECT '{}'::text[]", struct.pack("!iii", 0, 0, 25))]:
        m = batch(c, m_parse("", sql), m_bindx(results=(1,)), m_execute(),
                  SYNC)
        check("params: binary result of %s" % sql,
              raw_rows(m) == [[want]], (raw_rows(m), error_of(m)))
    arr = (struct.pack("!iiiii", 1, 0, 25, 2, 1) +
           struct.pack("!i", 1) + b"a" + struct.pack("!i", 3) + b"b,c")
    m = batch(c, m_parse("", "SELECT array_to_string($1::text[], '|')",
                         [1009]),
              m_bindx(params=[arr], pformats=[1]), m_execute(), SYNC)
    check("params: a binary text[] parameter", rows(m) == [["a|b,c"]],
          (rows(m), error_of(m)))
    bad = struct.pack("!iiiii", 1, 0, 23, 1, 1) + struct.pack("!ii", 4, 7)
    m = batch(c, m_parse("", "SELECT $1::text[]", [1009]),
              m_bindx(params=[bad], pformats=[1]), m_execute(), SYNC)
    e = error_of(m)
    check("params: a binary array of the wrong element type -> 42804",
          e and e["C"] == "42804" and e["M"] ==
          "binary data has array element type 23 (integer) instead of "
          "expected 25 (text)", e)
    c.query("CREATE TABLE rl (a int)")
    sql = "INSERT INTO rl SELECT g FROM generate_series(1, 5) g RETURNING a"
    m = batch(c, m_parse("", sql), m_bind(), m_execute("", 2),
              m_execute("", 2), m_execute("", 2), SYNC)
    check("params: INSERT RETURNING with Execute limit 2 -> 12DDsDDsDCZ, "
          "tag INSERT 0 1", types(m) == "12DDsDDsDCZ" and
          tags(m) == ["INSERT 0 1"] and
          rows(c.query("SELECT count(*) FROM rl")) == [["5"]], m)
    m = batch(c, m_parse("", sql), m_bind(), m_execute("", 2), SYNC)
    check("params: ... stopped after the first 2 rows, all 5 are inserted",
          types(m) == "12DDsZ" and
          rows(c.query("SELECT count(*) FROM rl")) == [["10"]], m)
    c.query("DROP TABLE rl")
    c.query("DROP TABLE big")
    c.query("DROP TABLE p")
    c.close()


def group_shutdown_setup():
    """Before SIGTERM: committed data, an open transaction, a busy query."""
    c = Conn()
    c.query("CREATE TABLE kept (i int)")
    c.query("INSERT INTO kept VALUES (1), (2), (3)")
    c.close()
    check("shutdown: setup", True)


def group_shutdown_busy():
    """Hold an open transaction and a running query until the server
    ends them; print what they received."""
    idle = Conn()
    idle.query("BEGIN")
    idle.query("INSERT INTO kept VALUES (100)")
    busy = Conn()
    busy.send("Q", b"SELECT count(*) FROM generate_series(1, 2000000000)\0")
    print("READY")
    sys.stdout.flush()
    d1, c1 = read_all_until_close(busy.sock, timeout=30)
    d2, c2 = read_all_until_close(idle.sock, timeout=30)
    e1 = fatal_in(busy.buf + d1)
    e2 = fatal_in(idle.buf + d2)
    check("shutdown: running query ends with FATAL 57P01",
          c1 and e1 and e1["S"] == "FATAL" and e1["C"] == "57P01", e1)
    check("shutdown: idle session gets FATAL 57P01 and a close",
          c2 and e2 and e2["C"] == "57P01" and
          e2["M"] == "terminating connection due to administrator command",
          e2)


def group_shutdown_check():
    c = Conn()
    r = rows(c.query("SELECT i FROM kept ORDER BY i"))
    check("shutdown: committed rows survive, the open transaction's do not",
          r == [["1"], ["2"], ["3"]], r)
    c.close()



# ----------------------------------------------------------------------
# COPY
# ----------------------------------------------------------------------

def copy_in(c, sql, *pieces, end="c", end_body=b""):
    """Send a COPY FROM STDIN, then pieces (bytes: CopyData; (type, body):
    any message), then CopyDone / CopyFail; the replies from the first
    one to ReadyForQuery."""
    c.send("Q", sql.encode() + b"\0")
    first = c.read_msg()
    if first[0] != "G":
        return [first] + c.until_ready()
    for p in pieces:
        if isinstance(p, tuple):
            c.send(p[0], p[1])
        else:
            c.send("d", p)
    if end is not None:
        c.send(end, end_body)
    return [first] + c.until_ready()


def count_rows(c, table):
    return rows(c.query("SELECT count(*) FROM %s" % table))[0][0]


def group_copy():
    c = Conn()
    c.query("CREATE TABLE cp (a int NOT NULL, b text DEFAULT 'dflt')")

    m = copy_in(c, "COPY cp FROM STDIN", b"1\tone\n2\t", b"two\n3",
                b"\t\\N\n")
    check("copy: CopyInResponse is text with one format per column",
          m[0] == ("G", b"\x00\x00\x02\x00\x00\x00\x00"), m[0])
    check("copy: rows split across CopyData -> COPY 3, ReadyForQuery I",
          types(m) == "GCZ" and tags(m) == ["COPY 3"] and c.status == "I",
          (types(m), tags(m)))
    check("copy: the rows are there (\\N is NULL)",
          rows(c.query("SELECT a, b FROM cp ORDER BY a")) ==
          [["1", "one"], ["2", "two"], ["3", None]])

    m = copy_in(c, "COPY cp (a) FROM STDIN", b"4\n",
                ("H", b""), ("S", b""), b"5\n\\.\nnot data\n")
    check("copy: column list (one column), Flush/Sync ignored, data after "
          "\\. ignored", m[0][1] == b"\x00\x00\x01\x00\x00" and
          tags(m) == ["COPY 2"] and count_rows(c, "cp") == "5",
          (m, count_rows(c, "cp")))
    check("copy: left-out columns take their DEFAULT",
          rows(c.query("SELECT b FROM cp WHERE a = 4")) == [["dflt"]])

    m = copy_in(c, "COPY cp FROM STDIN", b"6\tsix\n", end="f",
                end_body=b"client says no\0")
    e = error_of(m)
    check("copy: CopyFail -> 57014 'COPY from stdin failed: <message>'",
          types(m) == "GEZ" and e and e["C"] == "57014" and
          e["M"] == "COPY from stdin failed: client says no",
          (types(m), e))
    check("copy: nothing of a failed COPY stays", count_rows(c, "cp") == "5")

    # malformed data: the error comes at once; the client's remaining
    # CopyData and CopyDone are dropped
    c.send("Q", b"COPY cp FROM STDIN\0")
    c.read_msg()
    c.send("d", b"7\tseven\n8\teight\nnine\tnine\n")
    m = c.until_ready()
    e = error_of(m)
    check("copy: bad data -> E 22P02 with the COPY line as context, then Z",
          types(m) == "EZ" and e and e["C"] == "22P02" and
          e.get("W") == 'COPY cp, line 3, column a: "nine"', (types(m), e))
    c.send("d", b"10\tten\n")
    c.send("c")
    m = c.query("SELECT count(*) FROM cp")
    check("copy: CopyData/CopyDone after the error are dropped; earlier "
          "rows of the COPY are gone", types(m) == "TDCZ" and
          rows(m) == [["5"]], (types(m), rows(m)))

    for data, state, what in [
            (b"1\ttoo\tmany\n", "22P04", "extra data"),
            (b"1\n", "22P04", "missing data"),
            (b"\\N\tx\n", "23502", "NOT NULL"),
            (b"1\tx\\.y\n", "22P04", "corrupt end marker"),
            (b"1\t\xff\n", "22021", "invalid UTF-8"),
            (b"1\ta\r\n2\tb\n", "22P04", "mixed line ends")]:
        e = error_of(copy_in(c, "COPY cp FROM STDIN", data))
        check("copy: malformed data: %s -> %s" % (what, state),
              e and e["C"] == state and e.get("W", "").startswith("COPY cp"),
              e)
    check("copy: the table is unchanged after all that",
          count_rows(c, "cp") == "5")

    m = c.query("COPY (SELECT a, b FROM cp WHERE a <= 3 ORDER BY a) TO STDOUT")
    check("copy: COPY TO STDOUT -> H, one d per row, c, C, Z",
          types(m) == "HdddcCZ" and tags(m) == ["COPY 3"] and
          m[0][1] == b"\x00\x00\x02\x00\x00\x00\x00" and
          [b for t, b in m if t == "d"] ==
          [b"1\tone\n", b"2\ttwo\n", b"3\t\\N\n"], m[:6])
    m = c.query("COPY cp TO STDOUT WITH (FORMAT csv, HEADER, FORCE_QUOTE *)")
    d = [b for t, b in m if t == "d"]
    check("copy: CSV with a header line",
          tags(m) == ["COPY 5"] and d[:1] == [b"a,b\n"] and len(d) == 6,
          (tags(m), d[:3]))
    m = c.query("COPY (SELECT 10 / (3 - i) FROM generate_series(1, 5) i) "
                "TO STDOUT")
    e = error_of(m)
    check("copy: an error after some rows -> H d d E Z",
          types(m) == "HddEZ" and e and e["C"] == "22012", types(m))

    # inside a transaction block; several statements in one string
    c.query("BEGIN")
    m = copy_in(c, "COPY cp FROM STDIN", b"20\ttwenty\n")
    check("copy: in a block -> status T", tags(m) == ["COPY 1"] and
          c.status == "T", (tags(m), c.status))
    m = copy_in(c, "COPY cp FROM STDIN", end="f", end_body=b"x\0")
    check("copy: CopyFail in a block -> status E", c.status == "E",
          c.status)
    c.query("ROLLBACK")
    c.send("Q", b"SELECT 1; COPY cp FROM STDIN; SELECT 2\0")
    seen = ""
    while True:
        t, body = c.read_msg()
        seen += t
        if t == "G":
            c.send("d", b"30\tthirty\n\\.\n")
            c.send("c")
        if t == "Z":
            break
    check("copy: COPY in the middle of a multi-statement string",
          seen == "TDCGCTDCZ" and count_rows(c, "cp") == "6", seen)

    # 1 MB of rows in one CopyData, rows cut at arbitrary places
    data = b"".join(b"%d\tx%d\n" % (1000 + i, i) for i in range(80000))
    pieces = [data[i:i + 70001] for i in range(0, len(data), 70001)]
    m = copy_in(c, "COPY cp FROM STDIN", *pieces)
    check("copy: 80000 rows in pieces of 70001 bytes",
          tags(m) == ["COPY 80000"] and count_rows(c, "cp") == "80006",
          tags(m))

    # another message during COPY IN: ERROR and FATAL 08P01, connection
    # closed; the others go on and the rows are not there
    other = Conn()
    other.send("Q", b"COPY cp FROM STDIN\0")
    other.read_msg()
    other.send("d", b"40\tforty\n")
    other.send("Q", b"SELECT 1\0")
    data, closed = read_all_until_close(other.sock)
    got = []
    i = 0
    data = other.buf + data
    while i + 5 <= len(data):
        (ln,) = struct.unpack("!I", data[i + 1:i + 5])
        if data[i:i + 1] == b"E":
            f = parse_fields(data[i + 5:i + 1 + ln])
            got.append((f.get("V"), f.get("C"), f.get("M")))
        i += 1 + ln
    check("copy: a Query during COPY IN -> ERROR 08P01 then FATAL, closed",
          closed and got == [
              ("ERROR", "08P01",
               "unexpected message type 0x51 during COPY from stdin"),
              ("FATAL", "08P01", "terminating connection because protocol "
               "synchronization was lost")], (closed, got))
    other.sock.close()

    # a client that vanishes mid-COPY: its rows are not there and the
    # table can be written at once (its transaction is gone)
    gone = Conn()
    gone.send("Q", b"COPY cp FROM STDIN\0")
    gone.read_msg()
    gone.send("d", b"50\tfifty\n51\tfifty-one\n")
    gone.sock.close()
    time.sleep(0.3)
    m = copy_in(c, "COPY cp FROM STDIN", b"52\tfifty-two\n")
    check("copy: a client vanishing mid-COPY leaves nothing; others write on",
          tags(m) == ["COPY 1"] and rows(c.query(
              "SELECT count(*) FROM cp WHERE a BETWEEN 50 AND 52")) == [["1"]],
          (tags(m), error_of(m)))

    # through the extended protocol, as libpq's PQexecParams sends it.
    # Sync is ignored during COPY IN, so it goes after CopyDone.
    for msg in (m_parse("", "COPY cp FROM STDIN"), m_bind(),
                m_describe("P"), m_execute(), ("H", b"")):
        c.send(*msg)
    m = []
    while True:
        t, body = c.read_msg()
        m.append((t, body))
        if t == "G":
            c.send("d", b"60\tsixty\n")
            c.send("c")
            c.send(*SYNC)
        elif t == "E" and len(m) < 6:
            c.send(*SYNC)
        if t == "Z":
            break
    e = error_of(m)
    check("copy: COPY FROM STDIN through Parse/Bind/Describe/Execute -> "
          "n G ... C Z", types(m) == "12nGCZ" and
          tags(m) == ["COPY 1"], (types(m), e and e["C"], e and e["M"]))
    m = batch(c, m_parse("", "COPY (SELECT a FROM cp WHERE a = 60) TO STDOUT"),
              m_bind(), m_describe("P"), m_execute(), SYNC)
    check("copy: COPY TO STDOUT through the extended protocol -> "
          "n H d c C Z (as PostgreSQL 15)",
          types(m) == "12nHdcCZ" and
          [b for t, b in m if t == "d"] == [b"60\n"], types(m))
    check("copy: ... and the connection goes on",
          rows(c.query("SELECT 1")) == [["1"]])
    c.query("DROP TABLE cp")
    c.close()

# ----------------------------------------------------------------------
# UTF-8: every way bytes become text is checked (22021), as in PostgreSQL
# ----------------------------------------------------------------------

# Invalid strings and PostgreSQL 15's byte list for each (in a quoted
# literal, so a character cut short is shown with the quote after it).
BAD_UTF8 = [
    (b"\xff\xfe", "0xff"),
    (b"\xc0\x80", "0xc0 0x80"),                    # overlong NUL
    (b"\xe0\x80\xaf", "0xe0 0x80 0xaf"),           # overlong '/'
    (b"\xed\xa0\x80", "0xed 0xa0 0x80"),           # surrogate U+D800
    (b"\xf4\x90\x80\x80", "0xf4 0x90 0x80 0x80"),  # past U+10FFFF
    (b"\xf8\x88\x80\x80\x80", "0xf8"),             # 5-byte form
    (b"\x80", "0x80"),                             # lone continuation
    (b"a\xe2\x82", "0xe2 0x82 0x27"),              # cut short
]


def utf8_error(msgs):
    """(SQLSTATE, message) of the first error in msgs, or None."""
    e = error_of(msgs)
    return e and (e["C"], e["M"])


def bad(hexbytes):
    return ("22021", 'invalid byte sequence for encoding "UTF8": ' +
            hexbytes)


def group_utf8():
    c = Conn()
    c.query("DROP TABLE IF EXISTS u8")
    c.query("CREATE TABLE u8 (t text, v varchar(10), b char(4), n name)")

    def raw_query(sql):
        c.send("Q", sql + b"\0")
        return c.until_ready()

    # the query text itself, before anything else looks at it
    for s, hexbytes in BAD_UTF8:
        m = raw_query(b"INSERT INTO u8 (t) VALUES ('" + s + b"')")
        check("utf8: query text %r -> 22021 %s" % (s, hexbytes),
              utf8_error(m) == bad(hexbytes) and types(m) == "EZ" and
              c.status == "I", (utf8_error(m), types(m)))
    m = raw_query(b"SELECT 1 -- \xff in a comment")
    check("utf8: a bad byte in a comment -> 22021 too",
          utf8_error(m) == bad("0xff"), utf8_error(m))
    m = raw_query(b"SELECT no syntax here \xc3(")
    check("utf8: checked before parsing (22021, not a syntax error; no "
          "position)", utf8_error(m) == bad("0xc3 0x28") and
          "P" not in error_of(m), error_of(m))
    check("utf8: nothing was stored",
          rows(c.query("SELECT count(*) FROM u8")) == [["0"]])
    m = raw_query(b"INSERT INTO u8 (t) VALUES ('caf\xc3\xa9 \xe2\x82\xac "
                  b"\xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf')")
    check("utf8: valid 2-, 3- and 4-byte characters are stored",
          tags(m) == ["INSERT 0 1"] and
          raw_rows(c.query("SELECT t, length(t) FROM u8")) ==
          [[b"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf",
            b"10"]], (types(m), error_of(m)))
    c.query("TRUNCATE u8")

    # escape strings decode to bytes the scanner checks
    for lit, hexbytes in [(b"E'\\xff'", "0xff"), (b"E'\\xc0\\x80'", "0xc0 0x80"),
                          (b"E'\\355\\240\\200'", "0xed 0xa0 0x80"),
                          (b"E'x\\000'", "0x00"),
                          (b"E'a\\xe2\\x82b'", "0xe2 0x82 0x62")]:
        m = raw_query(b"SELECT " + lit)
        check("utf8: %s -> 22021 %s" % (lit.decode(), hexbytes),
              utf8_error(m) == bad(hexbytes), utf8_error(m))
    m = raw_query(b"SELECT E'\\303\\251' = '\xc3\xa9'")
    check("utf8: E'\\303\\251' is a valid character",
          rows(m) == [["t"]], (rows(m), utf8_error(m)))

    # in a transaction block the error fails the block, as any error
    raw_query(b"BEGIN")
    raw_query(b"INSERT INTO u8 (t) VALUES ('ok')")
    m = raw_query(b"INSERT INTO u8 (t) VALUES ('\xff')")
    check("utf8: in a block -> 22021, status E",
          utf8_error(m) == bad("0xff") and c.status == "E",
          (utf8_error(m), c.status))
    m = raw_query(b"SELECT 1")
    check("utf8: ... then 25P02 until the end of the block",
          utf8_error(m) and utf8_error(m)[0] == "25P02", utf8_error(m))
    raw_query(b"ROLLBACK")
    check("utf8: the block's rows are gone",
          rows(c.query("SELECT count(*) FROM u8")) == [["0"]])

    # extended protocol: the query text and every name
    m = batch(c, ("P", b"\0INSERT INTO u8 (t) VALUES ('\xed\xa0\x80')\0\0\0"),
              SYNC)
    check("utf8: Parse with a bad query -> 22021",
          utf8_error(m) == bad("0xed 0xa0 0x80") and c.status == "I",
          utf8_error(m))
    m = batch(c, ("P", b"s\xff\0SELECT 1\0\0\0"), SYNC)
    check("utf8: Parse with a bad statement name -> 22021",
          utf8_error(m) == bad("0xff"), utf8_error(m))
    m = batch(c, m_parse("", "SELECT 1"), ("B", b"p\xc0\0\0\0\0\0\0\0\0"),
              SYNC)
    check("utf8: Bind with a bad portal name -> 22021",
          utf8_error(m) == bad("0xc0"), utf8_error(m))
    m = batch(c, ("B", b"\0s\xe2\x82\0\0\0\0\0\0\0"), SYNC)
    check("utf8: Bind with a bad statement name -> 22021",
          utf8_error(m) == bad("0xe2 0x82"), utf8_error(m))
    for msg, name in [(("D", b"Sq\xff\0"), "Describe"),
                      (("E", b"q\xff\0\0\0\0\0"), "Execute"),
                      (("C", b"Pq\xff\0"), "Close")]:
        m = batch(c, msg, SYNC)
        check("utf8: %s with a bad name -> 22021" % name,
              utf8_error(m) == bad("0xff"), utf8_error(m))

    # Bind parameters: text format for every type (checked before the
    # type's input function), binary format for the string types
    def bind_one(sql, oid, value, fmt):
        return batch(c, m_parse("", sql, [oid]),
                     m_bindx(params=[value], pformats=[fmt]), m_execute(),
                     SYNC)

    def bad_params(fmt, sql, typs, values):
        for typ, oid in typs:
            for value, hexbytes in values:
                m = bind_one(sql, oid, value, fmt)
                check("utf8: %s %s parameter %r -> 22021" %
                      ("binary" if fmt else "text-format", typ, value),
                      utf8_error(m) == bad(hexbytes), utf8_error(m))

    string_types = [("text", 25), ("varchar", 1043), ("bpchar", 1042),
                    ("name", 19)]
    bad_params(0, "SELECT $1::text",
               string_types + [("int4", 23), ("numeric", 1700), ("bool", 16),
                               ("date", 1082), ("bytea", 17),
                               ("text[]", 1009)],
               [(b"\xff\xfe", "0xff"), (b"\xed\xa0\x80", "0xed 0xa0 0x80"),
                (b"1\xe2\x82", "0xe2 0x82"), (b"1\x00", "0x00")])
    bad_params(1, "INSERT INTO u8 (t) VALUES ($1)", string_types,
               [(b"\xff\xfe", "0xff"), (b"\xc0\x80", "0xc0 0x80"),
                (b"\xed\xa0\x80", "0xed 0xa0 0x80"),
                (b"ab\xf0\x9f\x98", "0xf0 0x9f 0x98"), (b"a\x00b", "0x00")])
    for typ, oid in string_types:
        m = bind_one("SELECT $1::text", oid, b"\xc3\xa9\xe2\x82\xac", 1)
        check("utf8: binary %s parameter with valid characters" % typ,
              raw_rows(m) == [[b"\xc3\xa9\xe2\x82\xac"]], utf8_error(m))
    m = batch(c, m_parse("", "SELECT $1::int4, $2::text", [23, 25]),
              m_bindx(params=[b"1", b"\xff"], pformats=[0]), SYNC)
    check("utf8: CONTEXT names the parameter (no value: it never reached "
          "an input function)",
          utf8_error(m) == bad("0xff") and
          error_of(m).get("W") == "unnamed portal parameter $2",
          error_of(m))
    # a text[] in binary: each element through the text type's recv
    elem = b"\xed\xbf\xbf"
    arr = (struct.pack("!iiI", 1, 0, 25) + struct.pack("!ii", 1, 1) +
           struct.pack("!i", len(elem)) + elem)
    m = bind_one("SELECT $1::text[]", 1009, arr, 1)
    check("utf8: binary text[] parameter with a bad element -> 22021",
          utf8_error(m) == bad("0xed 0xbf 0xbf"), utf8_error(m))
    m = bind_one("SELECT $1::bytea", 17, b"\xff\x00\xed\xa0\x80", 1)
    check("utf8: binary bytea parameter: any bytes (not text)",
          rows(m) == [["\\xff00eda080"]], utf8_error(m))
    # convert_from makes text of a bytea: only bytes valid in the named
    # encoding and, once converted, as UTF-8
    for enc, value, hexbytes in [("UTF8", b"\xff\xfe", "0xff"),
                                 ("utf-8", b"a\xed\xa0\x80", "0xed 0xa0 0x80"),
                                 ("SQL_ASCII", b"caf\xe9", "0xe9")]:
        m = bind_one("INSERT INTO u8 (t) VALUES (convert_from($1, '%s'))" %
                     enc, 17, value, 1)
        check("utf8: convert_from(binary bytea %r, '%s') -> 22021" %
              (value, enc), utf8_error(m) == bad(hexbytes), utf8_error(m))
    check("utf8: no parameter stored anything",
          rows(c.query("SELECT count(*) FROM u8")) == [["0"]])
    m = bind_one("INSERT INTO u8 (t) VALUES (convert_from($1, 'LATIN1')) "
                 "RETURNING t, convert_to(t, 'latin1')", 17, b"caf\xe9", 1)
    check("utf8: convert_from(binary bytea, 'LATIN1') stores UTF-8",
          raw_rows(m) == [[b"caf\xc3\xa9", b"\\x636166e9"]],
          (raw_rows(m), utf8_error(m)))
    c.query("TRUNCATE u8")

    # COPY: each line, and the fields escapes made
    for data, hexbytes in [(b"a\xff\n", "0xff"),
                           (b"ok\nb\xed\xa0\x80\n", "0xed 0xa0 0x80"),
                           (b"c\xe2\x82\n", "0xe2 0x82 0x0a"),
                           (b"d\\xc0\\x80\n", "0xc0 0x80"),
                           (b"e\\000\n", "0x00")]:
        m = copy_in(c, "COPY u8 (t) FROM STDIN", data)
        check("utf8: COPY data %r -> 22021" % data,
              utf8_error(m) == bad(hexbytes), utf8_error(m))
    m = copy_in(c, "COPY u8 (t) FROM STDIN", b"x\n", end="f",
                end_body=b"reason \xff\0")
    check("utf8: CopyFail with a bad reason -> 22021 (PostgreSQL checks it "
          "as it reads it)", utf8_error(m) == bad("0xff"), utf8_error(m))
    check("utf8: no COPY stored anything",
          rows(c.query("SELECT count(*) FROM u8")) == [["0"]])
    check("utf8: the connection goes on", rows(c.query("SELECT 1")) ==
          [["1"]] and c.status == "I")
    c.query("DROP TABLE u8")
    c.close()

    # a startup packet's values are not checked, but application_name
    # keeps printable ASCII only: every other byte becomes '?'
    body = (struct.pack("!I", 196608) + b"user\0tester\0database\0postgres\0"
            b"application_name\0a\xff\xc3\xa9\tb\0\0")
    c = Conn(startup=False)
    c.sock.sendall(struct.pack("!I", len(body) + 4) + body)
    c.startup_msgs = c.until_ready()
    check("utf8: application_name from the startup packet -> 'a????b' "
          "(ParameterStatus)", c.params.get("application_name") == "a????b",
          c.params.get("application_name"))
    m = c.query("SHOW application_name")
    check("utf8: ... and SHOW application_name", raw_rows(m) == [[b"a????b"]],
          raw_rows(m))
    c.close()

# ----------------------------------------------------------------------
# Authentication (run.sh's auth group: roles alice/secret, bob without a
# password, nol NOLOGIN; scram-sha-256 on 127.0.0.1, trust on the socket)
# ----------------------------------------------------------------------

import base64
import hashlib
import hmac


def auth_msgs(sock, data=b""):
    """Parse raw bytes into (type, body) messages (complete ones)."""
    out, i = [], 0
    while i + 5 <= len(data):
        (length,) = struct.unpack("!I", data[i + 1:i + 5])
        if i + 1 + length > len(data):
            break
        out.append((chr(data[i]), data[i + 5:i + 1 + length]))
        i += 1 + length
    return out


def read_auth(c):
    """The next message, which should be an Authentication request:
    (code, data) or ('E', fields)."""
    t, body = c.read_msg()
    if t == "E":
        return "E", parse_fields(body)
    if t != "R":
        return t, body
    return struct.unpack("!i", body[:4])[0], body[4:]


def scram_start(user="alice", database="tdb", nonce="fyko+d2lbbFgONRv9qkxdawL"):
    """Connect and send the SASLInitialResponse; returns (conn, bare,
    server-first) or (conn, None, (code, data)) when something else came."""
    c = Conn(startup=False)
    c.sock.sendall(startup_packet({"user": user, "database": database}))
    code, data = read_auth(c)
    if code != 10:
        return c, None, (code, data)
    bare = "n=,r=" + nonce
    first = ("n,," + bare).encode()
    c.send("p", b"SCRAM-SHA-256\0" + struct.pack("!i", len(first)) + first)
    code, data = read_auth(c)
    if code != 11:
        return c, None, (code, data)
    return c, bare, data.decode()


def scram_final(bare, server_first, password, cbind="biws"):
    """The client-final-message and the server signature expected."""
    attrs = dict(kv.split("=", 1) for kv in server_first.split(","))
    salt = base64.b64decode(attrs["s"])
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt,
                                 int(attrs["i"]))
    client_key = hmac.new(salted, b"Client Key", "sha256").digest()
    stored = hashlib.sha256(client_key).digest()
    without = "c=%s,r=%s" % (cbind, attrs["r"])
    authmsg = ",".join([bare, server_first, without]).encode()
    sig = hmac.new(stored, authmsg, "sha256").digest()
    proof = bytes(a ^ b for a, b in zip(client_key, sig))
    server_key = hmac.new(salted, b"Server Key", "sha256").digest()
    vsig = hmac.new(server_key, authmsg, "sha256").digest()
    return (without + ",p=" + base64.b64encode(proof).decode(),
            "v=" + base64.b64encode(vsig).decode())


def fatal_after(c, body_type, body):
    """Send one message, return the FATAL's fields (or None)."""
    c.send(body_type, body)
    data, _ = read_all_until_close(c.sock)
    return fatal_in(data)


def group_auth():
    """SCRAM-SHA-256 by hand.  Also passes against PostgreSQL 15 with the
    same roles, database tdb and scram-sha-256 for 127.0.0.1 (the
    messages and SQLSTATEs asserted here are PostgreSQL's)."""
    # the whole exchange, checked like libpq checks it
    c, bare, sfirst = scram_start()
    check("auth: R/10 offers SCRAM-SHA-256 only, R/11 server-first",
          bare is not None and sfirst.startswith("r=fyko+d2lbbFgONRv9qkxdawL")
          and ",s=" in sfirst and sfirst.endswith(",i=4096"), sfirst)
    final, v = scram_final(bare, sfirst, "secret")
    c.send("p", final.encode())
    code, data = read_auth(c)
    check("auth: R/12 carries the server signature", code == 12 and
          data.decode() == v, (code, data))
    msgs = c.until_ready()
    check("auth: R/0, then ready; is_superuser off for alice",
          msgs[0][0] == "R" and c.status == "I" and
          c.params.get("is_superuser") == "off" and
          c.params.get("session_authorization") == "alice", (types(msgs),
                                                              c.params))
    c.send("Q", b"SELECT current_user, session_user\0")
    check("auth: current_user is alice", rows(c.until_ready()) ==
          [["alice", "alice"]])
    c.close()

    # a wrong proof, a role without password, a role that does not exist
    for user, pw, name in (("alice", "wrong", "wrong password"),
                           ("bob", "", "role without a password"),
                           ("nosuch", "x", "role that does not exist")):
        c, bare, sfirst = scram_start(user)
        if bare is None:
            check("auth: %s gets the whole exchange" % name, False, sfirst)
            continue
        final, _ = scram_final(bare, sfirst, pw)
        e = fatal_after(c, "p", final.encode())
        check("auth: %s is FATAL 28P01 after the exchange" % name,
              e is not None and e.get("V") == "FATAL" and
              e.get("C") == "28P01" and
              e.get("M") == 'password authentication failed for user "%s"'
              % user, e)

    # the mock salt of a missing role is stable (as a real one's is)
    salts = []
    for _ in range(2):
        c, bare, sfirst = scram_start("nosuch2")
        salts.append(sfirst.split(",")[1] if bare else None)
        c.close()
    check("auth: a missing role's salt is the same each time",
          salts[0] is not None and salts[0] == salts[1], salts)

    # NOLOGIN: the password is right, then 28000 after AuthenticationOk
    c, bare, sfirst = scram_start("nol")
    final, _ = scram_final(bare, sfirst, "secret")
    c.send("p", final.encode())
    data, _ = read_all_until_close(c.sock)
    e = fatal_in(data)
    check("auth: NOLOGIN role: R/12, R/0, FATAL 28000",
          [t for t, _ in auth_msgs(None, data)][:3] == ["R", "R", "E"] and
          e is not None and e.get("C") == "28000" and
          e.get("M") == 'role "nol" is not permitted to log in', (data[:60], e))

    # malformed SASL messages
    c = Conn(startup=False)
    c.sock.sendall(startup_packet({"user": "alice", "database": "tdb"}))
    read_auth(c)
    e = fatal_after(c, "p", b"SCRAM-SHA-1\0" + struct.pack("!i", 5) + b"n,,n=")
    check("auth: wrong mechanism is FATAL 08P01",
          e is not None and e.get("C") == "08P01" and
          e.get("M") == "client selected an invalid SASL authentication "
          "mechanism", e)

    for first, name in ((b"x,,n=,r=abc", "bad gs2 flag"),
                        (b"n,,n=,q=abc", "no nonce"),
                        (b"p=tls-server-end-point,,n=,r=abc",
                         "channel binding without TLS"),
                        (b"n,", "truncated")):
        c = Conn(startup=False)
        c.sock.sendall(startup_packet({"user": "alice", "database": "tdb"}))
        read_auth(c)
        e = fatal_after(c, "p", b"SCRAM-SHA-256\0" +
                        struct.pack("!i", len(first)) + first)
        check("auth: client-first with %s is FATAL 08P01" % name,
              e is not None and e.get("C") == "08P01" and
              e.get("M") == "malformed SCRAM message", e)

    # the length inside SASLInitialResponse lies
    c = Conn(startup=False)
    c.sock.sendall(startup_packet({"user": "alice", "database": "tdb"}))
    read_auth(c)
    e = fatal_after(c, "p", b"SCRAM-SHA-256\0" + struct.pack("!i", 500) +
                    b"n,,n=,r=abc")
    check("auth: SASLInitialResponse shorter than its length is FATAL",
          e is not None and e.get("C") == "08P01", e)

    # a final message with another nonce, a bad proof encoding, a wrong c=
    for mangle, name, code in (
            (lambda f: f.replace("r=fyko", "r=XXXX"), "another nonce", "08P01"),
            (lambda f: f.split(",p=")[0] + ",p=!!!!", "bad proof", "08P01"),
            (lambda f: f.replace("c=biws", "c=eSws"), "wrong c=", "08P01"),
            (lambda f: f.split(",p=")[0], "no proof", "08P01")):
        c, bare, sfirst = scram_start()
        final, _ = scram_final(bare, sfirst, "secret")
        e = fatal_after(c, "p", mangle(final).encode())
        check("auth: client-final with %s is FATAL %s" % (name, code),
              e is not None and e.get("C") == code, e)

    # another message type instead of the SASL response
    c = Conn(startup=False)
    c.sock.sendall(startup_packet({"user": "alice", "database": "tdb"}))
    read_auth(c)
    e = fatal_after(c, "Q", b"SELECT 1\0")
    check("auth: a Query instead of SASLInitialResponse is FATAL 08P01",
          e is not None and e.get("C") == "08P01" and
          e.get("M") == "expected SASL response, got message type 81", e)

    # a length that lies in the message header
    c = Conn(startup=False)
    c.sock.sendall(startup_packet({"user": "alice", "database": "tdb"}))
    read_auth(c)
    c.sock.sendall(b"p" + struct.pack("!I", 2))
    data, closed = read_all_until_close(c.sock)
    check("auth: a message length under 4 closes the connection", closed,
          data[:60])

    # clients vanishing mid-exchange: after R/10, after R/11, mid-message
    c = Conn(startup=False)
    c.sock.sendall(startup_packet({"user": "alice", "database": "tdb"}))
    read_auth(c)
    c.close()
    c, bare, sfirst = scram_start()
    c.close()
    c, bare, sfirst = scram_start()
    c.sock.sendall(b"p" + struct.pack("!I", 100) + b"c=biws")
    c.close()

    # and the server still serves everyone
    c, bare, sfirst = scram_start()
    final, _ = scram_final(bare, sfirst, "secret")
    c.send("p", final.encode())
    read_auth(c)
    c.until_ready()
    check("auth: the server goes on after all that", c.status == "I")
    c.close()


def group_auth_trust():
    """Over the Unix socket (trust): roles must exist, NOLOGIN is refused,
    a superuser's is_superuser is on."""
    c = Conn({"user": "tester"})
    check("auth: trust: tester is a superuser",
          c.params.get("is_superuser") == "on", c.params)
    c.close()
    c = Conn(startup=False)
    c.sock.sendall(startup_packet({"user": "nosuch", "database": "tdb"}))
    data, _ = read_all_until_close(c.sock)
    e = fatal_in(data)
    check("auth: trust: a missing role is FATAL 28000 after R/0",
          data[:1] == b"R" and e is not None and e.get("C") == "28000" and
          e.get("M") == 'role "nosuch" does not exist', e)


def startup_until_close(params):
    """Send a StartupMessage; everything the server sends until it closes
    (or until ReadyForQuery): (message types, fields of the first
    ErrorResponse or None)."""
    c = Conn(startup=False)
    c.sock.sendall(startup_packet(params))
    msgs = c.until_ready()
    c.close()
    return types(msgs), error_of(msgs)


def group_authid():
    """pg_authid through the extended protocol (Unix socket, trust; run.sh's
    auth group's roles: alice, and sue, a superuser): as in PostgreSQL 15
    (this group passes against it with those roles), Parse of a SELECT
    that reads pg_authid succeeds and Bind fails with 42501; a statement
    prepared and run while the role was a superuser fails at its next
    Bind once the role is not one."""
    c = Conn({"user": "alice", "database": "tdb"})
    msgs = batch(c, m_parse("s", "SELECT rolpassword FROM pg_authid"), SYNC)
    check("authid: Parse of a SELECT reading pg_authid succeeds",
          types(msgs) == "1Z", types(msgs))
    msgs = batch(c, m_bind("", "s"), m_execute(), SYNC)
    e = error_of(msgs)
    check("authid: ... its Bind is 42501 permission denied",
          types(msgs) == "EZ" and e is not None and e["C"] == "42501" and
          e["M"] == "permission denied for table pg_authid", (types(msgs), e))
    c.close()

    su = Conn({"user": "tester", "database": "tdb"})
    c = Conn({"user": "sue", "database": "tdb"})
    batch(c, m_parse("s", "SELECT count(*) > 0 FROM pg_authid"), SYNC)
    r1 = rows(batch(c, m_bind("", "s"), m_execute(), SYNC))
    su.query("ALTER ROLE sue NOSUPERUSER")
    msgs = batch(c, m_bind("", "s"), m_execute(), SYNC)
    e = error_of(msgs)
    su.query("ALTER ROLE sue SUPERUSER")
    r3 = rows(batch(c, m_bind("", "s"), m_execute(), SYNC))
    check("authid: a prepared statement stops reading pg_authid when its "
          "role stops being a superuser, and reads it again after",
          r1 == [["t"]] and e is not None and e["C"] == "42501" and
          r3 == [["t"]], (r1, e, r3))
    c.close()
    su.close()


def group_dbname():
    """Over the Unix socket (trust), on the server of run.sh's auth group,
    whose data directory, and so database, is named "tdb": which database
    names a client may ask for.  Passes against PostgreSQL 15 with a
    database tdb, the same roles and trust for local connections, except
    for tupledb's own choices (src/server/README.md): template0 and
    template1 do not exist, and postgres is the same database as tdb."""
    for db in ("tdb", "postgres"):
        c = Conn({"database": db})
        ok = c.status == "I" and rows(c.query("SELECT 1")) == [["1"]]
        check("dbname: database %s is accepted" % db, ok, types(c.startup_msgs))
        c.close()

    # a name that does not exist: R/0, then FATAL 3D000, and nothing else
    for db in ("nosuch", "template0", "template1", "Postgres", "tdb ",
               "x" * 70):
        shown = db[:63]
        t, e = startup_until_close({"user": "tester", "database": db})
        check("dbname: database %r is FATAL 3D000 after R/0" % db[:12],
              t == "RE" and e is not None and e.get("S") == "FATAL" and
              e.get("V") == "FATAL" and e.get("C") == "3D000" and
              e.get("M") == 'database "%s" does not exist' % shown,
              (t, e))

    # a 70-byte name is cut to 63 bytes first, as PostgreSQL cuts it
    t, e = startup_until_close({"user": "tester",
                                "database": "postgres" + "x" * 55 + "yyy"})
    check("dbname: a name is cut to 63 bytes before the check",
          t == "RE" and e is not None and
          e.get("M") == 'database "%s" does not exist' % ("postgres" +
                                                          "x" * 55), (t, e))

    # no database: the user's name, which must then be a database
    t, e = startup_until_close({"user": "tdb"})
    check("dbname: no database, user tdb: database tdb", "Z" in t and
          e is None, (t, e))
    t, e = startup_until_close({"user": "alice"})
    check("dbname: no database, user alice: FATAL 3D000",
          e is not None and e.get("C") == "3D000" and
          e.get("M") == 'database "alice" does not exist', (t, e))

    # PostgreSQL's order: the role's checks come first, the startup
    # settings after the database
    t, e = startup_until_close({"user": "nosuch", "database": "nosuch"})
    check("dbname: a missing role is reported before the database",
          e is not None and e.get("C") == "28000" and
          e.get("M") == 'role "nosuch" does not exist', (t, e))
    t, e = startup_until_close({"user": "nol", "database": "nosuch"})
    check("dbname: a NOLOGIN role is reported before the database",
          e is not None and e.get("C") == "28000", (t, e))
    for name, params in (("an unknown setting", {"nosuch_setting": "1"}),
                         ("a bad value", {"work_mem": "lots"}),
                         ("a bad options word", {"options": "-x"})):
        params.update({"user": "tester", "database": "nosuch"})
        t, e = startup_until_close(params)
        check("dbname: the database is checked before %s" % name,
              e is not None and e.get("C") == "3D000", (t, e))

    # a refused connection leaves the others alone: a session in the
    # middle of a transaction goes on and commits
    a = Conn({"database": "tdb"})
    a.query("CREATE TABLE dbname_t (i int)")
    a.query("BEGIN")
    a.query("INSERT INTO dbname_t VALUES (1)")
    for _ in range(5):
        startup_until_close({"user": "tester", "database": "nosuch"})
    r = rows(a.query("SELECT count(*) FROM dbname_t"))
    a.query("COMMIT")
    b = Conn({"database": "tdb"})
    r2 = rows(b.query("SELECT count(*) FROM dbname_t"))
    check("dbname: refused connections do not disturb a running session",
          r == [["1"]] and a.status == "I" and r2 == [["1"]], (r, r2))
    b.close()

    # tupledb: "postgres" is the one database under another name
    b = Conn({"database": "postgres"})
    r = rows(b.query("SELECT count(*) FROM dbname_t"))
    check("dbname: database postgres is database tdb", r == [["1"]], r)
    b.close()
    a.query("DROP TABLE dbname_t")
    a.close()


def group_dbname_auth():
    """Over TCP with scram-sha-256 for the databases tdb, postgres and
    nosuch (run.sh's auth group): the password comes first, as in
    PostgreSQL 15 -- a wrong one is 28P01 whatever the database, the
    right one for a database that does not exist gets through the whole
    exchange and AuthenticationOk, then FATAL 3D000."""
    c, bare, sfirst = scram_start(database="nosuch")
    if bare is None:
        check("dbname: SCRAM exchange for database nosuch", False, sfirst)
        return
    final, _ = scram_final(bare, sfirst, "wrong")
    e = fatal_after(c, "p", final.encode())
    check("dbname: a wrong password for database nosuch is 28P01",
          e is not None and e.get("C") == "28P01", e)
    c, bare, sfirst = scram_start(database="nosuch")
    final, _ = scram_final(bare, sfirst, "secret")
    c.send("p", final.encode())
    data, _ = read_all_until_close(c.sock)
    e = fatal_in(data)
    check("dbname: the right password for database nosuch: R/12, R/0, "
          "FATAL 3D000",
          [t for t, _ in auth_msgs(None, data)] == ["R", "R", "E"] and
          e is not None and e.get("S") == "FATAL" and
          e.get("C") == "3D000" and
          e.get("M") == 'database "nosuch" does not exist', (data[:60], e))


def main():
    global HOST, PORT
    HOST, PORT = sys.argv[1], int(sys.argv[2])
    for g in sys.argv[3:]:
        try:
            globals()["group_" + g]()
        except Exception as ex:  # a crash of the check is a failure
            check("%s: ran to the end" % g, False, repr(ex))
    print("RESULT pgwire: %d passed, %d failed" % (PASSED, FAILED))
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
