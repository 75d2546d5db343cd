/*
 * compress.c -- TOAST compression of whole varlena values: the method
 * dispatch, PostgreSQL's "is it worth it" rules, the compressed inline
 * header, and decompression (whole or a prefix) with corruption checks.
 *
 * Compressing (tdb_toast_compress):
 *
 *   value [1B or 4B hdr][data, n bytes]
 *           |
 *           | pglz (pglz.c, default strategy)  or  LZ4_compress_default
 *           v
 *   result  [hdr: (8 + c) << 2 | 0b10][tcinfo: n | id << 30][c bytes]
 *
 * The buffer is allocated once at its worst-case size (n + 4 for pglz,
 * LZ4_compressBound(n) for lz4) after the 8 header bytes, and the codec
 * writes straight into it: no second copy.  The result is kept only when
 * 8 + c < n - 2, PostgreSQL's rule: a short value's 1-byte header may
 * turn into a 4-byte one plus up to three pad bytes, so compression must
 * win more than that.  lz4 output larger than n is dropped first
 * (PostgreSQL's "incompressible" test); the size rule would drop it too.
 *
 * Decompressing (tdb_toast_decompress, _slice): the header says how many
 * compressed bytes are present (VARSIZE - 8) and tcinfo the raw size and
 * method.  The output buffer is exactly raw size (or slice length) + 4;
 * the codecs are bounded by both buffers (LZ4_decompress_safe[_partial],
 * tdb_pglz_decompress), so corrupt input is reported, not overrun.  A
 * result of any other length than the one asked for is corruption too
 * (PostgreSQL does not check this for lz4; we do, so a stream that ends
 * early cannot hand back uninitialised bytes).
 *
 * Errors are PostgreSQL's: ERRCODE_DATA_CORRUPTED with "compressed pglz
 * data is corrupt" / "compressed lz4 data is corrupt"; an invalid method
 * id in tcinfo is elog's "invalid compression method id %d".  A VARSIZE
 * too small to hold tcinfo (which PostgreSQL would read anyway) is
 * "compressed data is corrupt", as the method is unknown.
 */
#include "common/base.h"

#include <lz4.h>

/* LZ4_decompress_safe_partial decodes prefixes correctly from 1.8.3 on
 * (PostgreSQL falls back to full decompression before it). */
#if LZ4_VERSION_NUMBER < 10803
#error "liblz4 1.8.3 or later is required"
#endif

#include "common/elog.h"
#include "common/errcodes.h"
#include "mmgr/mcxt.h"
#include "toast/compress.h"

_Static_assert(VARHDRSZ_COMPRESSED == 8, "compressed header is 8 bytes");

/* Write the compressed inline header: total size and tcinfo. */
static void
set_compressed_header(varlena *result, Size total, Size rawsize,
                      ToastCompressionId cmid)
{
    uint32 hdr = ((uint32)total << 2) | 0x02;
    uint32 tcinfo = (uint32)rawsize | ((uint32)cmid << VARLENA_EXTSIZE_BITS);

    Assert(total <= VARLENA_EXTSIZE_MASK && rawsize <= VARLENA_EXTSIZE_MASK);
    memcpy(result, &hdr, sizeof(hdr));
    memcpy((char *)result + VARHDRSZ, &tcinfo, sizeof(tcinfo));
}

varlena *
tdb_toast_compress(const varlena *value, char method)
{
    const char *data;
    Size valsize;
    varlena *result;
    char *out;
    int64 clen;
    ToastCompressionId cmid;

    if (VARATT_IS_EXTERNAL(value) || VARATT_IS_COMPRESSED(value))
        elog(ERROR, "cannot compress a value that is already toasted");
    valsize = VARSIZE_ANY_EXHDR(value);
    data = VARDATA_ANY(value);
    /* A 4B header holds < 1 GB, so valsize fits the 30-bit raw size. */
    Assert(valsize <= VARLENA_EXTSIZE_MASK);

    switch (method) {
    case TOAST_COMPRESSION_PGLZ:
        cmid = TOAST_PGLZ_COMPRESSION_ID;
        if (valsize < TDB_PGLZ_MIN_INPUT_SIZE)
            return NULL;
        result = tdb_palloc(VARHDRSZ_COMPRESSED +
                            (Size)TDB_PGLZ_MAX_OUTPUT(valsize));
        out = (char *)result + VARHDRSZ_COMPRESSED;
        clen = tdb_pglz_compress(data, (int32)valsize, out);
        if (clen < 0) {
            tdb_pfree(result);
            return NULL;
        }
        break;
    case TOAST_COMPRESSION_LZ4: {
        int bound = LZ4_compressBound((int)valsize);

        cmid = TOAST_LZ4_COMPRESSION_ID;
        if (bound <= 0)
            elog(ERROR, "lz4 compression failed");
        result = tdb_palloc(VARHDRSZ_COMPRESSED + (Size)bound);
        out = (char *)result + VARHDRSZ_COMPRESSED;
        clen = LZ4_compress_default(data, out, (int)valsize, bound);
        if (clen <= 0)
            elog(ERROR, "lz4 compression failed");
        if (clen > (int64)valsize) {
            tdb_pfree(result);
            return NULL;
        }
        break;
    }
    default:
        elog(ERROR, "invalid compression method %d", (int)method);
    }

    /* Worth it only if it beats the raw size by more than 2 bytes. */
    if (clen + VARHDRSZ_COMPRESSED >= (int64)valsize - 2) {
        tdb_pfree(result);
        return NULL;
    }
    set_compressed_header(result, (Size)clen + VARHDRSZ_COMPRESSED, valsize,
                          cmid);
    return result;
}

/* The bytes of a compressed inline value, once its framing is checked. */
typedef struct CompressedSource {
    ToastCompressionId cmid;
    const char *data; /* the stream, after the 8-byte header */
    int32 len;        /* its length: VARSIZE - 8 */
    int32 rawsize;    /* tcinfo's raw data size */
} CompressedSource;

TDB_NORETURN static void
report_corrupt(ToastCompressionId cmid)
{
    ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("compressed %s data is corrupt",
                   tdb_toast_compression_name(cmid)));
}

/*
 * Check the framing of a compressed inline value: the 4-byte compressed
 * header, room for tcinfo (tested before tcinfo is read: a damaged
 * VARSIZE below 8 must not make us read past the value), a valid method.
 */
static void
compressed_source(const varlena *value, CompressedSource *cs)
{
    Size total;
    uint32 tcinfo;

    if (!VARATT_IS_COMPRESSED(value))
        elog(ERROR, "value to decompress is not compressed");
    total = VARSIZE(value);
    if (total < VARHDRSZ_COMPRESSED)
        ereport(
            ERROR, errcode(ERRCODE_DATA_CORRUPTED),
            errmsg("compressed data is corrupt"),
            errdetail("The compressed value is only %zu bytes long.", total));
    tcinfo = tdb_toast_tcinfo(value);
    cs->cmid = (ToastCompressionId)(tcinfo >> VARLENA_EXTSIZE_BITS);
    if (cs->cmid != TOAST_PGLZ_COMPRESSION_ID &&
        cs->cmid != TOAST_LZ4_COMPRESSION_ID)
        elog(ERROR, "invalid compression method id %d", (int)cs->cmid);
    cs->data = (const char *)value + VARHDRSZ_COMPRESSED;
    cs->len = (int32)(total - VARHDRSZ_COMPRESSED);
    cs->rawsize = (int32)(tcinfo & VARLENA_EXTSIZE_MASK);
}

/*
 * Decode the first `want` raw bytes of cs (want <= its raw size;
 * complete: want is the whole raw size) into a new 4B-header value.
 */
static varlena *
decompress_prefix(const CompressedSource *cs, int32 want, bool complete)
{
    varlena *result;
    int32 got;

    /*
     * Neither codec expands one input byte into more than 255 output
     * bytes (lz4's length bytes; pglz stays below 88), so a larger size
     * is corrupt: refuse it before allocating up to 1 GB for it.
     */
    if ((int64)want > (int64)cs->len * 255 + 64)
        report_corrupt(cs->cmid);
    result = tdb_palloc((Size)want + VARHDRSZ);

    if (cs->cmid == TOAST_PGLZ_COMPRESSION_ID)
        got = tdb_pglz_decompress(cs->data, cs->len, VARDATA(result), want,
                                  complete);
    else if (complete)
        got = LZ4_decompress_safe(cs->data, VARDATA(result), cs->len, want);
    else
        got = LZ4_decompress_safe_partial(cs->data, VARDATA(result), cs->len,
                                          want, want);
    if (got != want)
        report_corrupt(cs->cmid);
    SET_VARSIZE(result, (Size)want + VARHDRSZ);
    return result;
}

varlena *
tdb_toast_decompress(const varlena *value)
{
    CompressedSource cs;

    compressed_source(value, &cs);
    return decompress_prefix(&cs, cs.rawsize, true);
}

varlena *
tdb_toast_decompress_slice(const varlena *value, int32 slicelength)
{
    CompressedSource cs;

    if (slicelength < 0)
        elog(ERROR, "invalid slice length %d", (int)slicelength);
    compressed_source(value, &cs);
    /* As PostgreSQL: a slice covering everything is a full decompression
     * (some liblz4 versions misbehave when asked for more than there is). */
    if (slicelength >= cs.rawsize)
        return decompress_prefix(&cs, cs.rawsize, true);
    return decompress_prefix(&cs, slicelength, false);
}

/* ----------------------------------------------------------------------
 * Names
 * ---------------------------------------------------------------------- */

const char *
tdb_toast_compression_name(ToastCompressionId cmid)
{
    switch (cmid) {
    case TOAST_PGLZ_COMPRESSION_ID:
        return "pglz";
    case TOAST_LZ4_COMPRESSION_ID:
        return "lz4";
    default:
        return NULL;
    }
}

const char *
tdb_toast_compression_method_name(char method)
{
    return tdb_toast_compression_name(tdb_toast_compression_id(method));
}

ToastCompressionId
tdb_toast_compression_id(char method)
{
    switch (method) {
    case TOAST_COMPRESSION_PGLZ:
        return TOAST_PGLZ_COMPRESSION_ID;
    case TOAST_COMPRESSION_LZ4:
        return TOAST_LZ4_COMPRESSION_ID;
    default:
        return TOAST_INVALID_COMPRESSION_ID;
    }
}

bool
tdb_toast_compression_lookup(const char *name, char *method)
{
    if (strcmp(name, "pglz") == 0)
        *method = TOAST_COMPRESSION_PGLZ;
    else if (strcmp(name, "lz4") == 0)
        *method = TOAST_COMPRESSION_LZ4;
    else
        return false;
    return true;
}

char
tdb_toast_compression_parse(const char *name)
{
    char method;

    if (name == NULL || strcmp(name, "default") == 0)
        return TOAST_COMPRESSION_DEFAULT;
    if (!tdb_toast_compression_lookup(name, &method))
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid compression method \"%s\"", name));
    return method;
}
