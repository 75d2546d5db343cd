/*
 * datadir.h -- a tupledb data directory: creating and opening it, the
 * lock that keeps a second opener out, and the control file.
 *
 *     <datadir>/TDB_VERSION        "1\n": the directory format version
 *     <datadir>/global/tdb_control  ControlFileData (below), CRC-32C'd
 *     <datadir>/base/               relation files (smgr.h)
 *     <datadir>/base/pgsql_tmp/     temporary files (tempfile.h); emptied
 *                                   by every open
 *     <datadir>/tupledb.pid         lock file: flock'ed by the opener,
 *                                   holds its pid; removed on clean close
 *
 * Opening takes an exclusive flock on tupledb.pid for the lifetime of the
 * handle, so a second open -- by another process, or by this one through
 * another handle -- fails with ERRCODE_LOCK_NOT_AVAILABLE:
 *     data directory "P" is in use by process N
 * The kernel drops the lock if the process dies, so a crash never leaves
 * the directory locked; the control file then still says "in production"
 * and the next open reports an unclean shutdown
 * (tdb_datadir_was_shut_down_cleanly), which is where WAL recovery will
 * hook in.
 *
 * Every change to TDB_VERSION and the control file is crash-safe: the new
 * contents go to a temporary file, which is fsync'ed, renamed over the old
 * one, and the directory fsync'ed -- a crash leaves the old or the new
 * file, never a mix.
 *
 * Errors (ereport(ERROR)) on open:
 *   missing directory        58P01  data directory "P" does not exist
 *   no TDB_VERSION           58P01  "P" is not a valid data directory
 *                                   (detail: File "P/TDB_VERSION" is missing.)
 *   unreadable TDB_VERSION   55000  "P" is not a valid data directory
 *   other version            55000  database files are incompatible with
 *                                   this build (detail names both versions)
 *   locked                   55P03  data directory "P" is in use by process N
 *   bad control file         XX001  incorrect checksum in control file "F",
 *                                   or wrong size / magic
 *   other BLCKSZ/RELSEG_SIZE 55000  database files are incompatible ...
 *
 * Threads: a DataDir may be shared by threads; the control data and its
 * file are protected by a mutex inside the handle.  Opening and closing
 * are not concurrent with any other call on the same handle.
 */
#ifndef TDB_STORAGE_DATADIR_H
#define TDB_STORAGE_DATADIR_H

#include "common/base.h"
#include "mmgr/mcxt.h"
#include "storage/block.h"
#include "tuple/heaptuple.h" /* TransactionId */

typedef struct DataDir DataDir;

/* The data directory format this build reads and writes (TDB_VERSION). */
#define TDB_DATADIR_VERSION 1

/* ----- the control file, global/tdb_control ----- */

#define TDB_CONTROL_MAGIC UINT64_C(0x4C5254434244540A) /* "\nTDBCTRL" */
#define TDB_CONTROL_VERSION 1

/* The first transaction id handed out (PostgreSQL's
 * FirstNormalTransactionId: 0-2 are invalid, bootstrap and frozen). */
#define CONTROL_FIRST_NORMAL_XID ((TransactionId)3)

/* ControlFileData.state */
typedef enum ControlDbState {
    CONTROL_DB_SHUT_DOWN = 1,     /* closed cleanly */
    CONTROL_DB_IN_PRODUCTION = 2, /* open (or its opener crashed) */
} ControlDbState;

/*
 * The control file's bytes, little-endian, no padding (80 bytes).  The
 * first three fields never move, so any future build can recognise the
 * file and its version before trusting the rest.
 *
 *   off size field
 *    0   8   magic               TDB_CONTROL_MAGIC
 *    8   4   control_version     TDB_CONTROL_VERSION
 *   12   4   blcksz              BLCKSZ of the creating build
 *   16   4   relseg_size         RELSEG_SIZE of the creating build
 *   20   4   state               ControlDbState
 *   24   8   system_identifier   unique per directory (creation time, pid)
 *   32   8   time                last update, seconds since the epoch
 *   40   4   next_xid            next transaction id to hand out
 *   44   4   next_relfilenumber  next relation file number to hand out
 *   48   8   checkpoint_lsn      \
 *   56   8   redo_lsn             | placeholders for the WAL work:
 *   64   8   checkpoint_time      | zero until checkpoints exist
 *   72   4   timeline_id         /
 *   76   4   crc                 CRC-32C of bytes 0..75
 */
typedef struct ControlFileData {
    uint64 magic;
    uint32 control_version;
    uint32 blcksz;
    uint32 relseg_size;
    uint32 state;
    uint64 system_identifier;
    int64 time;
    TransactionId next_xid;
    RelFileNumber next_relfilenumber;
    uint64 checkpoint_lsn;
    uint64 redo_lsn;
    int64 checkpoint_time;
    uint32 timeline_id;
    uint32 crc;
} ControlFileData;

_Static_assert(sizeof(ControlFileData) == 80, "control file is 80 bytes");
_Static_assert(offsetof(ControlFileData, crc) == 76, "crc is last");

/* ----- creating, opening, closing ----- */

/*
 * Initialize a new data directory at path -- which must not exist or be
 * an empty directory (ERRCODE_DUPLICATE_FILE otherwise) -- and open it.
 * The counters start at CONTROL_FIRST_NORMAL_XID and
 * FirstNormalRelFileNumber.  TDB_VERSION is written last, so a crash
 * part-way leaves a directory that open rejects as not a valid data
 * directory.  The handle lives in a new child context of parent (NULL:
 * the current context).
 */
DataDir *tdb_datadir_create(MemoryContext parent, const char *path);

/*
 * Open an existing data directory: check TDB_VERSION, take the lock,
 * validate the control file, remove the temporary files a crashed
 * opener left in base/pgsql_tmp (each one that cannot be removed is a
 * WARNING, not an error) and mark the control file "in production".  Raises the
 * errors listed at the top; a failed open holds no lock and leaves
 * nothing allocated.  The handle lives in a new child context of parent
 * (NULL: the current context).
 */
DataDir *tdb_datadir_open(MemoryContext parent, const char *path);

/* Open path if it holds a data directory; create one if path does not
 * exist or is an empty directory. */
DataDir *tdb_datadir_open_or_create(MemoryContext parent, const char *path);

/*
 * Mark the control file "shut down", remove tupledb.pid, release the lock
 * and free the handle.  If writing the control file fails, the error is
 * raised and the handle stays open (retry, or delete its context to
 * abandon it as a crash would).  Deleting the handle's parent context
 * without closing releases the lock but leaves the shutdown unclean.
 */
void tdb_datadir_close(DataDir *dd);

/* ----- reading and updating ----- */

/* The directory path as given to create/open (borrowed). */
const char *tdb_datadir_path(const DataDir *dd);

/* "<path>/base/pgsql_tmp", where the statements on this directory put
 * their temporary files (borrowed; tempfile.h). */
const char *tdb_datadir_temp_dir(const DataDir *dd);

/* Whether the previous opener closed the directory cleanly (true for a
 * directory created by this handle). */
bool tdb_datadir_was_shut_down_cleanly(const DataDir *dd);

/* A copy of the control data as last written. */
void tdb_datadir_get_control(DataDir *dd, ControlFileData *control);

/* The next transaction id to hand out. */
TransactionId tdb_datadir_next_xid(DataDir *dd);

/*
 * Durably set the next transaction id (write, fsync, rename, fsync: a few
 * milliseconds).  The transaction layer reserves xids in ranges: it
 * advances this past a whole range, then hands the range out from memory.
 * On error the stored value is unchanged.
 */
void tdb_datadir_set_next_xid(DataDir *dd, TransactionId next_xid);

/* The next relation file number that will be handed out. */
RelFileNumber tdb_datadir_next_relfilenumber(DataDir *dd);

/*
 * Hand out a new relation file number: the counter is advanced and made
 * durable before the number is returned, so no number is returned twice,
 * even across a crash.  Wraps from 0xFFFFFFFF to FirstNormalRelFileNumber.
 */
RelFileNumber tdb_datadir_alloc_relfilenumber(DataDir *dd);

#endif /* TDB_STORAGE_DATADIR_H */
