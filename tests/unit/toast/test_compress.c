/*
 * test_compress.c -- TOAST compression (src/toast/compress.c, pglz.c).
 *
 *   test_pglz_hand_vector      a stream worked out by hand from the format
 *                              (compress.h) is what the compressor writes,
 *                              and the whole datum's header bytes
 *   test_pglz_hand_decode      hand-built streams with the format's edges:
 *                              offset 4095, length 273, runs of period 1
 *                              and 2, a partial last control group
 *   test_pg15_vectors     streams written by PostgreSQL 15's
 *                              pglz_compress: we write the same bytes and
 *                              decode theirs
 *   test_pg15_vectors          streams PostgreSQL 15 wrote: our pglz
 *                              writes the same bytes and decodes theirs;
 *                              lz4's tcinfo and size match
 *   test_round_trips           both methods x sizes around every rule
 *                              (0, 31, 32, 33, 1 KB, 2032, 4 KB, 64 KB,
 *                              1 MB) x data kinds x 4B/short headers:
 *                              header and tcinfo bits, data, slices
 *   test_incompressible        random bytes are never kept
 *   test_size_rule             kept iff 8 + compressed < raw - 2, with
 *                              both sides of the boundary seen
 *   test_slice_prefix          a pglz slice decodes from the first
 *                              tdb_pglz_maximum_compressed_size bytes,
 *                              including the "literals then a tag" corner
 *   test_corrupt_*             truncations, bad offsets, wrong raw sizes,
 *                              random mutations, bad headers: XX001 (or
 *                              XX000 for a bad method id), never a crash;
 *                              inputs live in exactly sized malloc'd
 *                              buffers so ASan and valgrind see overruns
 *   test_names                 method names, ids, parsing
 *   test_decompress_speed      640 kB of text, timed (printed)
 */
#include "common/base.h"

#include <lz4.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/crc32c.h"
#include "common/elog.h"
#include "common/errcodes.h"
#include "mmgr/mcxt.h"
#include "test.h"
#include "toast/compress.h"

/* ----------------------------------------------------------------------
 * Helpers
 * ---------------------------------------------------------------------- */

/* malloc that fails the test binary on OOM (tests may use malloc). */
static void *
xmalloc(Size n)
{
    void *p = malloc(n ? n : 1);

    if (p == NULL) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

/* An exactly sized malloc'd copy of any inline value (free() it). */
static varlena *
exact_copy(const varlena *v)
{
    Size n = VARATT_IS_COMPRESSED(v) ? VARSIZE(v) : VARSIZE_ANY(v);
    varlena *c = xmalloc(n);

    memcpy(c, v, n);
    return c;
}

/* A plain value with a 4-byte header (short: 1-byte header, len <= 126),
 * exactly sized, malloc'd. */
static varlena *
make_value(const uint8 *data, Size len, bool is_short)
{
    Size hdr = is_short ? VARHDRSZ_SHORT : VARHDRSZ;
    varlena *v = xmalloc(hdr + len);

    if (is_short)
        SET_VARSIZE_SHORT(v, hdr + len);
    else
        SET_VARSIZE(v, hdr + len);
    if (len > 0)
        memcpy((char *)v + hdr, data, len);
    return v;
}

typedef enum DataKind {
    DATA_ZEROS,
    DATA_TEXT,
    DATA_RANDOM,
    DATA_MIXED, /* text with random 1-40 byte stretches */
    NUM_DATA_KINDS
} DataKind;

static const char *const kind_names[] = {"zeros", "text", "random", "mixed"};

/* clang-format off */
static const char *const words[] = {
    "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog",
    "tuple", "toast", "heap", "page", "buffer", "index", "value", "row",
    "PostgreSQL", "compression", "\xc3\xa9t\xc3\xa9", "na\xc3\xafve",
    "12345", "2026-11-30", ",", ".", "\n", "  ",
};
/* clang-format on */

/* Fill buf with len bytes of the given kind (seeded). */
static void
fill_data(uint8 *buf, Size len, DataKind kind, uint64 seed)
{
    uint64 rng = seed * 2654435761u + 1;
    Size i = 0;

    switch (kind) {
    case DATA_ZEROS:
        memset(buf, 0, len);
        return;
    case DATA_RANDOM:
        for (i = 0; i < len; i++)
            buf[i] = (uint8)(tdb_test_rand(&rng) >> 32);
        return;
    case DATA_TEXT:
    case DATA_MIXED:
        while (i < len) {
            uint64 r = tdb_test_rand(&rng);

            if (kind == DATA_MIXED && r % 11 == 0) {
                Size n = Min((Size)(r >> 40) % 40 + 1, len - i);

                for (Size k = 0; k < n; k++)
                    buf[i++] = (uint8)(tdb_test_rand(&rng) >> 24);
            } else {
                const char *w = words[(r >> 20) % lengthof(words)];
                Size n = Min(strlen(w), len - i);

                memcpy(buf + i, w, n);
                i += n;
                if (i < len)
                    buf[i++] = ' ';
            }
        }
        return;
    default:
        abort();
    }
}

/* Run fn(arg); return the SQLSTATE it raised (0 if none) and keep the
 * message in tdb_test_last_error. */
static int
catch_sqlstate(void (*fn)(void *), void *arg)
{
    volatile int code = 0;

    TDB_TRY();
    {
        fn(arg);
    }
    TDB_CATCH();
    {
        tdb_test_last_error = *tdb_error_current();
        code = tdb_test_last_error.sqlerrcode;
        tdb_error_flush();
    }
    TDB_END_TRY();
    return code;
}

typedef struct DecompressArg {
    const varlena *value;
    int32 slicelength; /* -1: whole */
    varlena *result;
} DecompressArg;

static void
op_decompress(void *p)
{
    DecompressArg *a = p;

    a->result = a->slicelength < 0
                    ? tdb_toast_decompress(a->value)
                    : tdb_toast_decompress_slice(a->value, a->slicelength);
}

static uint32
tcinfo_of(const varlena *v)
{
    return tdb_toast_tcinfo(v);
}

/* Expect `c`, the compressed form of raw (rawlen bytes), to be a
 * well-formed compressed value of method cmid that decompresses to raw,
 * whole and in slices. */
static void
check_compressed(const varlena *c, const uint8 *raw, Size rawlen,
                 ToastCompressionId cmid, bool all_slices)
{
    varlena *exact = exact_copy(c);
    varlena *d;
    uint8 first = *(const uint8 *)c;
    static const int32 slice_lengths[] = {
        0,  1,   2,   3,   7,    8,    17,   18,   19,   31,
        32, 100, 273, 274, 1000, 2032, 4095, 4096, 4097, 65535};

    expect_int_eq(first & 0x03, 0x02); /* 4B header, compressed bit */
    expect_true(VARATT_IS_COMPRESSED(c));
    expect_true(VARATT_IS_EXTENDED(c));
    expect_u64_eq(VARDATA_COMPRESSED_GET_EXTSIZE(c), rawlen);
    expect_int_eq(VARDATA_COMPRESSED_GET_COMPRESS_METHOD(c), cmid);
    expect_u64_eq(tcinfo_of(c), (uint32)rawlen | ((uint32)cmid << 30));
    expect_u64_lt(VARSIZE(c), rawlen - 2);
    expect_u64_ge(VARSIZE(c), VARHDRSZ_COMPRESSED + 1);

    /* The codec agrees on its own: the bytes after the header are a
     * complete stream of this method. */
    {
        char *buf = xmalloc(rawlen);
        int32 n;

        if (cmid == TOAST_PGLZ_COMPRESSION_ID)
            n = tdb_pglz_decompress(VARDATA(c) + 4, (int32)(VARSIZE(c) - 8),
                                    buf, (int32)rawlen, true);
        else
            n = LZ4_decompress_safe(VARDATA(c) + 4, buf, (int)(VARSIZE(c) - 8),
                                    (int)rawlen);
        expect_int_eq(n, (long long)rawlen);
        expect_true(memcmp(buf, raw, rawlen) == 0);
        free(buf);
    }

    d = tdb_toast_decompress(exact);
    expect_true(VARATT_IS_4B_U(d));
    expect_u64_eq(VARSIZE(d), rawlen + VARHDRSZ);
    expect_true(memcmp(VARDATA(d), raw, rawlen) == 0);
    tdb_pfree(d);

    for (Size i = 0; i < lengthof(slice_lengths); i++) {
        int32 len = slice_lengths[i];

        if (!all_slices && len > 100 && (Size)len < rawlen - 1)
            continue;
        d = tdb_toast_decompress_slice(exact, len);
        expect_u64_eq(VARSIZE(d), Min((Size)len, rawlen) + VARHDRSZ);
        expect_true(memcmp(VARDATA(d), raw, Min((Size)len, rawlen)) == 0);
        tdb_pfree(d);
    }
    /* the last byte or two and exactly all of it */
    for (Size back = 0; back <= 2 && back <= rawlen; back++) {
        d = tdb_toast_decompress_slice(exact, (int32)(rawlen - back));
        expect_u64_eq(VARSIZE(d), rawlen - back + VARHDRSZ);
        expect_true(memcmp(VARDATA(d), raw, rawlen - back) == 0);
        tdb_pfree(d);
    }
    free(exact);
}

static double
now_ms(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ----------------------------------------------------------------------
 * pglz vectors
 * ---------------------------------------------------------------------- */

/*
 * "abcd" x 8 (32 bytes, the smallest input pglz accepts), by hand: four
 * literals (a, b, c, d); at position 4 the hash of "abcd" finds position
 * 0, and the match runs to the end: offset 4, length 28.  28 >= 18, so a
 * 3-byte tag: 0x0F (offset bits 11..8 = 0, length nibble 0xF), 0x04
 * (offset), 28 - 18 = 0x0A.  Items: lit lit lit lit tag -> control byte
 * 0b00010000.  8 bytes < 75% of 32 = 24: kept.  The datum: 8 + 8 = 16
 * bytes < 32 - 2: header 16 << 2 | 2 = 0x42, tcinfo 32 | pglz (0) << 30.
 */
TEST_BEGIN(test_pglz_hand_vector)
{
    static const uint8 expected_stream[] = {0x10, 'a',  'b',  'c',
                                            'd',  0x0F, 0x04, 0x0A};
    static const uint8 expected_datum[] = {0x42, 0x00, 0x00, 0x00,
                                           0x20, 0x00, 0x00, 0x00};
    char raw[32];
    char out[TDB_PGLZ_MAX_OUTPUT(32)];
    char back[32];
    varlena *v, *c;
    int32 n;

    for (int i = 0; i < 32; i++)
        raw[i] = "abcd"[i % 4];
    n = tdb_pglz_compress(raw, 32, out);
    expect_int_eq(n, (long long)sizeof(expected_stream));
    expect_true(memcmp(out, expected_stream, sizeof(expected_stream)) == 0);
    expect_int_eq(tdb_pglz_decompress(out, n, back, 32, true), 32);
    expect_true(memcmp(back, raw, 32) == 0);

    v = make_value((const uint8 *)raw, 32, false);
    c = tdb_toast_compress(v, TOAST_COMPRESSION_PGLZ);
    expect_ptr_not_null(c);
    if (c != NULL) {
        expect_u64_eq(VARSIZE(c), 16);
        expect_true(memcmp(c, expected_datum, 8) == 0);
        expect_true(memcmp((char *)c + 8, expected_stream, 8) == 0);
        check_compressed(c, (const uint8 *)raw, 32, TOAST_PGLZ_COMPRESSION_ID,
                         true);
    }
    free(v);

    /* 31 bytes: below the minimum, not even tried. */
    expect_int_eq(tdb_pglz_compress(raw, 31, out), -1);
    v = make_value((const uint8 *)raw, 31, false);
    expect_ptr_null(tdb_toast_compress(v, TOAST_COMPRESSION_PGLZ));
    free(v);
}
TEST_END

/*
 * A stream of nlit literals (byte i = i * 7 + i / 256) then one tag
 * (off, len 3..17), with its control bytes; malloc'd, *slen its length.
 */
static uint8 *
build_literals_then_tag(Size nlit, int off, int len, Size *slen)
{
    Size n = (nlit + 1 + 7) / 8 + nlit + 2;
    uint8 *s = xmalloc(n);
    Size sp = 0, ctrl_at = 0;

    for (Size item = 0; item <= nlit; item++) {
        if (item % 8 == 0) {
            ctrl_at = sp++;
            s[ctrl_at] = 0;
        }
        if (item < nlit) {
            s[sp++] = (uint8)(item * 7 + item / 256);
        } else {
            s[ctrl_at] |= (uint8)(1u << (item % 8));
            s[sp++] = (uint8)(((off & 0xF00) >> 4) | (len - 3));
            s[sp++] = (uint8)(off & 0xFF);
        }
    }
    *slen = sp;
    return s;
}

/* Hand-built streams with the format's extremes. */
TEST_BEGIN(test_pglz_hand_decode)
{
    /* 'x', then a tag offset 1 length 18 + 255 = 273: 274 x's. */
    {
        static const uint8 s[] = {0x02, 'x', 0x0F, 0x01, 0xFF};
        char out[274];

        expect_int_eq(
            tdb_pglz_decompress((const char *)s, sizeof(s), out, 274, true),
            274);
        for (int i = 0; i < 274; i++)
            expect_int_eq(out[i], 'x');
        /* asking for less: a slice; for more: incomplete */
        expect_int_eq(
            tdb_pglz_decompress((const char *)s, sizeof(s), out, 100, false),
            100);
        expect_int_eq(
            tdb_pglz_decompress((const char *)s, sizeof(s), out, 273, true),
            -1);
    }
    /* "ab", a period-2 run of 7 (len nibble 4), then literal 'c': a
     * partial last group of 4 items, control 0b0100. */
    {
        static const uint8 s[] = {0x04, 'a', 'b', 0x04, 0x02, 'c'};
        char out[10];

        expect_int_eq(
            tdb_pglz_decompress((const char *)s, sizeof(s), out, 10, true), 10);
        expect_true(memcmp(out, "ababababac", 10) == 0);
    }
    /* 4095 literals, then a tag reaching exactly 4095 back (length 5):
     * the largest offset the format can hold.  With one literal fewer
     * the same tag reaches before the output. */
    for (Size nlit = 4094; nlit <= 4095; nlit++) {
        Size slen;
        uint8 *s = build_literals_then_tag(nlit, 4095, 5, &slen);
        char *out = xmalloc(nlit + 5);
        int32 n = tdb_pglz_decompress((const char *)s, (int32)slen, out,
                                      (int32)(nlit + 5), true);

        if (nlit == 4095) {
            expect_int_eq(n, (long long)(nlit + 5));
            for (Size i = 0; i < 5; i++)
                expect_int_eq((uint8)out[nlit + i], (uint8)(i * 7 + i / 256));
        } else
            expect_int_eq(n, -1);
        free(s);
        free(out);
    }
    /* The same two far from the ends of both buffers (the decoder's
     * unchecked fast loop): 4000 zero-control literals follow the tag. */
    for (Size nlit = 4094; nlit <= 4095; nlit++) {
        Size slen, tail = 4000;
        uint8 *head = build_literals_then_tag(nlit, 4095, 5, &slen);
        uint8 *s = xmalloc(slen + tail / 8 + tail);
        Size rawlen = nlit + 5 + tail;
        char *out = xmalloc(rawlen);
        Size sp = slen;
        int32 n;

        memcpy(s, head, slen);
        /* the tag's group may have free items left: fill them, then
         * whole groups of literals */
        for (Size i = 0; i < tail; i++) {
            if ((nlit + 1 + i) % 8 == 0)
                s[sp++] = 0;
            s[sp++] = (uint8)i;
        }
        n = tdb_pglz_decompress((const char *)s, (int32)sp, out, (int32)rawlen,
                                true);
        if (nlit == 4095) {
            expect_int_eq(n, (long long)rawlen);
            for (Size i = 0; i < 5; i++)
                expect_int_eq((uint8)out[nlit + i], (uint8)(i * 7 + i / 256));
            expect_int_eq((uint8)out[rawlen - 1], (uint8)(tail - 1));
        } else
            expect_int_eq(n, -1);
        free(head);
        free(s);
        free(out);
    }
}
TEST_END

/*
 * Streams PostgreSQL 15.18 (x86-64, default_toast_compression = pglz)
 * wrote for inputs made by pg_vector_input.  Values of 2032 bytes and
 * more: a bytea column of a table WITH (toast_tuple_target = 128), so
 * each was compressed and then moved out of line; its chunks (chunk_data
 * in chunk_seq order) are tcinfo followed by the stream.  Values of 600 to
 * 1000 bytes (pglz's 4096-entry hash table): a btree index on that
 * column, which compresses keys over 510 bytes inline; the index tuples
 * came from pageinspect's bt_page_items.  (PostgreSQL never compresses
 * values under 512 bytes, so the smaller tables are covered by the hand
 * vector only.)  The inputs mix words with, when `high`, bytes
 * 0x80..0xFF (PostgreSQL hashes those as negative chars); 6000 and more
 * bytes exercise the 4 KB window, 70000 its reuse.  We must write the
 * same bytes: same length and CRC-32C, and for the first the whole
 * stream, which must also decode.
 */
static const struct PgVector {
    Size rawlen;
    uint64 seed;
    bool high;
    int32 pg_len;
    uint32 pg_crc;
} pg_vectors[] = {
    {2100, 1, false, 616, 0xE33047E6},  {3000, 2, true, 1030, 0xCF02AD74},
    {6000, 3, true, 1818, 0x4BD1D35E},  {70000, 4, false, 13992, 0x8E8AC2B1},
    {20000, 5, true, 5553, 0x027D591A}, {600, 6, true, 297, 0x33079626},
    {800, 8, true, 349, 0x1BBB7897},    {1000, 7, false, 344, 0x5FA59EC0},
};

/* PostgreSQL 15's stream for pg_vectors[0], in full. */
static const char pg_vector0_hex[] =
    "006973206f662061201032303236010a0a2072006f77200a2068656100702062"
    "756666657200200a200a20636f6d007072657373696f6e010a1c7475706c6520"
    "74106f6173740406697320007061676520506f73007467726553514c20e07661"
    "6c75650119081402248304450251696e64657801837703090187095761044602"
    "ae084869ba7304210a03c40326045961061c7f03a808690306023309dc053203"
    "2a73f70549092304f36805f702440df301bfff0f3c010376088705a0030e03bd"
    "03060257ff016604290276144a0212158206890969dd02900a0307091817570a"
    "114b013dff1e04075202a902050225023d011d028cff025c1a7c18001f310102"
    "2a0780082d2278ff02421f33010f9a04190f2619011f18161404bf0941041e02"
    "860242134b120c6103317c6f66099b2db2120d2a64021261d9212c6f66028502"
    "580a3f00002883ff020501a308250ffb0105cc02f2136f0244e70418016d021b"
    "6f660352084e124ee66126cf192f6f66120035f23622ff17f203c92dd3239102"
    "49044301040d21ff24ae2626035704b20696026702613829ff24042b6603b419"
    "1606253c6f05b33959cf04180a8526f444e66f662f64003677ff0d1a46a0182f"
    "065109b21aaa5b1a0130bf3f2000089e17e00c9c08e00466682a93346f664fb1"
    "086116b33b136973ff073d4674075e18650269014157572ae7ff2d84069d06f6"
    "248d165e194b5f3d040b07d46973586e0a58a06106225d1bff0311043103d701"
    "5f4fa0010206361a06bdde614a5706c109e83585614fb907043fdf6bb8029547"
    "56015608fa610a9814919f29c8049e36467528458169731b0e7f3dd009a0035f"
    "4863091d451c053c";

static void
pg_vector_input(uint8 *out, Size n, uint64 seed, bool high)
{
    static const char *const pg_words[] = {
        "tuple",      "toast",       "heap",  "page", "the",   "of",
        "PostgreSQL", "compression", "value", "row",  "index", "buffer",
        "a",          "is",          "2026",  "\n"};
    uint64 st = seed;
    Size i = 0;

    while (i < n) {
        uint64 r;

        st = st * 6364136223846793005u + 1442695040888963407u;
        r = st >> 33;
        if (high && r % 5 == 0) {
            out[i++] = (uint8)(0x80 + (r >> 8) % 128);
        } else {
            const char *w = pg_words[(r >> 4) % lengthof(pg_words)];

            for (Size k = 0; w[k] != '\0' && i < n; k++)
                out[i++] = (uint8)w[k];
            if (i < n)
                out[i++] = ' ';
        }
    }
}

TEST_BEGIN(test_pg15_vectors)
{
    for (Size vi = 0; vi < lengthof(pg_vectors); vi++) {
        const struct PgVector *pv = &pg_vectors[vi];
        uint8 *raw = xmalloc(pv->rawlen);
        char *out = xmalloc((Size)TDB_PGLZ_MAX_OUTPUT(pv->rawlen));
        int32 n;

        pg_vector_input(raw, pv->rawlen, pv->seed, pv->high);
        n = tdb_pglz_compress((const char *)raw, (int32)pv->rawlen, out);
        expect_int_eq(n, pv->pg_len);
        if (n > 0)
            expect_u64_eq(tdb_crc32c(out, (Size)n), pv->pg_crc);
        /* the whole datum: header and tcinfo as PostgreSQL stored them */
        {
            varlena *v = make_value(raw, pv->rawlen, false);
            varlena *c = tdb_toast_compress(v, TOAST_COMPRESSION_PGLZ);

            expect_ptr_not_null(c);
            if (c != NULL) {
                expect_u64_eq(VARSIZE(c), (Size)pv->pg_len + 8);
                expect_u64_eq(tdb_toast_tcinfo(c), pv->rawlen);
                expect_true(memcmp((char *)c + 8, out, (Size)n) == 0);
                tdb_pfree(c);
            }
            free(v);
        }

        if (vi == 0) {
            Size hexlen = strlen(pg_vector0_hex);
            uint8 *pg = xmalloc(hexlen / 2);
            char *back = xmalloc(pv->rawlen);

            expect_u64_eq(hexlen / 2, (Size)pv->pg_len);
            for (Size i = 0; i < hexlen / 2; i++) {
                unsigned int byte;

                sscanf(pg_vector0_hex + 2 * i, "%2x", &byte);
                pg[i] = (uint8)byte;
            }
            expect_u64_eq(tdb_crc32c(pg, hexlen / 2), pv->pg_crc);
            if (n == pv->pg_len)
                expect_true(memcmp(out, pg, (Size)n) == 0);
            expect_int_eq(tdb_pglz_decompress((const char *)pg,
                                              (int32)(hexlen / 2), back,
                                              (int32)pv->rawlen, true),
                          (long long)pv->rawlen);
            expect_true(memcmp(back, raw, pv->rawlen) == 0);
            free(pg);
            free(back);
        }
        free(raw);
        free(out);
    }

    /*
     * lz4: PostgreSQL 15 stored pg_vectors[1]'s input (3000 bytes) in an
     * lz4 column with tcinfo 0x40000BB8 (3000 | lz4 << 30) and a 1497-byte
     * block, byte-identical to LZ4_compress_default of liblz4 1.9.4 (the
     * same call we make); other liblz4 versions may choose other bytes.
     */
    {
        uint8 *raw = xmalloc(3000);
        varlena *v, *c;

        pg_vector_input(raw, 3000, 2, true);
        v = make_value(raw, 3000, false);
        c = tdb_toast_compress(v, TOAST_COMPRESSION_LZ4);
        expect_ptr_not_null(c);
        if (c != NULL) {
            expect_u64_eq(tdb_toast_tcinfo(c), 0x40000BB8u);
            if (LZ4_versionNumber() == 10904)
                expect_u64_eq(VARSIZE(c), 1497 + 8);
            tdb_pfree(c);
        }
        free(v);
        free(raw);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Round trips
 * ---------------------------------------------------------------------- */

static const Size test_sizes[] = {0,    1,    2,    31,   32,    33,
                                  100,  126,  127,  1023, 1024,  1025,
                                  2032, 4095, 4096, 4097, 65536, 1 << 20};

static void
round_trip_one(const uint8 *raw, Size len, DataKind kind, char method,
               bool is_short)
{
    varlena *v = make_value(raw, len, is_short);
    varlena *c = tdb_toast_compress(v, method);
    ToastCompressionId cmid = tdb_toast_compression_id(method);

    if (c == NULL) {
        /* Declined: fine for small or random inputs, never for long
         * runs of zeros or text. */
        if ((len >= 64 && kind == DATA_ZEROS) ||
            (len >= 1024 && kind == DATA_TEXT))
            tdb_test_fail(__FILE__, __LINE__, "%s declined %zu bytes of %s",
                          tdb_toast_compression_method_name(method), len,
                          kind_names[kind]);
    } else {
        expect_true(len >= (method == TOAST_COMPRESSION_PGLZ ? 32 : 11));
        check_compressed(c, raw, len, cmid, len <= 65536);
        tdb_pfree(c);
    }
    free(v);
}

TEST_BEGIN(test_round_trips)
{
    uint64 seed = tdb_test_seed();
    uint8 *raw = xmalloc(1 << 20);

    for (Size si = 0; si < lengthof(test_sizes); si++) {
        Size len = test_sizes[si];

        for (int kind = 0; kind < NUM_DATA_KINDS; kind++) {
            fill_data(raw, len, (DataKind)kind, seed + si * 31 + kind);
            for (int m = 0; m < 2; m++) {
                char method =
                    m ? TOAST_COMPRESSION_LZ4 : TOAST_COMPRESSION_PGLZ;

                round_trip_one(raw, len, (DataKind)kind, method, false);
                if (len <= 126)
                    round_trip_one(raw, len, (DataKind)kind, method, true);
            }
        }
    }
    free(raw);
}
TEST_END

TEST_BEGIN(test_incompressible)
{
    uint64 seed = tdb_test_seed();
    uint8 *raw = xmalloc(1 << 20);

    for (Size si = 0; si < lengthof(test_sizes); si++) {
        Size len = test_sizes[si];
        varlena *v;

        fill_data(raw, len, DATA_RANDOM, seed ^ (si * 977));
        v = make_value(raw, len, false);
        expect_ptr_null(tdb_toast_compress(v, TOAST_COMPRESSION_PGLZ));
        expect_ptr_null(tdb_toast_compress(v, TOAST_COMPRESSION_LZ4));
        free(v);
    }
    free(raw);
}
TEST_END

/*
 * Kept iff 8 + compressed < raw - 2.  Inputs: k random bytes, then
 * zeros, for many (n, k), so the compressed size sweeps across the
 * boundary; each decision is checked against the codec's own length, and
 * both sides of the boundary (8 + c == n - 3 kept, == n - 2 dropped)
 * must have been met for each method.
 */
TEST_BEGIN(test_size_rule)
{
    uint8 raw[400];
    char out[LZ4_COMPRESSBOUND(400)];
    bool seen[2][2] = {{false, false}, {false, false}};

    for (Size n = 0; n <= 300; n++) {
        for (Size k = 0; k <= n; k += 3) {
            varlena *v;

            fill_data(raw, k, DATA_RANDOM, n * 1000 + k);
            memset(raw + k, 0, n - k);
            v = make_value(raw, n, false);
            for (int m = 0; m < 2; m++) {
                char method =
                    m ? TOAST_COMPRESSION_LZ4 : TOAST_COMPRESSION_PGLZ;
                varlena *c = tdb_toast_compress(v, method);
                long long clen;
                bool keep;

                if (m == 0)
                    clen = tdb_pglz_compress((const char *)raw, (int32)n, out);
                else {
                    clen = LZ4_compress_default((const char *)raw, out, (int)n,
                                                (int)sizeof(out));
                    if (clen > (long long)n)
                        clen = -1;
                }
                keep = clen >= 0 && clen + 8 < (long long)n - 2;
                if (keep != (c != NULL))
                    tdb_test_fail(__FILE__, __LINE__,
                                  "method %c n %zu k %zu: clen %lld, kept %d",
                                  method, n, k, clen, c != NULL);
                if (clen >= 0 && clen + 8 == (long long)n - 3)
                    seen[m][0] = true;
                if (clen >= 0 && clen + 8 == (long long)n - 2)
                    seen[m][1] = true;
                if (c != NULL) {
                    expect_u64_eq(VARSIZE(c), (Size)clen + 8);
                    expect_true(memcmp((char *)c + 8, out, (Size)clen) == 0);
                    tdb_pfree(c);
                }
            }
            free(v);
        }
    }
    expect_true(seen[0][0]);
    expect_true(seen[0][1]);
    expect_true(seen[1][0]);
    expect_true(seen[1][1]);
}
TEST_END

/*
 * A pglz slice must decode from the first
 * tdb_pglz_maximum_compressed_size(slice, total) compressed bytes -- what
 * a slice fetch of an external value reads.  The stream is cut there in
 * an exactly sized buffer.  Includes the corner of slice - 1 literals
 * followed by a 3-byte tag (the "+ 2" in the bound).
 */
static void
check_prefix_slices(const uint8 *raw, Size len)
{
    varlena *v = make_value(raw, len, false);
    varlena *c = tdb_toast_compress(v, TOAST_COMPRESSION_PGLZ);
    int32 total;

    free(v);
    if (c == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "not compressed (%zu bytes)", len);
        return;
    }
    total = (int32)(VARSIZE(c) - 8);
    for (int32 slice = 0; slice < (int32)len; slice++) {
        int32 need = tdb_pglz_maximum_compressed_size(slice, total);
        varlena *cut = xmalloc((Size)need + 8);
        varlena *d;

        memcpy(cut, c, (Size)need + 8);
        SET_VARSIZE(cut, (Size)need + 8);
        *(uint8 *)cut |= 0x02;
        d = tdb_toast_decompress_slice(cut, slice);
        expect_u64_eq(VARSIZE(d), (Size)slice + 4);
        if (memcmp(VARDATA(d), raw, (Size)slice) != 0)
            tdb_test_fail(__FILE__, __LINE__, "slice %d differs", slice);
        tdb_pfree(d);
        free(cut);
        if (len > 3000 && slice > 300)
            slice += 97;
    }
    tdb_pfree(c);
}

TEST_BEGIN(test_slice_prefix)
{
    uint8 raw[5000];

    /* 40 distinct bytes then a long match: the tag right after the
     * literals is the 3-byte kind. */
    for (int i = 0; i < 40; i++)
        raw[i] = (uint8)(i * 37 + 1);
    for (int i = 40; i < 400; i++)
        raw[i] = raw[i - 40];
    check_prefix_slices(raw, 400);
    /* ... and the 2-byte kind: blocks of 3 random bytes and 10 copied
     * from 40 back */
    fill_data(raw, 40, DATA_RANDOM, 99);
    for (int i = 40; i < 400; i += 13) {
        fill_data(raw + i, 3, DATA_RANDOM, (uint64)i);
        memcpy(raw + i + 3, raw + i + 3 - 40, 10);
    }
    check_prefix_slices(raw, 400);
    fill_data(raw, sizeof(raw), DATA_TEXT, 7);
    check_prefix_slices(raw, sizeof(raw));
    fill_data(raw, sizeof(raw), DATA_MIXED, 8);
    check_prefix_slices(raw, sizeof(raw));
}
TEST_END

/* ----------------------------------------------------------------------
 * Corruption
 * ---------------------------------------------------------------------- */

/* Decompressing v (whole, or a slice) must raise `code` or succeed with
 * the right size; returns the SQLSTATE (0 = success). */
static int
try_decompress(const varlena *v, int32 slice)
{
    DecompressArg a = {v, slice, NULL};
    int code = catch_sqlstate(op_decompress, &a);

    if (code == 0) {
        Size want = VARDATA_COMPRESSED_GET_EXTSIZE(v);

        if (slice >= 0 && (Size)slice < want)
            want = (Size)slice;
        expect_u64_eq(VARSIZE(a.result), want + VARHDRSZ);
        tdb_pfree(a.result);
    } else if (code != ERRCODE_DATA_CORRUPTED) {
        tdb_test_fail(__FILE__, __LINE__, "unexpected error: %s",
                      tdb_test_last_error.message);
    }
    return code;
}

/* A compressed text value of len bytes with method (palloc'd). */
static varlena *
compressed_text(Size len, char method, uint64 seed, uint8 **raw_out)
{
    uint8 *raw = xmalloc(len);
    varlena *v, *c;

    fill_data(raw, len, DATA_MIXED, seed);
    v = make_value(raw, len, false);
    c = tdb_toast_compress(v, method);
    free(v);
    if (raw_out)
        *raw_out = raw;
    else
        free(raw);
    return c;
}

TEST_BEGIN(test_corrupt_truncated)
{
    for (int m = 0; m < 2; m++) {
        char method = m ? TOAST_COMPRESSION_LZ4 : TOAST_COMPRESSION_PGLZ;
        varlena *c = compressed_text(3000, method, 11, NULL);
        Size total;

        expect_ptr_not_null(c);
        if (c == NULL)
            continue;
        total = VARSIZE(c);
        for (Size cut = 8; cut < total; cut++) {
            varlena *t = xmalloc(cut);
            int code;

            memcpy(t, c, cut);
            SET_VARSIZE(t, cut);
            *(uint8 *)t |= 0x02;
            code = try_decompress(t, -1);
            if (code != ERRCODE_DATA_CORRUPTED)
                tdb_test_fail(__FILE__, __LINE__,
                              "%c cut to %zu of %zu: not reported", method, cut,
                              total);
            else
                expect_str_eq(tdb_test_last_error.message,
                              m ? "compressed lz4 data is corrupt"
                                : "compressed pglz data is corrupt");
            free(t);
        }
        tdb_pfree(c);
    }
}
TEST_END

TEST_BEGIN(test_corrupt_raw_size)
{
    for (int m = 0; m < 2; m++) {
        char method = m ? TOAST_COMPRESSION_LZ4 : TOAST_COMPRESSION_PGLZ;
        varlena *c = compressed_text(2500, method, 12, NULL);
        static const int64 deltas[] = {-2500, -1000,         -1, 1, 2,
                                       1000,  (int64)1 << 29};

        expect_ptr_not_null(c);
        if (c == NULL)
            continue;
        for (Size i = 0; i < lengthof(deltas); i++) {
            varlena *t = exact_copy(c);
            uint32 tcinfo = tdb_toast_tcinfo(t);
            uint32 raw =
                (uint32)((int64)(tcinfo & VARLENA_EXTSIZE_MASK) + deltas[i]);

            tcinfo =
                (raw & VARLENA_EXTSIZE_MASK) | (tcinfo & ~VARLENA_EXTSIZE_MASK);
            memcpy((char *)t + 4, &tcinfo, 4);
            expect_int_eq(try_decompress(t, -1), ERRCODE_DATA_CORRUPTED);
            free(t);
        }
        tdb_pfree(c);
    }
}
TEST_END

TEST_BEGIN(test_corrupt_handmade)
{
    /* pglz streams that must be rejected, all claiming raw size 10. */
    static const struct {
        const char *what;
        uint8 bytes[8];
        int len;
    } cases[] = {
        {"offset 0", {0x02, 'a', 0x00, 0x00}, 4},
        {"offset past the start", {0x02, 'a', 0x00, 0x02}, 4},
        {"offset before any output", {0x01, 0x00, 0x01}, 3},
        {"tag cut after one byte", {0x02, 'a', 0x00}, 3},
        {"extension byte missing", {0x02, 'a', 0x0F, 0x01}, 4},
        {"too short", {0x00, 'a', 'b'}, 3},
        {"too long", {0x02, 'a', 0x06, 0x01, 'x'}, 5},
        {"control byte only", {0x00}, 1},
    };
    char out[16];

    for (Size i = 0; i < lengthof(cases); i++) {
        varlena *v = xmalloc(8 + (Size)cases[i].len);
        uint32 tcinfo = 10;
        int code;

        expect_int_eq(tdb_pglz_decompress((const char *)cases[i].bytes,
                                          cases[i].len, out, 10, true),
                      -1);
        SET_VARSIZE(v, 8 + (Size)cases[i].len);
        *(uint8 *)v |= 0x02;
        memcpy((char *)v + 4, &tcinfo, 4);
        memcpy((char *)v + 8, cases[i].bytes, (Size)cases[i].len);
        code = try_decompress(v, -1);
        if (code != ERRCODE_DATA_CORRUPTED)
            tdb_test_fail(__FILE__, __LINE__, "%s: not reported",
                          cases[i].what);
        free(v);
    }

    /* A header shorter than the 8-byte compressed header, in a buffer
     * of exactly that size: tcinfo must not be read. */
    for (Size n = 4; n < 8; n++) {
        varlena *v = xmalloc(n);

        memset(v, 0xAB, n);
        SET_VARSIZE(v, n);
        *(uint8 *)v |= 0x02;
        expect_int_eq(try_decompress(v, -1), ERRCODE_DATA_CORRUPTED);
        expect_str_eq(tdb_test_last_error.message,
                      "compressed data is corrupt");
        expect_int_eq(try_decompress(v, 3), ERRCODE_DATA_CORRUPTED);
        free(v);
    }

    /* Method ids 2 and 3: PostgreSQL's internal error. */
    {
        varlena *c = compressed_text(1000, TOAST_COMPRESSION_PGLZ, 5, NULL);

        for (uint32 id = 2; id <= 3; id++) {
            varlena *t = exact_copy(c);
            uint32 tcinfo =
                (tdb_toast_tcinfo(t) & VARLENA_EXTSIZE_MASK) | (id << 30);
            DecompressArg a = {t, -1, NULL};

            memcpy((char *)t + 4, &tcinfo, 4);
            expect_int_eq(catch_sqlstate(op_decompress, &a),
                          ERRCODE_INTERNAL_ERROR);
            expect_str_contains(tdb_test_last_error.message,
                                "invalid compression method id");
            free(t);
        }
        tdb_pfree(c);
    }

    /* A garbage lz4 block. */
    {
        static const uint8 junk[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0x02};
        varlena *v = xmalloc(8 + sizeof(junk));
        uint32 tcinfo = 100 | (1u << 30);

        SET_VARSIZE(v, 8 + sizeof(junk));
        *(uint8 *)v |= 0x02;
        memcpy((char *)v + 4, &tcinfo, 4);
        memcpy((char *)v + 8, junk, sizeof(junk));
        expect_int_eq(try_decompress(v, -1), ERRCODE_DATA_CORRUPTED);
        expect_str_eq(tdb_test_last_error.message,
                      "compressed lz4 data is corrupt");
        expect_int_eq(try_decompress(v, 10), ERRCODE_DATA_CORRUPTED);
        free(v);
    }
}
TEST_END

/*
 * Random mutations of valid values: each decompression (whole, and a
 * slice) must succeed with the recorded size or raise XX001.
 */
TEST_BEGIN(test_corrupt_mutations)
{
    uint64 rng = tdb_test_seed();

    for (int m = 0; m < 2; m++) {
        char method = m ? TOAST_COMPRESSION_LZ4 : TOAST_COMPRESSION_PGLZ;
        varlena *c = compressed_text(4000, method, 13, NULL);
        Size total;
        int nreported = 0;

        if (c == NULL) {
            tdb_test_fail(__FILE__, __LINE__, "not compressed");
            continue;
        }
        total = VARSIZE(c);
        for (int iter = 0; iter < 3000; iter++) {
            varlena *t = exact_copy(c);
            int nmut = 1 + (int)(tdb_test_rand(&rng) % 4);

            for (int k = 0; k < nmut; k++) {
                Size at = 8 + tdb_test_rand(&rng) % (total - 8);
                uint64 r = tdb_test_rand(&rng);

                if (r % 3 == 0)
                    ((uint8 *)t)[at] ^= (uint8)(1u << (r >> 8) % 8);
                else
                    ((uint8 *)t)[at] = (uint8)(r >> 16);
            }
            if (try_decompress(t, -1) != 0)
                nreported++;
            (void)try_decompress(t, (int32)(tdb_test_rand(&rng) % 4000));
            free(t);
        }
        /* most random damage must be noticed */
        expect_true(nreported > 1000);
        tdb_pfree(c);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Names, errors of the compress side
 * ---------------------------------------------------------------------- */

typedef struct ParseArg {
    const char *name;
} ParseArg;

static void
op_parse(void *p)
{
    (void)tdb_toast_compression_parse(((ParseArg *)p)->name);
}

typedef struct CompressArg {
    const varlena *value;
    char method;
} CompressArg;

static void
op_compress(void *p)
{
    CompressArg *a = p;

    (void)tdb_toast_compress(a->value, a->method);
}

TEST_BEGIN(test_names)
{
    char method = 'x';
    ParseArg pa = {"zstd"};

    expect_str_eq(tdb_toast_compression_name(TOAST_PGLZ_COMPRESSION_ID),
                  "pglz");
    expect_str_eq(tdb_toast_compression_name(TOAST_LZ4_COMPRESSION_ID), "lz4");
    expect_ptr_null(tdb_toast_compression_name(TOAST_INVALID_COMPRESSION_ID));
    expect_str_eq(tdb_toast_compression_method_name('p'), "pglz");
    expect_str_eq(tdb_toast_compression_method_name('l'), "lz4");
    expect_ptr_null(tdb_toast_compression_method_name('\0'));
    expect_int_eq(tdb_toast_compression_id('p'), TOAST_PGLZ_COMPRESSION_ID);
    expect_int_eq(tdb_toast_compression_id('l'), TOAST_LZ4_COMPRESSION_ID);
    expect_int_eq(tdb_toast_compression_id('\0'), TOAST_INVALID_COMPRESSION_ID);

    expect_true(tdb_toast_compression_lookup("pglz", &method));
    expect_int_eq(method, 'p');
    expect_true(tdb_toast_compression_lookup("lz4", &method));
    expect_int_eq(method, 'l');
    expect_false(tdb_toast_compression_lookup("default", &method));
    expect_false(tdb_toast_compression_lookup("LZ4", &method));
    expect_int_eq(method, 'l');

    expect_int_eq(tdb_toast_compression_parse("pglz"), 'p');
    expect_int_eq(tdb_toast_compression_parse("lz4"), 'l');
    expect_int_eq(tdb_toast_compression_parse("default"), '\0');
    expect_int_eq(tdb_toast_compression_parse(NULL), '\0');
    expect_int_eq(catch_sqlstate(op_parse, &pa),
                  ERRCODE_INVALID_PARAMETER_VALUE);
    expect_str_eq(tdb_test_last_error.message,
                  "invalid compression method \"zstd\"");

    /* Compressing a compressed value or with an unknown method: bugs. */
    {
        varlena *c = compressed_text(1000, TOAST_COMPRESSION_PGLZ, 3, NULL);
        CompressArg ca = {c, TOAST_COMPRESSION_PGLZ};
        varlena *v = make_value((const uint8 *)"hello", 5, false);
        CompressArg cb = {v, 'z'};

        expect_int_eq(catch_sqlstate(op_compress, &ca), ERRCODE_INTERNAL_ERROR);
        expect_int_eq(catch_sqlstate(op_compress, &cb), ERRCODE_INTERNAL_ERROR);
        tdb_pfree(c);
        free(v);
    }
}
TEST_END

/* ----------------------------------------------------------------------
 * Speed
 * ---------------------------------------------------------------------- */

TEST_BEGIN(test_decompress_speed)
{
    Size len = 640 * 1024;

    for (int m = 0; m < 2; m++) {
        char method = m ? TOAST_COMPRESSION_LZ4 : TOAST_COMPRESSION_PGLZ;
        uint8 *raw;
        varlena *c = compressed_text(len, method, 21, &raw);
        double t0, t1, t2;
        int reps = config_debug ? 3 : 20;

        expect_ptr_not_null(c);
        if (c == NULL) {
            free(raw);
            continue;
        }
        t0 = now_ms();
        for (int r = 0; r < reps; r++) {
            varlena *d = tdb_toast_decompress(c);

            if (r == 0)
                expect_true(memcmp(VARDATA(d), raw, len) == 0);
            tdb_pfree(d);
        }
        t1 = now_ms();
        for (int r = 0; r < reps; r++) {
            varlena *v = make_value(raw, len, false);

            tdb_pfree(tdb_toast_compress(v, method));
            free(v);
        }
        t2 = now_ms();
        printf("  %s: 640 kB -> %zu bytes; decompress %.3f ms, compress "
               "%.3f ms\n",
               tdb_toast_compression_method_name(method), VARSIZE(c),
               (t1 - t0) / reps, (t2 - t1) / reps);
        tdb_pfree(c);
        free(raw);
    }
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(
        argc, argv, "toast_compress", TEST_CASE(test_pglz_hand_vector),
        TEST_CASE(test_pglz_hand_decode), TEST_CASE(test_pg15_vectors),
        TEST_CASE(test_round_trips), TEST_CASE(test_incompressible),
        TEST_CASE(test_size_rule), TEST_CASE(test_slice_prefix),
        TEST_CASE(test_corrupt_truncated), TEST_CASE(test_corrupt_raw_size),
        TEST_CASE(test_corrupt_handmade), TEST_CASE(test_corrupt_mutations),
        TEST_CASE(test_names), TEST_CASE(test_decompress_speed));
}
