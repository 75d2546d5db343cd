/*
 * execindex.c -- writing a table's indexes (execindex.h): opening them
 * with their comparators, entries of new rows with the unique check, the
 * bottom-up build.
 */
#include "common/base.h"

#include <string.h>

#include "access/heapam.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "executor/exec_int.h"
#include "executor/execindex.h"
#include "executor/tuplesort.h"
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
            key->cmp = tdb_bt_cmp_text_c;
        else {
            support = tdb_type_support(typid);
            if (support == NULL || support->cmp == NULL)
                elog(ERROR, "type %u of index \"%s\" has no btree order", typid,
                     ri->ri_name);
            key->cmp = fmgr_cmp;
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

/* w's entry for econtext's scan row into iw->values / isnull, varlena
 * values detoasted (in the current memory context). */
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
        if (!isnull && TupleDescAttr(w->bt.tupdesc, i)->attlen == -1 &&
            VARATT_IS_EXTENDED(DatumGetPointer(v))) {
            /* COPY and the build detoast outside the executor's run */
            DetoastEnv *outer =
                tdb_detoast_env_push(tdb_exec_detoast_env(econtext->estate));

            v = PointerGetDatum(tdb_detoast(DatumGetPointer(v)));
            tdb_detoast_env_pop(outer);
        }
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

void
tdb_exec_insert_index_entries(IndexWriters *iw, EState *estate,
                              ExprContext *econtext, TupleTableSlot *row,
                              const ItemPointerData *tid)
{
    MemoryContext old = tdb_mcxt_switch_to(econtext->per_row_mcxt);

    econtext->scan_slot = row;
    for (int i = 0; i < iw->n; i++) {
        IndexWriter *w = &iw->w[i];

        if (!predicate_holds(w, econtext))
            continue;
        compute_entry(iw, w, econtext);
        if (w->ri->ri_unique)
            check_unique(iw, w, estate->xact);
        tdb_relation_written(estate->xact, w->bt.relfilenumber);
        tdb_bt_insert(&w->bt, iw->values, iw->isnull, tid);
    }
    tdb_mcxt_switch_to(old);
}

/* A heap TID as the int8 the build sorts it by (block, then offset). */
static Datum
tid_to_datum(const ItemPointerData *tid)
{
    return Int64GetDatum(((int64)ItemPointerGetBlockNumber(tid) << 16) |
                         ItemPointerGetOffsetNumber(tid));
}

static void
datum_to_tid(Datum d, ItemPointerData *tid)
{
    int64 v = DatumGetInt64(d);

    ItemPointerSet(tid, (BlockNumber)(v >> 16), (OffsetNumber)(v & 0xFFFF));
}

/* The sort's row: the index's columns, then the heap TID (int8). */
static TupleDesc
build_sort_desc(TupleDesc itd)
{
    TupleDesc sd = tdb_tupdesc_create(itd->natts + 1);

    for (int i = 0; i < itd->natts; i++) {
        const TupleAttr *a = TupleDescAttr(itd, i);

        tdb_tupdesc_init_attr(sd, i, a->attname, a->atttypid, a->atttypmod,
                              a->attlen, a->attbyval, a->attalign,
                              a->attstorage);
    }
    tdb_tupdesc_init_attr(sd, itd->natts, "tid", INT8OID, -1, 8, true, 'd',
                          'p');
    tdb_tupdesc_finalize(sd);
    return sd;
}

/* Do the key columns of the two entries compare equal (NULLs equal only
 * in a NULLS NOT DISTINCT index)? */
static bool
keys_equal(IndexWriter *w, const Datum *a, const bool *an, const Datum *b,
           const bool *bn)
{
    for (int i = 0; i < w->ri->ri_nkeyatts; i++) {
        if (an[i] || bn[i]) {
            if (!(an[i] && bn[i] && w->ri->ri_nulls_not_distinct))
                return false;
            continue;
        }
        if (w->bt.keys[i].cmp(a[i], b[i], w->bt.keys[i].cmp_arg) != 0)
            return false;
    }
    return true;
}

/* Sort the entries of ts into the loader, checking uniqueness. */
static void
load_sorted(IndexWriters *iw, IndexWriter *w, Tuplesort *ts)
{
    int natts = w->ri->ri_natts;
    BTLoader ld = tdb_bt_load_begin(&w->bt);
    MemoryContext prev_cxt = tdb_aset_create(
        tdb_current_mcxt, "index build keys", ALLOCSET_DEFAULT_SIZES);
    Datum prev[INDEX_MAX_KEYS];
    bool prev_null[INDEX_MAX_KEYS];
    bool have_prev = false;
    TupleTableSlot *slot;

    while ((slot = tdb_tuplesort_next(ts)) != NULL) {
        ItemPointerData tid;

        tdb_slot_getallattrs(slot);
        if (w->ri->ri_unique && have_prev &&
            keys_equal(w, prev, prev_null, slot->tts_values,
                       slot->tts_isnull)) {
            memcpy(iw->values, slot->tts_values, sizeof(Datum) * natts);
            memcpy(iw->isnull, slot->tts_isnull, sizeof(bool) * natts);
            ereport(
                ERROR, errcode(ERRCODE_UNIQUE_VIOLATION),
                errmsg("could not create unique index \"%s\"", w->ri->ri_name),
                errdetail("Key (%s)=(%s) is duplicated.", w->keycols,
                          key_values(iw, w)));
        }
        datum_to_tid(slot->tts_values[natts], &tid);
        tdb_bt_load_add(ld, slot->tts_values, slot->tts_isnull, &tid);
        if (w->ri->ri_unique) {
            MemoryContext old;

            tdb_mcxt_reset(prev_cxt);
            old = tdb_mcxt_switch_to(prev_cxt);
            for (int i = 0; i < w->ri->ri_nkeyatts; i++) {
                const TupleAttr *a = TupleDescAttr(w->bt.tupdesc, i);

                prev_null[i] = slot->tts_isnull[i];
                prev[i] = prev_null[i]
                              ? (Datum)0
                              : tdb_datum_copy(prev_cxt, slot->tts_values[i],
                                               a->attbyval, a->attlen);
            }
            tdb_mcxt_switch_to(old);
            have_prev = true;
        }
    }
    tdb_bt_load_end(ld);
    tdb_mcxt_delete(prev_cxt);
}

void
tdb_exec_build_index(IndexWriters *iw, int which, EState *estate)
{
    IndexWriter *w = &iw->w[which];
    int natts = w->ri->ri_natts;
    int nkey = w->ri->ri_nkeyatts;
    TupleDesc sd = build_sort_desc(w->bt.tupdesc);
    SortKey keys[INDEX_MAX_KEYS + 1];
    MemoryContext row_cxt = tdb_aset_create(tdb_current_mcxt, "index build row",
                                            ALLOCSET_DEFAULT_SIZES);
    ExprContext econtext = {0};
    TupleTableSlot *row = tdb_slot_create(iw->rel->rd_att, &tdb_tts_ops_heap);
    TupleTableSlot *entry = tdb_slot_create(sd, &tdb_tts_ops_virtual);
    HeapScanDesc scan;
    Tuplesort *ts;

    for (int i = 0; i < nkey; i++) {
        keys[i].col = i + 1;
        keys[i].support = tdb_type_support(TupleDescAttr(sd, i)->atttypid);
        keys[i].descending = w->bt.keys[i].desc;
        keys[i].nulls_first = w->bt.keys[i].nulls_first;
    }
    keys[nkey].col = natts + 1;
    keys[nkey].support = tdb_type_support(INT8OID);
    keys[nkey].descending = false;
    keys[nkey].nulls_first = false;
    ts = tdb_exec_begin_sort(estate, sd, keys, nkey + 1, tdb_current_mcxt);

    econtext.per_row_mcxt = row_cxt;
    econtext.per_query_mcxt = estate->query_mcxt;
    econtext.estate = estate;
    econtext.scan_slot = row;
    scan = tdb_heap_beginscan(iw->rel, estate->snapshot);
    while (tdb_heap_getnextslot(scan, row)) {
        MemoryContext old;

        tdb_exec_check_interrupts(estate);
        tdb_mcxt_reset(row_cxt);
        old = tdb_mcxt_switch_to(row_cxt);
        tdb_slot_getallattrs(row);
        if (predicate_holds(w, &econtext)) {
            compute_entry(iw, w, &econtext);
            tdb_slot_clear(entry);
            memcpy(entry->tts_values, iw->values, sizeof(Datum) * natts);
            memcpy(entry->tts_isnull, iw->isnull, sizeof(bool) * natts);
            entry->tts_values[natts] = tid_to_datum(&row->tts_tid);
            entry->tts_isnull[natts] = false;
            tdb_slot_store_virtual(entry);
            tdb_tuplesort_put(ts, entry);
        }
        tdb_mcxt_switch_to(old);
    }
    tdb_heap_endscan(scan);
    tdb_tuplesort_perform(ts);
    tdb_relation_written(estate->xact, w->bt.relfilenumber);
    if (tdb_tuplesort_count(ts) == 0)
        tdb_bt_create_empty(&w->bt);
    else
        load_sorted(iw, w, ts);
    tdb_tuplesort_end(ts);
    tdb_slot_drop(entry);
    tdb_slot_drop(row);
    tdb_mcxt_delete(row_cxt);
}
