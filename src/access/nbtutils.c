/*
 * nbtutils.c -- B-tree tuple helpers: forming index tuples as PostgreSQL's
 * index_form_tuple does, reading attributes, the three-way comparison of
 * an insertion key with a page item (_bt_compare, with the inlined int4 /
 * int8 paths), suffix truncation of new pivots (_bt_truncate) and the
 * bitwise "how many attributes are equal" test (_bt_keep_natts_fast),
 * and the comparators the tree knows.
 */
#include "common/base.h"

#include <string.h>

#include "access/nbtree_int.h"
#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "tuple/heaptuple.h"
#include "tuple/varlena.h"

int
tdb_bt_cmp_int4(Datum a, Datum b, void *arg)
{
    int32 x = DatumGetInt32(a), y = DatumGetInt32(b);

    (void)arg;
    return (x > y) - (x < y);
}

int
tdb_bt_cmp_int8(Datum a, Datum b, void *arg)
{
    int64 x = DatumGetInt64(a), y = DatumGetInt64(b);

    (void)arg;
    return (x > y) - (x < y);
}

int
tdb_bt_cmp_text_c(Datum a, Datum b, void *arg)
{
    const void *pa = DatumGetPointer(a), *pb = DatumGetPointer(b);
    Size la = VARSIZE_ANY_EXHDR(pa), lb = VARSIZE_ANY_EXHDR(pb);
    int r = memcmp(VARDATA_ANY(pa), VARDATA_ANY(pb), Min(la, lb));

    (void)arg;
    if (r != 0)
        return r < 0 ? -1 : 1;
    return (la > lb) - (la < lb);
}

void
tdb_bt_index_init(BTIndex idx, RelFileNumber rel, const char *name,
                  TupleDesc desc)
{
    if (desc->natts < 1 || desc->natts > INDEX_MAX_KEYS)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("cannot use more than %d columns in an index",
                       INDEX_MAX_KEYS));
    memset(idx, 0, sizeof(*idx));
    idx->relfilenumber = rel;
    strncpy(idx->name, name, NAMEDATALEN - 1);
    strncpy(idx->heap_name, name, NAMEDATALEN - 1);
    idx->tupdesc = desc;
    idx->nkeyatts = desc->natts;
    idx->allequalimage = true;
    idx->deduplicate_items = true;
    idx->fillfactor = BTREE_DEFAULT_FILLFACTOR;
}

void
tdb_bt_index_finish(BTIndex idx)
{
    /*
     * INCLUDE columns have no operator class, so nothing says equal
     * tuples are equal images: PostgreSQL's metapage says allequalimage
     * false for such an index, and it is never deduplicated.
     */
    if (idx->nkeyatts < idx->tupdesc->natts) {
        idx->allequalimage = false;
        idx->deduplicate_items = false;
    }
    idx->fast = BT_FAST_NONE;
    if (idx->nkeyatts == 1 && idx->tupdesc->natts == 1 && !idx->keys[0].desc) {
        int16 len = idx->tupdesc->compact_attrs[0].attlen;

        if (idx->keys[0].cmp == tdb_bt_cmp_int4 && len == 4)
            idx->fast = BT_FAST_INT4;
        else if (idx->keys[0].cmp == tdb_bt_cmp_int8 && len == 8)
            idx->fast = BT_FAST_INT8;
    }
}

void
tdb_bt_raise_corrupt(const BTIndexData *idx, BlockNumber blk, const char *what)
{
    if (blk == InvalidBlockNumber)
        ereport(ERROR, errcode(ERRCODE_INDEX_CORRUPTED),
                errmsg("index \"%s\" contains corrupted page", idx->name),
                errdetail("%s", what), errhint("Please REINDEX it."));
    ereport(ERROR, errcode(ERRCODE_INDEX_CORRUPTED),
            errmsg("index \"%s\" contains corrupted page at block %u",
                   idx->name, blk),
            errdetail("%s", what), errhint("Please REINDEX it."));
}

/* ----------------------------------------------------------------------
 * Forming and reading tuples
 * ---------------------------------------------------------------------- */

static inline Size
itup_data_offset(const IndexTupleData *t)
{
    return (t->t_info & INDEX_NULL_MASK)
               ? MAXALIGN(sizeof(IndexTupleData) + sizeof(uint32))
               : MAXALIGN(sizeof(IndexTupleData));
}

IndexTuple
tdb_bt_form_tuple(BTIndex idx, const Datum *values, const bool *isnull,
                  const ItemPointerData *htid)
{
    TupleDesc desc = idx->tupdesc;
    bool hasnull = false;
    Size hoff, data_size, size;
    uint16 infomask = 0;
    IndexTuple t;

    for (int i = 0; i < desc->natts; i++)
        hasnull |= isnull[i];
    hoff = hasnull ? MAXALIGN(sizeof(IndexTupleData) + sizeof(uint32))
                   : MAXALIGN(sizeof(IndexTupleData));
    data_size = tdb_heap_compute_data_size(desc, values, isnull);
    size = MAXALIGN(hoff + data_size);
    if (size > BT_MAX_ITEM_SIZE)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("index row size %zu exceeds btree version %d maximum "
                       "%zu for index \"%s\"",
                       size, BTREE_VERSION, (Size)BT_MAX_ITEM_SIZE, idx->name),
                errdetail("Index row references tuple (%u,%u) in relation "
                          "\"%s\".",
                          ItemPointerGetBlockNumber(htid),
                          ItemPointerGetOffsetNumber(htid), idx->heap_name),
                errhint("Values larger than 1/3 of a buffer page cannot be "
                        "indexed.\nConsider a function index of an MD5 hash "
                        "of the value, or use full text indexing."));
    t = tdb_palloc0(size);
    tdb_heap_fill_tuple(desc, values, isnull, (char *)t + hoff, data_size,
                        &infomask,
                        hasnull ? (bits8 *)t + sizeof(IndexTupleData) : NULL);
    t->t_tid = *htid;
    t->t_info = (uint16)size;
    if (hasnull)
        t->t_info |= INDEX_NULL_MASK;
    if (infomask & HEAP_HASVARWIDTH)
        t->t_info |= INDEX_VAR_MASK;
    return t;
}

IndexTuple
tdb_bt_copy_tuple(IndexTuple t)
{
    IndexTuple c = tdb_palloc(IndexTupleSize(t));

    memcpy(c, t, IndexTupleSize(t));
    return c;
}

/*
 * Walk the attributes of t up to natts, filling values/isnull.  Index
 * tuples have no missing attributes: a pivot's truncated ones are not
 * asked for.  Every attribute is checked to lie inside the tuple (whose
 * size its line pointer vouched for: bt_page_item_checked), so a damaged
 * length raises XX002 instead of sending a comparator past the page.
 */
void
tdb_bt_deform(const BTIndexData *idx, IndexTuple t, Datum *values, bool *isnull)
{
    TupleDesc desc = idx->tupdesc;
    int natts = Min(bt_tuple_natts(idx, t), desc->natts);
    const char *tp = (const char *)t + itup_data_offset(t);
    Size avail = IndexTupleSize(t) > itup_data_offset(t)
                     ? IndexTupleSize(t) - itup_data_offset(t)
                     : 0;
    const bits8 *bits = (t->t_info & INDEX_NULL_MASK)
                            ? (const bits8 *)t + sizeof(IndexTupleData)
                            : NULL;
    Size off = 0;

    for (int i = 0; i < natts; i++) {
        const CompactAttribute *c = &desc->compact_attrs[i];
        Size len;

        if (bits != NULL && att_isnull(i, bits)) {
            values[i] = 0;
            isnull[i] = true;
            continue;
        }
        isnull[i] = false;
        if (c->attlen > 0) {
            off = TYPEALIGN(c->attalignby, off);
            len = (Size)c->attlen;
            if (unlikely(off + len > avail))
                goto bad;
            values[i] = (c->attflags & ATTR_BYVAL)
                            ? tdb_fetch_byval(tp + off, c->attlen)
                            : PointerGetDatum(tp + off);
        } else if (c->attlen == -1) {
            const char *p;

            /* the bytes read before the length is checked lie at most a
             * pad and a header past the tuple: inside its page (or, for
             * a tuple formed in memory, inside the tuple, which is
             * sound) */
            if (*(const uint8 *)(tp + off) == 0)
                off = TYPEALIGN(c->attalignby, off);
            p = tp + off;
            if (VARATT_IS_1B(p)) {
                /* never a TOAST pointer: index values are inline */
                if (unlikely(VARATT_IS_1B_E(p)))
                    goto bad;
                len = VARSIZE_1B(p);
            } else {
                len = VARSIZE_4B(p);
                if (unlikely(len < VARHDRSZ))
                    goto bad;
            }
            if (unlikely(off + len > avail))
                goto bad;
            values[i] = PointerGetDatum(p);
        } else {
            if (unlikely(off >= avail))
                goto bad;
            len = strnlen(tp + off, avail - off) + 1;
            if (unlikely(off + len > avail))
                goto bad;
            values[i] = PointerGetDatum(tp + off);
        }
        off += len;
    }
    return;
bad:
    bt_raise_corrupt_at(idx, t, "An index tuple's attribute overruns it.");
}

Datum
tdb_bt_getattr(const BTIndexData *idx, IndexTuple t, int attno, bool *isnull)
{
    Datum values[INDEX_MAX_KEYS];
    bool nulls[INDEX_MAX_KEYS];

    if (attno == 0 && !(t->t_info & INDEX_NULL_MASK)) {
        const CompactAttribute *c = &idx->tupdesc->compact_attrs[0];
        const char *p = (const char *)t + MAXALIGN(sizeof(IndexTupleData));

        *isnull = false;
        if (c->attflags & ATTR_BYVAL)
            return tdb_fetch_byval(p, c->attlen);
        return PointerGetDatum(p);
    }
    tdb_bt_deform(idx, t, values, nulls);
    *isnull = nulls[attno];
    return values[attno];
}

/* ----------------------------------------------------------------------
 * Comparison
 * ---------------------------------------------------------------------- */

/*
 * Index-order comparison of key column attno (0-based) values a and b:
 * NULLs placed as the column says, DESC inverting the type's order.
 */
int
tdb_bt_cmp_values(const BTIndexData *idx, int attno, Datum a, bool anull,
                  Datum b, bool bnull)
{
    const BTKeyColumn *k = &idx->keys[attno];
    int r;

    if (anull || bnull) {
        if (anull && bnull)
            return 0;
        if (anull)
            return k->nulls_first ? -1 : 1;
        return k->nulls_first ? 1 : -1;
    }
    r = k->cmp(a, b, k->cmp_arg);
    if (k->desc)
        r = (r < 0) - (r > 0);
    return r;
}

void
tdb_bt_key_from_tuple(const BTIndexData *idx, IndexTuple t, BTInsertKey *key)
{
    tdb_bt_deform(idx, t, key->values, key->isnull);
    key->keysz = idx->nkeyatts;
    key->nextkey = false;
    {
        ItemPointerData *htid = bt_tuple_heap_tid(t);

        key->has_scantid = htid != NULL;
        if (htid != NULL)
            key->scantid = *htid;
    }
}

/*
 * Compare key with item off of page: < 0 if the key sorts before it, 0
 * if equal (a heap TID inside a posting list's range is equal), > 0
 * after.  The first data item of an internal page is minus infinity.
 * Truncated attributes of a pivot are minus infinity; so is a pivot's
 * missing heap TID when the key has one.
 */
int
tdb_bt_compare(const BTIndexData *idx, const BTInsertKey *key, Page page,
               OffsetNumber off)
{
    BTPageOpaque o = bt_opaque(page);
    IndexTuple t;
    int ntupatts, ncmp;
    ItemPointerData *htid;
    int r;

    if (!P_ISLEAF(o) && off == P_FIRSTDATAKEY(o))
        return 1;
    t = bt_page_item_checked(idx, page, off);
    ntupatts = bt_tuple_natts(idx, t);
    ncmp = Min(ntupatts, key->keysz);

    if (idx->fast == BT_FAST_INT4 && ncmp == 1 &&
        !(t->t_info & INDEX_NULL_MASK) && !key->isnull[0]) {
        int32 a = DatumGetInt32(key->values[0]), b;

        memcpy(&b, (char *)t + MAXALIGN(sizeof(IndexTupleData)), 4);
        if (a != b)
            return a < b ? -1 : 1;
    } else if (idx->fast == BT_FAST_INT8 && ncmp == 1 &&
               !(t->t_info & INDEX_NULL_MASK) && !key->isnull[0]) {
        int64 a = DatumGetInt64(key->values[0]), b;

        memcpy(&b, (char *)t + MAXALIGN(sizeof(IndexTupleData)), 8);
        if (a != b)
            return a < b ? -1 : 1;
    } else if (ncmp > 0) {
        Datum values[INDEX_MAX_KEYS];
        bool isnull[INDEX_MAX_KEYS];

        tdb_bt_deform(idx, t, values, isnull);
        for (int i = 0; i < ncmp; i++) {
            r = tdb_bt_cmp_values(idx, i, key->values[i], key->isnull[i],
                                  values[i], isnull[i]);
            if (r != 0)
                return r;
        }
    }

    if (key->keysz > ntupatts)
        return 1;
    htid = bt_tuple_heap_tid(t);
    if (!key->has_scantid) {
        if (key->keysz == ntupatts && htid == NULL)
            return 1;
        return 0;
    }
    if (htid == NULL)
        return 1;
    r = bt_tid_cmp(&key->scantid, htid);
    if (r <= 0 || !bt_tuple_is_posting(t))
        return r;
    if (bt_tid_cmp(&key->scantid, bt_tuple_max_heap_tid(t)) > 0)
        return 1;
    return 0;
}

/*
 * Are the non-null values a and b of key column attno bitwise equal
 * (PostgreSQL's datum_image_eq, which compares compressed values
 * decompressed)?  A compressed key -- the executor compresses large ones
 * -- goes to the caller's comparator, which decompresses (access/ may
 * not): in the indexes that ask (deduplication, truncation: all
 * equalimage) its equality is bitwise equality.
 */
static bool
datum_image_eq(const BTIndexData *idx, int attno, Datum a, Datum b)
{
    const CompactAttribute *c = &idx->tupdesc->compact_attrs[attno];

    if (c->attlen == -1 && (VARATT_IS_COMPRESSED(DatumGetPointer(a)) ||
                            VARATT_IS_COMPRESSED(DatumGetPointer(b))))
        return tdb_bt_cmp_values(idx, attno, a, false, b, false) == 0;
    if (c->attflags & ATTR_BYVAL)
        return a == b;
    if (c->attlen > 0)
        return memcmp(DatumGetPointer(a), DatumGetPointer(b),
                      (Size)c->attlen) == 0;
    if (c->attlen == -1) {
        const void *pa = DatumGetPointer(a), *pb = DatumGetPointer(b);
        Size la = VARSIZE_ANY_EXHDR(pa);

        return la == VARSIZE_ANY_EXHDR(pb) &&
               memcmp(VARDATA_ANY(pa), VARDATA_ANY(pb), la) == 0;
    }
    return strcmp(DatumGetPointer(a), DatumGetPointer(b)) == 0;
}

/*
 * 1 + the number of leading key attributes of a and b that are bitwise
 * equal (NULL equals NULL): nkeyatts + 1 when all are.
 */
int
tdb_bt_keep_natts_fast(const BTIndexData *idx, IndexTuple a, IndexTuple b)
{
    Datum va[INDEX_MAX_KEYS], vb[INDEX_MAX_KEYS];
    bool na[INDEX_MAX_KEYS], nb[INDEX_MAX_KEYS];
    int keep = 1;

    if (idx->fast != BT_FAST_NONE &&
        !((a->t_info | b->t_info) & INDEX_NULL_MASK)) {
        Size len = idx->fast == BT_FAST_INT4 ? 4 : 8;

        return memcmp((char *)a + 8, (char *)b + 8, len) == 0 ? 2 : 1;
    }
    tdb_bt_deform(idx, a, va, na);
    tdb_bt_deform(idx, b, vb, nb);
    for (int i = 0; i < idx->nkeyatts; i++) {
        if (na[i] != nb[i])
            break;
        if (!na[i] && !datum_image_eq(idx, i, va[i], vb[i]))
            break;
        keep++;
    }
    return keep;
}

/*
 * 1 + the number of leading key attributes of a and b that compare equal
 * (PostgreSQL's _bt_keep_natts, for truncation): the comparators decide
 * where bitwise equality is not equality (numeric 1.0 and 1.00).
 */
static int
keep_natts(const BTIndexData *idx, IndexTuple a, IndexTuple b)
{
    Datum va[INDEX_MAX_KEYS], vb[INDEX_MAX_KEYS];
    bool na[INDEX_MAX_KEYS], nb[INDEX_MAX_KEYS];
    int keep = 1;

    if (idx->allequalimage)
        return tdb_bt_keep_natts_fast(idx, a, b);
    tdb_bt_deform(idx, a, va, na);
    tdb_bt_deform(idx, b, vb, nb);
    for (int i = 0; i < idx->nkeyatts; i++) {
        if (na[i] != nb[i] ||
            (!na[i] && tdb_bt_cmp_values(idx, i, va[i], false, vb[i], false)))
            break;
        keep++;
    }
    return keep;
}

/*
 * firstright's leading natts attributes as a new tuple, as
 * index_form_tuple would form it from those values: the data of a prefix
 * of attributes is a prefix of the data area (both data areas start
 * MAXALIGNed), and the null bitmap stays only if a kept one is null.
 */
static IndexTuple
truncate_attrs(const BTIndexData *idx, IndexTuple src, int natts)
{
    TupleDesc desc = idx->tupdesc;
    const char *tp = (const char *)src + itup_data_offset(src);
    const bits8 *bits = (src->t_info & INDEX_NULL_MASK)
                            ? (const bits8 *)src + sizeof(IndexTupleData)
                            : NULL;
    bool hasnull = false, hasvar = false;
    Size off = 0, hoff, size;
    IndexTuple t;

    for (int i = 0; i < natts; i++) {
        const CompactAttribute *c = &desc->compact_attrs[i];

        if (bits != NULL && att_isnull(i, bits)) {
            hasnull = true;
            continue;
        }
        if (c->attlen > 0) {
            off = TYPEALIGN(c->attalignby, off) + (Size)c->attlen;
        } else if (c->attlen == -1) {
            hasvar = true;
            if (*(const uint8 *)(tp + off) == 0)
                off = TYPEALIGN(c->attalignby, off);
            off += VARSIZE_ANY(tp + off);
        } else {
            hasvar = true;
            off += strlen(tp + off) + 1;
        }
    }
    hoff = hasnull ? MAXALIGN(sizeof(IndexTupleData) + sizeof(uint32))
                   : MAXALIGN(sizeof(IndexTupleData));
    size = MAXALIGN(hoff + off);
    t = tdb_palloc0(size);
    t->t_tid = src->t_tid;
    t->t_info = (uint16)size;
    if (hasnull) {
        uint32 nb = 0;

        t->t_info |= INDEX_NULL_MASK;
        for (int i = 0; i < natts; i++)
            if (!att_isnull(i, bits))
                nb |= (uint32)1 << i;
        memcpy((char *)t + sizeof(IndexTupleData), &nb, sizeof(nb));
    }
    if (hasvar)
        t->t_info |= INDEX_VAR_MASK;
    memcpy((char *)t + hoff, tp, off);
    return t;
}

/*
 * The new pivot (high key) separating lastleft from firstright, both
 * leaf non-pivot tuples: firstright's leading attributes up to the first
 * one that differs from lastleft (a copy of its t_tid kept, as
 * PostgreSQL's index_truncate_tuple does), or all of them plus lastleft's
 * largest heap TID when all are equal.  Allocated in the current context.
 */
IndexTuple
tdb_bt_truncate(const BTIndexData *idx, IndexTuple lastleft,
                IndexTuple firstright)
{
    int nkeyatts = idx->nkeyatts;
    int keep = keep_natts(idx, lastleft, firstright);
    int leave = Min(keep, nkeyatts);
    IndexTuple pivot, tidpivot;
    Size newsize;

    if (leave >= idx->tupdesc->natts) {
        pivot = tdb_bt_copy_tuple(firstright);
        if (bt_tuple_is_posting(pivot)) {
            pivot->t_info &= (uint16)~INDEX_SIZE_MASK;
            pivot->t_info |=
                (uint16)MAXALIGN(bt_tuple_posting_offset(firstright));
        }
    } else {
        pivot = truncate_attrs(idx, firstright, leave);
    }
    if (keep <= nkeyatts) {
        bt_tuple_set_natts(pivot, keep, false);
        return pivot;
    }
    newsize =
        MAXALIGN(IndexTupleSize(pivot)) + MAXALIGN(sizeof(ItemPointerData));
    tidpivot = tdb_palloc0(newsize);
    memcpy(tidpivot, pivot, MAXALIGN(IndexTupleSize(pivot)));
    tdb_pfree(pivot);
    tidpivot->t_info &= (uint16)~INDEX_SIZE_MASK;
    tidpivot->t_info |= (uint16)newsize;
    bt_tuple_set_natts(tidpivot, nkeyatts, true);
    *bt_tuple_heap_tid(tidpivot) = *bt_tuple_max_heap_tid(lastleft);
    return tidpivot;
}
