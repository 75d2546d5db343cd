/*
 * clog.h -- the commit log: two status bits per transaction id, in
 * PostgreSQL's pg_xact layout, cached in memory and written back to
 * <datadir>/pg_xact/.
 *
 * On disk (identical to PostgreSQL's pg_xact):
 *
 *   <datadir>/pg_xact/SSSS    segment SSSS (4 upper-case hex digits):
 *                             32 pages of 8 KB, 1,048,576 xids
 *   page p of the log         = page p % 32 of segment p / 32, at byte
 *                               offset (p % 32) * 8192
 *   xid x                     = page x / 32768, byte (x % 32768) / 4,
 *                               bits 2 * (x % 4) .. 2 * (x % 4) + 1
 *
 * so one byte holds four xids, the lowest xid in the lowest bits.  The
 * log covers the whole 32-bit xid space in 131072 pages (segments 0000 to
 * 0FFF); after wraparound the first pages are reused (and zeroed first).
 * A zero status is IN_PROGRESS.  (Checked against a pg_xact file written
 * by PostgreSQL 15: its commits and rollbacks read back as such.)
 *
 * Durability: tdb_clog_set_status_durable writes the page and fsyncs it
 * before the new status becomes visible in memory, so a status reported
 * COMMITTED is always on disk (until the WAL exists, this is how a commit
 * is made durable).  Other status changes are cached and reach disk when
 * the page is evicted, written by a later durable change, or flushed at
 * close; losing one in a crash is harmless, because an id the log still
 * calls IN_PROGRESS after a restart is treated as aborted.
 *
 * Missing pages: a page is written -- zeroed, and fsynced -- before any
 * of its ids may be handed out (tdb_clog_reserve, which the transaction
 * manager calls before its control file lets a range of ids out; at open
 * the control file's next xid is where the reserved ids end).  So every
 * id that may have been handed out has its page on disk, committed or
 * not, crash or no crash, and a missing or short page for such an id
 * means the log was damaged: asking about it is an error, as in
 * PostgreSQL -- a deleted pg_xact never makes committed rows (or the
 * catalog) read as aborted.  Only pages whose first id was never
 * reserved (none of their ids ever handed out) read as zeros when
 * missing.  Opening reads the page of the newest id that may have been
 * handed out, as PostgreSQL does at startup, so a deleted or truncated
 * current segment makes the open fail.  (A directory last closed by a
 * crash under an older build, which wrote a page only when something on
 * it committed or it was flushed, may lack the page of ids handed out
 * just before that crash; asking about them is then an error too.)
 *
 * Errors are PostgreSQL's slru.c messages:
 *     could not access status of transaction N
 *     DETAIL: Could not open file "P": %m.
 *             Could not read from file "P" at offset O: %m.
 *             Could not read from file "P" at offset O: read too few bytes.
 *             Could not write to file "P" at offset O: %m.
 *             Could not fsync file "P": %m.
 *             Could not close file "P": %m.
 * with the errno's SQLSTATE (tdb_fd_errcode: a missing file is 58P01),
 * and for a short read XX000, as PostgreSQL 15 gives (no code).  All file
 * access goes through storage/fd.h, so the tests' fault injection
 * applies.
 *
 * Threads: a Clog is shared by every session of its data directory.  A
 * small page cache (CLOG_NUM_BUFFERS pages, least recently used evicted)
 * sits under a mutex; reading a cached status takes only that mutex.  A
 * second mutex serializes file I/O; a durable write holds it but not the
 * cache mutex across its write and fsync, so readers of cached pages
 * never wait for a commit's fsync.  Functions that raise release both
 * first.  Nothing allocates after open.
 */
#ifndef TDB_ACCESS_CLOG_H
#define TDB_ACCESS_CLOG_H

#include "common/base.h"
#include "mmgr/mcxt.h"
#include "storage/block.h"
#include "storage/datadir.h"
#include "access/transam.h"

/* Transaction status, two bits (PostgreSQL's values). */
typedef int XidStatus;
#define TRANSACTION_STATUS_IN_PROGRESS 0x00
#define TRANSACTION_STATUS_COMMITTED 0x01
#define TRANSACTION_STATUS_ABORTED 0x02
#define TRANSACTION_STATUS_SUB_COMMITTED 0x03 /* never written by tupledb */

#define CLOG_BITS_PER_XACT 2
#define CLOG_XACTS_PER_BYTE 4
#define CLOG_XACTS_PER_PAGE (BLCKSZ * CLOG_XACTS_PER_BYTE) /* 32768 */
#define CLOG_PAGES_PER_SEGMENT 32
#define CLOG_XACTS_PER_SEGMENT                                                 \
    ((uint32)CLOG_XACTS_PER_PAGE * CLOG_PAGES_PER_SEGMENT) /* 1048576 */
#define CLOG_DIR "pg_xact"

/* Pages the in-memory cache holds (each BLCKSZ bytes). */
#define CLOG_NUM_BUFFERS 16

/*
 * Open the commit log of dd: create <datadir>/pg_xact if it is missing
 * and no id was handed out yet (and fsync the data directory), allocate
 * the page cache in a new child context of parent (NULL: the current
 * context).  The ids below the control file's next xid are taken as
 * possibly handed out, their pages as written (see the top of this
 * file); the page of the newest of them is read, so a missing or short
 * one raises "could not access status of transaction N".  Raises on I/O
 * errors.
 */
Clog *tdb_clog_open(DataDir *dd, MemoryContext parent);

/*
 * Write back every changed page, fsync, and free the handle.  If that
 * fails the error is raised and the handle stays open (retry, or delete
 * its parent context to abandon it as a crash would: no page is written
 * then).
 */
void tdb_clog_close(Clog *clog);

/*
 * Write back every changed page and fsync each, and pg_xact itself if a
 * segment file was created since it was last fsynced (a checkpoint of the
 * log).  Raises on I/O errors; pages not written stay marked changed.
 */
void tdb_clog_flush(Clog *clog);

/*
 * Let ids up to end (exclusive, normal) be handed out: write every page
 * whose first id lies between the ids reserved so far and end, zeroed
 * (also a page reused after wraparound), fsync it and, for a new segment
 * file, pg_xact; cached copies of those pages become zeros too.  Nothing
 * to do if end is reserved already.  The transaction manager calls this
 * before its control file says ids up to end may have been handed out.
 * Raises on I/O errors (reserving nothing new then).
 */
void tdb_clog_reserve(Clog *clog, TransactionId end);

/*
 * Prepare the log for handing out xid (normal): reserve it
 * (tdb_clog_reserve) if that was not done, and bring its page into the
 * cache -- zeroed when xid is the first id of its page, else from disk.
 * The transaction manager calls this before handing out each id.  Raises
 * on I/O errors.
 */
void tdb_clog_extend(Clog *clog, TransactionId xid);

/*
 * The status of xid as the log records it.  The special ids are not
 * interpreted (see tdb_transam_did_commit for that).  Raises on I/O
 * errors (reading a page, or writing back the page it evicts).
 */
XidStatus tdb_clog_get_status(Clog *clog, TransactionId xid);

/*
 * Record status for the normal id xid, in the cache only: the page is
 * written back later.  Raises on I/O errors while loading the page.
 */
void tdb_clog_set_status(Clog *clog, TransactionId xid, XidStatus status);

/*
 * Record status for xid durably: the page, with the new status, is
 * written and fsynced before the status changes in memory.  If the write
 * or fsync fails, the error is raised and the cache still holds the old
 * status -- but the file may hold the new one (a write can succeed before
 * its fsync fails), so the caller must record a different status for xid
 * afterwards (the transaction manager records ABORTED durably).
 */
void tdb_clog_set_status_durable(Clog *clog, TransactionId xid,
                                 XidStatus status);

/*
 * For error recovery: record status for xid (durably if durable) and
 * never raise.  On an I/O failure the report is emitted as a WARNING and
 * false is returned; a cache-only change that could not load its page is
 * then lost, a durable one stays cached and reaches disk with the page's
 * next write.
 */
bool tdb_clog_set_status_noerror(Clog *clog, TransactionId xid,
                                 XidStatus status, bool durable);

/* The path of the segment file holding xid, into buf (for tests and
 * messages).  Returns buf. */
char *tdb_clog_segment_path(const Clog *clog, TransactionId xid, char *buf,
                            Size buflen);

#endif /* TDB_ACCESS_CLOG_H */
