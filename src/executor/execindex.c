/*
 * execindex.c -- writing a table's indexes (execindex.h): opening them
 * with their comparators, entries of new rows with the unique check, the
 * bottom-up build.
 */
#include "common/base.h"

#include <string.h>

#include "access/heapam.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/execindex.h"
#include "executor/indexsort.h"
#include "toast/compress.h"
#include "toast/detoast.h"
#include "types/builtins.h"
#include "types/fmgr.h"

/* A key type's btree support 1 through fmgr (arg: its TypeSupport). */
static int
fmgr_cmp(Datum a, Datum b, void *arg)
{
    FunctionCallInfoData fcinfo = {0};

    fcinfo.nargs = 2;
    fcinfo.args[0].value = a;
    fcinfo.args[1].value = b;
    return DatumGetInt32(((const TypeSupport *)arg)->cmp(&fcinfo));
}

/*
 * cmp(a, b, arg) on the decompressed values of varlena keys a and b, one
 * of which is compressed: index_value compresses large keys, and the
 * B-tree (which may not decompress) hands stored keys to its comparators
 * as they are.  Through the query's detoast cache when there is one.
 * Out of line: its frame (two DetoastRefs) cost the common case of
 * text_c_cmp ~17 instructions per comparison when inlined (callgrind).
 */
static TDB_NOINLINE TDB_COLD int
cmp_decompressed(Datum a, Datum b, BTCompareFunc cmp, void *arg)
{
    DetoastRef ra, rb;
    varlena *va = tdb_detoast_acquire(DatumGetPointer(a), &ra);
    varlena *vb = tdb_detoast_acquire(DatumGetPointer(b), &rb);
    int r = cmp(PointerGetDatum(va), PointerGetDatum(vb), arg);

    tdb_detoast_release(&rb);
    tdb_detoast_release(&ra);
    return r;
}

static inline bool
either_compressed(Datum a, Datum b)
{
    return VARATT_IS_COMPRESSED(DatumGetPointer(a)) ||
           VARATT_IS_COMPRESSED(DatumGetPointer(b));
}

/* "C" text order of keys that may be compressed. */
static int
text_c_cmp(Datum a, Datum b, void *arg)
{
    if (unlikely(either_compressed(a, b)))
        return cmp_decompressed(a, b, tdb_bt_cmp_text_c, arg);
    return tdb_bt_cmp_text_c(a, b, arg);
}

/* fmgr_cmp of a varlena type, whose keys may be compressed. */
static int
fmgr_varlena_cmp(Datum a, Datum b, void *arg)
{
    if (unlikely(either_compressed(a, b)))
        return cmp_decompressed(a, b, fmgr_cmp, arg);
    return fmgr_cmp(a, b, arg);
}

/*
 * Is equality of typid bitwise equality (btree support 4, equalimage)?
 * PostgreSQL 15 says no for numeric, float4 and float8 (equal values
 * with different images: 1.0 and 1.00, 0 and -0) and for nondeterministic
 * collations, which tupledb does not have.
 */
static bool
type_equalimage(Oid typid)
{
    return typid != NUMERICOID && typid != FLOAT4OID && typid != FLOAT8OID;
}

void
tdb_exec_index_comparators(BTIndexData *bt, const RelationIndex *ri)
{
    bt->allequalimage = true;
    for (int i = 0; i < ri->ri_nkeyatts; i++) {
        Oid typid = TupleDescAttr(bt->tupdesc, i)->atttypid;
        BTKeyColumn *key = &bt->keys[i];
        const TypeSupport *support;

        key->desc = (ri->ri_options[i] & INDOPTION_DESC) != 0;
        key->nulls_first = (ri->ri_options[i] & INDOPTION_NULLS_FIRST) != 0;
        key->cmp_arg = NULL;
        /* every collation is "C" in tupledb: text compares bytes */
        if (typid == INT4OID)
            key->cmp = tdb_bt_cmp_int4;
        else if (typid == INT8OID)
            key->cmp = tdb_bt_cmp_int8;
        else if (typid == TEXTOID || typid == VARCHAROID)
            key->cmp = text_c_cmp;
        else {
            support = tdb_type_support(typid);
            if (support == NULL || support->cmp == NULL)
                elog(ERROR, "type %u of index \"%s\" has no btree order", typid,
                     ri->ri_name);
            key->cmp = TupleDescAttr(bt->tupdesc, i)->attlen == -1
                           ? fmgr_varlena_cmp
                           : fmgr_cmp;
            key->cmp_arg = (void *)support;
        }
        if (!type_equalimage(typid))
            bt->allequalimage = false;
    }
    bt->nkeyatts = ri->ri_nkeyatts;
    /* PostgreSQL does not deduplicate indexes with INCLUDE columns */
    bt->deduplicate_items = ri->ri_natts == ri->ri_nkeyatts;
    tdb_bt_index_finish(bt);
}

/* The index tuple descriptor of w: the table's columns, the expressions'
 * result types. */
static TupleDesc
index_tupdesc(Relation rel, const RelationIndex *ri, Expr **exprs)
{
    TupleDesc desc = tdb_tupdesc_create(ri->ri_natts);
    int next = 0;

    for (int i = 0; i < ri->ri_natts; i++) {
        Oid typid;
        int32 typmod;
        const TypeInfo *type;

        if (ri->ri_attnums[i] != 0) {
            const TupleAttr *att =
                TupleDescAttr(rel->rd_att, ri->ri_attnums[i] - 1);

            typid = att->atttypid;
            typmod = att->atttypmod;
        } else {
            typid = exprType(exprs[next]);
            typmod = exprTypmod(exprs[next]);
            next++;
        }
        type = tdb_type_lookup(typid);
        if (type == NULL)
            elog(ERROR, "cache lookup failed for type %u", typid);
        tdb_tupdesc_init_attr(desc, i, "key", typid, typmod, type->len,
                              type->byval, type->align, type->storage);
    }
    tdb_tupdesc_finalize(desc);
    return desc;
}

void
tdb_exec_index_open_scan(BTIndexData *bt, Relation rel, const RelationIndex *ri,
                         List *exprs)
{
    Expr **own = tdb_palloc(sizeof(Expr *) * (Size)Max(1, list_length(exprs)));

    for (int i = 0; i < list_length(exprs); i++)
        own[i] = list_nth(exprs, i);
    tdb_bt_index_init(bt, ri->ri_relfilenumber, ri->ri_name,
                      index_tupdesc(rel, ri, own));
    memcpy(bt->heap_name, rel->rd_name, NAMEDATALEN);
    tdb_exec_index_comparators(bt, ri);
}

int
tdb_exec_index_tree_height(const RelationIndex *ri)
{
    BTIndexData bt;

    memset(&bt, 0, sizeof(bt));
    bt.relfilenumber = ri->ri_relfilenumber;
    memcpy(bt.name, ri->ri_name, NAMEDATALEN);
    return tdb_bt_tree_height(&bt);
}

IndexWriters *
tdb_exec_open_indexes(EState *estate, Relation rel, List *exprs, List *keycols)
{
    IndexWriters *iw;
    int next = 0;

    if (rel->rd_nindexes == 0)
        return NULL;
    iw = tdb_palloc0(sizeof(IndexWriters));
    iw->rel = rel;
    iw->n = rel->rd_nindexes;
    iw->w = tdb_palloc0(sizeof(IndexWriter) * (Size)iw->n);
    for (int i = 0; i < iw->n; i++) {
        IndexWriter *w = &iw->w[i];
        const RelationIndex *ri = &rel->rd_indexes[i];
        Expr **own = tdb_palloc(sizeof(Expr *) * (Size)ri->ri_natts);
        int nexprs = 0;

        w->ri = ri;
        for (int c = 0; c < ri->ri_natts; c++)
            if (ri->ri_attnums[c] == 0) {
                if (next >= list_length(exprs))
                    elog(ERROR, "index \"%s\" lacks its expressions",
                         ri->ri_name);
                own[nexprs++] = list_nth(exprs, next++);
            }
        w->exprs = tdb_palloc(sizeof(ExprState *) * (Size)Max(nexprs, 1));
        for (int c = 0; c < nexprs; c++)
            w->exprs[c] = tdb_exec_init_expr(own[c], estate);
        if (ri->ri_pred != NULL) {
            if (next >= list_length(exprs))
                elog(ERROR, "index \"%s\" lacks its predicate", ri->ri_name);
            w->pred = tdb_exec_init_expr(list_nth(exprs, next++), estate);
            w->pred->is_qual = true;
        }
        if (i >= list_length(keycols))
            elog(ERROR, "index \"%s\" lacks its key column list", ri->ri_name);
        w->keycols = list_nth(keycols, i);
        tdb_bt_index_init(&w->bt, ri->ri_relfilenumber, ri->ri_name,
                          index_tupdesc(rel, ri, own));
        memcpy(w->bt.heap_name, rel->rd_name, NAMEDATALEN);
        /* splits may reuse pages VACUUM deleted, once past its horizon */
        w->bt.tm = tdb_xact_manager_of(estate->xact);
        tdb_exec_index_comparators(&w->bt, ri);
    }
    return iw;
}

/* Does w's predicate hold for econtext's scan row (true: no predicate)? */
static bool
predicate_holds(IndexWriter *w, ExprContext *econtext)
{
    bool isnull;
    Datum ok;

    if (w->pred == NULL)
        return true;
    ok = tdb_exec_eval_expr(w->pred, econtext, &isnull);
    return !isnull && DatumGetBool(ok);
}

/*
 * A varlena value as PostgreSQL's index_form_tuple stores it: a TOAST
 * pointer fetched in its stored form (compressed if it was), a plain
 * value over TOAST_INDEX_TARGET compressed when the column's storage
 * allows and compression pays (so large compressible keys fit a page).
 * Allocated in the current memory context.
 */
static Datum
index_value(Datum v, const TupleAttr *att, EState *estate)
{
    const varlena *p = DatumGetPointer(v);

    if (VARATT_IS_EXTERNAL(p)) {
        /* COPY and the build run outside the executor's run */
        DetoastEnv *outer = tdb_detoast_env_push(tdb_exec_detoast_env(estate));

        p = tdb_detoast_fetch_stored(p);
        tdb_detoast_env_pop(outer);
    }
    if (!VARATT_IS_EXTENDED(p) && VARSIZE(p) > TOAST_INDEX_TARGET &&
        (att->attstorage == 'x' || att->attstorage == 'm')) {
        varlena *c = tdb_toast_compress(
            p, estate->default_toast_compression != TOAST_COMPRESSION_DEFAULT
                   ? estate->default_toast_compression
                   : TOAST_COMPRESSION_PGLZ);

        if (c != NULL)
            p = c;
    }
    return PointerGetDatum(p);
}

/* w's entry for econtext's scan row into iw->values / isnull, varlena
 * values as index_value makes them (in the current memory context). */
static void
compute_entry(IndexWriters *iw, IndexWriter *w, ExprContext *econtext)
{
    const RelationIndex *ri = w->ri;
    TupleTableSlot *row = econtext->scan_slot;
    int next = 0;

    for (int i = 0; i < ri->ri_natts; i++) {
        Datum v;
        bool isnull;

        if (ri->ri_attnums[i] != 0) {
            v = row->tts_values[ri->ri_attnums[i] - 1];
            isnull = row->tts_isnull[ri->ri_attnums[i] - 1];
        } else
            v = tdb_exec_eval_expr(w->exprs[next++], econtext, &isnull);
        if (!isnull && TupleDescAttr(w->bt.tupdesc, i)->attlen == -1)
            v = index_value(v, TupleDescAttr(w->bt.tupdesc, i),
                            econtext->estate);
        iw->values[i] = v;
        iw->isnull[i] = isnull;
    }
}

/* "1, abc" (PostgreSQL's BuildIndexValueDescription): the key columns'
 * values of iw's current entry. */
static char *
key_values(IndexWriters *iw, IndexWriter *w)
{
    Size size = 64, len = 0;
    char *buf = tdb_palloc(size);

    buf[0] = '\0';
    for (int i = 0; i < w->ri->ri_nkeyatts; i++) {
        const char *s =
            iw->isnull[i]
                ? "null"
                : tdb_type_output(TupleDescAttr(w->bt.tupdesc, i)->atttypid,
                                  iw->values[i]);
        Size need = len + strlen(s) + 3;

        if (need > size) {
            size = need * 2;
            buf = tdb_repalloc(buf, size);
        }
        len +=
            (Size)snprintf(buf + len, size - len, "%s%s", i > 0 ? ", " : "", s);
    }
    return buf;
}

static TDB_NORETURN void
report_duplicate(IndexWriters *iw, IndexWriter *w)
{
    ereport(ERROR, errcode(ERRCODE_UNIQUE_VIOLATION),
            errmsg("duplicate key value violates unique constraint \"%s\"",
                   w->ri->ri_name),
            errdetail("Key (%s)=(%s) already exists.", w->keycols,
                      key_values(iw, w)));
}

/*
 * A live row holding iw's current entry's key in unique index w
 * (PostgreSQL's _bt_check_unique): every entry with an equal key points
 * at a heap row; one that is live (tdb_heap_tid_is_live_for_unique) is a
 * conflict, and its TID goes to *conflict.  Entries of dead rows (a
 * rolled back insert, a deleted row, the old version of the row this
 * UPDATE replaces) are not.  A key with a NULL never conflicts, except
 * in a NULLS NOT DISTINCT index.
 */
static bool
find_conflict(IndexWriters *iw, IndexWriter *w, Transaction *xact,
              ItemPointerData *conflict)
{
    int nkey = w->ri->ri_nkeyatts;
    bool anynull = false;
    bool found = false;

    for (int i = 0; i < nkey; i++)
        anynull |= iw->isnull[i];
    if (!anynull) {
        ItemPointerData *htids;
        int n = tdb_bt_find_equal(&w->bt, iw->values, iw->isnull, &htids);

        for (int i = 0; i < n && !found; i++)
            if (tdb_heap_tid_is_live_for_unique(iw->rel, xact, &htids[i])) {
                *conflict = htids[i];
                found = true;
            }
        if (htids != NULL)
            tdb_pfree(htids);
    } else if (w->ri->ri_nulls_not_distinct) {
        /* NULLS NOT DISTINCT: a NULL equals a NULL */
        BTScanKeyData keys[INDEX_MAX_KEYS];
        BTScanDesc scan;
        ItemPointerData htid;

        for (int i = 0; i < nkey; i++) {
            keys[i].attno = i + 1;
            keys[i].strategy = iw->isnull[i] ? BT_IS_NULL : BT_EQUAL;
            keys[i].argument = iw->isnull[i] ? (Datum)0 : iw->values[i];
        }
        scan = tdb_bt_beginscan(&w->bt, keys, nkey, BT_FORWARD);
        while (!found && tdb_bt_getnext(scan, &htid))
            if (tdb_heap_tid_is_live_for_unique(iw->rel, xact, &htid)) {
                *conflict = htid;
                found = true;
            }
        tdb_bt_endscan(scan);
    }
    return found;
}

/* The unique check of iw's current entry in w: 23505 on a conflict. */
static void
check_unique(IndexWriters *iw, IndexWriter *w, Transaction *xact)
{
    ItemPointerData conflict;

    if (find_conflict(iw, w, xact, &conflict))
        report_duplicate(iw, w);
}

bool
tdb_exec_find_arbiter_conflict(IndexWriters *iw, const bool *arbiters,
                               EState *estate, ExprContext *econtext,
                               TupleTableSlot *row, ItemPointerData *conflict)
{
    MemoryContext old = tdb_mcxt_switch_to(econtext->per_row_mcxt);
    bool found = false;

    econtext->scan_slot = row;
    for (int i = 0; i < iw->n && !found; i++) {
        IndexWriter *w = &iw->w[i];

        if (arbiters != NULL ? !arbiters[i] : !w->ri->ri_unique)
            continue;
        if (!predicate_holds(w, econtext))
            continue;
        compute_entry(iw, w, econtext);
        found = find_conflict(iw, w, estate->xact, conflict);
    }
    tdb_mcxt_switch_to(old);
    return found;
}

/* tdb_bt_insert_unique's conflict test: is the row at htid live? */
typedef struct UniqueCheck {
    Relation rel;
    Transaction *xact;
} UniqueCheck;

static bool
row_is_live(const ItemPointerData *htid, void *arg)
{
    const UniqueCheck *u = arg;

    return tdb_heap_tid_is_live_for_unique(u->rel, u->xact, htid);
}

void
tdb_exec_insert_index_entries(IndexWriters *iw, EState *estate,
                              ExprContext *econtext, TupleTableSlot *row,
                              const ItemPointerData *tid)
{
    MemoryContext old = tdb_mcxt_switch_to(econtext->per_row_mcxt);

    econtext->scan_slot = row;
    for (int i = 0; i < iw->n; i++) {
        IndexWriter *w = &iw->w[i];
        bool anynull = false;

        if (!predicate_holds(w, econtext))
            continue;
        compute_entry(iw, w, econtext);
        for (int k = 0; k < w->ri->ri_nkeyatts; k++)
            anynull |= iw->isnull[k];
        tdb_relation_written(estate->xact, w->bt.relfilenumber);
        if (w->ri->ri_unique && !anynull) {
            /* check and insert in one descent, as PostgreSQL does */
            UniqueCheck u = {iw->rel, estate->xact};
            IndexTuple itup =
                tdb_bt_form_tuple(&w->bt, iw->values, iw->isnull, tid);

            if (!tdb_bt_insert_unique(&w->bt, itup, row_is_live, &u))
                report_duplicate(iw, w);
            continue;
        }
        if (w->ri->ri_unique)
            check_unique(iw, w, estate->xact);
        tdb_bt_insert(&w->bt, iw->values, iw->isnull, tid);
    }
    tdb_mcxt_switch_to(old);
}

/* The build's state while the sorted entries go to the loader. */
typedef struct BuildState {
    IndexWriters *iw;
    IndexWriter *w;
    BTLoader ld;
    bool check_unique;
    bool have_prev;
    IndexTuple prev;  /* the previous entry (a BLCKSZ buffer) */
    int prev_visible; /* does the build's snapshot see prev's row: 1, 0,
                       * or -1 not known yet */
    Snapshot snap;
    TupleTableSlot *probe; /* for those visibility tests */
} BuildState;

/* Do two entries of a unique index conflict: equal key columns (a NULL
 * equals nothing, unless NULLS NOT DISTINCT)? */
/* Is a key column of bt of a variable-length type? */
static bool
has_varlena_key(const BTIndexData *bt)
{
    for (int i = 0; i < bt->nkeyatts; i++)
        if (TupleDescAttr(bt->tupdesc, i)->attlen == -1)
            return true;
    return false;
}

static bool
entries_conflict(const IndexWriter *w, IndexTuple a, IndexTuple b)
{
    const BTIndexData *bt = &w->bt;

    if ((b->t_info & INDEX_NULL_MASK) && !w->ri->ri_nulls_not_distinct) {
        Datum values[INDEX_MAX_KEYS];
        bool isnull[INDEX_MAX_KEYS];

        tdb_bt_deform_tuple(bt, b, values, isnull);
        for (int i = 0; i < bt->nkeyatts; i++)
            if (isnull[i])
                return false;
    }
    /* equal-image keys and no INCLUDE columns: equal keys are equal bytes
     * (the tuples are formed canonically) -- except a large value, which
     * may be compressed in one entry and not in another, or by another
     * method (a TOAST pointer's value is taken as stored) */
    if (bt->allequalimage && bt->nkeyatts == bt->tupdesc->natts &&
        !has_varlena_key(bt))
        return a->t_info == b->t_info &&
               memcmp((const char *)a + sizeof(IndexTupleData),
                      (const char *)b + sizeof(IndexTupleData),
                      IndexTupleSize(a) - sizeof(IndexTupleData)) == 0;
    return tdb_bt_compare_tuples(bt, a, b, false) == 0;
}

/* Does the build's snapshot see the row of entry itup? */
static bool
entry_row_visible(BuildState *b, IndexTuple itup)
{
    ItemPointerData tid = itup->t_tid;
    bool seen = tdb_heap_fetch(b->iw->rel, b->snap, &tid, b->probe);

    tdb_slot_clear(b->probe);
    return seen;
}

/*
 * One sorted entry into the loader, after the unique check.  The build
 * indexes rows an older snapshot may still see (recently dead ones), so
 * equal keys conflict only when the build's snapshot sees both rows --
 * PostgreSQL keeps such rows in a second spool that is not checked.
 * Only entries with equal keys ask the heap, so a unique index without
 * duplicates pays nothing.
 */
static void
build_emit(void *arg, IndexTuple itup)
{
    BuildState *b = arg;

    if (b->check_unique) {
        if (b->have_prev && entries_conflict(b->w, b->prev, itup)) {
            IndexWriter *w = b->w;

            if (b->prev_visible < 0)
                b->prev_visible = entry_row_visible(b, b->prev);
            if (!entry_row_visible(b, itup)) {
                /* a row only older snapshots see: prev stays */
                tdb_bt_load_add_tuple(b->ld, itup);
                return;
            }
            if (b->prev_visible) {
                tdb_bt_deform_tuple(&w->bt, itup, b->iw->values,
                                    b->iw->isnull);
                ereport(ERROR, errcode(ERRCODE_UNIQUE_VIOLATION),
                        errmsg("could not create unique index \"%s\"",
                               w->ri->ri_name),
                        errdetail("Key (%s)=(%s) is duplicated.", w->keycols,
                                  key_values(b->iw, w)));
            }
            b->prev_visible = 1;
        } else
            b->prev_visible = -1;
        memcpy(b->prev, itup, IndexTupleSize(itup));
        b->have_prev = true;
    }
    tdb_bt_load_add_tuple(b->ld, itup);
}

/*
 * The entries of an index of one plain column (no expression, no
 * predicate) a page at a time: the column of the page's visible rows read
 * in one loop (tdb_heap_getnext_column), no slot.  On 10M int4 rows this
 * costs ~20 instructions a row where the slot's deform and the per-row
 * context cost ~200.
 */
static void
scan_one_column(IndexWriters *iw, IndexWriter *w, EState *estate,
                HeapScanDesc scan, IndexSort *sort, MemoryContext row_cxt)
{
    HeapTupleData tuples[MaxHeapTuplesPerPage];
    Datum values[MaxHeapTuplesPerPage];
    bool isnull[MaxHeapTuplesPerPage];
    int attnum = w->ri->ri_attnums[0];
    bool is_varlena = TupleDescAttr(w->bt.tupdesc, 0)->attlen == -1;
    Buffer buffer;
    int n;

    while ((n = tdb_heap_getnext_rows(scan, tuples, MaxHeapTuplesPerPage,
                                      &buffer)) > 0) {
        MemoryContext old;

        tdb_exec_check_interrupts(estate);
        tdb_heap_getattr_array(tuples, n, attnum, iw->rel->rd_att, values,
                               isnull);
        tdb_mcxt_reset(row_cxt);
        old = tdb_mcxt_switch_to(row_cxt);
        for (int k = 0; k < n; k++) {
            if (is_varlena && !isnull[k])
                values[k] = index_value(values[k], TupleDescAttr(w->bt.tupdesc, 0),
                                        estate);
            tdb_index_sort_put(sort, &values[k], &isnull[k], &tuples[k].t_self);
        }
        tdb_mcxt_switch_to(old);
    }
}

/* The last table column w's entry reads, or -1 for all (expressions, a
 * predicate). */
static int
last_column(const IndexWriter *w)
{
    int last = 0;

    if (w->pred != NULL)
        return -1;
    for (int i = 0; i < w->ri->ri_natts; i++) {
        if (w->ri->ri_attnums[i] == 0)
            return -1;
        last = Max(last, w->ri->ri_attnums[i]);
    }
    return last;
}

void
tdb_exec_build_index(IndexWriters *iw, int which, EState *estate)
{
    IndexWriter *w = &iw->w[which];
    int last = last_column(w);
    MemoryContext row_cxt = tdb_aset_create(tdb_current_mcxt, "index build row",
                                            ALLOCSET_DEFAULT_SIZES);
    IndexSortConfig cfg = {
        .parent = tdb_current_mcxt,
        .work_mem_kb = estate->work_mem,
        .temp_dir = estate->temp_dir,
        .check_interrupts = estate->check_interrupts,
        .check_interrupts_arg = estate->check_interrupts_arg,
        .heap_blocks = tdb_heap_relation_nblocks(iw->rel),
    };
    IndexSort *sort = tdb_index_sort_begin(&w->bt, &cfg);
    ExprContext econtext = {0};
    TupleTableSlot *row = tdb_slot_create(iw->rel->rd_att, &tdb_tts_ops_heap);
    HeapScanDesc scan;
    uint64 nrows = 0;
    bool direct = last > 0;

    for (int i = 0; direct && i < w->ri->ri_natts; i++)
        direct = TupleDescAttr(w->bt.tupdesc, i)->attlen > 0;

    econtext.per_row_mcxt = row_cxt;
    econtext.per_query_mcxt = estate->query_mcxt;
    econtext.estate = estate;
    econtext.scan_slot = row;
    scan = tdb_heap_beginscan_nondead(
        iw->rel, estate->snapshot,
        tdb_xact_manager_oldest_xmin(tdb_xact_manager_of(estate->xact)));
    if (last > 0 && w->ri->ri_natts == 1)
        scan_one_column(iw, w, estate, scan, sort, row_cxt);
    else
        while (tdb_heap_getnextslot(scan, row)) {
            MemoryContext old;

            if ((++nrows & 4095) == 0)
                tdb_exec_check_interrupts(estate);
            if (direct) {
                /* plain fixed-width columns: nothing to compute or free */
                tdb_slot_getsomeattrs(row, last);
                for (int i = 0; i < w->ri->ri_natts; i++) {
                    iw->values[i] = row->tts_values[w->ri->ri_attnums[i] - 1];
                    iw->isnull[i] = row->tts_isnull[w->ri->ri_attnums[i] - 1];
                }
                tdb_index_sort_put(sort, iw->values, iw->isnull, &row->tts_tid);
                continue;
            }
            tdb_mcxt_reset(row_cxt);
            old = tdb_mcxt_switch_to(row_cxt);
            if (last < 0)
                tdb_slot_getallattrs(row);
            else
                tdb_slot_getsomeattrs(row, last);
            if (predicate_holds(w, &econtext)) {
                compute_entry(iw, w, &econtext);
                tdb_index_sort_put(sort, iw->values, iw->isnull, &row->tts_tid);
            }
            tdb_mcxt_switch_to(old);
        }
    tdb_heap_endscan(scan);
    tdb_relation_written(estate->xact, w->bt.relfilenumber);
    if (tdb_index_sort_count(sort) == 0)
        tdb_bt_create_empty(&w->bt);
    else {
        BuildState b = {
            .iw = iw,
            .w = w,
            .ld = tdb_bt_load_begin(&w->bt),
            .check_unique = w->ri->ri_unique,
            .prev = tdb_palloc(BLCKSZ),
            .prev_visible = -1,
            .snap = estate->snapshot,
            .probe = w->ri->ri_unique ? row : NULL,
        };

        tdb_index_sort_finish(sort, build_emit, &b);
        tdb_bt_load_end(b.ld);
        tdb_pfree(b.prev);
    }
    tdb_index_sort_end(sort);
    tdb_slot_drop(row);
    tdb_mcxt_delete(row_cxt);
}
