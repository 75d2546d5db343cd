/*
 * bench_heap.c -- heap storage benchmark (issue 4): bulk insert of narrow
 * rows and sequential scan of 16-column rows through the C API a program
 * uses (database.h, catalog.h, heapam.h), with the data on disk.
 *
 * A benchmark, never a pass/fail test: it prints records and exits 0
 * whatever the figures are (2 for a usage or setup error, or when a scan
 * returns the wrong rows).  bench/heap/run.sh runs it several times,
 * takes best and median, times the same work in PostgreSQL 15 for
 * context, and writes the "Heap storage" section of bench/RESULTS.md.
 * See bench/README.md for how to read it.
 *
 * Every command works on the database directory given by --dir.  One
 * command per process, so that the peak RSS (VmHWM) of a load is the
 * load's own.
 *
 *   insert-bulk   create the database (--dir must not exist) and table
 *                 narrow (a int4, b int4); then in one transaction form
 *                 --rows rows (a = b = i) and insert them with
 *                 tdb_heap_multi_insert, --batch rows per call, through
 *                 one BulkInsertState; commit, which writes and fsyncs the
 *                 table.  --single: tdb_heap_insert per row, no bulk
 *                 state.  --form-only: form the rows the same way but
 *                 insert nothing (what forming costs), then abort.
 *   load-wide     create the database and table wide (c1..c16 int4,
 *                 row i holding i + j - 1 in cj), load --rows rows as
 *                 insert-bulk does, commit; scan it once ("hints": the
 *                 first scan after a load sets the rows' hint bits and
 *                 writes the pages again, as in PostgreSQL), close.
 *   scan-cold     --runs times: open the database (default pool, so the
 *                 pool starts empty), with --drop-os-cache also evict the
 *                 table's file from the OS page cache
 *                 (posix_fadvise DONTNEED), scan wide summing c16 through
 *                 a heap slot, close.
 *   scan-warm     open the database with --nbuffers buffers (run.sh
 *                 makes the pool more than four times the table, so the
 *                 scan does not use a BULKREAD ring and the whole table
 *                 stays in the pool), scan once to load the pool
 *                 ("first"), then --runs times scan with a slot and with
 *                 tdb_heap_getnext + tdb_heap_getattr, the two taking
 *                 turns, the slot first in even-numbered runs.
 *
 * Runs are numbered from --round (default 0), so that run.sh, which
 * starts one process per round, gets distinct run numbers and alternates
 * the order of the warm variants.
 *
 * A scan is timed from opening the relation to tdb_heap_endscan (in a
 * read-only transaction, whose commit costs nothing).  Its sum of c16 is
 * checked against the closed form N(N+1)/2 + 15N.
 *
 * For callgrind, the measured pieces are functions of their own, never
 * inlined: load_rows (forming and inserting), commit_load (the load's
 * commit), scan_rows_slot and scan_rows_getattr (one scan's row loop).
 * run.sh profiles them with --toggle-collect and one --dump-after per
 * function, e.g.
 *   valgrind --tool=callgrind --toggle-collect=load_rows \
 *       bench_heap --dir /tmp/x insert-bulk --rows 1000000
 *
 * Output: one record per line, whitespace-separated, first word the type:
 *   info <key> <value>
 *   insert <bulk|single> <rows> <insert_ns> <commit_ns> <table_bytes>
 *          <pages> <rss_before_kb> <hwm_kb> <writes_before_commit>
 *          <writes_at_commit> <extends>
 *       insert_ns: begin to the last insert; commit_ns: the commit
 *       (write-back of the dirty pages and fsync); rss_before_kb: VmRSS
 *       with the database open, before the load; hwm_kb: VmHWM at the
 *       end (the process's peak RSS, pool included)
 *   form <rows> <ns>
 *   load <rows> <ns> <table_bytes> <pages>
 *   scan <variant> <run> <rows> <ns> <table_bytes> <sum> <pages_read>
 *        <blocks_read_from_file> <blocks_written>
 *       variant: hints (load-wide's scan after the load), cold, cold_os
 *       (file dropped from the OS cache), first (first scan into the big
 *       pool), warm_slot, warm_getattr
 *
 * Usage:
 *   bench_heap --dir D insert-bulk [--rows N] [--batch B] [--single]
 *              [--form-only]
 *   bench_heap --dir D load-wide [--rows N]
 *   bench_heap --dir D scan-cold [--runs R] [--round N] [--drop-os-cache]
 *   bench_heap --dir D scan-warm [--runs R] [--round N] [--nbuffers X]
 */
#include "common/base.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "access/heapam.h"
#include "access/snapshot.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/database.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "storage/bufmgr.h"
#include "tuple/heaptuple.h"
#include "tuple/slot.h"

#include "bench.h"

#define WIDE_NCOLS 16
#define MAX_BATCH 100000

/* Not inlined, not cloned: each measured piece keeps its name for
 * callgrind's --toggle-collect / --dump-after (bench/heap/run.sh). */
#define BENCH_OPAQUE __attribute__((noipa))

/* The command line (see Usage above). */
typedef struct Options {
    const char *dir;     /* --dir: the database directory */
    const char *command; /* insert-bulk, load-wide, scan-cold, scan-warm */
    int64 rows;          /* --rows (default 10,000,000) */
    int batch;           /* --batch: rows per multi-insert call (1000) */
    int runs;            /* --runs: scans per variant (5) */
    int nbuffers;        /* --nbuffers for scan-warm; 0: the default */
    int round;           /* --round: number of the first run (0) */
    bool single;         /* --single: tdb_heap_insert per row */
    bool form_only;      /* --form-only: form the rows, insert nothing */
    bool drop_os_cache;  /* --drop-os-cache: evict the file first */
} Options;

/* ----------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

/* A "VmXXX:" field of /proc/self/status in kB, or -1 if missing. */
static long
proc_status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t keylen = strlen(key);
    long kb = -1;

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, key, keylen) == 0 && line[keylen] == ':') {
            kb = strtol(line + keylen + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kb;
}

/*
 * Bytes in the files of relation file rel of the database at dir (the
 * main file and its 1 GB segments).  With drop, also ask the kernel to
 * drop the files' pages from its page cache (they are clean: the table
 * was fsynced at commit).
 */
static uint64
relation_bytes(const char *dir, RelFileNumber rel, bool drop)
{
    uint64 total = 0;

    for (unsigned segno = 0;; segno++) {
        char path[4096];
        struct stat st;

        if (segno == 0)
            snprintf(path, sizeof(path), "%s/base/%u", dir, rel);
        else
            snprintf(path, sizeof(path), "%s/base/%u.%u", dir, rel, segno);
        if (stat(path, &st) != 0)
            break;
        total += (uint64)st.st_size;
        if (drop) {
            int fd = open(path, O_RDONLY);
            int rc;

            if (fd < 0)
                tdb_bench_die("cannot open %s", path);
            rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
            close(fd);
            if (rc != 0)
                tdb_bench_die("posix_fadvise(%s): %s", path, strerror(rc));
        }
    }
    return total;
}

static Database *
open_database(const Options *opt, int nbuffers)
{
    DatabaseOptions dbopt = {.nbuffers = nbuffers};

    return tdb_database_open(opt->dir, &dbopt);
}

/* Create table name with ncols int4 columns c1..cN (a, b for narrow). */
static void
create_table(Transaction *s, const char *name, int ncols)
{
    static const char *const narrow_names[] = {"a", "b"};
    ColumnDef cols[WIDE_NCOLS];
    char names[WIDE_NCOLS][8];

    for (int j = 0; j < ncols; j++) {
        snprintf(names[j], sizeof(names[j]), "c%d", j + 1);
        cols[j].name = ncols == 2 ? narrow_names[j] : names[j];
        cols[j].typid = INT4OID;
        cols[j].typmod = -1;
        cols[j].not_null = false;
        cols[j].default_expr = NULL;
        cols[j].storage = '\0';
        cols[j].compression = '\0';
    }
    tdb_xact_begin(s);
    tdb_catalog_create_table(s, name, cols, ncols, false);
    tdb_xact_commit(s);
}

/*
 * Fill tuples[0..n) with rows first..first+n-1, formed in the current
 * memory context: a = b = i for the two-column table narrow, i + j - 1 in
 * column j for wide (as PostgreSQL's generate_series load in run.sh).
 */
static void
form_rows(TupleDesc desc, int ncols, int64 first, int n, HeapTuple *tuples)
{
    Datum values[WIDE_NCOLS];
    bool isnull[WIDE_NCOLS] = {false};

    for (int k = 0; k < n; k++) {
        int32 i = (int32)(first + k);

        if (ncols == 2) {
            values[0] = Int32GetDatum(i);
            values[1] = Int32GetDatum(i);
        } else {
            for (int j = 0; j < ncols; j++)
                values[j] = Int32GetDatum(i + j);
        }
        tuples[k] = tdb_heap_form_tuple(desc, values, isnull);
    }
}

/*
 * Load rows 1..nrows into table name in the open transaction of s:
 * batches of `batch` rows formed in a context reset after each batch,
 * inserted with tdb_heap_multi_insert through one BulkInsertState
 * (single: tdb_heap_insert per row without one; form_only: nothing
 * inserted).
 */
static BENCH_OPAQUE void
load_rows(Transaction *s, const char *name, int ncols, int64 nrows, int batch,
          bool single, bool form_only)
{
    Relation rel = tdb_relation_open(s, name, REL_LOCK_SHARE);
    BulkInsertState bis =
        (single || form_only) ? NULL : tdb_heap_bulk_insert_begin();
    HeapTuple *tuples = tdb_palloc((Size)batch * sizeof(HeapTuple));
    MemoryContext batch_cxt = tdb_aset_create(tdb_current_mcxt, "bench batch",
                                              ALLOCSET_DEFAULT_SIZES);
    MemoryContext old = tdb_mcxt_switch_to(batch_cxt);

    for (int64 done = 0; done < nrows; done += batch) {
        int n = (int)(nrows - done < batch ? nrows - done : batch);

        form_rows(rel->rd_att, ncols, done + 1, n, tuples);
        if (form_only)
            tdb_bench_escape(tuples);
        else if (single) {
            for (int k = 0; k < n; k++)
                tdb_heap_insert(rel, tuples[k], s, NULL);
        } else
            tdb_heap_multi_insert(rel, tuples, n, s, bis);
        tdb_mcxt_reset(batch_cxt);
    }
    tdb_mcxt_switch_to(old);
    tdb_mcxt_delete(batch_cxt);
    if (bis != NULL)
        tdb_heap_bulk_insert_end(bis);
    tdb_pfree(tuples);
    tdb_relation_close(rel);
}

/* Commit the load (write back the table's dirty pages, fsync, mark the
 * xid committed); its own function for callgrind. */
static BENCH_OPAQUE void
commit_load(Transaction *s)
{
    if (!tdb_xact_commit(s))
        tdb_bench_die("the load's commit failed");
}

static RelFileNumber
relfilenumber_of(Transaction *s, const char *name)
{
    Relation rel;
    RelFileNumber result;

    tdb_xact_begin(s);
    rel = tdb_relation_open(s, name, REL_LOCK_SHARE);
    result = rel->rd_relfilenumber;
    tdb_relation_close(rel);
    tdb_xact_commit(s);
    return result;
}

/* ----------------------------------------------------------------------
 * Scanning
 * ---------------------------------------------------------------------- */

/* Sum of c16 over the rows of scan, through a heap slot (what the
 * executor will use: the slot deforms columns 1..16); *nrows counts them. */
static BENCH_OPAQUE int64
scan_rows_slot(HeapScanDesc scan, TupleDesc desc, int64 *nrows)
{
    TupleTableSlot *slot = tdb_slot_create(desc, &tdb_tts_ops_heap);
    int64 sum = 0, n = 0;
    bool isnull;

    while (tdb_heap_getnextslot(scan, slot)) {
        sum += DatumGetInt32(tdb_slot_getattr(slot, WIDE_NCOLS, &isnull));
        n++;
    }
    tdb_slot_drop(slot);
    *nrows = n;
    return sum;
}

/* The same through tdb_heap_getnext + tdb_heap_getattr (one column at
 * its cached offset, nothing deformed). */
static BENCH_OPAQUE int64
scan_rows_getattr(HeapScanDesc scan, TupleDesc desc, int64 *nrows)
{
    HeapTuple tup;
    int64 sum = 0, n = 0;
    bool isnull;

    while ((tup = tdb_heap_getnext(scan)) != NULL) {
        sum += DatumGetInt32(tdb_heap_getattr(tup, WIDE_NCOLS, desc, &isnull));
        n++;
    }
    *nrows = n;
    return sum;
}

/*
 * One timed scan of table wide summing c16, through a heap slot
 * (use_slot) or tdb_heap_getnext + tdb_heap_getattr; prints a scan
 * record.  Dies if the rows or the sum are wrong.
 */
static void
scan_once(Transaction *s, const char *dir, const char *variant, int run,
          bool use_slot)
{
    BufferUsage u0, u1;
    uint64 t0, t1;
    int64 nrows, sum, expect;
    BlockNumber pages;
    RelFileNumber relno;
    Relation rel;
    Snapshot snap;
    HeapScanDesc scan;

    tdb_xact_begin(s);
    tdb_buf_usage(&u0);
    t0 = tdb_bench_now_ns();
    rel = tdb_relation_open(s, "wide", REL_LOCK_SHARE);
    snap = tdb_snapshot_take(tdb_xact_manager_of(s), s, tdb_current_mcxt);
    scan = tdb_heap_beginscan(rel, snap);
    sum = use_slot ? scan_rows_slot(scan, rel->rd_att, &nrows)
                   : scan_rows_getattr(scan, rel->rd_att, &nrows);
    pages = tdb_heap_scan_pages_read(scan);
    tdb_heap_endscan(scan);
    tdb_pfree(snap);
    relno = rel->rd_relfilenumber;
    tdb_relation_close(rel);
    t1 = tdb_bench_now_ns();
    tdb_buf_usage(&u1);
    tdb_xact_commit(s);

    expect = nrows * (nrows + 1) / 2 + (int64)(WIDE_NCOLS - 1) * nrows;
    if (sum != expect)
        tdb_bench_die("scan of %lld rows: sum(c16) = %lld, expected %lld",
                      (long long)nrows, (long long)sum, (long long)expect);
    printf("scan %s %d %lld %llu %llu %lld %u %llu %llu\n", variant, run,
           (long long)nrows, (unsigned long long)(t1 - t0),
           (unsigned long long)relation_bytes(dir, relno, false),
           (long long)sum, pages, (unsigned long long)(u1.reads - u0.reads),
           (unsigned long long)(u1.writes - u0.writes));
    fflush(stdout);
}

/* ----------------------------------------------------------------------
 * Commands
 * ---------------------------------------------------------------------- */

static void
cmd_insert(const Options *opt)
{
    Database *db;
    Transaction *s;
    BufferUsage u0, u1, u2;
    uint64 t0, t1, t2;
    long rss_before;
    RelFileNumber relno;
    uint64 bytes;

    if (access(opt->dir, F_OK) == 0)
        tdb_bench_die("%s exists; insert-bulk needs a fresh directory",
                      opt->dir);
    db = open_database(opt, 0);
    s = tdb_database_session(db, NULL);
    create_table(s, "narrow", 2);
    relno = relfilenumber_of(s, "narrow");
    rss_before = proc_status_kb("VmRSS");

    tdb_buf_usage(&u0);
    t0 = tdb_bench_now_ns();
    tdb_xact_begin(s);
    load_rows(s, "narrow", 2, opt->rows, opt->single ? 1000 : opt->batch,
              opt->single, opt->form_only);
    t1 = tdb_bench_now_ns();
    tdb_buf_usage(&u1);
    if (opt->form_only) {
        tdb_xact_abort(s);
        printf("form %lld %llu\n", (long long)opt->rows,
               (unsigned long long)(t1 - t0));
    } else {
        commit_load(s);
        t2 = tdb_bench_now_ns();
        tdb_buf_usage(&u2);
        bytes = relation_bytes(opt->dir, relno, false);
        printf("insert %s %lld %llu %llu %llu %llu %ld %ld %llu %llu %llu\n",
               opt->single ? "single" : "bulk", (long long)opt->rows,
               (unsigned long long)(t1 - t0), (unsigned long long)(t2 - t1),
               (unsigned long long)bytes, (unsigned long long)(bytes / BLCKSZ),
               rss_before, proc_status_kb("VmHWM"),
               (unsigned long long)(u1.writes - u0.writes),
               (unsigned long long)(u2.writes - u1.writes),
               (unsigned long long)(u2.extends - u0.extends));
    }
    tdb_xact_destroy(s);
    tdb_database_close(db);
}

static void
cmd_load_wide(const Options *opt)
{
    Database *db;
    Transaction *s;
    uint64 t0, t1, bytes;
    RelFileNumber relno;

    if (access(opt->dir, F_OK) == 0)
        tdb_bench_die("%s exists; load-wide needs a fresh directory", opt->dir);
    db = open_database(opt, 0);
    s = tdb_database_session(db, NULL);
    create_table(s, "wide", WIDE_NCOLS);
    relno = relfilenumber_of(s, "wide");
    t0 = tdb_bench_now_ns();
    tdb_xact_begin(s);
    load_rows(s, "wide", WIDE_NCOLS, opt->rows, opt->batch, false, false);
    commit_load(s);
    t1 = tdb_bench_now_ns();
    bytes = relation_bytes(opt->dir, relno, false);
    printf("load %lld %llu %llu %llu\n", (long long)opt->rows,
           (unsigned long long)(t1 - t0), (unsigned long long)bytes,
           (unsigned long long)(bytes / BLCKSZ));
    scan_once(s, opt->dir, "hints", 0, true);
    tdb_xact_destroy(s);
    tdb_database_close(db);
}

static void
cmd_scan_cold(const Options *opt)
{
    for (int run = opt->round; run < opt->round + opt->runs; run++) {
        Database *db = open_database(opt, 0);
        Transaction *s = tdb_database_session(db, NULL);

        if (opt->drop_os_cache)
            (void)relation_bytes(opt->dir, relfilenumber_of(s, "wide"), true);
        scan_once(s, opt->dir, opt->drop_os_cache ? "cold_os" : "cold", run,
                  true);
        tdb_xact_destroy(s);
        tdb_database_close(db);
    }
}

static void
cmd_scan_warm(const Options *opt)
{
    Database *db = open_database(opt, opt->nbuffers);
    Transaction *s = tdb_database_session(db, NULL);

    printf("info nbuffers %d\n", tdb_bufmgr_nbuffers());
    scan_once(s, opt->dir, "first", opt->round, true);
    for (int run = opt->round; run < opt->round + opt->runs; run++) {
        bool slot_first = run % 2 == 0;

        scan_once(s, opt->dir, slot_first ? "warm_slot" : "warm_getattr", run,
                  slot_first);
        scan_once(s, opt->dir, slot_first ? "warm_getattr" : "warm_slot", run,
                  !slot_first);
    }
    tdb_xact_destroy(s);
    tdb_database_close(db);
}

/* ----------------------------------------------------------------------
 * main
 * ---------------------------------------------------------------------- */

static void
usage(void)
{
    fprintf(stderr,
            "usage: bench_heap --dir D insert-bulk [--rows N] [--batch B] "
            "[--single] [--form-only]\n"
            "       bench_heap --dir D load-wide [--rows N]\n"
            "       bench_heap --dir D scan-cold [--runs R] [--round N] "
            "[--drop-os-cache]\n"
            "       bench_heap --dir D scan-warm [--runs R] [--round N] "
            "[--nbuffers X]\n");
    exit(2);
}

static int64
int_arg(int argc, char **argv, int *i, int64 min)
{
    char *end;
    long long v;

    if (*i + 1 >= argc)
        usage();
    v = strtoll(argv[++*i], &end, 10);
    if (*end != '\0' || v < min)
        tdb_bench_die("bad value for %s: %s", argv[*i - 1], argv[*i]);
    return v;
}

int
main(int argc, char **argv)
{
    Options opt = {.rows = 10000000, .batch = 1000, .runs = 5};
    volatile int status = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];

        if (strcmp(a, "--dir") == 0 && i + 1 < argc)
            opt.dir = argv[++i];
        else if (strcmp(a, "--rows") == 0)
            opt.rows = int_arg(argc, argv, &i, 1);
        else if (strcmp(a, "--batch") == 0)
            opt.batch = (int)int_arg(argc, argv, &i, 1);
        else if (strcmp(a, "--runs") == 0)
            opt.runs = (int)int_arg(argc, argv, &i, 1);
        else if (strcmp(a, "--nbuffers") == 0)
            opt.nbuffers = (int)int_arg(argc, argv, &i, 0);
        else if (strcmp(a, "--round") == 0)
            opt.round = (int)int_arg(argc, argv, &i, 0);
        else if (strcmp(a, "--single") == 0)
            opt.single = true;
        else if (strcmp(a, "--form-only") == 0)
            opt.form_only = true;
        else if (strcmp(a, "--drop-os-cache") == 0)
            opt.drop_os_cache = true;
        else if (a[0] != '-' && opt.command == NULL)
            opt.command = a;
        else
            usage();
    }
    if (opt.dir == NULL || opt.command == NULL)
        usage();
    if (opt.batch > MAX_BATCH || opt.rows > INT32_MAX)
        tdb_bench_die("--batch at most %d, --rows at most %d", MAX_BATCH,
                      INT32_MAX);

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        if (strcmp(opt.command, "insert-bulk") == 0)
            cmd_insert(&opt);
        else if (strcmp(opt.command, "load-wide") == 0)
            cmd_load_wide(&opt);
        else if (strcmp(opt.command, "scan-cold") == 0)
            cmd_scan_cold(&opt);
        else if (strcmp(opt.command, "scan-warm") == 0)
            cmd_scan_warm(&opt);
        else
            usage();
    }
    TDB_CATCH();
    {
        fprintf(stderr, "bench_heap: ERROR:  %s\n",
                tdb_error_current()->message);
        tdb_error_flush();
        status = 2;
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return status;
}
