/*
 * test_datadir.c -- creating, opening, locking and closing data
 * directories; the control file and its corruption; injected I/O faults.
 *
 *   test_create_layout          the files create makes and their bytes;
 *       close marks a clean shutdown and removes tupledb.pid
 *   test_create_refuses         a non-empty directory; an empty one is fine
 *   test_open_or_create         creates when missing or empty, else opens
 *   test_counters_persist       relfilenumbers and next xid survive close
 *       and reopen, and an abandoned (crashed) handle
 *   test_unclean_shutdown       a handle dropped without close leaves the
 *       directory unlocked and flagged unclean
 *   test_second_open_same_process  55P03 naming our pid; the first handle
 *       is unaffected, its lock file untouched; a failed open holds no
 *       memory
 *   test_second_open_child_process  a forked child cannot open what the
 *       parent holds
 *   test_open_while_child_holds  nor the parent what a child holds, until
 *       it closes
 *   test_child_killed           a holder killed with SIGKILL leaves the
 *       directory openable and flagged unclean
 *   test_not_a_database         missing path, a file, an empty or foreign
 *       directory, garbage in TDB_VERSION
 *   test_newer_version          TDB_VERSION 2: incompatible, nothing locked
 *   test_control_flipped_bytes  one bit flipped in each byte of the control
 *       file: always detected (CRC, magic, version), never opened
 *   test_control_damaged        truncated, overlong, missing, unknown
 *       state, other RELSEG_SIZE
 *   test_create_fault_loop      fail each file operation of create in
 *       turn: a clean error and no directory left behind
 *   test_open_fault_loop        the same for open: a clean error, the
 *       directory still openable, no temp file left
 *   test_update_faults          a failed counter update changes nothing
 */
#include "common/base.h"

#include <signal.h>

#include "common/crc32c.h"
#include "storage/datadir.h"
#include "storage/fd.h"
#include "storage_test.h"

/* A path for a new data directory inside a fresh temporary directory. */
static const char *
new_db_path(void)
{
    return test_path(test_tmpdir(), "db");
}

static char *
control_path(const char *db)
{
    return test_path(db, "global/tdb_control");
}

/* Read the control file's raw bytes; returns the byte count. */
static long
read_control(const char *db, ControlFileData *control)
{
    memset(control, 0, sizeof(*control));
    return read_raw_file(control_path(db), control, sizeof(*control));
}

/* Store control with a correct CRC, bypassing datadir.c. */
static void
write_control(const char *db, ControlFileData *control)
{
    control->crc = tdb_crc32c(control, offsetof(ControlFileData, crc));
    write_raw_file(control_path(db), control, sizeof(*control));
}

/* The pid in tupledb.pid, 0 if there is none. */
static int
lock_file_pid(const char *db)
{
    char text[32];
    long n =
        read_raw_file(test_path(db, "tupledb.pid"), text, sizeof(text) - 1);

    if (n <= 0)
        return 0;
    text[n] = '\0';
    return atoi(text);
}

/* Create a directory and close it again. */
static void
create_closed(const char *db)
{
    tdb_datadir_close(tdb_datadir_create(NULL, db));
}

/* The message of the lock error for db held by pid. */
static char *
in_use_message(const char *db, int pid)
{
    char *msg = tdb_palloc(strlen(db) + 64);

    sprintf(msg, "data directory \"%s\" is in use by process %d", db, pid);
    return msg;
}

/*
 * Opening db must fail with sqlstate and a message containing substr
 * (NULL: any).  A function, so that loops calling it keep their variables
 * out of the setjmp's way.
 */
static void
expect_open_fails(const char *db, int sqlstate, const char *substr)
{
    expect_error(tdb_datadir_open(NULL, db), sqlstate, substr);
}

TEST_BEGIN(test_create_layout)
{
    const char *db = new_db_path();
    DataDir *dd = tdb_datadir_create(NULL, db);
    ControlFileData control;
    char text[16] = {0};

    expect_str_eq(tdb_datadir_path(dd), db);
    expect_true(tdb_datadir_was_shut_down_cleanly(dd));
    expect_u64_eq(tdb_datadir_next_xid(dd), CONTROL_FIRST_NORMAL_XID);
    expect_u64_eq(tdb_datadir_next_relfilenumber(dd), FirstNormalRelFileNumber);

    expect_int_eq(
        read_raw_file(test_path(db, "TDB_VERSION"), text, sizeof(text) - 1), 2);
    expect_str_eq(text, "1\n");
    expect_true(file_exists(test_path(db, "base")));
    expect_int_eq(lock_file_pid(db), getpid());
    expect_false(file_exists(test_path(db, "TDB_VERSION.tmp")));
    expect_false(file_exists(test_path(db, "global/tdb_control.tmp")));

    /* the control file on disk while open */
    expect_int_eq(read_control(db, &control), sizeof(control));
    expect_u64_eq(control.magic, TDB_CONTROL_MAGIC);
    expect_true(memcmp(&control, "\nTDBCTRL", 8) == 0);
    expect_u64_eq(control.control_version, TDB_CONTROL_VERSION);
    expect_u64_eq(control.blcksz, BLCKSZ);
    expect_u64_eq(control.relseg_size, RELSEG_SIZE);
    expect_u64_eq(control.state, CONTROL_DB_IN_PRODUCTION);
    expect_u64_ne(control.system_identifier, 0);
    expect_u64_eq(control.next_xid, CONTROL_FIRST_NORMAL_XID);
    expect_u64_eq(control.next_relfilenumber, FirstNormalRelFileNumber);
    expect_u64_eq(control.checkpoint_lsn, 0);
    expect_u64_eq(control.crc,
                  tdb_crc32c(&control, offsetof(ControlFileData, crc)));

    tdb_datadir_close(dd);
    expect_false(file_exists(test_path(db, "tupledb.pid")));
    expect_int_eq(read_control(db, &control), sizeof(control));
    expect_u64_eq(control.state, CONTROL_DB_SHUT_DOWN);
    expect_u64_eq(control.crc,
                  tdb_crc32c(&control, offsetof(ControlFileData, crc)));

    /* reopen: clean, and "in production" on disk again */
    dd = tdb_datadir_open(NULL, db);
    expect_true(tdb_datadir_was_shut_down_cleanly(dd));
    read_control(db, &control);
    expect_u64_eq(control.state, CONTROL_DB_IN_PRODUCTION);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_create_refuses)
{
    const char *dir = test_tmpdir();
    char *empty = test_path(dir, "empty");
    char *full = test_path(dir, "full");

    expect_int_eq(tdb_fd_mkdir(full, TDB_DIR_MODE), 0);
    write_text_file(test_path(full, "precious"), "data");
    expect_error(tdb_datadir_create(NULL, full), ERRCODE_DUPLICATE_FILE,
                 "exists but is not empty");
    expect_int_eq(file_size(test_path(full, "precious")), 4);
    expect_false(file_exists(test_path(full, "tupledb.pid")));

    expect_int_eq(tdb_fd_mkdir(empty, TDB_DIR_MODE), 0);
    create_closed(empty);
    tdb_datadir_close(tdb_datadir_open(NULL, empty));

    /* an existing data directory is not empty either */
    expect_error(tdb_datadir_create(NULL, empty), ERRCODE_DUPLICATE_FILE,
                 "exists but is not empty");
    tdb_datadir_close(tdb_datadir_open(NULL, empty));
}
TEST_END

TEST_BEGIN(test_open_or_create)
{
    const char *dir = test_tmpdir();
    char *db = test_path(dir, "db");
    DataDir *dd = tdb_datadir_open_or_create(NULL, db); /* missing */
    RelFileNumber rel = tdb_datadir_alloc_relfilenumber(dd);

    tdb_datadir_close(dd);
    dd = tdb_datadir_open_or_create(NULL, db); /* existing */
    expect_u64_eq(tdb_datadir_next_relfilenumber(dd), rel + 1);
    tdb_datadir_close(dd);

    expect_int_eq(tdb_fd_mkdir(test_path(dir, "empty"), TDB_DIR_MODE), 0);
    dd = tdb_datadir_open_or_create(NULL, test_path(dir, "empty"));
    expect_true(file_exists(test_path(dir, "empty/TDB_VERSION")));
    tdb_datadir_close(dd);

    expect_int_eq(tdb_fd_mkdir(test_path(dir, "other"), TDB_DIR_MODE), 0);
    write_text_file(test_path(dir, "other/x"), "x");
    expect_error(tdb_datadir_open_or_create(NULL, test_path(dir, "other")),
                 ERRCODE_UNDEFINED_FILE, "is not a valid data directory");
}
TEST_END

TEST_BEGIN(test_counters_persist)
{
    const char *db = new_db_path();
    DataDir *dd = tdb_datadir_create(NULL, db);
    MemoryContext cxt;

    expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd), 16384);
    expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd), 16385);
    expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd), 16386);
    tdb_datadir_set_next_xid(dd, 1000);
    expect_u64_eq(tdb_datadir_next_xid(dd), 1000);
    tdb_datadir_close(dd);

    dd = tdb_datadir_open(NULL, db);
    expect_u64_eq(tdb_datadir_next_relfilenumber(dd), 16387);
    expect_u64_eq(tdb_datadir_next_xid(dd), 1000);
    tdb_datadir_close(dd);

    /* updates are durable at once, not at close */
    cxt = tdb_aset_create(tdb_current_mcxt, "crash", ALLOCSET_SMALL_SIZES);
    dd = tdb_datadir_open(cxt, db);
    tdb_datadir_set_next_xid(dd, 2000);
    expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd), 16387);
    tdb_mcxt_delete(cxt); /* no close: as if the process died */
    dd = tdb_datadir_open(NULL, db);
    expect_false(tdb_datadir_was_shut_down_cleanly(dd));
    expect_u64_eq(tdb_datadir_next_xid(dd), 2000);
    expect_u64_eq(tdb_datadir_next_relfilenumber(dd), 16388);
    tdb_datadir_close(dd);

    /* the relfilenumber counter wraps past 0xFFFFFFFF to 16384 */
    {
        ControlFileData control;

        read_control(db, &control);
        control.next_relfilenumber = UINT32_MAX;
        write_control(db, &control);
    }
    dd = tdb_datadir_open(NULL, db);
    expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd), UINT32_MAX);
    expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd),
                  FirstNormalRelFileNumber);
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_unclean_shutdown)
{
    const char *db = new_db_path();
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "crash", ALLOCSET_SMALL_SIZES);
    DataDir *dd;
    ControlFileData control;

    create_closed(db);
    (void)tdb_datadir_open(cxt, db);
    tdb_mcxt_reset(cxt); /* drop the handle without closing */
    expect_int_eq(lock_file_pid(db), getpid()); /* stale, harmless */
    read_control(db, &control);
    expect_u64_eq(control.state, CONTROL_DB_IN_PRODUCTION);

    dd = tdb_datadir_open(NULL, db);
    expect_false(tdb_datadir_was_shut_down_cleanly(dd));
    tdb_datadir_close(dd);
    dd = tdb_datadir_open(NULL, db);
    expect_true(tdb_datadir_was_shut_down_cleanly(dd));
    tdb_datadir_close(dd);
    tdb_mcxt_delete(cxt);
}
TEST_END

/* Try to open db in cxt; it must fail as locked by pid. */
static void
expect_locked(const char *db, MemoryContext cxt, int pid)
{
    expect_error(tdb_datadir_open(cxt, db), ERRCODE_LOCK_NOT_AVAILABLE,
                 in_use_message(db, pid));
}

TEST_BEGIN(test_second_open_same_process)
{
    const char *db = new_db_path();
    DataDir *dd = tdb_datadir_create(NULL, db);
    MemoryContext cxt =
        tdb_aset_create(tdb_current_mcxt, "second", ALLOCSET_SMALL_SIZES);
    Size before = tdb_mcxt_mem_allocated(cxt, true);

    expect_locked(db, cxt, getpid());
    expect_str_eq(tdb_test_last_error.detail,
                  "This process has it open already.");
    expect_u64_eq(tdb_mcxt_mem_allocated(cxt, true), before);
    expect_locked(db, NULL, getpid());
    expect_error(tdb_datadir_create(NULL, db), ERRCODE_DUPLICATE_FILE,
                 "not empty");

    /* the holder did not notice */
    expect_int_eq(lock_file_pid(db), getpid());
    expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd), 16384);
    tdb_datadir_close(dd);

    dd = tdb_datadir_open(cxt, db);
    expect_true(tdb_datadir_was_shut_down_cleanly(dd));
    expect_u64_eq(tdb_datadir_next_relfilenumber(dd), 16385);
    tdb_datadir_close(dd);
    tdb_mcxt_delete(cxt);
}
TEST_END

typedef struct ChildArgs {
    const char *db;
    int holder_pid; /* who the child expects to hold the lock */
    Signal ready;   /* child -> parent: the directory is open */
    Signal go;      /* parent -> child: close it and exit */
} ChildArgs;

static void
child_expect_locked(void *arg)
{
    ChildArgs *a = arg;

    expect_locked(a->db, NULL, a->holder_pid);
    expect_str_contains(tdb_test_last_error.hint, "Close the other");
}

static void
child_hold_until_told(void *arg)
{
    ChildArgs *a = arg;
    DataDir *dd;

    signal_sender(&a->ready);
    signal_receiver(&a->go);
    dd = tdb_datadir_open(NULL, a->db);
    signal_send(&a->ready);
    if (signal_wait(&a->go))
        tdb_datadir_close(dd);
}

/* Start child_hold_until_told and wait until it has the directory. */
static pid_t
start_holder(ChildArgs *args)
{
    pid_t pid;

    signal_init(&args->ready);
    signal_init(&args->go);
    pid = child_start(child_hold_until_told, args);
    signal_receiver(&args->ready);
    signal_sender(&args->go);
    expect_true(signal_wait(&args->ready));
    return pid;
}

TEST_BEGIN(test_second_open_child_process)
{
    const char *db = new_db_path();
    DataDir *dd = tdb_datadir_create(NULL, db);
    ChildArgs args = {.db = db, .holder_pid = getpid()};

    expect_int_eq(child_wait(child_start(child_expect_locked, &args)), 0);
    expect_int_eq(lock_file_pid(db), getpid());
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_open_while_child_holds)
{
    const char *db = new_db_path();
    ChildArgs args = {.db = db};
    DataDir *dd;
    pid_t pid;

    create_closed(db);
    pid = start_holder(&args);
    expect_int_eq(lock_file_pid(db), pid);
    expect_locked(db, NULL, pid);
    expect_str_contains(tdb_test_last_error.hint, "Close the other");
    expect_error(tdb_datadir_open_or_create(NULL, db),
                 ERRCODE_LOCK_NOT_AVAILABLE, "is in use by process");

    signal_send(&args.go);
    expect_int_eq(child_wait(pid), 0);
    signal_close(&args.ready);
    signal_close(&args.go);
    expect_false(file_exists(test_path(db, "tupledb.pid")));
    dd = tdb_datadir_open(NULL, db);
    expect_true(tdb_datadir_was_shut_down_cleanly(dd));
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_child_killed)
{
    const char *db = new_db_path();
    ChildArgs args = {.db = db};
    DataDir *dd;
    pid_t pid;

    create_closed(db);
    pid = start_holder(&args);
    expect_locked(db, NULL, pid);
    expect_int_eq(kill(pid, SIGKILL), 0);
    expect_int_eq(child_wait(pid), 128 + SIGKILL);
    signal_close(&args.ready);
    signal_close(&args.go);

    /* the kernel dropped the lock; the stale pid file does not matter */
    expect_int_eq(lock_file_pid(db), pid);
    dd = tdb_datadir_open(NULL, db);
    expect_false(tdb_datadir_was_shut_down_cleanly(dd));
    expect_int_eq(lock_file_pid(db), getpid());
    tdb_datadir_close(dd);
}
TEST_END

TEST_BEGIN(test_not_a_database)
{
    const char *dir = test_tmpdir();
    char *missing = test_path(dir, "missing");
    char *file = test_path(dir, "file");
    char *foreign = test_path(dir, "foreign");
    char *garbage = test_path(dir, "garbage");
    char expected[512];
    static const char *const bad_versions[] = {
        "", "1", "x\n", "1\n\n", "1 \n", "99999999999999\n"};

    expect_error(tdb_datadir_open(NULL, missing), ERRCODE_UNDEFINED_FILE,
                 "does not exist");
    snprintf(expected, sizeof(expected), "data directory \"%s\" does not exist",
             missing);
    expect_str_eq(tdb_test_last_error.message, expected);

    write_text_file(file, "not a directory");
    expect_error(tdb_datadir_open(NULL, file), ERRCODE_WRONG_OBJECT_TYPE,
                 "could not open directory");

    /* a directory without TDB_VERSION, e.g. a PostgreSQL one */
    expect_int_eq(tdb_fd_mkdir(foreign, TDB_DIR_MODE), 0);
    write_text_file(test_path(foreign, "PG_VERSION"), "15\n");
    snprintf(expected, sizeof(expected), "\"%s\" is not a valid data directory",
             foreign);
    expect_error(tdb_datadir_open(NULL, foreign), ERRCODE_UNDEFINED_FILE,
                 expected);
    snprintf(expected, sizeof(expected), "File \"%s/TDB_VERSION\" is missing.",
             foreign);
    expect_str_eq(tdb_test_last_error.detail, expected);
    expect_false(file_exists(test_path(foreign, "tupledb.pid")));

    create_closed(garbage);
    for (Size i = 0; i < lengthof(bad_versions); i++) {
        write_text_file(test_path(garbage, "TDB_VERSION"), bad_versions[i]);
        expect_open_fails(garbage, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                          "is not a valid data directory");
        expect_str_contains(tdb_test_last_error.detail,
                            "does not contain valid data");
    }
    write_text_file(test_path(garbage, "TDB_VERSION"), "1\n");
    tdb_datadir_close(tdb_datadir_open(NULL, garbage));
}
TEST_END

TEST_BEGIN(test_newer_version)
{
    const char *db = new_db_path();

    create_closed(db);
    write_text_file(test_path(db, "TDB_VERSION"), "2\n");
    expect_error(tdb_datadir_open(NULL, db),
                 ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "database files are incompatible with this build");
    expect_str_eq(tdb_test_last_error.detail,
                  "The data directory was initialized with version 2, which "
                  "is not compatible with this version 1.");
    expect_false(file_exists(test_path(db, "tupledb.pid")));
}
TEST_END

TEST_BEGIN(test_control_flipped_bytes)
{
    const char *db = new_db_path();
    ControlFileData good;
    uint8 bytes[sizeof(ControlFileData)];

    create_closed(db);
    read_control(db, &good);
    for (Size i = 0; i < sizeof(bytes); i++) {
        /* the format version bytes give "incompatible", the rest
         * "corrupted" (the magic, or -- for everything else -- the CRC) */
        bool in_version = i >= offsetof(ControlFileData, control_version) &&
                          i < offsetof(ControlFileData, blcksz);
        int sqlstate = in_version ? ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE
                                  : ERRCODE_DATA_CORRUPTED;

        memcpy(bytes, &good, sizeof(bytes));
        bytes[i] ^= (uint8)(1u << (i % 8));
        write_raw_file(control_path(db), bytes, sizeof(bytes));
        expect_open_fails(db, sqlstate, NULL);
        if (i >= offsetof(ControlFileData, blcksz))
            expect_str_contains(tdb_test_last_error.message,
                                "incorrect checksum in control file");
    }
    expect_false(file_exists(test_path(db, "tupledb.pid")));
    write_raw_file(control_path(db), &good, sizeof(good));
    tdb_datadir_close(tdb_datadir_open(NULL, db));
}
TEST_END

TEST_BEGIN(test_control_damaged)
{
    const char *db = new_db_path();
    ControlFileData good, control;
    char longer[sizeof(ControlFileData) + 1];

    create_closed(db);
    read_control(db, &good);

    write_raw_file(control_path(db), &good, 40);
    expect_error(tdb_datadir_open(NULL, db), ERRCODE_DATA_CORRUPTED,
                 "read 40 of 80");
    write_raw_file(control_path(db), &good, 4); /* not even the magic */
    expect_error(tdb_datadir_open(NULL, db), ERRCODE_DATA_CORRUPTED,
                 "contains invalid data");

    memcpy(longer, &good, sizeof(good));
    longer[sizeof(good)] = 0;
    write_raw_file(control_path(db), longer, sizeof(longer));
    expect_error(tdb_datadir_open(NULL, db), ERRCODE_DATA_CORRUPTED,
                 "is longer than 80 bytes");

    expect_int_eq(remove(control_path(db)), 0);
    expect_error(tdb_datadir_open(NULL, db), ERRCODE_UNDEFINED_FILE,
                 "could not open file");

    /* well-formed, with a valid CRC, but not for this build */
    control = good;
    control.relseg_size = RELSEG_SIZE * 2;
    write_control(db, &control);
    expect_error(tdb_datadir_open(NULL, db),
                 ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "database files are incompatible with this build");
    expect_str_contains(tdb_test_last_error.detail, "RELSEG_SIZE");
    control = good;
    control.state = 7;
    write_control(db, &control);
    expect_error(tdb_datadir_open(NULL, db), ERRCODE_DATA_CORRUPTED,
                 "contains invalid data");

    write_raw_file(control_path(db), &good, sizeof(good));
    tdb_datadir_close(tdb_datadir_open(NULL, db));
}
TEST_END

/* ----------------------------------------------------------------------
 * Injected faults (TDB_DEBUG builds)
 * ---------------------------------------------------------------------- */

typedef struct Fault {
    FdOp op;
    int err;
} Fault;

static const Fault file_faults[] = {
    {FD_OP_OPEN, EMFILE}, {FD_OP_READ, EIO},     {FD_OP_WRITE, ENOSPC},
    {FD_OP_FSYNC, EIO},   {FD_OP_CLOSE, EIO},    {FD_OP_TRUNCATE, EIO},
    {FD_OP_RENAME, EIO},  {FD_OP_MKDIR, EACCES}, {FD_OP_LOCK, ENOLCK},
};

/* tdb_datadir_create or _open (is_create) of db, catching an ERROR into
 * *error; returns the handle, NULL after an error. */
static DataDir *
try_open(const char *db, bool is_create, ErrorData *error)
{
    DataDir *volatile dd = NULL;

    TDB_TRY();
    {
        dd = is_create ? tdb_datadir_create(NULL, db)
                       : tdb_datadir_open(NULL, db);
    }
    TDB_CATCH();
    {
        *error = *tdb_error_current();
        tdb_error_flush();
    }
    TDB_END_TRY();
    return dd;
}

/*
 * Fail the 1st, 2nd, ... call of each fault's operation during create
 * (is_create) or open until the call is never reached.  After each
 * failure, check(db) verifies what must hold.  Returns the failures seen.
 */
static int
fault_loop(const char *db, bool is_create, void (*check)(const char *db))
{
    int nfailures = 0;

    for (Size i = 0; i < lengthof(file_faults); i++) {
        const Fault *f = &file_faults[i];

        for (uint32 n = 1;; n++) {
            ErrorData e;
            DataDir *dd;
            int pending;

            expect_true(tdb_fd_inject(f->op, n, f->err));
            dd = try_open(db, is_create, &e);
            pending = tdb_fd_inject_pending();
            tdb_fd_inject_clear();
            if (dd != NULL) {
                tdb_datadir_close(dd);
                if (is_create)
                    remove_tree((void *)db); /* ready for the next run */
                if (pending > 0)
                    break; /* the nth call never came */
                continue;  /* the fault hit a call whose failure is harmless */
            }
            nfailures++;
            if (e.sqlerrcode != tdb_fd_errcode(f->err))
                tdb_test_fail(__FILE__, __LINE__,
                              "%s fault at call %u: unexpected \"%s\"",
                              tdb_fd_op_name(f->op), n, e.message);
            check(db);
        }
    }
    return nfailures;
}

/*
 * After a failed create: nothing left, not even the directory -- except
 * when taking the lock itself failed: then an empty tupledb.pid that
 * cleanup cannot prove is its own stays, and with it the directory.
 */
static void
check_nothing_created(const char *db)
{
    char *lock_file = test_path(db, "tupledb.pid");

    if (file_exists(db) && file_size(lock_file) == 0) {
        expect_int_eq(remove(lock_file), 0);
        expect_int_eq(remove(db), 0); /* fails if anything else is left */
    }
    if (file_exists(db))
        tdb_test_fail(__FILE__, __LINE__, "%s left behind", db);
    remove_tree((void *)db);
}

/* After a failed open: no temp file, and the directory opens cleanly. */
static void
check_still_openable(const char *db)
{
    DataDir *dd;

    expect_false(file_exists(test_path(db, "global/tdb_control.tmp")));
    dd = tdb_datadir_open(NULL, db);
    expect_u64_eq(tdb_datadir_next_relfilenumber(dd), 16385);
    tdb_datadir_close(dd);
}

TEST_BEGIN(test_create_fault_loop)
{
    const char *db = new_db_path();

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    expect_true(fault_loop(db, true, check_nothing_created) > 10);
    create_closed(db); /* no fault: fine */
}
TEST_END

TEST_BEGIN(test_open_fault_loop)
{
    const char *db = new_db_path();
    DataDir *dd;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dd = tdb_datadir_create(NULL, db);
    expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd), 16384);
    tdb_datadir_close(dd);
    expect_true(fault_loop(db, false, check_still_openable) > 5);
}
TEST_END

/* Both counter updates fail under fault f. */
static void
expect_updates_fail(DataDir *dd, const Fault *f)
{
    expect_true(tdb_fd_inject(f->op, 1, f->err));
    expect_error(tdb_datadir_alloc_relfilenumber(dd), tdb_fd_errcode(f->err),
                 "could not");
    expect_true(tdb_fd_inject(f->op, 1, f->err));
    expect_error(tdb_datadir_set_next_xid(dd, 5000), tdb_fd_errcode(f->err),
                 "could not");
    tdb_fd_inject_clear();
}

TEST_BEGIN(test_update_faults)
{
    static const Fault faults[] = {
        {FD_OP_WRITE, EIO},
        {FD_OP_FSYNC, EIO},
        {FD_OP_RENAME, EIO},
        {FD_OP_OPEN, EMFILE},
    };
    const char *db = new_db_path();
    DataDir *dd;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dd = tdb_datadir_create(NULL, db);
    for (Size i = 0; i < lengthof(faults); i++) {
        RelFileNumber next = tdb_datadir_next_relfilenumber(dd);

        expect_updates_fail(dd, &faults[i]);
        expect_u64_eq(tdb_datadir_next_relfilenumber(dd), next);
        expect_u64_eq(tdb_datadir_next_xid(dd), CONTROL_FIRST_NORMAL_XID);
        expect_false(file_exists(test_path(db, "global/tdb_control.tmp")));
        /* the mutex was released: the next update goes through */
        expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd), next);
    }

    /* a failed close keeps the handle open; a retry closes it */
    expect_true(tdb_fd_inject(FD_OP_FSYNC, 1, EIO));
    expect_error(tdb_datadir_close(dd), ERRCODE_IO_ERROR, "could not fsync");
    expect_locked(db, NULL, getpid());
    tdb_datadir_close(dd);
    dd = tdb_datadir_open(NULL, db);
    expect_true(tdb_datadir_was_shut_down_cleanly(dd));
    expect_u64_eq(tdb_datadir_next_relfilenumber(dd),
                  FirstNormalRelFileNumber + lengthof(faults));
    tdb_datadir_close(dd);
}
TEST_END

/*
 * A full disk: the control file's temporary copy cannot be written
 * (ENOSPC), so the update overwrites the control file in place -- the
 * statements that free space (TRUNCATE takes a new relation file number)
 * must work when nothing else can be written.  The update is durable
 * and leaves no temporary file; a lock file whose pid cannot be written
 * still locks.
 */
TEST_BEGIN(test_update_disk_full)
{
    const char *db = new_db_path();
    DataDir *dd;
    RelFileNumber next;

    if (!config_debug)
        test_skip("fault injection needs a TDB_DEBUG build");
    dd = tdb_datadir_create(NULL, db);
    next = tdb_datadir_next_relfilenumber(dd);
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC));
    expect_u64_eq(tdb_datadir_alloc_relfilenumber(dd), next);
    expect_int_eq(tdb_fd_inject_pending(), 0); /* the fault was hit */
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC));
    tdb_datadir_set_next_xid(dd, 5000);
    tdb_fd_inject_clear();
    expect_false(file_exists(test_path(db, "global/tdb_control.tmp")));
    tdb_datadir_close(dd);

    /* both reached the disk; an open whose pid write finds the disk full
     * still holds the lock */
    expect_true(tdb_fd_inject(FD_OP_WRITE, 1, ENOSPC));
    dd = tdb_datadir_open(NULL, db);
    tdb_fd_inject_clear();
    expect_u64_eq(tdb_datadir_next_relfilenumber(dd), next + 1);
    expect_u64_eq(tdb_datadir_next_xid(dd), 5000);
    expect_int_eq(lock_file_pid(db), 0);
    expect_error(tdb_datadir_open(NULL, db), ERRCODE_LOCK_NOT_AVAILABLE,
                 "is in use by another process");
    tdb_datadir_close(dd);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "storage_datadir", TEST_CASE(test_create_layout),
        TEST_CASE(test_create_refuses), TEST_CASE(test_open_or_create),
        TEST_CASE(test_counters_persist), TEST_CASE(test_unclean_shutdown),
        TEST_CASE(test_second_open_same_process),
        TEST_CASE(test_second_open_child_process),
        TEST_CASE(test_open_while_child_holds), TEST_CASE(test_child_killed),
        TEST_CASE(test_not_a_database), TEST_CASE(test_newer_version),
        TEST_CASE(test_control_flipped_bytes), TEST_CASE(test_control_damaged),
        TEST_CASE(test_create_fault_loop), TEST_CASE(test_open_fault_loop),
        TEST_CASE(test_update_faults), TEST_CASE(test_update_disk_full));
}
