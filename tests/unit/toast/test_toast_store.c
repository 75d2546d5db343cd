/*
 * test_toast_store.c -- the out-of-line chunk store on a real data
 * directory, buffer pool and transaction manager: round trips of values
 * from 1 byte to 100 MB, where chunks go (direct addressing), compressed
 * pointers, slices that read only the chunks they need, MVCC of stores
 * and deletes, damaged chunks, durability at commit, readers running
 * beside a writer, and reuse of the space VACUUM freed (runs of empty
 * pages for multi-chunk values, free pages for single chunks) also with
 * VACUUM and readers running beside the writer.
 *
 * The toast relation is a plain file created through smgr here, with
 * PostgreSQL's three columns; the catalog's tests cover naming it.
 */
#include "common/base.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/valgrind.h>

#include "access/freespace.h"
#include "access/heap_test.h"
#include "access/heapam.h"
#include "access/htup_xact.h"
#include "access/snapshot.h"
#include "access/vacuum.h"
#include "access/xact.h"
#include "common/elog.h"
#include "storage/bufmgr.h"
#include "storage/fd.h"
#include "storage/smgr.h"
#include "test.h"
#include "toast/toast_store.h"
#include "tuple/heaptuple.h"

/* ----------------------------------------------------------------------
 * The fixture (heap_test.h): one session, one toast table
 * ---------------------------------------------------------------------- */

/* pg_toast_<reloid>'s row type: chunk_id oid, chunk_seq int4,
 * chunk_data bytea, all PLAIN. */
static TupleDesc
toast_desc(void)
{
    TupleDesc desc = tdb_tupdesc_create(3);

    tdb_tupdesc_init_attr(desc, 0, "chunk_id", 26, -1, 4, true, 'i', 'p');
    tdb_tupdesc_init_attr(desc, 1, "chunk_seq", 23, -1, 4, true, 'i', 'p');
    tdb_tupdesc_init_attr(desc, 2, "chunk_data", 17, -1, -1, false, 'i', 'p');
    tdb_tupdesc_finalize(desc);
    return desc;
}

static HeapFixture *
start(int nbuffers)
{
    return heap_fixture_start(nbuffers, 16390, "pg_toast_16384",
                              toast_desc());
}

static bool
under_valgrind(void)
{
    return RUNNING_ON_VALGRIND != 0;
}

/* len bytes of a pattern that differs per seed and per position (so a
 * chunk copied to the wrong place shows). */
static char *
make_data(Size len, uint64 seed)
{
    char *data = tdb_palloc_extended(len > 0 ? len : 1, MCXT_ALLOC_HUGE);
    uint64 x = seed * 0x9E3779B97F4A7C15ULL + 1;
    Size i = 0;

    for (; i + 8 <= len; i += 8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(data + i, &x, 8);
    }
    for (; i < len; i++)
        data[i] = (char)(i * 31 + seed);
    return data;
}

/* Store len bytes uncompressed as the current command. */
static varatt_external
store_plain(HeapFixture *f, const char *data, Size len)
{
    varatt_external ptr;

    tdb_toast_store_value(&f->rel, f->xact, data, len, (int32)(len + VARHDRSZ),
                          0, &ptr);
    return ptr;
}

static int32
nchunks_of(Size len)
{
    return (int32)((len + TOAST_MAX_CHUNK_SIZE - 1) / TOAST_MAX_CHUNK_SIZE);
}

/* The fetched value is a plain 4B value holding exactly data[0 .. len). */
static bool
value_equals(const varlena *v, const char *data, Size len)
{
    return VARATT_IS_4B_U(v) && VARSIZE(v) == len + VARHDRSZ &&
           memcmp(VARDATA(v), data, len) == 0;
}

/* The value ptr points to fetches back as exactly data[0 .. len). */
static bool
fetches_as(HeapFixture *f, const varatt_external *ptr, const char *data,
           Size len)
{
    return value_equals(tdb_toast_fetch_value(&f->rel, ptr), data, len);
}

/* The header of the row at (block, off) of the toast relation, read
 * under a share lock into *copy. */
static void
read_row_header(HeapFixture *f, BlockNumber block, OffsetNumber off,
                HeapTupleHeaderData *copy)
{
    Buffer buf = tdb_buf_read(f->rel.rd_relfilenumber, block, NULL);
    Page page = tdb_buf_page(buf);

    tdb_buf_lock(buf, BUF_LOCK_SHARE);
    memcpy(copy, tdb_page_get_item(page, tdb_page_get_item_id(page, off)),
           SizeofHeapTupleHeader);
    tdb_buf_unlock_release(buf);
}

/* Copy page block of the toast relation out (save) or back (restore). */
static void
page_copy(HeapFixture *f, BlockNumber block, char *copy, bool restore)
{
    Buffer buf = tdb_buf_read(f->rel.rd_relfilenumber, block, NULL);

    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    if (restore) {
        memcpy(tdb_buf_page(buf), copy, BLCKSZ);
        tdb_buf_mark_dirty(buf);
    } else
        memcpy(copy, tdb_buf_page(buf), BLCKSZ);
    tdb_buf_unlock_release(buf);
}

/* The data area of the row at (block, off), exclusively locked: *bufp
 * receives the buffer to mark dirty and release. */
static char *
row_data(HeapFixture *f, BlockNumber block, OffsetNumber off, Buffer *bufp)
{
    Buffer buf = tdb_buf_read(f->rel.rd_relfilenumber, block, NULL);
    Page page = tdb_buf_page(buf);
    HeapTupleHeader tup;

    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    tup = (HeapTupleHeader)tdb_page_get_item(page,
                                             tdb_page_get_item_id(page, off));
    *bufp = buf;
    return (char *)tup + tup->t_hoff;
}

static void
done_row(Buffer buf)
{
    tdb_buf_mark_dirty(buf);
    tdb_buf_unlock_release(buf);
}

/* ----------------------------------------------------------------------
 * Addressing
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_valueid_encoding)
{
    BlockNumber b;
    OffsetNumber o;

    expect_u64_eq(tdb_toast_valueid_encode(0, 1), 1);
    expect_u64_eq(tdb_toast_valueid_encode(0, 8), 8);
    expect_u64_eq(tdb_toast_valueid_encode(1, 1), 9);
    expect_u64_eq(tdb_toast_valueid_encode(TOAST_MAX_BLOCK - 1, 8),
                  0xFFFFFFF8U);
    for (BlockNumber blk = 0; blk < 100000; blk += 997)
        for (OffsetNumber off = 1; off <= 8; off++) {
            Oid id = tdb_toast_valueid_encode(blk, off);

            expect_u64_ne(id, InvalidOid);
            tdb_toast_valueid_decode(id, &b, &o);
            expect_u64_eq(b, blk);
            expect_u64_eq(o, off);
        }
    tdb_toast_valueid_decode(0xFFFFFFF8U, &b, &o);
    expect_u64_eq(b, TOAST_MAX_BLOCK - 1);
    expect_u64_eq(o, 8);
}
TEST_END

/* ----------------------------------------------------------------------
 * Round trips
 * ---------------------------------------------------------------------- */

/*
 * Store data (len bytes) in the fixture's open transaction, check the
 * pointer and where the chunks went, make the rows visible, fetch it
 * back and count what the fetch read.
 */
static void
round_trip(HeapFixture *f, Size len, uint64 seed)
{
    char *data = make_data(len, seed);
    int32 nchunks = nchunks_of(len);
    BlockNumber nblocks_before =
        tdb_buf_relation_nblocks(f->rel.rd_relfilenumber);
    ToastStoreStats s0, s1;
    varatt_external ptr;
    varlena *v;
    BlockNumber blk;
    OffsetNumber off;

    ptr = store_plain(f, data, len);
    expect_int_eq(ptr.va_rawsize, (long long)(len + VARHDRSZ));
    expect_u64_eq(VARATT_EXTERNAL_GET_EXTSIZE(&ptr), len);
    expect_int_eq(VARATT_EXTERNAL_GET_COMPRESS_METHOD(&ptr), 0);
    expect_false(VARATT_EXTERNAL_IS_COMPRESSED(&ptr));
    expect_u64_eq(ptr.va_toastrelid, f->rel.rd_id);
    tdb_toast_valueid_decode(ptr.va_valueid, &blk, &off);
    if (nchunks > 1) {
        /* a fresh page at the end, 4 chunks a page */
        expect_u64_eq(blk, nblocks_before);
        expect_u64_eq(off, 1);
        expect_u64_eq(tdb_buf_relation_nblocks(f->rel.rd_relfilenumber),
                      nblocks_before + (BlockNumber)((nchunks + 3) / 4));
    }
    tdb_xact_command_counter_increment(f->xact);

    tdb_toast_store_stats(&s0);
    v = tdb_toast_fetch_value(&f->rel, &ptr);
    tdb_toast_store_stats(&s1);
    expect_true(value_equals(v, data, len));
    expect_u64_eq(s1.chunks_read - s0.chunks_read, (uint64)nchunks);
    expect_u64_eq(s1.pages_read - s0.pages_read,
                  nchunks == 1 ? 1 : (uint64)((nchunks + 3) / 4));
    expect_u64_eq(s1.values_fetched - s0.values_fetched, 1);
    tdb_pfree(v);
    tdb_pfree(data);
}

TEST_BEGIN(test_round_trips)
{
    static const Size sizes[] = {1,    1995, 1996, 1997,      3992,
                                 3993, 7984, 7985, 640 * 1024};
    HeapFixture *f = start(256);

    tdb_xact_begin(f->xact);
    for (size_t i = 0; i < lengthof(sizes); i++)
        round_trip(f, sizes[i], i + 1);
    expect_true(tdb_xact_commit(f->xact));
    expect_int_eq(tdb_buf_pins_held(), 0);
    heap_fixture_finish(f);
}
TEST_END

/* 10 MB through a pool of 2 MB: the write and the read go through rings
 * (more pages than a quarter of the pool) and read-ahead. */
TEST_BEGIN(test_ten_megabytes)
{
    HeapFixture *f = start(256);
    BufferUsage u0, u1;

    tdb_xact_begin(f->xact);
    tdb_buf_usage(&u0);
    round_trip(f, 10 * 1024 * 1024, 77);
    tdb_buf_usage(&u1);
    expect_true(tdb_xact_commit(f->xact));
    /* 5254 chunks on 1314 pages */
    expect_u64_eq(tdb_buf_relation_nblocks(f->rel.rd_relfilenumber), 1314);
    expect_u64_eq(u1.extends - u0.extends, 1314);
    heap_fixture_finish(f);
}
TEST_END

/*
 * A 100 MB value (52k chunks, 13k pages) in the default 128 MB pool:
 * about 1 s.  The largest value, 1 GB - 5 bytes (538k chunks), takes
 * about 15 s here (half of it writing and fsyncing 1.1 GB at commit) and
 * 2.1 GB of memory (the data and the fetched copy), so it runs only with
 * TDB_TEST_TOAST_1GB=1; the code paths are the same at both sizes
 * (batches of 64 chunks, rings, read-ahead).  Skipped under valgrind.
 */
TEST_BEGIN(test_big_value)
{
    const char *env = getenv("TDB_TEST_TOAST_1GB");
    bool full = env != NULL && strcmp(env, "1") == 0;
    HeapFixture *f;

    if (under_valgrind())
        test_skip("100 MB under valgrind takes minutes");
    f = start(TDB_DEFAULT_NBUFFERS);
    tdb_xact_begin(f->xact);
    round_trip(f,
               full ? TOAST_MAX_VALUE_SIZE - VARHDRSZ
                    : 100 * 1024 * 1024 + 12345,
               5);
    expect_true(tdb_xact_commit(f->xact));
    heap_fixture_finish(f);
}
TEST_END

/*
 * Single-chunk values share pages, up to 8 rows a page; a multi-chunk
 * value always starts a page of its own, and a single chunk may then
 * follow its last chunk.
 */
TEST_BEGIN(test_packing)
{
    HeapFixture *f = start(64);
    varatt_external ptrs[20];
    char *datas[20];
    Size lens[20];
    int n = 0;
    BlockNumber b;
    OffsetNumber o;

    tdb_xact_begin(f->xact);
    /* nine small values: 8 on page 0, the ninth on page 1 */
    for (int i = 0; i < 9; i++) {
        lens[n] = (Size)(100 + i);
        datas[n] = make_data(lens[n], (uint64)n);
        ptrs[n] = store_plain(f, datas[n], lens[n]);
        tdb_toast_valueid_decode(ptrs[n].va_valueid, &b, &o);
        expect_u64_eq(b, (BlockNumber)(i / 8));
        expect_u64_eq(o, (OffsetNumber)(i % 8 + 1));
        n++;
    }
    /* five chunks: pages 2 and 3 */
    lens[n] = 4 * TOAST_MAX_CHUNK_SIZE + 10;
    datas[n] = make_data(lens[n], (uint64)n);
    ptrs[n] = store_plain(f, datas[n], lens[n]);
    tdb_toast_valueid_decode(ptrs[n].va_valueid, &b, &o);
    expect_u64_eq(b, 2);
    expect_u64_eq(o, 1);
    n++;
    /* a small value after the short last chunk, on page 3 */
    lens[n] = 50;
    datas[n] = make_data(lens[n], (uint64)n);
    ptrs[n] = store_plain(f, datas[n], lens[n]);
    tdb_toast_valueid_decode(ptrs[n].va_valueid, &b, &o);
    expect_u64_eq(b, 3);
    expect_u64_eq(o, 2);
    n++;
    /* three full single chunks (2032-byte rows) still fit on page 3
     * (8168 - 156 - 92 = 7920 bytes free, 3 x 2036 = 6108) ... */
    for (int i = 0; i < 3; i++) {
        lens[n] = TOAST_MAX_CHUNK_SIZE;
        datas[n] = make_data(lens[n], (uint64)n);
        ptrs[n] = store_plain(f, datas[n], lens[n]);
        tdb_toast_valueid_decode(ptrs[n].va_valueid, &b, &o);
        expect_u64_eq(b, 3);
        expect_u64_eq(o, (OffsetNumber)(3 + i));
        n++;
    }
    /* ... a fourth does not (1812 bytes left) */
    lens[n] = TOAST_MAX_CHUNK_SIZE;
    datas[n] = make_data(lens[n], (uint64)n);
    ptrs[n] = store_plain(f, datas[n], lens[n]);
    tdb_toast_valueid_decode(ptrs[n].va_valueid, &b, &o);
    expect_u64_eq(b, 4);
    expect_u64_eq(o, 1);
    n++;
    /* two chunks: a new page though page 4 has room */
    lens[n] = TOAST_MAX_CHUNK_SIZE + 1;
    datas[n] = make_data(lens[n], (uint64)n);
    ptrs[n] = store_plain(f, datas[n], lens[n]);
    tdb_toast_valueid_decode(ptrs[n].va_valueid, &b, &o);
    expect_u64_eq(b, 5);
    expect_u64_eq(o, 1);
    n++;
    tdb_xact_command_counter_increment(f->xact);

    for (int i = 0; i < n; i++) {
        varlena *v = tdb_toast_fetch_value(&f->rel, &ptrs[i]);

        expect_true(value_equals(v, datas[i], lens[i]));
        /* the ids are distinct */
        for (int j = 0; j < i; j++)
            expect_u64_ne(ptrs[i].va_valueid, ptrs[j].va_valueid);
    }
    expect_true(tdb_xact_commit(f->xact));
    expect_int_eq(count_from_other_session(f), 9 + 5 + 1 + 3 + 1 + 2);
    heap_fixture_finish(f);
}
TEST_END

/*
 * A line pointer freed on the last page (what VACUUM does to a dead
 * chunk row) is taken by the next single chunk: the id comes from where
 * the row landed, not from a guess, and it may be the removed value's id
 * -- PostgreSQL's OID reuse rule, the removed value being dead to all.
 */
TEST_BEGIN(test_freed_line_pointer_reused)
{
    HeapFixture *f = start(64);
    char *data = make_data(300, 41);
    varatt_external ptrs[3], again;
    Buffer buf;
    BlockNumber b;
    OffsetNumber o;

    tdb_xact_begin(f->xact);
    for (int i = 0; i < 3; i++)
        ptrs[i] = store_plain(f, data + i, 100);
    expect_true(tdb_xact_commit(f->xact));

    /* the second value's row removed, as VACUUM would after its delete */
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    ItemIdSetUnused(tdb_page_get_item_id(tdb_buf_page(buf), 2));
    tdb_page_flag_set(tdb_buf_page(buf), PD_HAS_FREE_LINES);
    done_row(buf);

    tdb_xact_begin(f->xact);
    again = store_plain(f, data + 100, 150);
    expect_true(tdb_xact_commit(f->xact));
    tdb_toast_valueid_decode(again.va_valueid, &b, &o);
    expect_u64_eq(b, 0);
    expect_u64_eq(o, 2);
    expect_u64_eq(again.va_valueid, ptrs[1].va_valueid);
    expect_true(fetches_as(f, &again, data + 100, 150));
    expect_true(fetches_as(f, &ptrs[0], data, 100));
    expect_true(fetches_as(f, &ptrs[2], data + 2, 100));
    /* the old pointer now reads the new value's row: it is the wrong
     * size for the old one -- damage, had anyone still held it */
    expect_error(tdb_toast_fetch_value(&f->rel, &ptrs[1]),
                 ERRCODE_DATA_CORRUPTED, "unexpected chunk size 150");
    heap_fixture_finish(f);
}
TEST_END

/* A compressed value: va_tcinfo + compressed bytes go to the chunks; the
 * fetch puts a compressed header in front. */
TEST_BEGIN(test_compressed_pointer)
{
    HeapFixture *f = start(64);
    Size clen = 5000;
    char *stored = make_data(clen + 4, 3);
    uint32 tcinfo = 100000u | ((uint32)TOAST_LZ4_COMPRESSION_ID << 30);
    varatt_external ptr;
    varlena *v;
    ToastStoreStats s0, s1;

    memcpy(stored, &tcinfo, 4);
    tdb_xact_begin(f->xact);
    tdb_toast_store_value(&f->rel, f->xact, stored, clen + 4, 100000 + VARHDRSZ,
                          (uint32)TOAST_LZ4_COMPRESSION_ID << 30, &ptr);
    expect_int_eq(ptr.va_rawsize, 100004);
    expect_u64_eq(VARATT_EXTERNAL_GET_EXTSIZE(&ptr), clen + 4);
    expect_int_eq(VARATT_EXTERNAL_GET_COMPRESS_METHOD(&ptr),
                  TOAST_LZ4_COMPRESSION_ID);
    expect_true(VARATT_EXTERNAL_IS_COMPRESSED(&ptr));
    tdb_xact_command_counter_increment(f->xact);

    v = tdb_toast_fetch_value(&f->rel, &ptr);
    expect_true(VARATT_IS_COMPRESSED(v));
    expect_u64_eq(VARSIZE_4B(v), clen + 4 + VARHDRSZ);
    expect_u64_eq(VARDATA_COMPRESSED_GET_EXTSIZE(v), 100000);
    expect_int_eq(VARDATA_COMPRESSED_GET_COMPRESS_METHOD(v),
                  TOAST_LZ4_COMPRESSION_ID);
    expect_int_eq(memcmp(VARDATA(v), stored, clen + 4), 0);

    /* a slice of a compressed value: the prefix [0, 100 + 2000) of the
     * stored bytes, from the first two chunks only */
    tdb_toast_store_stats(&s0);
    v = tdb_toast_fetch_slice(&f->rel, &ptr, 100, 2000);
    tdb_toast_store_stats(&s1);
    expect_true(VARATT_IS_COMPRESSED(v));
    expect_u64_eq(VARSIZE_4B(v), 2100 + VARHDRSZ);
    expect_int_eq(memcmp(VARDATA(v), stored, 2100), 0);
    expect_u64_eq(s1.chunks_read - s0.chunks_read, 2);
    /* a prefix past the end: the whole stored value */
    v = tdb_toast_fetch_slice(&f->rel, &ptr, 0, 1 << 30);
    expect_u64_eq(VARSIZE_4B(v), clen + 4 + VARHDRSZ);
    expect_int_eq(memcmp(VARDATA(v), stored, clen + 4), 0);

    /* pglz's id is 0: an uncompressed-looking method, told apart by the
     * sizes only */
    tdb_toast_store_value(&f->rel, f->xact, stored, 3000, 9000, 0, &ptr);
    expect_true(VARATT_EXTERNAL_IS_COMPRESSED(&ptr));
    expect_int_eq(VARATT_EXTERNAL_GET_COMPRESS_METHOD(&ptr),
                  TOAST_PGLZ_COMPRESSION_ID);
    tdb_xact_command_counter_increment(f->xact);
    v = tdb_toast_fetch_value(&f->rel, &ptr);
    expect_true(VARATT_IS_COMPRESSED(v));
    expect_u64_eq(VARSIZE_4B(v), 3004);
    expect_true(tdb_xact_commit(f->xact));
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Slices
 * ---------------------------------------------------------------------- */

/* Fetch [offset, offset + length) and check the bytes and how many
 * chunks and pages were read. */
static void
check_slice(HeapFixture *f, const varatt_external *ptr, const char *data,
            Size len, int32 offset, int32 length, uint64 chunks, uint64 pages)
{
    ToastStoreStats s0, s1;
    varlena *v;
    Size start = (Size)Max(offset, 0);
    Size end = length < 0 ? len : Min(len, start + (Size)length);

    if (start > end)
        start = end;
    tdb_toast_store_stats(&s0);
    v = tdb_toast_fetch_slice(&f->rel, ptr, offset, length);
    tdb_toast_store_stats(&s1);
    expect_true(VARATT_IS_4B_U(v));
    expect_u64_eq(VARSIZE(v), end - start + VARHDRSZ);
    expect_int_eq(memcmp(VARDATA(v), data + start, end - start), 0);
    expect_u64_eq(s1.chunks_read - s0.chunks_read, chunks);
    expect_u64_eq(s1.pages_read - s0.pages_read, pages);
    tdb_pfree(v);
}

TEST_BEGIN(test_slices)
{
    HeapFixture *f = start(64);
    const int32 C = TOAST_MAX_CHUNK_SIZE;
    Size len = 41 * (Size)C + 7; /* 42 chunks on 11 pages */
    char *data = make_data(len, 11);
    varatt_external ptr;

    tdb_xact_begin(f->xact);
    /* something before it, so the value does not start at block 0 */
    store_plain(f, data, 10);
    ptr = store_plain(f, data, len);
    tdb_xact_command_counter_increment(f->xact);

    check_slice(f, &ptr, data, len, 0, 1, 1, 1);
    check_slice(f, &ptr, data, len, C - 1, 1, 1, 1);
    check_slice(f, &ptr, data, len, C - 1, 2, 2, 1);     /* chunk 0|1 */
    check_slice(f, &ptr, data, len, C, C, 1, 1);         /* chunk 1 */
    check_slice(f, &ptr, data, len, 4 * C - 1, 2, 2, 2); /* page 0|1 */
    check_slice(f, &ptr, data, len, 4 * C, 4 * C, 4, 1); /* page 1 */
    check_slice(f, &ptr, data, len, 10 * C + 5, 3 * C, 4, 2);
    check_slice(f, &ptr, data, len, 41 * C, 7, 1, 1);       /* last chunk */
    check_slice(f, &ptr, data, len, 41 * C + 6, 100, 1, 1); /* clipped */
    check_slice(f, &ptr, data, len, 40 * C, -1, 2, 1);      /* to the end */
    check_slice(f, &ptr, data, len, 0, -1, 42, 11);         /* everything */
    check_slice(f, &ptr, data, len, (int32)len, 10, 0, 0);  /* past it */
    check_slice(f, &ptr, data, len, (int32)len + 100, 10, 0, 0);
    check_slice(f, &ptr, data, len, 5, 0, 0, 0);  /* empty */
    check_slice(f, &ptr, data, len, -3, 5, 1, 1); /* from 0 */
    expect_true(tdb_xact_commit(f->xact));
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * MVCC: aborted stores, deletes
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_aborted_store)
{
    HeapFixture *f = start(64);
    char *data = make_data(3 * TOAST_MAX_CHUNK_SIZE, 1);
    varatt_external ptr, ptr2;
    HeapTupleHeaderData hdr;
    TransactionId xid;
    BlockNumber b;
    OffsetNumber o;

    tdb_xact_begin(f->xact);
    ptr = store_plain(f, data, 3 * TOAST_MAX_CHUNK_SIZE);
    xid = tdb_xact_current_xid(f->xact);
    tdb_xact_abort(f->xact);

    /* the chunks are there, as rows of the aborted transaction */
    tdb_toast_valueid_decode(ptr.va_valueid, &b, &o);
    for (OffsetNumber off = 1; off <= 3; off++) {
        read_row_header(f, b, off, &hdr);
        expect_u64_eq(HeapTupleHeaderGetRawXmin(&hdr), xid);
        expect_u64_eq(HeapTupleHeaderGetRawXmax(&hdr), InvalidTransactionId);
    }
    expect_false(tdb_xact_xid_did_commit(f->tm, xid));
    expect_int_eq(count_from_other_session(f), 0);
    /* a fetch applies no snapshot: the bytes are still readable (no
     * caller holds this pointer, as its row died too) */
    expect_true(fetches_as(f, &ptr, data, 3 * TOAST_MAX_CHUNK_SIZE));

    /* the next value does not reuse their place */
    tdb_xact_begin(f->xact);
    ptr2 = store_plain(f, data, 3 * TOAST_MAX_CHUNK_SIZE);
    expect_u64_ne(ptr2.va_valueid, ptr.va_valueid);
    expect_true(tdb_xact_commit(f->xact));
    expect_int_eq(count_from_other_session(f), 3);
    heap_fixture_finish(f);
}
TEST_END

TEST_BEGIN(test_delete)
{
    HeapFixture *f = start(64);
    Size len = 9 * TOAST_MAX_CHUNK_SIZE + 1; /* 10 chunks, 3 pages */
    char *data = make_data(len, 2);
    Transaction *reader;
    Snapshot old_snap;
    varatt_external ptr, small;
    TransactionId deleter;
    BlockNumber b;
    OffsetNumber o;
    ToastStoreStats s0, s1;

    tdb_xact_begin(f->xact);
    ptr = store_plain(f, data, len);
    small = store_plain(f, data, 20);
    /* the same command cannot delete what it just stored */
    expect_error(tdb_toast_delete_value(&f->rel, &ptr, f->xact),
                 ERRCODE_INTERNAL_ERROR, "attempted to delete invisible");
    tdb_xact_abort(f->xact);

    tdb_xact_begin(f->xact);
    ptr = store_plain(f, data, len);
    small = store_plain(f, data, 20);
    expect_true(tdb_xact_commit(f->xact));
    expect_int_eq(count_from_other_session(f), 11);

    /* a reader whose snapshot predates the delete */
    reader = begin_new(f->tm);
    old_snap = tdb_snapshot_take(f->tm, reader, tdb_current_mcxt);

    tdb_xact_begin(f->xact);
    tdb_toast_store_stats(&s0);
    tdb_toast_delete_value(&f->rel, &ptr, f->xact);
    tdb_toast_store_stats(&s1);
    expect_u64_eq(s1.chunks_deleted - s0.chunks_deleted, 10);
    deleter = tdb_xact_current_xid(f->xact);
    /* a second delete by the same command ... */
    expect_error(tdb_toast_delete_value(&f->rel, &ptr, f->xact),
                 ERRCODE_INTERNAL_ERROR, "tuple already updated by self");
    tdb_xact_abort(f->xact);
    /* ... or by a later one (the chunks are then invisible to it) */
    tdb_xact_begin(f->xact);
    tdb_toast_delete_value(&f->rel, &ptr, f->xact);
    tdb_xact_command_counter_increment(f->xact);
    expect_error(tdb_toast_delete_value(&f->rel, &ptr, f->xact),
                 ERRCODE_INTERNAL_ERROR, "attempted to delete invisible");
    tdb_xact_abort(f->xact);
    /* that abort undid the delete: do it again and commit */
    tdb_xact_begin(f->xact);
    tdb_toast_delete_value(&f->rel, &ptr, f->xact);
    deleter = tdb_xact_current_xid(f->xact);
    expect_true(tdb_xact_commit(f->xact));

    /* every chunk carries the deleter's xmax */
    tdb_toast_valueid_decode(ptr.va_valueid, &b, &o);
    for (int32 k = 0; k < 10; k++) {
        HeapTupleHeaderData hdr;

        read_row_header(f, b + (BlockNumber)(k / 4), (OffsetNumber)(k % 4 + 1),
                        &hdr);
        expect_u64_eq(HeapTupleHeaderGetRawXmax(&hdr), deleter);
        expect_false(hdr.t_infomask & HEAP_XMAX_INVALID);
    }
    /* gone for new snapshots, there for the old one */
    expect_int_eq(count_from_other_session(f), 1);
    expect_int_eq(count_visible(f, old_snap), 11);
    /* the old snapshot's pointer still reads (no VACUUM removes them) */
    expect_true(fetches_as(f, &ptr, data, len));
    expect_true(fetches_as(f, &small, data, 20));
    tdb_xact_commit(reader);
    tdb_xact_destroy(reader);

    /* deleting a deleted value again: someone else did it */
    tdb_xact_begin(f->xact);
    expect_error(tdb_toast_delete_value(&f->rel, &ptr, f->xact),
                 ERRCODE_INTERNAL_ERROR, "tuple concurrently deleted");
    tdb_xact_abort(f->xact);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Damage
 * ---------------------------------------------------------------------- */

/* Fetching and deleting both raise code with message, and leave no pin. */
#define expect_damage(f, ptr, substr)                                          \
    do {                                                                       \
        expect_error(tdb_toast_fetch_value(&(f)->rel, (ptr)),                  \
                     ERRCODE_DATA_CORRUPTED, (substr));                        \
        expect_int_eq(tdb_buf_pins_held(), 0);                                 \
        tdb_xact_begin((f)->xact);                                             \
        expect_error(tdb_toast_delete_value(&(f)->rel, (ptr), (f)->xact),      \
                     ERRCODE_DATA_CORRUPTED, (substr));                        \
        expect_int_eq(tdb_buf_pins_held(), 0);                                 \
        tdb_xact_abort((f)->xact);                                             \
    } while (0)

TEST_BEGIN(test_damaged_chunks)
{
    HeapFixture *f = start(64);
    Size len = 5 * TOAST_MAX_CHUNK_SIZE + 100; /* 6 chunks, pages 0-1 */
    char *data = make_data(len, 4);
    char *saved0 = tdb_palloc(BLCKSZ), *saved1 = tdb_palloc(BLCKSZ);
    varatt_external ptr, bad;
    char msg[256];
    Buffer buf;
    char *row;
    int32 v;
    ItemId lp;

    tdb_xact_begin(f->xact);
    ptr = store_plain(f, data, len);
    expect_true(tdb_xact_commit(f->xact));
    page_copy(f, 0, saved0, false);
    page_copy(f, 1, saved1, false);

    /* a chunk row gone (line pointer unused) */
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    ItemIdSetUnused(tdb_page_get_item_id(tdb_buf_page(buf), 3));
    done_row(buf);
    snprintf(msg, sizeof(msg),
             "missing chunk number 2 for toast value %u in pg_toast_16384",
             ptr.va_valueid);
    expect_damage(f, &ptr, msg);
    /* a slice that does not need chunk 2 still reads */
    expect_true(value_equals(
        tdb_toast_fetch_slice(&f->rel, &ptr, 0, TOAST_MAX_CHUNK_SIZE), data,
        TOAST_MAX_CHUNK_SIZE));
    page_copy(f, 0, saved0, true);

    /* chunk_seq overwritten */
    row = row_data(f, 0, 2, &buf);
    v = 7;
    memcpy(row + 4, &v, 4);
    done_row(buf);
    snprintf(msg, sizeof(msg),
             "unexpected chunk number 7 (expected 1) for toast value %u in "
             "pg_toast_16384",
             ptr.va_valueid);
    expect_damage(f, &ptr, msg);
    page_copy(f, 0, saved0, true);

    /* chunk_id overwritten: the row is another value's */
    row = row_data(f, 1, 1, &buf);
    v = 12345;
    memcpy(row, &v, 4);
    done_row(buf);
    snprintf(msg, sizeof(msg),
             "missing chunk number 4 for toast value %u in pg_toast_16384",
             ptr.va_valueid);
    expect_damage(f, &ptr, msg);
    expect_str_contains(tdb_test_last_error.detail, "toast value 12345");
    page_copy(f, 1, saved1, true);

    /* chunk_data shorter than a full chunk */
    row = row_data(f, 0, 1, &buf);
    SET_VARSIZE(row + 8, 1000 + VARHDRSZ);
    done_row(buf);
    snprintf(msg, sizeof(msg),
             "unexpected chunk size 1000 (expected 1996) in chunk 0 of 6 for "
             "toast value %u in pg_toast_16384",
             ptr.va_valueid);
    expect_damage(f, &ptr, msg);
    page_copy(f, 0, saved0, true);

    /* chunk_data flagged compressed */
    row = row_data(f, 1, 2, &buf);
    row[8] |= 0x02;
    done_row(buf);
    expect_damage(f, &ptr, "found toasted toast chunk");
    page_copy(f, 1, saved1, true);

    /* a line pointer pointing outside the page */
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 1, NULL);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    lp = tdb_page_get_item_id(tdb_buf_page(buf), 2);
    ItemIdSetNormal(lp, BLCKSZ - 8, 64);
    done_row(buf);
    expect_damage(f, &ptr, "invalid chunk row at (1,2)");
    page_copy(f, 1, saved1, true);

    /* a row header claiming a data offset that is not MAXALIGNed */
    buf = tdb_buf_read(f->rel.rd_relfilenumber, 0, NULL);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    ((HeapTupleHeader)tdb_page_get_item(
         tdb_buf_page(buf), tdb_page_get_item_id(tdb_buf_page(buf), 4)))
        ->t_hoff = 27;
    done_row(buf);
    expect_damage(f, &ptr, "invalid chunk row at (0,4)");
    page_copy(f, 0, saved0, true);

    /* pointers that lie: a size the chunks do not have, a value past the
     * end of the relation, several chunks not starting a page */
    bad = ptr;
    bad.va_extinfo = (uint32)(len + 1);
    bad.va_rawsize = (int32)(len + 1 + VARHDRSZ);
    expect_damage(f, &bad, "unexpected chunk size 100 (expected 101)");
    bad = ptr;
    bad.va_valueid = tdb_toast_valueid_encode(1000, 1);
    expect_damage(f, &bad, "missing chunk number 0");
    bad = ptr;
    bad.va_valueid = tdb_toast_valueid_encode(0, 2);
    expect_damage(f, &bad, "chunks not starting a page");
    bad = ptr;
    bad.va_valueid = 0;
    expect_damage(f, &bad, "invalid external pointer");
    bad = ptr;
    bad.va_rawsize = 10; /* smaller than what is stored */
    expect_damage(f, &bad, "invalid external pointer");

    /* after all that, the value is whole and nothing was deleted */
    expect_true(fetches_as(f, &ptr, data, len));
    expect_int_eq(count_from_other_session(f), 6);
    heap_fixture_finish(f);
}
TEST_END

/* The disk fills up in the middle of a store: 53100, nothing held, the
 * chunks written so far die with the transaction, and the next store
 * starts after them. */
TEST_BEGIN(test_disk_full_store)
{
    HeapFixture *f = start(64);
    Size len = 9 * TOAST_MAX_CHUNK_SIZE + 1; /* 10 chunks, 3 pages */
    char *data = make_data(len, 31);
    varatt_external before, after;
    MemoryContext cxt;
    BlockNumber nblocks, b;
    OffsetNumber o;

    tdb_xact_begin(f->xact);
    before = store_plain(f, data, 500);
    expect_true(tdb_xact_commit(f->xact));

    tdb_xact_begin(f->xact);
    (void)tdb_xact_assign_xid(f->xact); /* its control-file write first */
    if (!tdb_fd_inject(FD_OP_WRITE, 2, ENOSPC)) {
        tdb_xact_abort(f->xact);
        heap_fixture_finish(f);
        test_skip("fault injection needs a TDB_DEBUG build");
    }
    cxt = tdb_current_mcxt;
    expect_error(store_plain(f, data, len), ERRCODE_DISK_FULL,
                 "could not extend file");
    tdb_fd_inject_clear();
    expect_ptr_eq(tdb_current_mcxt, cxt); /* not the store's batch context */
    expect_int_eq(tdb_buf_pins_held(), 0);
    tdb_xact_abort(f->xact);
    /* the first page of the failed value was added, its rows are dead */
    nblocks = tdb_buf_relation_nblocks(f->rel.rd_relfilenumber);
    expect_u64_eq(nblocks, 2);
    expect_int_eq(count_from_other_session(f), 1);

    tdb_xact_begin(f->xact);
    after = store_plain(f, data, len);
    expect_true(tdb_xact_commit(f->xact));
    tdb_toast_valueid_decode(after.va_valueid, &b, &o);
    expect_u64_eq(b, nblocks);
    expect_true(fetches_as(f, &after, data, len));
    expect_true(fetches_as(f, &before, data, 500));
    expect_int_eq(count_from_other_session(f), 11);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Durability
 * ---------------------------------------------------------------------- */

/* Committed values are on disk at commit: the pool is thrown away
 * unwritten (a crash), the database reopened, and they read back. */
TEST_BEGIN(test_survives_crash_after_commit)
{
    HeapFixture *f = start(64);
    Size len = 640 * 1024;
    char *data = make_data(len, 9);
    varatt_external big, small;

    tdb_xact_begin(f->xact);
    big = store_plain(f, data, len);
    small = store_plain(f, data + 5, 300);
    expect_true(tdb_xact_commit(f->xact));

    /* the crash: nothing written back, the manager and files let go */
    tdb_bufmgr_discard();
    tdb_xact_destroy(f->xact);
    tdb_xact_manager_close(f->tm);
    tdb_datadir_close(f->dd);

    f->dd = tdb_datadir_open(NULL, f->path);
    heap_fixture_open(f, 64);
    expect_true(fetches_as(f, &big, data, len));
    expect_true(fetches_as(f, &small, data + 5, 300));
    expect_int_eq(count_from_other_session(f), 329 + 1);
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Readers beside a writer
 * ---------------------------------------------------------------------- */

typedef struct ReaderArgs {
    HeapFixture *f;
    varatt_external ptr;
    const char *data;
    Size len;
    atomic_bool *stop;
    atomic_int fetches;
    int errors;
    char error[1024];
} ReaderArgs;

static void *
reader_main(void *arg)
{
    ReaderArgs *r = arg;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        do {
            varlena *v = tdb_toast_fetch_value(&r->f->rel, &r->ptr);

            if (!value_equals(v, r->data, r->len)) {
                r->errors++;
                snprintf(r->error, sizeof(r->error), "wrong bytes");
            }
            tdb_pfree(v);
            atomic_fetch_add(&r->fetches, 1);
        } while (!atomic_load(r->stop) || atomic_load(&r->fetches) < 3);
    }
    TDB_CATCH();
    {
        r->errors++;
        snprintf(r->error, sizeof(r->error), "%s",
                 tdb_error_current()->message);
        tdb_error_flush();
        tdb_buf_release_all_pins_of_thread();
        atomic_fetch_add(&r->fetches, 1); /* the writer waits for one */
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return NULL;
}

TEST_BEGIN(test_readers_beside_writer)
{
    HeapFixture *f = start(128);
    Size len = 100 * 1024;
    char *data = make_data(len, 21);
    char *more = make_data(30000, 22);
    atomic_bool stop = false;
    ReaderArgs args[2];
    pthread_t threads[2];
    varatt_external ptrs[40];
    int nwrites = under_valgrind() ? 10 : 40;

    tdb_xact_begin(f->xact);
    args[0].ptr = store_plain(f, data, len);
    expect_true(tdb_xact_commit(f->xact));
    for (int i = 0; i < 2; i++) {
        if (i > 0)
            args[i].ptr = args[0].ptr;
        args[i].f = f;
        args[i].data = data;
        args[i].len = len;
        args[i].stop = &stop;
        atomic_init(&args[i].fetches, 0);
        args[i].errors = 0;
        pthread_create(&threads[i], NULL, reader_main, &args[i]);
    }
    /* the writer appends pages and packs small values onto the last
     * page -- the first one onto the readers' last page (its 52nd chunk
     * leaves room) -- while they read */
    for (int i = 0; i < 2; i++) /* both reading before the writer starts */
        while (atomic_load(&args[i].fetches) == 0)
            sched_yield();
    tdb_xact_begin(f->xact);
    for (int i = 0; i < nwrites; i++)
        ptrs[i] = store_plain(f, more, (Size)(i % 2 == 1 ? 30000 : 100 + i));
    expect_true(tdb_xact_commit(f->xact));
    atomic_store(&stop, true);
    {
        BlockNumber b;
        OffsetNumber o;

        tdb_toast_valueid_decode(ptrs[0].va_valueid, &b, &o);
        expect_u64_eq(b, 12);
        expect_u64_eq(o, 5);
    }
    for (int i = 0; i < 2; i++) {
        join_within(threads[i]);
        expect_int_eq(args[i].errors, 0);
        if (args[i].errors != 0)
            printf("    reader %d: %s\n", i, args[i].error);
        expect_true(atomic_load(&args[i].fetches) >= 3);
    }
    for (int i = 0; i < nwrites; i++)
        expect_true(fetches_as(f, &ptrs[i], more,
                               (Size)(i % 2 == 1 ? 30000 : 100 + i)));
    heap_fixture_finish(f);
}
TEST_END

/* ----------------------------------------------------------------------
 * Reusing the space VACUUM freed
 * ---------------------------------------------------------------------- */

static void
expect_at(const varatt_external *ptr, BlockNumber block, OffsetNumber off)
{
    BlockNumber b;
    OffsetNumber o;

    tdb_toast_valueid_decode(ptr->va_valueid, &b, &o);
    expect_u64_eq(b, block);
    expect_u64_eq(o, off);
}

/*
 * Deleted values' pages, once VACUUM emptied them, take new multi-chunk
 * values (the lowest run long enough) and single chunks (pages already
 * in use first); a value longer than every run appends; every value
 * reads back exactly, the survivors too.
 */
TEST_BEGIN(test_reuse_after_vacuum)
{
    HeapFixture *f = start(64);
    Size len10 = 9 * TOAST_MAX_CHUNK_SIZE + 1;  /* 10 chunks: 3 pages */
    Size len9 = 9 * TOAST_MAX_CHUNK_SIZE;       /* 9 chunks: 3 pages */
    Size len5 = 4 * TOAST_MAX_CHUNK_SIZE + 7;   /* 5 chunks: 2 pages */
    Size len13 = 12 * TOAST_MAX_CHUNK_SIZE + 3; /* 13 chunks: 4 pages */
    char *data = make_data(len13 + 1000, 51);
    varatt_external a, b, c, d, e, g, h, k, sm;
    VacuumStats st;

    tdb_xact_begin(f->xact);
    a = store_plain(f, data, len10);    /* pages 0-2 */
    b = store_plain(f, data + 1, 100);  /* page 2, offset 3 */
    c = store_plain(f, data + 2, len9); /* pages 3-5 */
    d = store_plain(f, data + 3, len5); /* pages 6-7 */
    expect_true(tdb_xact_commit(f->xact));
    expect_at(&b, 2, 3);
    expect_at(&c, 3, 1);
    expect_at(&d, 6, 1);
    expect_u64_eq(rel_nblocks(f), 8);

    /* nothing dead yet: nothing empty, a value appends */
    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 0);
    expect_int_eq(tdb_fsm_nempty(f->rel.rd_relfilenumber), 0);

    tdb_xact_begin(f->xact);
    tdb_toast_delete_value(&f->rel, &a, f->xact);
    tdb_toast_delete_value(&f->rel, &c, f->xact);
    expect_true(tdb_xact_commit(f->xact));
    st = vacuum_rel(f);
    expect_u64_eq(st.tuples_removed, 19);
    /* pages 0, 1, 3, 4, 5 empty; page 2 keeps b */
    expect_int_eq(tdb_fsm_nempty(f->rel.rd_relfilenumber), 5);

    tdb_xact_begin(f->xact);
    /* three pages: not 0-1 (too short), 3-5 */
    e = store_plain(f, data + 10, len9);
    expect_at(&e, 3, 1);
    /* two pages: 0-1 */
    g = store_plain(f, data + 11, len5);
    expect_at(&g, 0, 1);
    /* a single chunk: the lowest page in use with room -- the last page
     * of g's run (page 0 is full) -- not an empty one */
    sm = store_plain(f, data + 12, 200);
    expect_at(&sm, 1, 2);
    expect_u64_eq(rel_nblocks(f), 8);
    /* four pages: no run that long left, so it appends */
    h = store_plain(f, data + 13, len13);
    expect_at(&h, 8, 1);
    expect_u64_eq(rel_nblocks(f), 12);
    expect_true(tdb_xact_commit(f->xact));

    expect_true(fetches_as(f, &b, data + 1, 100));
    expect_true(fetches_as(f, &d, data + 3, len5));
    expect_true(fetches_as(f, &e, data + 10, len9));
    expect_true(fetches_as(f, &g, data + 11, len5));
    expect_true(fetches_as(f, &sm, data + 12, 200));
    expect_true(fetches_as(f, &h, data + 13, len13));
    /* a slice of a value in reused pages reads only its pages */
    {
        varlena *v = tdb_toast_fetch_slice(&f->rel, &e,
                                           5 * TOAST_MAX_CHUNK_SIZE + 10, 20);

        expect_true(
            value_equals(v, data + 10 + 5 * TOAST_MAX_CHUNK_SIZE + 10, 20));
    }
    /* the reused pages hold exactly the new rows */
    expect_int_eq(count_from_other_session(f), 1 + 5 + 9 + 5 + 1 + 13);
    expect_int_eq(tdb_fsm_nempty(f->rel.rd_relfilenumber), 0);

    /* an aborted store's pages are emptied by VACUUM and reused */
    tdb_xact_begin(f->xact);
    k = store_plain(f, data + 20, len13); /* pages 12-15 */
    expect_at(&k, 12, 1);
    tdb_xact_abort(f->xact);
    vacuum_rel(f);
    expect_int_eq(tdb_fsm_nempty(f->rel.rd_relfilenumber), 4);
    tdb_xact_begin(f->xact);
    k = store_plain(f, data + 21, len13);
    expect_at(&k, 12, 1);
    expect_true(tdb_xact_commit(f->xact));
    expect_u64_eq(rel_nblocks(f), 16);
    expect_true(fetches_as(f, &k, data + 21, len13));
    heap_fixture_finish(f);
}
TEST_END

/*
 * Single chunks: up to 8 rows a page also on pages taken from the
 * record (a page with 8 line pointers takes a row only at a freed one),
 * partly used pages before empty ones, and a page at the cap leaves the
 * record instead of being offered again.
 */
TEST_BEGIN(test_reuse_single_chunks)
{
    HeapFixture *f = start(64);
    char *data = make_data(20000, 52);
    Size big = 5 * TOAST_MAX_CHUNK_SIZE; /* 5 chunks: 2 pages */
    varatt_external small[8], x, y, z, m;

    tdb_xact_begin(f->xact);
    for (int i = 0; i < 8; i++) /* page 0, offsets 1-8 */
        small[i] = store_plain(f, data + i, 50);
    m = store_plain(f, data + 100, big); /* pages 1-2 */
    expect_true(tdb_xact_commit(f->xact));
    expect_at(&m, 1, 1);

    /* free small[2] and small[7]: page 0 keeps 6 rows, slot 3 free below
     * the last one, the last slot cut off -- room for two */
    tdb_xact_begin(f->xact);
    tdb_toast_delete_value(&f->rel, &small[2], f->xact);
    tdb_toast_delete_value(&f->rel, &small[7], f->xact);
    tdb_toast_delete_value(&f->rel, &m, f->xact);
    expect_true(tdb_xact_commit(f->xact));
    vacuum_rel(f);
    expect_int_eq(tdb_fsm_nempty(f->rel.rd_relfilenumber), 2);

    tdb_xact_begin(f->xact);
    /* page 0 first, though empty pages have more room */
    x = store_plain(f, data + 200, 60);
    expect_at(&x, 0, 3);
    y = store_plain(f, data + 201, 60);
    expect_at(&y, 0, 8);
    /* page 0 is full of line pointers: the lowest empty page now */
    z = store_plain(f, data + 202, 60);
    expect_at(&z, 1, 1);
    expect_u64_eq(rel_nblocks(f), 3);
    expect_true(tdb_xact_commit(f->xact));
    /* page 1 is no longer empty: a two-page value cannot use 1-2 */
    tdb_xact_begin(f->xact);
    m = store_plain(f, data + 300, big);
    expect_at(&m, 3, 1);
    expect_true(tdb_xact_commit(f->xact));

    for (int i = 0; i < 8; i++)
        if (i != 2 && i != 7)
            expect_true(fetches_as(f, &small[i], data + i, 50));
    expect_true(fetches_as(f, &x, data + 200, 60));
    expect_true(fetches_as(f, &y, data + 201, 60));
    expect_true(fetches_as(f, &z, data + 202, 60));
    expect_true(fetches_as(f, &m, data + 300, big));
    heap_fixture_finish(f);
}
TEST_END

/*
 * The record is a hint: pages marked empty that hold rows (VACUUM saw
 * them empty before a store filled them) are found out under their
 * locks, their marks cleared, and the next run tried; marks past the
 * end of the relation are dropped.
 */
TEST_BEGIN(test_reuse_stale_record)
{
    HeapFixture *f = start(64);
    Size big = 5 * TOAST_MAX_CHUNK_SIZE; /* 2 pages */
    char *data = make_data(big + 100, 53);
    varatt_external p1, p2, q, r;
    FsmPage pages[6];

    tdb_xact_begin(f->xact);
    p1 = store_plain(f, data, big);     /* pages 0-1 */
    p2 = store_plain(f, data + 1, big); /* pages 2-3 */
    q = store_plain(f, data + 2, big);  /* pages 4-5 */
    expect_true(tdb_xact_commit(f->xact));
    tdb_xact_begin(f->xact);
    tdb_toast_delete_value(&f->rel, &p2, f->xact);
    expect_true(tdb_xact_commit(f->xact));
    vacuum_rel(f);
    expect_int_eq(tdb_fsm_nempty(f->rel.rd_relfilenumber), 2);

    /* a stale record: 0 and 1 hold p1, 6 and 7 do not exist */
    for (int i = 0; i < 6; i++) {
        pages[i].blkno = (BlockNumber)(i < 4 ? i : i + 2);
        pages[i].avail = 8000;
        pages[i].empty = true;
    }
    tdb_fsm_set_relation(f->rel.rd_relfilenumber, pages, 6);
    tdb_xact_begin(f->xact);
    r = store_plain(f, data + 3, big);
    expect_at(&r, 2, 1);
    expect_true(tdb_xact_commit(f->xact));
    expect_u64_eq(rel_nblocks(f), 6);
    /* 0 and 1 were looked at, 2 and 3 filled, 6 and 7 dropped */
    expect_int_eq(tdb_fsm_nempty(f->rel.rd_relfilenumber), 0);
    expect_true(fetches_as(f, &p1, data, big));
    expect_true(fetches_as(f, &q, data + 2, big));
    expect_true(fetches_as(f, &r, data + 3, big));
    heap_fixture_finish(f);
}
TEST_END

/*
 * A value replaced again and again, with VACUUM in between (what an
 * UPDATE of a toasted column and VACUUM do): the relation stops growing
 * after the first rounds, and a value stored once stays intact.
 */
TEST_BEGIN(test_reuse_bounded_growth)
{
    /* 16 buffers: the 5-page values are written, and their runs checked,
     * through a ring */
    HeapFixture *f = start(16);
    Size len = 19 * TOAST_MAX_CHUNK_SIZE + 5; /* 20 chunks: 5 pages */
    char *data = make_data(len + 64, 54);
    varatt_external keep, cur;
    BlockNumber after_two = 0;

    tdb_xact_begin(f->xact);
    keep = store_plain(f, data + 64, len - 100);
    cur = store_plain(f, data, len);
    expect_true(tdb_xact_commit(f->xact));
    for (int round = 1; round <= 10; round++) {
        varatt_external next;

        tdb_xact_begin(f->xact);
        tdb_toast_delete_value(&f->rel, &cur, f->xact);
        next = store_plain(f, data + round, len);
        expect_true(tdb_xact_commit(f->xact));
        vacuum_rel(f);
        expect_true(fetches_as(f, &next, data + round, len));
        cur = next;
        if (round == 2)
            after_two = rel_nblocks(f);
    }
    /* keep + two generations of the value */
    expect_u64_le(rel_nblocks(f), 15);
    expect_u64_eq(rel_nblocks(f), after_two);
    expect_true(fetches_as(f, &keep, data + 64, len - 100));
    expect_int_eq(count_from_other_session(f), 19 + 20);
    heap_fixture_finish(f);
}
TEST_END

/* VACUUM passes in a loop until *stop (a session of its own). */
typedef struct VacuumArgs {
    HeapFixture *f;
    atomic_bool *stop;
    atomic_int rounds;
    int errors;
    char error[1024];
} VacuumArgs;

static void *
vacuum_main(void *arg)
{
    VacuumArgs *v = arg;

    tdb_mcxt_thread_init();
    TDB_TRY();
    {
        Transaction *x = tdb_xact_create(v->f->tm, NULL);

        while (!atomic_load(v->stop)) {
            VacuumStats st;

            tdb_xact_begin(x);
            tdb_heap_vacuum(&v->f->rel, x, &st);
            tdb_xact_commit(x);
            atomic_fetch_add(&v->rounds, 1);
            sched_yield();
        }
        tdb_xact_destroy(x);
    }
    TDB_CATCH();
    {
        v->errors++;
        snprintf(v->error, sizeof(v->error), "%s",
                 tdb_error_current()->message);
        tdb_error_flush();
        tdb_buf_release_all_pins_of_thread();
    }
    TDB_END_TRY();
    tdb_mcxt_thread_done();
    return NULL;
}

/*
 * VACUUM looping and a reader reading beside a writer that replaces
 * values (delete + store, committed) round after round: the store takes
 * pages VACUUM records meanwhile -- possibly recorded empty just before
 * the writer filled them -- and every value reads back exactly.
 */
TEST_BEGIN(test_reuse_beside_vacuum)
{
    HeapFixture *f = start(128);
    Size len = 11 * TOAST_MAX_CHUNK_SIZE + 9; /* 12 chunks: 3 pages */
    char *data = make_data(len + 200, 55);
    atomic_bool stop = false;
    ReaderArgs reader;
    VacuumArgs vac;
    pthread_t threads[2];
    varatt_external cur[3];
    const char *cur_data[3];
    Size cur_len[3];
    int rounds = under_valgrind() ? 15 : 200;

    tdb_xact_begin(f->xact);
    reader.ptr = store_plain(f, data + 100, len);
    for (int i = 0; i < 3; i++) {
        cur_data[i] = data + i;
        cur_len[i] = i == 1 ? 300 : len;
        cur[i] = store_plain(f, cur_data[i], cur_len[i]);
    }
    expect_true(tdb_xact_commit(f->xact));
    reader.f = f;
    reader.data = data + 100;
    reader.len = len;
    reader.stop = &stop;
    atomic_init(&reader.fetches, 0);
    reader.errors = 0;
    vac.f = f;
    vac.stop = &stop;
    atomic_init(&vac.rounds, 0);
    vac.errors = 0;
    pthread_create(&threads[0], NULL, reader_main, &reader);
    pthread_create(&threads[1], NULL, vacuum_main, &vac);

    for (int r = 0; r < rounds; r++) {
        int i = r % 3;

        /* slot 1 holds a single chunk of a varying size, 0 and 2 three
         * pages */
        cur_data[i] = data + r % 100;
        cur_len[i] = i == 1 ? (Size)(300 + r) : len;
        tdb_xact_begin(f->xact);
        tdb_toast_delete_value(&f->rel, &cur[i], f->xact);
        cur[i] = store_plain(f, cur_data[i], cur_len[i]);
        expect_true(tdb_xact_commit(f->xact));
        for (int j = 0; j < 3; j++)
            expect_true(fetches_as(f, &cur[j], cur_data[j], cur_len[j]));
    }
    atomic_store(&stop, true);
    for (int i = 0; i < 2; i++)
        join_within(threads[i]);
    expect_int_eq(reader.errors, 0);
    if (reader.errors != 0)
        printf("    reader: %s\n", reader.error);
    expect_int_eq(vac.errors, 0);
    if (vac.errors != 0)
        printf("    vacuum: %s\n", vac.error);
    expect_true(atomic_load(&vac.rounds) > 0);
    if (getenv("STRESS_PRINT") != NULL)
        printf("    %d rounds, %d vacuum passes, %u pages\n", rounds,
               atomic_load(&vac.rounds), rel_nblocks(f));
    /* the space was reused: far below 3 pages per round */
    if (!under_valgrind())
        expect_u64_lt(rel_nblocks(f), (BlockNumber)rounds);
    expect_true(fetches_as(f, &reader.ptr, data + 100, len));
    heap_fixture_finish(f);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "toast_store",
                     TEST_CASE(test_valueid_encoding),
                     TEST_CASE(test_round_trips), TEST_CASE(test_ten_megabytes),
                     TEST_CASE(test_big_value), TEST_CASE(test_packing),
                     TEST_CASE(test_freed_line_pointer_reused),
                     TEST_CASE(test_compressed_pointer), TEST_CASE(test_slices),
                     TEST_CASE(test_aborted_store), TEST_CASE(test_delete),
                     TEST_CASE(test_damaged_chunks),
                     TEST_CASE(test_disk_full_store),
                     TEST_CASE(test_survives_crash_after_commit),
                     TEST_CASE(test_readers_beside_writer),
                     TEST_CASE(test_reuse_after_vacuum),
                     TEST_CASE(test_reuse_single_chunks),
                     TEST_CASE(test_reuse_stale_record),
                     TEST_CASE(test_reuse_bounded_growth),
                     TEST_CASE(test_reuse_beside_vacuum));
}
