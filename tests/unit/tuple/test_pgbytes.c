/*
 * test_pgbytes.c -- byte-exact agreement with PostgreSQL 15.
 *
 * tests/fixtures/pg/pg15_tuples.txt holds heap tuples written by a real
 * PostgreSQL 15 server together with each column's value obtained
 * independently through SQL (format: tests/fixtures/pg/README.md).  For
 * every row this test:
 *
 *   (a) rebuilds the tuple (23-byte header with zero transaction fields,
 *       the row's t_infomask2/t_infomask/t_hoff, the bitmap from t_bits,
 *       zero padding, t_data) in an exactly sized buffer and deforms it:
 *       every `val` must equal the deformed value (by value: the low attlen
 *       bytes of the Datum, little-endian, and the Datum sign-extended; by
 *       reference fixed: attlen bytes; varlena: the payload), NULLs must
 *       match, and columns past the tuple's natts read the `missing`
 *       value; deform_some, getattr, verify and the minimal-tuple view
 *       must agree with deform_tuple;
 *   (b) forms a tuple from the deformed values and compares it with
 *       PostgreSQL's: data area byte for byte, null bitmap, t_hoff, natts
 *       and the HASNULL/HASVARWIDTH/HASEXTERNAL bits (not the hint bits).
 *       A row with fewer attributes than the table (ADD COLUMN) is formed
 *       with the descriptor truncated to its natts.  Rows inserted before
 *       a column was dropped are not formed: INSERT today stores a dropped
 *       column as NULL, so the old bytes are not what we would write;
 *   (c) when the row has no `skip` value, forms it again from the `val`
 *       bytes themselves (varlenas given with 4-byte headers, as a type's
 *       input function makes them) and compares the same way, so forming
 *       is checked against PostgreSQL independently of deforming.
 *
 * The fixture is found next to this source file (through __FILE__, which
 * is relative to the repository root in our builds), or via
 * TDB_PG_FIXTURE.  A missing fixture or a fixture with no rows is a
 * failure, not a skip.
 */
#include "common/base.h"

#include <errno.h>
#include <unistd.h>

#include "tuple_test.h"

#define FIXTURE_NAME "pg15_tuples.txt"

/* ----------------------------------------------------------------------
 * Finding and reading the fixture
 * ---------------------------------------------------------------------- */

/* Decode lowercase/uppercase hex ("-" is empty); -1 if malformed. */
static long
hex_decode(const char *hex, uint8 *out)
{
    Size n = strlen(hex);

    if (strcmp(hex, "-") == 0)
        return 0;
    if (n % 2 != 0)
        return -1;
    for (Size i = 0; i < n; i += 2) {
        unsigned int byte;

        if (sscanf(hex + i, "%2x", &byte) != 1 ||
            strspn(hex + i, "0123456789abcdefABCDEF") < 2)
            return -1;
        out[i / 2] = (uint8)byte;
    }
    return (long)(n / 2);
}

/* A palloc'd decoded copy; *len its length.  NULL if malformed. */
static uint8 *
hex_dup(const char *hex, Size *len)
{
    uint8 *out = tdb_palloc(strlen(hex) / 2 + 1);
    long n = hex_decode(hex, out);

    if (n < 0)
        return NULL;
    *len = (Size)n;
    return out;
}

/* ----------------------------------------------------------------------
 * Fixture state
 * ---------------------------------------------------------------------- */

typedef enum ValKind { VAL_NULL, VAL_SKIP, VAL_BYTES } ValKind;

typedef struct PgVal {
    ValKind kind;
    uint8 *bytes;
    Size len;
} PgVal;

typedef struct PgRow {
    int lp;
    int line;
    uint16 infomask;
    uint16 infomask2;
    int hoff;
    char *bits; /* "0101..." or NULL (no bitmap) */
    uint8 *data;
    Size data_len;
    PgVal *vals; /* natts entries */
    int nvals;
} PgRow;

typedef struct Fixture {
    const char *path;
    int lineno;
    uint64 rng;

    /* the table being read */
    char table[NAMEDATALEN];
    int natts;
    int natt_lines;
    TupleDesc desc;
    bool finalized;
    bool in_table;
    bool in_row;
    int table_rows;
    MemoryContext table_cxt; /* the descriptor, reset per table */
    MemoryContext row_cxt;   /* reset per row */
    PgRow row;

    /* totals */
    int tables;
    int rows;
    int values;      /* non-skip values compared */
    int formed;      /* rows checked by (b) */
    int formed_vals; /* rows checked by (c) */
    int not_formed;  /* rows skipped by (b): written before a drop */
} Fixture;

#define fixture_fail(fx, ...)                                                  \
    tt_fail("%s:%d: %s", (fx)->path, (fx)->lineno, fixture_msg(__VA_ARGS__))

TDB_PRINTF(1, 2) static const char *fixture_msg(const char *fmt, ...)
{
    static char buf[512];
    va_list args;

    va_start(args, fmt);
    vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);
    return buf;
}

/* ----------------------------------------------------------------------
 * Values
 * ---------------------------------------------------------------------- */

/* A Datum for canonical value bytes (varlenas get a 4-byte header). */
static Datum
datum_from_bytes(const TupleAttr *att, const uint8 *bytes, Size len)
{
    if (att->attbyval) {
        uint64 v = 0;

        memcpy(&v, bytes, (Size)att->attlen);
        return tt_byval_norm((Datum)v, att->attlen);
    }
    if (att->attlen > 0) {
        char *p = tdb_palloc((Size)att->attlen);

        memcpy(p, bytes, (Size)att->attlen);
        return PointerGetDatum(p);
    }
    if (att->attlen == -2) {
        char *p = tdb_palloc(len + 1);

        memcpy(p, bytes, len);
        p[len] = '\0';
        return PointerGetDatum(p);
    }
    return tt_make_varlena((const char *)bytes, len, VF_4B);
}

/* Does canonical value bytes match a deformed Datum?  Else why. */
static bool
bytes_match(const TupleAttr *att, Datum d, const uint8 *bytes, Size len,
            char *why, Size whylen)
{
    const char *p = DatumGetPointer(d);

    if (att->attlen > 0 && len != (Size)att->attlen) {
        snprintf(why, whylen, "val has %zu bytes for attlen %d", len,
                 att->attlen);
        return false;
    }
    if (att->attbyval) {
        if (memcmp(&d, bytes, len) != 0) {
            snprintf(why, whylen, "by-value Datum 0x%016llx",
                     (unsigned long long)d);
            return false;
        }
        if (d != tt_byval_norm(d, att->attlen)) {
            snprintf(why, whylen, "Datum 0x%016llx is not sign-extended",
                     (unsigned long long)d);
            return false;
        }
        return true;
    }
    if (att->attlen > 0) {
        if (memcmp(p, bytes, len) == 0)
            return true;
        snprintf(why, whylen, "fixed bytes differ");
        return false;
    }
    if (att->attlen == -2) {
        if (strlen(p) == len && memcmp(p, bytes, len) == 0)
            return true;
        snprintf(why, whylen, "cstring differs");
        return false;
    }
    if (VARATT_IS_EXTERNAL(p) || VARATT_IS_COMPRESSED(p)) {
        snprintf(why, whylen, "varlena is external or compressed");
        return false;
    }
    if (VARSIZE_ANY_EXHDR(p) != len) {
        snprintf(why, whylen, "payload of %zu bytes, expected %zu",
                 VARSIZE_ANY_EXHDR(p), len);
        return false;
    }
    if (memcmp(VARDATA_ANY(p), bytes, len) != 0) {
        snprintf(why, whylen, "payload bytes differ");
        return false;
    }
    return true;
}

/* ----------------------------------------------------------------------
 * Rows
 * ---------------------------------------------------------------------- */

/*
 * PostgreSQL's tuple for the row, in an exactly sized malloc'd buffer;
 * t_data NULL if the row line is inconsistent.
 */
static HeapTupleData
build_pg_tuple(Fixture *fx, const PgRow *r)
{
    HeapTupleData tuple;
    Size nbits = r->bits ? strlen(r->bits) : 0;
    uint8 *buf;
    HeapTupleHeader td;

    memset(&tuple, 0, sizeof(tuple));
    ItemPointerSetInvalid(&tuple.t_self);
    if (r->hoff < (int)(SizeofHeapTupleHeader + (nbits + 7) / 8) ||
        r->hoff % MAXIMUM_ALIGNOF != 0) {
        fixture_fail(fx, "t_hoff %d cannot hold the bitmap", r->hoff);
        return tuple;
    }
    tuple.t_len = (uint32)(r->hoff + r->data_len);
    buf = tt_malloc(tuple.t_len);
    memset(buf, 0, (Size)r->hoff);
    td = (HeapTupleHeader)buf;
    td->t_infomask2 = r->infomask2;
    td->t_infomask = r->infomask;
    td->t_hoff = (uint8)r->hoff;
    for (Size k = 0; k < nbits; k++)
        if (r->bits[k] == '1')
            td->t_bits[k >> 3] |= (bits8)(1 << (k & 7));
    memcpy(buf + r->hoff, r->data, r->data_len);
    tuple.t_data = td;
    return tuple;
}

/* A finalized copy of desc's first natts columns, without missing values. */
static TupleDesc
truncated_desc(TupleDesc desc, int natts)
{
    TupleDesc t = tdb_tupdesc_create(natts);

    memcpy(t->attrs, desc->attrs, (Size)natts * sizeof(TupleAttr));
    for (int i = 0; i < natts; i++)
        t->attrs[i].atthasmissing = false;
    tdb_tupdesc_finalize(t);
    return t;
}

/* Compare a tuple we formed with PostgreSQL's. */
static void
compare_formed(Fixture *fx, HeapTuple formed, const HeapTupleData *pg,
               const char *what)
{
    const HeapTupleHeaderData *a = formed->t_data;
    const HeapTupleHeaderData *b = pg->t_data;
    int natts = HeapTupleHeaderGetNatts(b);
    Size a_len = formed->t_len - a->t_hoff;
    Size b_len = pg->t_len - b->t_hoff;

    if (a->t_hoff != b->t_hoff)
        fixture_fail(fx, "%s: t_hoff %u, PostgreSQL %u", what, a->t_hoff,
                     b->t_hoff);
    if (HeapTupleHeaderGetNatts(a) != natts)
        fixture_fail(fx, "%s: natts %d, PostgreSQL %d", what,
                     HeapTupleHeaderGetNatts(a), natts);
    if ((a->t_infomask & 0x000F) != (b->t_infomask & 0x000F))
        fixture_fail(fx, "%s: infomask bits 0x%x, PostgreSQL 0x%x", what,
                     a->t_infomask & 0x000F, b->t_infomask & 0x000F);
    if ((b->t_infomask & HEAP_HASNULL) && (a->t_infomask & HEAP_HASNULL) &&
        memcmp(a->t_bits, b->t_bits, (Size)BITMAPLEN(natts)) != 0)
        fixture_fail(fx, "%s: null bitmap differs", what);
    if (a_len != b_len) {
        fixture_fail(fx, "%s: %zu data bytes, PostgreSQL %zu", what, a_len,
                     b_len);
        return;
    }
    for (Size i = 0; i < a_len; i++)
        if (((const uint8 *)a)[a->t_hoff + i] !=
            ((const uint8 *)b)[b->t_hoff + i]) {
            fixture_fail(fx, "%s: data byte %zu is 0x%02x, PostgreSQL 0x%02x",
                         what, i, ((const uint8 *)a)[a->t_hoff + i],
                         ((const uint8 *)b)[b->t_hoff + i]);
            return;
        }
}

static void
deform_into(void *arg)
{
    void **a = arg;

    tdb_heap_deform_tuple(a[0], a[1], a[2], a[3]);
}

static void
check_row(Fixture *fx)
{
    PgRow *r = &fx->row;
    TupleDesc desc = fx->desc;
    int natts = desc->natts;
    int tup_natts = r->infomask2 & HEAP_NATTS_MASK;
    TupleDesc form_desc = desc;
    Datum *values = tdb_palloc((Size)natts * sizeof(Datum) + 1);
    bool *isnull = tdb_palloc((Size)natts + 1);
    bool has_skip = false, pre_drop = false;
    HeapTupleData tuple = build_pg_tuple(fx, r);
    char ctx[96];
    void *args[4] = {&tuple, desc, values, isnull};
    int code;

    if (tuple.t_data == NULL)
        return;
    snprintf(ctx, sizeof(ctx), "%s row %d (line %d)", fx->table, r->lp,
             r->line);
    fx->rows++;
    fx->table_rows++;

    /* (a) deform and compare with the SQL values */
    code = tt_catch(deform_into, args);
    if (code != 0) {
        fixture_fail(fx, "%s: deforming raised %s: %s", ctx, tt_sqlstate(code),
                     tt_caught_message);
        tt_exact_free(&tuple);
        return;
    }
    for (int i = 0; i < natts; i++) {
        const TupleAttr *att = TupleDescAttr(desc, i);
        const PgVal *v = &r->vals[i];
        char why[160];

        if (v->kind == VAL_SKIP) {
            has_skip = true;
            if (att->attisdropped && i < tup_natts && !isnull[i])
                pre_drop = true;
            continue;
        }
        fx->values++;
        if ((v->kind == VAL_NULL) != isnull[i])
            fixture_fail(fx, "%s: column %d (%s): isnull %d, expected %d", ctx,
                         i + 1, att->attname, isnull[i], v->kind == VAL_NULL);
        else if (v->kind == VAL_BYTES && !bytes_match(att, values[i], v->bytes,
                                                      v->len, why, sizeof(why)))
            fixture_fail(fx, "%s: column %d (%s): %s", ctx, i + 1, att->attname,
                         why);
    }
    tt_check_deform(&tuple, desc, values, isnull, &fx->rng, ctx);
    {
        MinimalTuple mtup = tdb_minimal_tuple_from_heap(&tuple);
        HeapTupleData view = tt_exact_minimal_view(mtup);

        tt_check_deform(&view, desc, values, isnull, &fx->rng, ctx);
        tt_exact_minimal_free(&view);
    }

    /* (b) form from the deformed values */
    if (tup_natts < natts)
        form_desc = truncated_desc(desc, tup_natts);
    if (pre_drop) {
        fx->not_formed++;
    } else {
        HeapTuple formed = tdb_heap_form_tuple(form_desc, values, isnull);

        compare_formed(fx, formed, &tuple, "formed from deformed values");
        fx->formed++;
    }

    /* (c) form from the SQL values themselves */
    if (!has_skip) {
        HeapTuple formed;

        for (int i = 0; i < tup_natts; i++) {
            isnull[i] = r->vals[i].kind == VAL_NULL;
            values[i] =
                isnull[i] ? (Datum)0
                          : datum_from_bytes(TupleDescAttr(desc, i),
                                             r->vals[i].bytes, r->vals[i].len);
        }
        formed = tdb_heap_form_tuple(form_desc, values, isnull);
        compare_formed(fx, formed, &tuple, "formed from the SQL values");
        fx->formed_vals++;
    }
    tt_exact_free(&tuple);
}

/* ----------------------------------------------------------------------
 * Lines
 * ---------------------------------------------------------------------- */

/* Split line on single spaces into at most max tokens; returns count. */
static int
split(char *line, char **tok, int max)
{
    int n = 0;
    char *save = NULL;

    for (char *t = strtok_r(line, " \n", &save); t != NULL && n < max;
         t = strtok_r(NULL, " \n", &save))
        tok[n++] = t;
    return n;
}

static bool
parse_bool(const char *s)
{
    return strcmp(s, "t") == 0;
}

static void
line_table(Fixture *fx, char **tok, int ntok)
{
    if (ntok != 3 || fx->in_table) {
        fixture_fail(fx, "bad table line");
        return;
    }
    tdb_mcxt_reset(fx->table_cxt);
    snprintf(fx->table, sizeof(fx->table), "%s", tok[1]);
    fx->natts = atoi(tok[2]);
    fx->natt_lines = 0;
    fx->in_table = true;
    fx->in_row = false;
    fx->finalized = false;
    fx->table_rows = 0;
    {
        MemoryContext old = tdb_mcxt_switch_to(fx->table_cxt);

        fx->desc = tdb_tupdesc_create(fx->natts);
        tdb_mcxt_switch_to(old);
    }
    fx->tables++;
}

/* att <attnum> <attname> <typname> <attlen> <byval> <align> <storage> <nn> */
static void
line_att(Fixture *fx, char **tok, int ntok)
{
    int attnum = ntok == 9 ? atoi(tok[1]) : -1;
    TupleAttr *att;

    if (!fx->in_table || attnum != fx->natt_lines + 1 || attnum > fx->natts) {
        fixture_fail(fx, "bad att line");
        return;
    }
    tdb_tupdesc_init_attr(fx->desc, attnum - 1, tok[2], 0, -1,
                          (int16)atoi(tok[4]), parse_bool(tok[5]), tok[6][0],
                          tok[7][0]);
    att = TupleDescAttr(fx->desc, attnum - 1);
    att->attnotnull = parse_bool(tok[8]);
    att->attisdropped = strcmp(tok[3], "-") == 0;
    fx->natt_lines++;
}

/* missing <attnum> <hex> */
static void
line_missing(Fixture *fx, char **tok, int ntok)
{
    int attnum = ntok == 3 ? atoi(tok[1]) : -1;
    MemoryContext old;
    uint8 *bytes;
    Size len;

    if (!fx->in_table || attnum < 1 || attnum > fx->natt_lines) {
        fixture_fail(fx, "bad missing line");
        return;
    }
    old = tdb_mcxt_switch_to(fx->row_cxt);
    bytes = hex_dup(tok[2], &len);
    if (bytes == NULL)
        fixture_fail(fx, "bad hex in missing line");
    else
        tdb_tupdesc_set_missing(
            fx->desc, attnum - 1,
            datum_from_bytes(TupleDescAttr(fx->desc, attnum - 1), bytes, len),
            false);
    tdb_mcxt_switch_to(old);
    tdb_mcxt_reset(fx->row_cxt);
}

/* row <lp> <infomask hex4> <infomask2 hex4> <t_hoff> <t_bits> <t_data> */
static void
line_row(Fixture *fx, char **tok, int ntok)
{
    PgRow *r = &fx->row;

    if (!fx->in_table || fx->in_row || ntok != 7 ||
        fx->natt_lines != fx->natts) {
        fixture_fail(fx, "bad row line");
        return;
    }
    if (!fx->finalized) {
        tdb_tupdesc_finalize(fx->desc);
        fx->finalized = true;
    }
    tdb_mcxt_reset(fx->row_cxt);
    tdb_mcxt_switch_to(fx->row_cxt);
    memset(r, 0, sizeof(*r));
    r->lp = atoi(tok[1]);
    r->line = fx->lineno;
    r->infomask = (uint16)strtoul(tok[2], NULL, 16);
    r->infomask2 = (uint16)strtoul(tok[3], NULL, 16);
    r->hoff = atoi(tok[4]);
    r->bits = strcmp(tok[5], "-") == 0 ? NULL : tdb_pstrdup(tok[5]);
    r->data = hex_dup(tok[6], &r->data_len);
    r->vals = tdb_palloc0(((Size)fx->natts + 1) * sizeof(PgVal));
    if (r->data == NULL)
        fixture_fail(fx, "bad t_data hex");
    else if (fx->natts == 0)
        check_row(fx);
    else
        fx->in_row = true;
}

/* val <attnum> null|skip|<hex> */
static void
line_val(Fixture *fx, char **tok, int ntok)
{
    PgRow *r = &fx->row;
    int attnum = ntok == 3 ? atoi(tok[1]) : -1;
    PgVal *v;

    if (!fx->in_row || attnum != r->nvals + 1) {
        fixture_fail(fx, "bad val line");
        fx->in_row = false;
        return;
    }
    v = &r->vals[r->nvals++];
    if (strcmp(tok[2], "null") == 0) {
        v->kind = VAL_NULL;
    } else if (strcmp(tok[2], "skip") == 0) {
        v->kind = VAL_SKIP;
    } else {
        v->kind = VAL_BYTES;
        v->bytes = hex_dup(tok[2], &v->len);
        if (v->bytes == NULL) {
            fixture_fail(fx, "bad val hex");
            fx->in_row = false;
            return;
        }
    }
    if (r->nvals == fx->natts) {
        fx->in_row = false;
        check_row(fx);
    }
}

static void
line_end(Fixture *fx)
{
    if (!fx->in_table || fx->in_row)
        fixture_fail(fx, "bad end line");
    fx->in_table = false;
    printf("#   %-14s %4d columns, %3d rows\n", fx->table, fx->natts,
           fx->table_rows);
}

TEST_BEGIN(test_pg15_tuples)
{
    char path[PATH_MAX];
    FILE *f = tdb_test_open_fixture("pg/" FIXTURE_NAME, "TDB_PG_FIXTURE", path,
                                    sizeof(path));
    Fixture fx;
    char *line = NULL;
    size_t cap = 0;
    MemoryContext old = tdb_current_mcxt;

    if (f == NULL) {
        tt_fail("cannot open the PostgreSQL fixture %s: %s (set "
                "TDB_PG_FIXTURE, or see tests/fixtures/pg/README.md)",
                path, strerror(errno));
        return;
    }
    memset(&fx, 0, sizeof(fx));
    fx.path = path;
    fx.rng = tdb_test_seed();
    fx.table_cxt =
        tdb_aset_create(tdb_current_mcxt, "table", ALLOCSET_DEFAULT_SIZES);
    fx.row_cxt =
        tdb_aset_create(tdb_current_mcxt, "row", ALLOCSET_DEFAULT_SIZES);

    while (getline(&line, &cap, f) > 0 && !tt_too_many_failures()) {
        char *tok[10];
        int ntok;

        fx.lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        ntok = split(line, tok, lengthof(tok));
        if (ntok == 0)
            continue;
        if (strcmp(tok[0], "table") == 0)
            line_table(&fx, tok, ntok);
        else if (strcmp(tok[0], "att") == 0)
            line_att(&fx, tok, ntok);
        else if (strcmp(tok[0], "missing") == 0)
            line_missing(&fx, tok, ntok);
        else if (strcmp(tok[0], "row") == 0)
            line_row(&fx, tok, ntok);
        else if (strcmp(tok[0], "val") == 0)
            line_val(&fx, tok, ntok);
        else if (strcmp(tok[0], "end") == 0)
            line_end(&fx);
        else
            fixture_fail(&fx, "unknown line \"%s\"", tok[0]);
        tdb_mcxt_switch_to(old);
    }
    free(line);
    fclose(f);
    if (fx.in_table)
        tt_fail("%s: last table has no end line", path);

    printf("# %s: %d tables, %d rows, %d values compared; %d rows formed "
           "from deformed values (%d written before a DROP COLUMN not "
           "formed), %d formed from the SQL values\n",
           path, fx.tables, fx.rows, fx.values, fx.formed, fx.not_formed,
           fx.formed_vals);
    expect_u64_gt((uint64)fx.tables, 0);
    expect_u64_gt((uint64)fx.rows, 0);
    expect_u64_gt((uint64)fx.values, 0);
    expect_u64_gt((uint64)fx.formed, 0);
    expect_u64_gt((uint64)fx.formed_vals, 0);
    tdb_mcxt_delete(fx.row_cxt);
    tdb_mcxt_delete(fx.table_cxt);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "tuple_pgbytes", TEST_CASE(test_pg15_tuples));
}
