/*
 * clog.c -- the commit log (pg_xact): two status bits per transaction id,
 * 8 KB pages cached in memory, written back through storage/fd.h.
 *
 * Layout and durability rules are in clog.h.  This file's design:
 *
 *   slots[CLOG_NUM_BUFFERS]   the page cache; each slot is empty or holds
 *                             one page, with a dirty flag, a change
 *                             counter and an LRU stamp
 *   cache_lock                protects every slot's contents and metadata
 *                             and latest_xid
 *   io_lock                   serializes file I/O and the (re)assignment
 *                             of a slot to a page; always taken before
 *                             cache_lock
 *
 * Invariants:
 *   1. A slot changes the page it holds only under both locks, so whoever
 *      holds io_lock may drop cache_lock and find its slot still holding
 *      the same page afterwards.
 *   2. Statuses change only under cache_lock.  A cache-only change marks
 *      the slot dirty and bumps its change counter.
 *   3. A durable change (set_status_durable, flush) copies the page into
 *      write_buf under cache_lock, writes and fsyncs the copy holding only
 *      io_lock, then applies its status to the cached page.  The slot is
 *      marked clean only if its change counter did not move meanwhile.  So
 *      a status that must be durable is never visible in memory before it
 *      is on disk, and readers of cached pages never wait for an fsync.
 *   4. All file writes are serialized by io_lock, so an older image of a
 *      page can never overwrite a newer one on disk.
 *   5. A page fault (loading a page, and writing back the evicted one)
 *      holds both locks across its I/O: simple, and rare -- hint bits keep
 *      most visibility checks away from the log.
 *   6. Nothing here raises while holding a lock: the workers return -1
 *      and fill a ClogIoError, and the entry points release both locks
 *      before reporting it.
 *   7. Every page whose first id precedes reserved_end is on disk:
 *      tdb_clog_reserve writes such pages (zeroed) and fsyncs them before
 *      reserved_end moves past their first id, and the transaction
 *      manager reserves before its control file lets the ids out.  So a
 *      page of an id that may have been handed out is missing or short
 *      only if the file was damaged, and reading it is an error; a page
 *      at or after reserved_end was never written and reads as zeros.
 *
 * Entry points: tdb_clog_open/close/flush/reserve/extend,
 * tdb_clog_get_status, tdb_clog_set_status[_durable|_noerror].
 */
#include "common/base.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>

#include "access/clog.h"
#include "common/elog.h"
#include "storage/fd.h"

#define CLOG_XACT_BITMASK ((1 << CLOG_BITS_PER_XACT) - 1)
/* Longest path of a segment file ("<datadir>/pg_xact/SSSS"). */
#define CLOG_PATH_MAX 1024

typedef uint32 ClogPageNo;

/* What a failed file operation was, for report_io_error(). */
typedef enum ClogIoCause {
    CLOG_IO_OPEN,
    CLOG_IO_READ,
    CLOG_IO_WRITE,
    CLOG_IO_FSYNC,
    CLOG_IO_CLOSE,
} ClogIoCause;

typedef struct ClogIoError {
    ClogIoCause cause;
    int saved_errno; /* 0: a short read */
    uint32 offset;   /* byte offset in the file (reads and writes) */
    char path[CLOG_PATH_MAX];
} ClogIoError;

typedef struct ClogSlot {
    bool valid;        /* holds a page */
    bool dirty;        /* changed since last written */
    ClogPageNo pageno; /* which page, if valid */
    uint64 nchanges;   /* cache-only changes, ever (invariant 3) */
    uint64 last_used;  /* LRU stamp (use_clock at last access) */
    uint8 *page;       /* BLCKSZ bytes */
} ClogSlot;

struct Clog {
    MemoryContext cxt; /* this handle's own context */
    char *dir;         /* "<datadir>/pg_xact" */
    pthread_mutex_t io_lock;
    pthread_mutex_t cache_lock;
    /* ids before it may have been handed out, and the page of each is on
     * disk (invariant 7); pages from it on may not exist yet (changed
     * under both locks, read under either) */
    TransactionId reserved_end;
    uint64 use_clock;                 /* cache_lock */
    ClogSlot slots[CLOG_NUM_BUFFERS]; /* cache_lock (+ io_lock, inv. 1) */
    uint8 *write_buf;    /* io_lock: the page image a durable write sends */
    bool dir_needs_sync; /* io_lock: a segment file was created and the
                          * directory not fsynced since */
    MemoryContextCallback release_callback;
};

/* ----------------------------------------------------------------------
 * Addressing
 * ---------------------------------------------------------------------- */

static inline ClogPageNo
xid_to_page(TransactionId xid)
{
    return xid / CLOG_XACTS_PER_PAGE;
}

static inline uint32
xid_to_byte(TransactionId xid)
{
    return (xid % CLOG_XACTS_PER_PAGE) / CLOG_XACTS_PER_BYTE;
}

static inline uint32
xid_to_bshift(TransactionId xid)
{
    return (xid % CLOG_XACTS_PER_BYTE) * CLOG_BITS_PER_XACT;
}

static inline XidStatus
page_get_status(const uint8 *page, TransactionId xid)
{
    return (page[xid_to_byte(xid)] >> xid_to_bshift(xid)) & CLOG_XACT_BITMASK;
}

static inline void
page_set_status(uint8 *page, TransactionId xid, XidStatus status)
{
    uint8 *byte = &page[xid_to_byte(xid)];
    uint32 shift = xid_to_bshift(xid);

    *byte = (uint8)((*byte & ~(CLOG_XACT_BITMASK << shift)) |
                    ((uint32)status << shift));
}

/* The first normal xid on a page. */
static inline TransactionId
page_first_xid(ClogPageNo pageno)
{
    TransactionId xid = (TransactionId)pageno * CLOG_XACTS_PER_PAGE;

    return xid < FirstNormalTransactionId ? FirstNormalTransactionId : xid;
}

static void
segment_path(const Clog *clog, ClogPageNo pageno, char *buf, Size buflen)
{
    snprintf(buf, buflen, "%s/%04X", clog->dir,
             (unsigned)(pageno / CLOG_PAGES_PER_SEGMENT));
}

static inline off_t
page_offset(ClogPageNo pageno)
{
    return (off_t)(pageno % CLOG_PAGES_PER_SEGMENT) * BLCKSZ;
}

char *
tdb_clog_segment_path(const Clog *clog, TransactionId xid, char *buf,
                      Size buflen)
{
    segment_path(clog, xid_to_page(xid), buf, buflen);
    return buf;
}

/*
 * May a missing or short page read as zeros?  Only if it was never
 * written: no id on it was reserved yet (invariant 7; see clog.h).
 * Caller holds io_lock or cache_lock.
 */
static bool
page_may_be_unwritten(const Clog *clog, ClogPageNo pageno)
{
    return !TransactionIdPrecedes(page_first_xid(pageno), clog->reserved_end);
}

/* The page after pageno, page 0 after the last one (wraparound). */
static inline ClogPageNo
next_page(ClogPageNo pageno)
{
    return pageno == MaxTransactionId / CLOG_XACTS_PER_PAGE ? 0 : pageno + 1;
}

/* ----------------------------------------------------------------------
 * File I/O (never raises; returns -1 and fills *err)
 * ---------------------------------------------------------------------- */

static int
io_fail(ClogIoError *err, ClogIoCause cause, int saved_errno)
{
    err->cause = cause;
    err->saved_errno = saved_errno;
    return -1;
}

/*
 * Read page pageno into buf.  A missing file or a short read is zeros if
 * the page may be unwritten, else an error.  Caller holds both locks.
 */
static int
page_read(Clog *clog, ClogPageNo pageno, uint8 *buf, ClogIoError *err)
{
    off_t offset = page_offset(pageno);
    ssize_t nread;
    int fd;

    segment_path(clog, pageno, err->path, sizeof(err->path));
    err->offset = (uint32)offset;
    fd = tdb_fd_open(err->path, O_RDONLY, 0);
    if (fd < 0) {
        if (errno == ENOENT && page_may_be_unwritten(clog, pageno)) {
            memset(buf, 0, BLCKSZ);
            return 0;
        }
        return io_fail(err, CLOG_IO_OPEN, errno);
    }
    nread = tdb_fd_pread_full(fd, buf, BLCKSZ, offset);
    if (nread < 0) {
        int save_errno = errno;

        (void)tdb_fd_close(fd);
        return io_fail(err, CLOG_IO_READ, save_errno);
    }
    if (nread < BLCKSZ) {
        if (!page_may_be_unwritten(clog, pageno)) {
            (void)tdb_fd_close(fd);
            return io_fail(err, CLOG_IO_READ, 0);
        }
        memset(buf + nread, 0, BLCKSZ - (Size)nread);
    }
    if (tdb_fd_close(fd) != 0)
        return io_fail(err, CLOG_IO_CLOSE, errno);
    return 0;
}

/*
 * Write buf as page pageno, creating the segment file if needed, and
 * with sync fsync it -- and the directory, if a segment file was created
 * since the directory was last fsynced.  Caller holds io_lock.
 */
static int
page_write(Clog *clog, ClogPageNo pageno, const uint8 *buf, bool sync,
           ClogIoError *err)
{
    off_t offset = page_offset(pageno);
    int fd;

    segment_path(clog, pageno, err->path, sizeof(err->path));
    err->offset = (uint32)offset;
    fd = tdb_fd_open(err->path, O_RDWR, 0);
    if (fd < 0 && errno == ENOENT) {
        fd = tdb_fd_open(err->path, O_RDWR | O_CREAT, TDB_FILE_MODE);
        if (fd >= 0)
            clog->dir_needs_sync = true;
    }
    if (fd < 0)
        return io_fail(err, CLOG_IO_OPEN, errno);
    if (tdb_fd_pwrite_full(fd, buf, BLCKSZ, offset) != 0) {
        int save_errno = errno;

        (void)tdb_fd_close(fd);
        return io_fail(err, CLOG_IO_WRITE, save_errno);
    }
    if (sync && tdb_fd_fsync(fd) != 0) {
        int save_errno = errno;

        (void)tdb_fd_close(fd);
        return io_fail(err, CLOG_IO_FSYNC, save_errno);
    }
    if (tdb_fd_close(fd) != 0)
        return io_fail(err, CLOG_IO_CLOSE, errno);
    if (sync && clog->dir_needs_sync) {
        if (tdb_fd_fsync_dir(clog->dir) != 0) {
            snprintf(err->path, sizeof(err->path), "%s", clog->dir);
            return io_fail(err, CLOG_IO_FSYNC, errno);
        }
        clog->dir_needs_sync = false;
    }
    return 0;
}

/*
 * Report a failed file operation about xid at elevel (ERROR raises,
 * WARNING returns), in slru.c's words.
 */
static void
report_io_error(int elevel, TransactionId xid, const ClogIoError *err)
{
    int code = tdb_fd_errcode(err->saved_errno);

    errno = err->saved_errno;
    switch (err->cause) {
    case CLOG_IO_OPEN:
        ereport(elevel, errcode(code),
                errmsg("could not access status of transaction %u", xid),
                errdetail("Could not open file \"%s\": %m.", err->path));
        break;
    case CLOG_IO_READ:
        if (err->saved_errno != 0)
            ereport(elevel, errcode(code),
                    errmsg("could not access status of transaction %u", xid),
                    errdetail("Could not read from file \"%s\" at offset "
                              "%u: %m.",
                              err->path, err->offset));
        else /* PostgreSQL 15 gives no code: XX000 */
            ereport(elevel, errcode(ERRCODE_INTERNAL_ERROR),
                    errmsg("could not access status of transaction %u", xid),
                    errdetail("Could not read from file \"%s\" at offset "
                              "%u: read too few bytes.",
                              err->path, err->offset));
        break;
    case CLOG_IO_WRITE:
        ereport(elevel, errcode(code),
                errmsg("could not access status of transaction %u", xid),
                errdetail("Could not write to file \"%s\" at offset %u: %m.",
                          err->path, err->offset));
        break;
    case CLOG_IO_FSYNC:
        ereport(elevel, errcode(code),
                errmsg("could not access status of transaction %u", xid),
                errdetail("Could not fsync file \"%s\": %m.", err->path));
        break;
    case CLOG_IO_CLOSE:
        ereport(elevel, errcode(code),
                errmsg("could not access status of transaction %u", xid),
                errdetail("Could not close file \"%s\": %m.", err->path));
        break;
    }
}

/* ----------------------------------------------------------------------
 * The page cache
 * ---------------------------------------------------------------------- */

/* The slot holding pageno, or -1.  Caller holds cache_lock. */
static int
slot_find(Clog *clog, ClogPageNo pageno)
{
    for (int i = 0; i < CLOG_NUM_BUFFERS; i++) {
        ClogSlot *slot = &clog->slots[i];

        if (slot->valid && slot->pageno == pageno) {
            slot->last_used = ++clog->use_clock;
            return i;
        }
    }
    return -1;
}

/*
 * Make pageno cached and store its slot in *slotno: found, or loaded into
 * an empty or the least recently used slot (writing that back first if
 * dirty).  With zero, the page's contents are replaced by zeros (marked
 * dirty) instead of being read.  Caller holds both locks.  Returns 0, or
 * -1 with *err filled (the cache is unchanged, except that the victim
 * slot may have become empty).
 */
static int
slot_load(Clog *clog, ClogPageNo pageno, bool zero, int *slotno,
          ClogIoError *err)
{
    ClogSlot *victim = NULL;
    int found = slot_find(clog, pageno);

    if (found >= 0) {
        if (zero) {
            ClogSlot *slot = &clog->slots[found];

            memset(slot->page, 0, BLCKSZ);
            slot->dirty = true;
            slot->nchanges++;
        }
        *slotno = found;
        return 0;
    }

    for (int i = 0; i < CLOG_NUM_BUFFERS; i++) {
        ClogSlot *slot = &clog->slots[i];

        if (!slot->valid) {
            victim = slot;
            break;
        }
        if (victim == NULL || slot->last_used < victim->last_used)
            victim = slot;
    }
    if (victim->valid && victim->dirty) {
        if (page_write(clog, victim->pageno, victim->page, false, err) != 0)
            return -1;
        victim->dirty = false;
    }
    victim->valid = false;
    if (zero)
        memset(victim->page, 0, BLCKSZ);
    else if (page_read(clog, pageno, victim->page, err) != 0)
        return -1;
    victim->valid = true;
    victim->dirty = zero;
    victim->pageno = pageno;
    victim->nchanges = 0;
    victim->last_used = ++clog->use_clock;
    *slotno = (int)(victim - clog->slots);
    return 0;
}

/* ----------------------------------------------------------------------
 * Opening and closing
 * ---------------------------------------------------------------------- */

static void
clog_release(void *arg)
{
    Clog *clog = arg;

    pthread_mutex_destroy(&clog->io_lock);
    pthread_mutex_destroy(&clog->cache_lock);
}

/* Create dir if missing; if created, make its entry durable. */
static void
ensure_directory(const char *datadir, const char *dir)
{
    if (tdb_fd_mkdir(dir, TDB_DIR_MODE) == 0) {
        if (tdb_fd_fsync_dir(datadir) != 0) {
            int save_errno = errno;

            ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                    errmsg("could not fsync file \"%s\": %m", datadir));
        }
    } else if (errno != EEXIST) {
        int save_errno = errno;

        ereport(ERROR, errcode(tdb_fd_errcode(save_errno)),
                errmsg("could not create directory \"%s\": %m", dir));
    }
}

Clog *
tdb_clog_open(DataDir *dd, MemoryContext parent)
{
    const char *datadir = tdb_datadir_path(dd);
    char dir[CLOG_PATH_MAX];
    TransactionId next_xid = tdb_datadir_next_xid(dd);
    MemoryContext cxt;
    Clog *clog;
    uint8 *pages;

    if (strlen(datadir) + sizeof("/" CLOG_DIR "/SSSS") > sizeof(dir))
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("data directory path \"%s\" is too long", datadir));
    snprintf(dir, sizeof(dir), "%s/%s", datadir, CLOG_DIR);
    /* once ids were handed out, a missing pg_xact is damage to report
     * (below), not a directory to make */
    if (next_xid == FirstNormalTransactionId)
        ensure_directory(datadir, dir);

    cxt = tdb_aset_create(parent != NULL ? parent : tdb_current_mcxt, "Clog",
                          ALLOCSET_SMALL_SIZES);
    clog = tdb_mcxt_alloc_zero(cxt, sizeof(*clog));
    clog->cxt = cxt;
    clog->dir = tdb_mcxt_strdup(cxt, dir);
    pages = tdb_mcxt_alloc_zero(cxt, (Size)CLOG_NUM_BUFFERS * BLCKSZ);
    for (int i = 0; i < CLOG_NUM_BUFFERS; i++)
        clog->slots[i].page = pages + (Size)i * BLCKSZ;
    clog->write_buf = tdb_mcxt_alloc_zero(cxt, BLCKSZ);

    /* ids below the control file's next xid may have been handed out:
     * their pages were written before it said so (invariant 7) */
    clog->reserved_end = next_xid;

    pthread_mutex_init(&clog->io_lock, NULL);
    pthread_mutex_init(&clog->cache_lock, NULL);
    clog->release_callback.func = clog_release;
    clog->release_callback.arg = clog;
    tdb_mcxt_register_reset_callback(cxt, &clog->release_callback);

    /*
     * Read the page of the newest id that may have been handed out, as
     * PostgreSQL reads the current page at startup: a deleted or cut
     * pg_xact makes the open fail, instead of every transaction reading
     * as aborted -- committed rows, and the catalog's, vanishing.
     */
    if (next_xid != FirstNormalTransactionId) {
        TransactionId newest = next_xid;

        TransactionIdRetreat(&newest);
        TDB_TRY();
        {
            (void)tdb_clog_get_status(clog, newest);
        }
        TDB_CATCH();
        {
            tdb_mcxt_delete(cxt);
            TDB_RE_THROW();
        }
        TDB_END_TRY();
    }
    return clog;
}

void
tdb_clog_flush(Clog *clog)
{
    ClogIoError err;
    ClogPageNo pageno = 0;
    int rc = 0;

    pthread_mutex_lock(&clog->io_lock);
    for (int i = 0; i < CLOG_NUM_BUFFERS && rc == 0; i++) {
        ClogSlot *slot = &clog->slots[i];
        uint64 seen;

        pthread_mutex_lock(&clog->cache_lock);
        if (!slot->valid || !slot->dirty) {
            pthread_mutex_unlock(&clog->cache_lock);
            continue;
        }
        memcpy(clog->write_buf, slot->page, BLCKSZ);
        seen = slot->nchanges;
        pageno = slot->pageno;
        pthread_mutex_unlock(&clog->cache_lock);

        rc = page_write(clog, pageno, clog->write_buf, true, &err);
        if (rc == 0) {
            pthread_mutex_lock(&clog->cache_lock);
            if (slot->nchanges == seen)
                slot->dirty = false;
            pthread_mutex_unlock(&clog->cache_lock);
        }
    }
    /* a segment created by an eviction's write: make its entry durable */
    if (rc == 0 && clog->dir_needs_sync) {
        if (tdb_fd_fsync_dir(clog->dir) == 0)
            clog->dir_needs_sync = false;
        else {
            snprintf(err.path, sizeof(err.path), "%s", clog->dir);
            rc = io_fail(&err, CLOG_IO_FSYNC, errno);
        }
    }
    pthread_mutex_unlock(&clog->io_lock);
    if (rc != 0)
        report_io_error(ERROR, page_first_xid(pageno), &err);
}

void
tdb_clog_close(Clog *clog)
{
    tdb_clog_flush(clog);
    tdb_mcxt_delete(clog->cxt);
}

/* ----------------------------------------------------------------------
 * Reading and recording statuses
 * ---------------------------------------------------------------------- */

static void
check_status_args(TransactionId xid, XidStatus status)
{
    if (!TransactionIdIsNormal(xid))
        elog(ERROR, "cannot set the status of special transaction ID %u", xid);
    if (status != TRANSACTION_STATUS_IN_PROGRESS &&
        status != TRANSACTION_STATUS_COMMITTED &&
        status != TRANSACTION_STATUS_ABORTED &&
        status != TRANSACTION_STATUS_SUB_COMMITTED)
        elog(ERROR, "invalid transaction status %d", status);
}

/* The cached copy of pageno, if any, now holds zeros as the file does
 * (caller holds both locks). */
static void
slot_zero_clean(Clog *clog, ClogPageNo pageno)
{
    int slotno = slot_find(clog, pageno);

    if (slotno >= 0) {
        ClogSlot *slot = &clog->slots[slotno];

        memset(slot->page, 0, BLCKSZ);
        slot->dirty = false;
        slot->nchanges++;
    }
}

void
tdb_clog_reserve(Clog *clog, TransactionId end)
{
    ClogIoError err;
    ClogPageNo pageno;
    TransactionId first = InvalidTransactionId;
    int rc = 0;

    if (!TransactionIdIsNormal(end))
        elog(ERROR, "cannot reserve the commit log up to special ID %u", end);
    pthread_mutex_lock(&clog->io_lock);
    if (!TransactionIdFollows(end, clog->reserved_end)) {
        pthread_mutex_unlock(&clog->io_lock);
        return;
    }
    /* reserved_end's own page exists already unless it starts there */
    pageno = xid_to_page(clog->reserved_end);
    if (page_first_xid(pageno) != clog->reserved_end)
        pageno = next_page(pageno);
    memset(clog->write_buf, 0, BLCKSZ);
    for (;;) {
        ClogPageNo next = next_page(pageno);
        bool last;

        first = page_first_xid(pageno);
        if (!TransactionIdPrecedes(first, end))
            break;
        /* one fsync per segment file, after its last page */
        last = next % CLOG_PAGES_PER_SEGMENT == 0 ||
               !TransactionIdPrecedes(page_first_xid(next), end);
        rc = page_write(clog, pageno, clog->write_buf, last, &err);
        if (rc != 0)
            break;
        pthread_mutex_lock(&clog->cache_lock);
        slot_zero_clean(clog, pageno);
        pthread_mutex_unlock(&clog->cache_lock);
        pageno = next;
    }
    if (rc == 0) {
        pthread_mutex_lock(&clog->cache_lock);
        clog->reserved_end = end;
        pthread_mutex_unlock(&clog->cache_lock);
    }
    pthread_mutex_unlock(&clog->io_lock);
    if (rc != 0)
        report_io_error(ERROR, first, &err);
}

void
tdb_clog_extend(Clog *clog, TransactionId xid)
{
    ClogPageNo pageno = xid_to_page(xid);
    bool first_on_page = xid == page_first_xid(pageno);
    TransactionId end = xid;
    ClogIoError err;
    int slotno;
    int rc;

    if (!TransactionIdIsNormal(xid))
        elog(ERROR,
             "cannot extend the commit log to special transaction "
             "ID %u",
             xid);
    /* the transaction manager reserved xid already; other callers
     * (tests) get its page made here */
    TransactionIdAdvance(&end);
    tdb_clog_reserve(clog, end);
    pthread_mutex_lock(&clog->io_lock);
    pthread_mutex_lock(&clog->cache_lock);
    rc = slot_load(clog, pageno, first_on_page, &slotno, &err);
    pthread_mutex_unlock(&clog->cache_lock);
    pthread_mutex_unlock(&clog->io_lock);
    if (rc != 0)
        report_io_error(ERROR, xid, &err);
}

XidStatus
tdb_clog_get_status(Clog *clog, TransactionId xid)
{
    ClogPageNo pageno = xid_to_page(xid);
    XidStatus status = TRANSACTION_STATUS_IN_PROGRESS;
    ClogIoError err;
    int slotno;
    int rc;

    pthread_mutex_lock(&clog->cache_lock);
    slotno = slot_find(clog, pageno);
    if (slotno >= 0) {
        status = page_get_status(clog->slots[slotno].page, xid);
        pthread_mutex_unlock(&clog->cache_lock);
        return status;
    }
    pthread_mutex_unlock(&clog->cache_lock);

    pthread_mutex_lock(&clog->io_lock);
    pthread_mutex_lock(&clog->cache_lock);
    rc = slot_load(clog, pageno, false, &slotno, &err);
    if (rc == 0)
        status = page_get_status(clog->slots[slotno].page, xid);
    pthread_mutex_unlock(&clog->cache_lock);
    pthread_mutex_unlock(&clog->io_lock);
    if (rc != 0)
        report_io_error(ERROR, xid, &err);
    return status;
}

/* Change xid's status in the cached page of slotno (cache_lock held). */
static void
slot_set_status(Clog *clog, int slotno, TransactionId xid, XidStatus status)
{
    ClogSlot *slot = &clog->slots[slotno];

    page_set_status(slot->page, xid, status);
    slot->dirty = true;
    slot->nchanges++;
}

void
tdb_clog_set_status(Clog *clog, TransactionId xid, XidStatus status)
{
    ClogPageNo pageno = xid_to_page(xid);
    ClogIoError err;
    int slotno;
    int rc;

    check_status_args(xid, status);
    pthread_mutex_lock(&clog->cache_lock);
    slotno = slot_find(clog, pageno);
    if (slotno >= 0) {
        slot_set_status(clog, slotno, xid, status);
        pthread_mutex_unlock(&clog->cache_lock);
        return;
    }
    pthread_mutex_unlock(&clog->cache_lock);

    pthread_mutex_lock(&clog->io_lock);
    pthread_mutex_lock(&clog->cache_lock);
    rc = slot_load(clog, pageno, false, &slotno, &err);
    if (rc == 0)
        slot_set_status(clog, slotno, xid, status);
    pthread_mutex_unlock(&clog->cache_lock);
    pthread_mutex_unlock(&clog->io_lock);
    if (rc != 0)
        report_io_error(ERROR, xid, &err);
}

/*
 * The durable write behind set_status_durable and set_status_noerror:
 * load xid's page; with apply_first, change the cached status at once
 * (cache-only change), else only in the copy; write and fsync the copy;
 * then apply the status to the cache (if not done) and mark the page
 * clean if nothing else changed it meanwhile.  Returns 0, or -1 with
 * *err filled.  Takes and releases both locks.
 */
static int
set_status_and_sync(Clog *clog, TransactionId xid, XidStatus status,
                    bool apply_first, ClogIoError *err)
{
    ClogPageNo pageno = xid_to_page(xid);
    ClogSlot *slot;
    uint64 seen;
    int slotno;
    int rc;

    pthread_mutex_lock(&clog->io_lock);
    pthread_mutex_lock(&clog->cache_lock);
    rc = slot_load(clog, pageno, false, &slotno, err);
    if (rc != 0) {
        pthread_mutex_unlock(&clog->cache_lock);
        pthread_mutex_unlock(&clog->io_lock);
        return rc;
    }
    slot = &clog->slots[slotno];
    if (apply_first)
        slot_set_status(clog, slotno, xid, status);
    memcpy(clog->write_buf, slot->page, BLCKSZ);
    page_set_status(clog->write_buf, xid, status);
    seen = slot->nchanges;
    pthread_mutex_unlock(&clog->cache_lock);

    /* invariant 1: slot still holds pageno while we hold io_lock */
    rc = page_write(clog, pageno, clog->write_buf, true, err);
    if (rc == 0) {
        pthread_mutex_lock(&clog->cache_lock);
        Assert(slot->valid && slot->pageno == pageno);
        page_set_status(slot->page, xid, status);
        if (slot->nchanges == seen)
            slot->dirty = false;
        pthread_mutex_unlock(&clog->cache_lock);
    }
    pthread_mutex_unlock(&clog->io_lock);
    return rc;
}

void
tdb_clog_set_status_durable(Clog *clog, TransactionId xid, XidStatus status)
{
    ClogIoError err;

    check_status_args(xid, status);
    if (set_status_and_sync(clog, xid, status, false, &err) != 0)
        report_io_error(ERROR, xid, &err);
}

bool
tdb_clog_set_status_noerror(Clog *clog, TransactionId xid, XidStatus status,
                            bool durable)
{
    ClogIoError err;
    int rc;

    Assert(TransactionIdIsNormal(xid));
    if (durable)
        rc = set_status_and_sync(clog, xid, status, true, &err);
    else {
        int slotno;

        pthread_mutex_lock(&clog->io_lock);
        pthread_mutex_lock(&clog->cache_lock);
        rc = slot_load(clog, xid_to_page(xid), false, &slotno, &err);
        if (rc == 0)
            slot_set_status(clog, slotno, xid, status);
        pthread_mutex_unlock(&clog->cache_lock);
        pthread_mutex_unlock(&clog->io_lock);
    }
    if (rc != 0) {
        report_io_error(WARNING, xid, &err);
        return false;
    }
    return true;
}
