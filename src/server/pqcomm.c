/*
 * pqcomm.c -- one connection's socket: buffered reading of frontend
 * messages and building of backend messages (PostgreSQL's pqcomm.c and
 * pqformat.c in one file).
 *
 * Framing (protocol v3): a startup-phase packet is Int32 length (counting
 * itself) + body; every later message is a type byte + Int32 length +
 * body.  Integers are big-endian.
 *
 * Waiting: every blocking wait is a poll() on the socket and on the
 * server's wake pipe, which becomes readable (and stays so) when the
 * server starts shutting down; a wait that ends that way returns PQ_STOP
 * (reads) or false (flush) and sets Port.stopped.  Reads also honour
 * Port.timeout_ms (the startup phase's authentication timeout).
 *
 * Output: messages are built in Port.outbuf and sent when the buffer
 * passes PQ_SEND_THRESHOLD, on tdb_pq_flush, and when the input buffer
 * has been used up (before the socket is read again) -- so a pipelining
 * client gets its replies in few packets, and no exchange can deadlock
 * with both sides waiting to read.  Writes use
 * MSG_NOSIGNAL: a client that vanished is a failed write (Port.broken),
 * never a SIGPIPE.  After a failure nothing more is sent or read.
 *
 * Memory: the buffers live in Port.cxt; message bodies in the context
 * the caller names (normally the per-message context).
 */
#include "common/base.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/server_int.h"

#define PQ_INBUF_SIZE 8192
#define PQ_OUTBUF_SIZE 8192
#define PQ_SEND_THRESHOLD 8192
/* An emptied output buffer bigger than this shrinks back. */
#define PQ_OUTBUF_KEEP (256 * 1024)
/* A message body is read into a buffer grown as its bytes arrive, so a
 * length that lies costs no more memory than the bytes really sent. */
#define PQ_BODY_CHUNK (64 * 1024)

void
tdb_pq_port_init(Port *port, int sock, int wake_fd, MemoryContext cxt)
{
    memset(port, 0, sizeof(*port));
    port->sock = sock;
    port->wake_fd = wake_fd;
    port->cxt = cxt;
    port->inbuf = tdb_mcxt_alloc(cxt, PQ_INBUF_SIZE);
    port->incap = PQ_INBUF_SIZE;
    port->outbuf = tdb_mcxt_alloc(cxt, PQ_OUTBUF_SIZE);
    port->outcap = PQ_OUTBUF_SIZE;
    port->timeout_ms = -1;
    port->send_timeout_ms = -1;
}

void
tdb_pq_port_detach_wake(Port *port, int timeout_ms)
{
    port->wake_fd = -1;
    port->stopped = false;
    port->send_timeout_ms = timeout_ms;
}

void
tdb_pq_port_close(Port *port)
{
    if (port->sock >= 0) {
        close(port->sock);
        port->sock = -1;
    }
    port->broken = true;
}

/*
 * Wait until the socket is readable (events POLLIN) or writable
 * (POLLOUT), the wake pipe fires, or timeout_ms passes.  Returns PQ_OK,
 * PQ_STOP, PQ_TIMEOUT or PQ_EOF (poll failed).
 */
static int
wait_socket(Port *port, short events, int timeout_ms)
{
    struct pollfd fds[2];
    int rc;

    fds[0].fd = port->sock;
    fds[0].events = events;
    fds[1].fd = port->wake_fd;
    fds[1].events = POLLIN;
    for (;;) {
        fds[0].revents = fds[1].revents = 0;
        rc = poll(fds, port->wake_fd >= 0 ? 2 : 1, timeout_ms);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0)
            return PQ_EOF;
        if (rc == 0)
            return PQ_TIMEOUT;
        if (fds[1].revents != 0) {
            port->stopped = true;
            return PQ_STOP;
        }
        return PQ_OK; /* readable, writable, or an error the next call
                       * reports */
    }
}

bool
tdb_pq_flush(Port *port)
{
    size_t sent = 0;

    if (port->broken || port->stopped) {
        port->outlen = 0;
        port->in_message = false;
        return false;
    }
    while (sent < port->outlen) {
        ssize_t n = send(port->sock, port->outbuf + sent, port->outlen - sent,
                         MSG_NOSIGNAL | MSG_DONTWAIT);

        if (n > 0) {
            sent += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            int rc = wait_socket(port, POLLOUT, port->send_timeout_ms);

            if (rc == PQ_OK)
                continue;
        }
        /* the client vanished, or the server is stopping */
        port->broken = port->broken || !port->stopped;
        port->outlen = 0;
        port->in_message = false;
        return false;
    }
    port->outlen = 0;
    port->in_message = false;
    if (port->outcap > PQ_OUTBUF_KEEP) {
        tdb_pfree(port->outbuf);
        port->outbuf = tdb_mcxt_alloc(port->cxt, PQ_OUTBUF_SIZE);
        port->outcap = PQ_OUTBUF_SIZE;
    }
    return true;
}

/*
 * Receive at most cap bytes into dst, waiting for at least one.
 *
 * Called when the input buffer is empty.  If replies are waiting to be
 * sent, the client is most likely waiting for them before it sends
 * anything more, so they go first and the wait comes next: a recv()
 * before the send would almost always find nothing.  (strace on a
 * pgbench SELECT 1 round trip: recv EAGAIN, send, poll, recv became
 * send, poll, recv.)  A pipelining client loses nothing: its messages
 * that are already in the socket make the poll return at once, and the
 * replies to everything that was in the input buffer still go out in
 * one send.
 */
static int
recv_some(Port *port, char *dst, size_t cap, size_t *got)
{
    if (port->outlen > 0 && !port->broken) {
        int rc;

        if (!tdb_pq_flush(port))
            return port->stopped ? PQ_STOP : PQ_EOF;
        rc = wait_socket(port, POLLIN, port->timeout_ms);
        if (rc != PQ_OK)
            return rc;
    }
    for (;;) {
        ssize_t n;
        int rc;

        if (port->broken)
            return PQ_EOF;
        n = recv(port->sock, dst, cap, MSG_DONTWAIT);
        if (n > 0) {
            *got = (size_t)n;
            return PQ_OK;
        }
        if (n == 0) {
            port->broken = true;
            return PQ_EOF;
        }
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK) {
            port->broken = true;
            return PQ_EOF;
        }
        /* Nothing to read: send what the client is waiting for, then wait. */
        if (port->outlen > 0 && !tdb_pq_flush(port))
            return port->stopped ? PQ_STOP : PQ_EOF;
        rc = wait_socket(port, POLLIN, port->timeout_ms);
        if (rc != PQ_OK)
            return rc;
    }
}

size_t
tdb_pq_pending_input(const Port *port)
{
    return port->inend - port->inbeg;
}

int
tdb_pq_wait_input(Port *port)
{
    size_t got;
    int rc;

    if (port->inend > port->inbeg)
        return PQ_OK;
    port->inbeg = port->inend = 0;
    rc = recv_some(port, port->inbuf, port->incap, &got);
    if (rc == PQ_OK)
        port->inend = got;
    return rc;
}

int
tdb_pq_read_bytes(Port *port, void *dst, size_t n)
{
    char *out = dst;

    while (n > 0) {
        size_t avail = port->inend - port->inbeg;
        size_t got;
        int rc;

        if (avail > 0) {
            size_t take = Min(avail, n);

            memcpy(out, port->inbuf + port->inbeg, take);
            port->inbeg += take;
            out += take;
            n -= take;
            continue;
        }
        port->inbeg = port->inend = 0;
        if (n >= port->incap) {
            /* a large body: straight into its destination */
            rc = recv_some(port, out, n, &got);
            if (rc != PQ_OK)
                return rc;
            out += got;
            n -= got;
        } else {
            rc = recv_some(port, port->inbuf, port->incap, &got);
            if (rc != PQ_OK)
                return rc;
            port->inend = got;
        }
    }
    return PQ_OK;
}

int
tdb_pq_read_message(Port *port, bool startup, int maxlen, MemoryContext cxt,
                    PqMsg *msg)
{
    unsigned char lenbuf[4];
    uint32 len;
    size_t bodylen, have = 0, cap;
    char *body;
    int rc;

    memset(msg, 0, sizeof(*msg));
    if (!startup) {
        unsigned char type;

        rc = tdb_pq_read_bytes(port, &type, 1);
        if (rc != PQ_OK)
            return rc;
        msg->type = (char)type;
    }
    rc = tdb_pq_read_bytes(port, lenbuf, 4);
    if (rc != PQ_OK)
        return rc;
    len = ((uint32)lenbuf[0] << 24) | ((uint32)lenbuf[1] << 16) |
          ((uint32)lenbuf[2] << 8) | (uint32)lenbuf[3];
    if (len < 4 || len - 4 > (uint32)maxlen) {
        msg->len = (int)Min(len, (uint32)INT32_MAX);
        return PQ_BAD_LENGTH;
    }
    bodylen = len - 4;
    cap = Min(bodylen, (size_t)PQ_BODY_CHUNK);
    body = tdb_mcxt_alloc(cxt, cap + 1);
    while (have < bodylen) {
        size_t want;

        if (have == cap) {
            cap = Min(bodylen, cap * 2);
            body = tdb_repalloc(body, cap + 1);
        }
        want = cap - have;
        rc = tdb_pq_read_bytes(port, body + have, want);
        if (rc != PQ_OK)
            return rc;
        have += want;
    }
    body[bodylen] = '\0';
    msg->data = body;
    msg->len = (int)bodylen;
    return PQ_OK;
}

/* ----------------------------------------------------------------------
 * Reading message bodies
 * ---------------------------------------------------------------------- */

static bool
has(PqMsg *m, int n)
{
    if (n < 0 || m->cursor > m->len - n) {
        m->bad = true;
        return false;
    }
    return true;
}

int
tdb_pq_get_byte(PqMsg *m)
{
    if (!has(m, 1))
        return 0;
    return (unsigned char)m->data[m->cursor++];
}

int16
tdb_pq_get_int16(PqMsg *m)
{
    const unsigned char *p;

    if (!has(m, 2))
        return 0;
    p = (const unsigned char *)m->data + m->cursor;
    m->cursor += 2;
    return (int16)(((uint16)p[0] << 8) | (uint16)p[1]);
}

int32
tdb_pq_get_int32(PqMsg *m)
{
    const unsigned char *p;

    if (!has(m, 4))
        return 0;
    p = (const unsigned char *)m->data + m->cursor;
    m->cursor += 4;
    return (int32)(((uint32)p[0] << 24) | ((uint32)p[1] << 16) |
                   ((uint32)p[2] << 8) | (uint32)p[3]);
}

const char *
tdb_pq_get_string(PqMsg *m)
{
    const char *start;
    const char *nul;

    if (m->bad || m->cursor >= m->len) {
        m->bad = true;
        return "";
    }
    start = m->data + m->cursor;
    nul = memchr(start, '\0', (size_t)(m->len - m->cursor));
    if (nul == NULL) {
        m->bad = true;
        return "";
    }
    m->cursor += (int)(nul - start) + 1;
    return start;
}

const char *
tdb_pq_get_bytes(PqMsg *m, int n)
{
    const char *p;

    if (!has(m, n))
        return NULL;
    p = m->data + m->cursor;
    m->cursor += n;
    return p;
}

bool
tdb_pq_get_end(const PqMsg *m)
{
    return !m->bad && m->cursor == m->len;
}

/* ----------------------------------------------------------------------
 * Building backend messages
 * ---------------------------------------------------------------------- */

static void
reserve(Port *port, size_t n)
{
    size_t need = port->outlen + n;

    if (need > port->outcap) {
        size_t cap = port->outcap;

        while (cap < need)
            cap *= 2;
        port->outbuf = tdb_repalloc_extended(port->outbuf, cap,
                                             MCXT_ALLOC_HUGE);
        port->outcap = cap;
    }
}

void
tdb_pq_begin(Port *port, char type)
{
    reserve(port, 5);
    port->msgstart = port->outlen;
    port->in_message = true;
    port->outbuf[port->outlen++] = type;
    port->outlen += 4; /* the length, filled by tdb_pq_end */
}

void
tdb_pq_put_byte(Port *port, int b)
{
    reserve(port, 1);
    port->outbuf[port->outlen++] = (char)b;
}

void
tdb_pq_put_int16(Port *port, int v)
{
    unsigned char *p;

    reserve(port, 2);
    p = (unsigned char *)port->outbuf + port->outlen;
    p[0] = (unsigned char)((uint16)v >> 8);
    p[1] = (unsigned char)v;
    port->outlen += 2;
}

void
tdb_pq_put_int32(Port *port, int32 v)
{
    uint32 u = (uint32)v;
    unsigned char *p;

    reserve(port, 4);
    p = (unsigned char *)port->outbuf + port->outlen;
    p[0] = (unsigned char)(u >> 24);
    p[1] = (unsigned char)(u >> 16);
    p[2] = (unsigned char)(u >> 8);
    p[3] = (unsigned char)u;
    port->outlen += 4;
}

void
tdb_pq_put_bytes(Port *port, const void *data, size_t n)
{
    reserve(port, n);
    if (n > 0)
        memcpy(port->outbuf + port->outlen, data, n);
    port->outlen += n;
}

void
tdb_pq_put_string(Port *port, const char *s)
{
    tdb_pq_put_bytes(port, s, strlen(s) + 1);
}

void
tdb_pq_end(Port *port)
{
    uint32 len = (uint32)(port->outlen - port->msgstart - 1);
    unsigned char *p = (unsigned char *)port->outbuf + port->msgstart + 1;

    p[0] = (unsigned char)(len >> 24);
    p[1] = (unsigned char)(len >> 16);
    p[2] = (unsigned char)(len >> 8);
    p[3] = (unsigned char)len;
    port->in_message = false;
    if (port->outlen >= PQ_SEND_THRESHOLD)
        (void)tdb_pq_flush(port);
}

void
tdb_pq_discard_partial(Port *port)
{
    if (port->in_message) {
        port->outlen = port->msgstart;
        port->in_message = false;
    }
}

void
tdb_pq_put_raw_byte(Port *port, int b)
{
    tdb_pq_put_byte(port, b);
}
