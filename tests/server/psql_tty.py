#!/usr/bin/env python3
"""Interactive psql against the server, on a pseudo-terminal.

    psql_tty.py PSQL          (connection from PGHOST/PGPORT/PGUSER/...)

psql behaves differently when its input is a terminal: it prints its
banner and prompts, shows the transaction state in the prompt, reads
statements line by line with readline, and \\timing prints "Time: ...".
This drives it through a pty the way a person types, one line at a
time, waiting for each prompt, and checks what comes back.  Prints
run.sh's "  ok    NAME" / "  FAIL  NAME: detail" lines, which it counts;
a psql that stops answering is one more FAIL line.
"""
import os
import pty
import re
import select
import sys
import time


class Tty:
    def __init__(self, argv):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["TERM"] = "dumb"
            os.execvp(argv[0], argv)
        self.out = b""

    def read_until(self, pattern, timeout=20):
        """Read until the output so far matches pattern (bytes regex);
        returns the text read since the last call."""
        start = len(self.out)
        deadline = time.time() + timeout
        while not re.search(pattern, self.out[start:]):
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError(self.out[start:].decode(errors="replace"))
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise EOFError(self.out[start:].decode(errors="replace"))
                self.out += chunk
        return self.out[start:].decode(errors="replace")

    def line(self, text, prompt=rb"[=-][*!]?# $"):
        """Type a line; return the output up to the next prompt."""
        os.write(self.fd, text.encode() + b"\r")
        return self.read_until(prompt)

    def wait(self):
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def check(name, cond, detail=""):
    print(("  ok    psql: %s" % name) if cond
          else ("  FAIL  psql: %s: %r" % (name, detail)))


def main():
    psql = sys.argv[1]
    t = Tty([psql, "-X", "-P", "pager=off"])
    banner = t.read_until(rb"=# $")
    check("tty: banner names psql and the server version, prompt 'db=#'",
          re.search(r"psql \(15\.\d+[^,]*, server 15\.0 \(tupledb\)\)", banner)
          is not None and banner.rstrip().endswith("=#"), banner)
    out = t.line("CREATE TABLE tty (a int, b text);")
    check("tty: CREATE TABLE -> tag", "CREATE TABLE" in out, out)
    # a statement over three lines: continuation prompts, then the result
    out = t.line("INSERT INTO tty", rb"-# $")
    out += t.line("VALUES (1, 'one'),", rb"-# $")
    out += t.line("(2, NULL);")
    check("tty: a statement typed over three lines (prompt 'db-#')",
          "INSERT 0 2" in out, out)
    out = t.line("\\timing on")
    check("tty: \\timing on", "Timing is on." in out, out)
    out = t.line("SELECT a, b FROM tty ORDER BY a;")
    check("tty: aligned result, (2 rows), and 'Time: N ms'",
          " a |  b  " in out and " 1 | one" in out and "(2 rows)" in out
          and re.search(r"Time: \d+\.\d{3} ms", out) is not None, out)
    out = t.line("\\timing off")
    out = t.line("BEGIN;")
    check("tty: in a transaction block the prompt is 'db=*#'",
          out.rstrip().endswith("=*#"), out)
    out = t.line("SELECT nosuch FROM tty;")
    check("tty: an error with LINE and caret; prompt 'db=!#'",
          'ERROR:  column "nosuch" does not exist' in out and
          "LINE 1: SELECT nosuch FROM tty;" in out and
          out.rstrip().endswith("=!#"), out)
    out = t.line("ROLLBACK;")
    check("tty: ROLLBACK ends the failed block", "ROLLBACK" in out and
          out.rstrip().endswith("=#"), out)
    out = t.line("DROP TABLE tty;")
    os.write(t.fd, b"\\q\r")
    rc = t.wait()
    check("tty: \\q exits 0", rc == 0, rc)


if __name__ == "__main__":
    try:
        main()
    except (TimeoutError, EOFError) as e:
        check("tty: psql answered every line", False,
              "%s after: %s" % (type(e).__name__, str(e)[-300:]))
