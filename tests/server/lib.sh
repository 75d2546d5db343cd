# shellcheck shell=bash
# lib.sh -- sourced by tests/server/run.sh: start and stop `tupledb serve`,
# count checks.
#
#   free_port                  print a TCP port nobody listens on
#   server_start DATADIR [OPTION...]
#                              start $TDB serve on DATADIR, port $SRV_PORT,
#                              socket directory $SRV_SOCKDIR, TCP on
#                              127.0.0.1; log in $SRV_LOG; sets SRV_PID;
#                              waits until the socket file exists
#   server_stop [NAME]         SIGTERM, wait; with NAME, a check that it
#                              exited 0, logged "database system is shut
#                              down" and removed its socket file
#   ok NAME / fail NAME WHY / skip NAME WHY
#                              print one check's outcome (run.sh counts
#                              these lines)
#   count_from OUTPUT          pass on the check lines of a helper's
#                              output (pgwire.py); a FAIL if it did not
#                              finish with its RESULT line

# Checks are counted by run.sh from these lines.
ok() { echo "  ok    $1"; }
fail() { echo "  FAIL  $1${2:+: $2}"; }
skip() { echo "  skip  $1${2:+ ($2)}"; }

count_from() {
  local out=$1
  echo "$out" | grep -E '^  (ok|FAIL|skip) '
  if ! echo "$out" | grep -q '^RESULT '; then
    fail "helper reported no RESULT line" "$(echo "$out" | tail -n 3)"
  fi
}

free_port() {
  python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

server_start() {
  local datadir=$1 i
  shift
  "$TDB" serve "$datadir" --port "$SRV_PORT" --socket-dir "$SRV_SOCKDIR" --superuser tester \
    --listen 127.0.0.1 "$@" >>"$SRV_LOG" 2>&1 &
  SRV_PID=$!
  for i in $(seq 1 300); do
    [ -S "$SRV_SOCKDIR/.s.PGSQL.$SRV_PORT" ] && return 0
    kill -0 "$SRV_PID" 2>/dev/null || break
    sleep 0.05
  done
  echo "server did not start; log:" >&2
  tail -n 20 "$SRV_LOG" >&2
  return 1
}

server_stop() {
  local name=${1:-} rc
  [ -n "${SRV_PID:-}" ] || return 0
  kill -TERM "$SRV_PID" 2>/dev/null
  wait "$SRV_PID"
  rc=$?
  SRV_PID=
  [ -n "$name" ] || return 0
  if [ "$rc" -ne 0 ]; then
    fail "$name: server exit status" "$rc; log: $(tail -n 5 "$SRV_LOG")"
  elif ! tail -n 3 "$SRV_LOG" | grep -q 'LOG:  database system is shut down'; then
    fail "$name: clean shutdown logged" "$(tail -n 3 "$SRV_LOG")"
  elif [ -e "$SRV_SOCKDIR/.s.PGSQL.$SRV_PORT" ]; then
    fail "$name: socket file removed"
  else
    ok "$name: SIGTERM shuts down cleanly (exit 0, socket removed)"
  fi
}
