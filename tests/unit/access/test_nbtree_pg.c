/*
 * test_nbtree_pg.c -- tupledb's B-tree pages against PostgreSQL 15's, byte
 * for byte (tests/fixtures/pg/pg15_nbtree.txt, written by
 * capture_nbtree.sh): for each captured index the same rows are inserted
 * one by one in the same order (the insert path: splits, deduplication,
 * root splits), or sorted and given to the loader (CREATE INDEX), and
 * every page must equal PostgreSQL's except the page LSN, the checksum
 * (PostgreSQL's covers its LSN) and btpo_cycleid.  Columns are int4 or
 * "C" text; the first NKEYATTS are keys, the others INCLUDE columns (kept
 * in leaf tuples only).  A unique index's rows are checked absent with the
 * uniqueness helper before each insert, as the executor does.
 *
 * Debugging aids: TDB_NBTREE_LIMIT=N inserts only the first N rows of each
 * insert case (compare with PostgreSQL after as many rows), and
 * TDB_NBTREE_DUMP=DIR writes every differing page to DIR/NAME_BLOCK.page
 * and goes on comparing the following blocks.
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nbtree_test.h"

#define FIXTURE "pg/pg15_nbtree.txt"
#define FX_MAX_COLS 4

typedef struct FxRow {
    ItemPointerData tid;
    Datum values[FX_MAX_COLS];
    bool isnull[FX_MAX_COLS];
} FxRow;

typedef struct FxIndex {
    char name[64];
    bool build;
    bool unique;
    int natts, nkeyatts;
    Oid types[FX_MAX_COLS]; /* 23 int4, 25 text */
    int nrows, nblocks;
    FxRow *rows;
    char **pages; /* raw bytes */
} FxIndex;

static int
hexval(char c)
{
    return c <= '9' ? c - '0' : c - 'a' + 10;
}

static char *
unhex(const char *h, Size *len)
{
    Size n = strlen(h) / 2;
    char *b = tdb_palloc(n + 1);

    for (Size i = 0; i < n; i++)
        b[i] = (char)(hexval(h[2 * i]) * 16 + hexval(h[2 * i + 1]));
    *len = n;
    return b;
}

static Datum
parse_value(Oid type, const char *tok, bool *isnull)
{
    *isnull = strcmp(tok, "N") == 0;
    if (*isnull)
        return 0;
    if (type == 25) {
        Size len;
        char *b = unhex(tok + 1, &len);

        return PointerGetDatum(tdb_text_from_bytes(b, len));
    }
    return Int32GetDatum((int32)atoi(tok));
}

/* All indexes of the fixture, in the current context. */
static int
load_fixture(FxIndex **out)
{
    char path[1024];
    FILE *f = tdb_test_open_fixture(FIXTURE, "TDB_PG_NBTREE_FIXTURE", path,
                                    sizeof(path));
    char *line = NULL;
    size_t cap = 0;
    FxIndex *idxs = tdb_palloc0(sizeof(FxIndex) * 16);
    int n = 0;
    FxIndex *cur = NULL;

    if (f == NULL) {
        tdb_test_fail(__FILE__, __LINE__, "cannot open %s (capture_nbtree.sh)",
                      path);
        return 0;
    }
    while (getline(&line, &cap, f) > 0) {
        char *save = NULL, *tok;

        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        tok = strtok_r(line, " ", &save);
        if (strcmp(tok, "index") == 0) {
            char *tsave = NULL;

            cur = &idxs[n++];
            strcpy(cur->name, strtok_r(NULL, " ", &save));
            cur->build = strcmp(strtok_r(NULL, " ", &save), "build") == 0;
            cur->natts = atoi(strtok_r(NULL, " ", &save));
            cur->nkeyatts = atoi(strtok_r(NULL, " ", &save));
            cur->unique = strcmp(strtok_r(NULL, " ", &save), "t") == 0;
            expect_true(cur->natts >= 1 && cur->natts <= FX_MAX_COLS);
            for (int c = 0; c < cur->natts; c++) {
                const char *type = strtok_r(
                    c == 0 ? strtok_r(NULL, " ", &save) : NULL, ",", &tsave);

                expect_true(strcmp(type, "integer") == 0 ||
                            strcmp(type, "text") == 0);
                cur->types[c] = strcmp(type, "integer") == 0 ? 23 : 25;
            }
            cur->nrows = atoi(strtok_r(NULL, " ", &save));
            cur->nblocks = atoi(strtok_r(NULL, " ", &save));
            cur->rows = tdb_palloc0(sizeof(FxRow) * (Size)cur->nrows);
            cur->pages = tdb_palloc0(sizeof(char *) * (Size)cur->nblocks);
            cur->nrows = 0;
        } else if (strcmp(tok, "row") == 0) {
            FxRow *r = &cur->rows[cur->nrows++];
            int blk = atoi(strtok_r(NULL, " ", &save));
            int off = atoi(strtok_r(NULL, " ", &save));

            r->tid = tid_of((BlockNumber)blk, (OffsetNumber)off);
            for (int c = 0; c < cur->natts; c++)
                r->values[c] = parse_value(
                    cur->types[c], strtok_r(NULL, " ", &save), &r->isnull[c]);
        } else if (strcmp(tok, "page") == 0) {
            int blk;
            Size len;

            strtok_r(NULL, " ", &save);
            blk = atoi(strtok_r(NULL, " ", &save));
            cur->pages[blk] = unhex(strtok_r(NULL, " ", &save), &len);
        }
    }
    free(line);
    fclose(f);
    *out = idxs;
    return n;
}

static BTIndex fx_sort_idx;

static int
fx_row_cmp(const void *a, const void *b)
{
    const FxRow *x = a, *y = b;

    for (int i = 0; i < fx_sort_idx->nkeyatts; i++) {
        int r = tdb_bt_cmp_values(fx_sort_idx, i, x->values[i], x->isnull[i],
                                  y->values[i], y->isnull[i]);

        if (r != 0)
            return r;
    }
    return bt_tid_cmp(&x->tid, &y->tid);
}

/* Compare page blk of idx with PostgreSQL's; false (after a failure
 * message) on a difference outside the masked bytes. */
static bool
compare_page(BTIndex idx, const FxIndex *fx, BlockNumber blk)
{
    Buffer buf = tdb_buf_read(idx->relfilenumber, blk, NULL);
    const char *mine = tdb_buf_page(buf);
    const char *pg = fx->pages[blk];
    bool ok = true;

    for (int i = 10; i < BLCKSZ - 2; i++) {
        if (mine[i] != pg[i]) {
            tdb_test_fail(__FILE__, __LINE__,
                          "%s block %u differs from PostgreSQL's at byte %d: "
                          "%02x, PostgreSQL %02x",
                          fx->name, blk, i, (uint8)mine[i], (uint8)pg[i]);
            ok = false;
            if (getenv("TDB_NBTREE_DUMP") != NULL) {
                char path[256];
                FILE *f;

                snprintf(path, sizeof(path), "%s/%s_%u.page",
                         getenv("TDB_NBTREE_DUMP"), fx->name, blk);
                f = fopen(path, "wb");
                if (f != NULL) {
                    fwrite(mine, 1, BLCKSZ, f);
                    fclose(f);
                }
            }
            break;
        }
    }
    tdb_buf_release(buf);
    return ok;
}

TEST_BEGIN(test_pg15_nbtree_pages)
{
    FxIndex *fxs;
    int n = load_fixture(&fxs);
    BtEnv *e;

    if (n == 0)
        return;
    e = bt_env_start(2048);
    for (int i = 0; i < n; i++) {
        FxIndex *fx = &fxs[i];
        BTIndex idx =
            bt_new_index_cols(e, fx->name, fx->natts, fx->types, fx->nkeyatts);
        BlockNumber nblocks;

        if (fx->build) {
            BTLoader ld = tdb_bt_load_begin(idx);

            fx_sort_idx = idx;
            qsort(fx->rows, (Size)fx->nrows, sizeof(FxRow), fx_row_cmp);
            for (int r = 0; r < fx->nrows; r++)
                tdb_bt_load_add(ld, fx->rows[r].values, fx->rows[r].isnull,
                                &fx->rows[r].tid);
            tdb_bt_load_end(ld);
        } else {
            int limit = getenv("TDB_NBTREE_LIMIT")
                            ? atoi(getenv("TDB_NBTREE_LIMIT"))
                            : fx->nrows;

            tdb_bt_create_empty(idx);
            for (int r = 0; r < Min(limit, fx->nrows); r++) {
                FxRow *row = &fx->rows[r];
                ItemPointerData *found;

                if (fx->unique)
                    expect_int_eq(tdb_bt_find_equal(idx, row->values,
                                                    row->isnull, &found),
                                  0);
                tdb_bt_insert(idx, row->values, row->isnull, &row->tid);
            }
        }
        expect_int_eq(tdb_bt_check(idx), fx->nrows);
        nblocks = tdb_buf_relation_nblocks(idx->relfilenumber);
        expect_int_eq(nblocks, fx->nblocks);
        for (BlockNumber b = 0; b < Min(nblocks, (BlockNumber)fx->nblocks); b++)
            if (!compare_page(idx, fx, b) && getenv("TDB_NBTREE_DUMP") == NULL)
                break;
    }
    bt_env_finish(e);
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "access_nbtree_pg",
                     TEST_CASE(test_pg15_nbtree_pages));
}
