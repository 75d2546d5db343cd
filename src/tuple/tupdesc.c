/*
 * tupdesc.c -- building, finalizing and copying tuple descriptors.
 *
 * See tupdesc.h for the layout.  tdb_tupdesc_finalize() is the one place
 * that derives the CompactAttribute array and the per-descriptor offsets
 * from the full attributes; everything that deforms trusts what it wrote.
 */
#include "common/base.h"

#include "common/elog.h"
#include "mmgr/mcxt.h"
#include "tuple/tupdesc.h"
#include "tuple/varlena.h"

/* Bytes for the descriptor struct plus both arrays, attrs MAXALIGNed. */
static Size
tupdesc_size(int natts, Size *attrs_offset)
{
    Size head = offsetof(TupleDescData, compact_attrs) +
                (Size)natts * sizeof(CompactAttribute);

    *attrs_offset = MAXALIGN(head);
    return *attrs_offset + (Size)natts * sizeof(TupleAttr);
}

TupleDesc
tdb_tupdesc_create(int natts)
{
    Size attrs_offset;
    Size size;
    TupleDesc desc;

    if (natts < 0 || natts > MaxTupleAttributeNumber)
        ereport(ERROR, errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
                errmsg("number of columns (%d) exceeds limit (%d)", natts,
                       MaxTupleAttributeNumber));
    size = tupdesc_size(natts, &attrs_offset);
    desc = tdb_palloc0(size);
    desc->natts = natts;
    desc->tdtypeid = RECORDOID;
    desc->tdtypmod = -1;
    desc->first_noncached = -1;
    desc->first_nonguaranteed = 0;
    desc->constr = NULL;
    desc->attrs = (TupleAttr *)((char *)desc + attrs_offset);
    return desc;
}

void
tdb_tupdesc_init_attr(TupleDesc desc, int i, const char *name, Oid typid,
                      int32 typmod, int16 attlen, bool attbyval,
                      char attalign, char attstorage)
{
    TupleAttr *att;

    if (i < 0 || i >= desc->natts)
        elog(ERROR, "column number %d out of range for a descriptor of %d",
             i, desc->natts);
    if ((attbyval && attlen != 1 && attlen != 2 && attlen != 4 &&
         attlen != 8) ||
        attlen == 0 || attlen < -2 ||
        (attalign != 'c' && attalign != 's' && attalign != 'i' &&
         attalign != 'd') ||
        (attstorage != 'p' && attstorage != 'e' && attstorage != 'm' &&
         attstorage != 'x') ||
        (attlen == -2 && attalign != 'c') ||
        (attlen > 0 && attstorage != 'p'))
        ereport(ERROR, errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                errmsg("invalid type properties for column \"%s\": length "
                       "%d, by value %d, alignment '%c', storage '%c'",
                       name, attlen, attbyval, attalign, attstorage));

    att = &desc->attrs[i];
    memset(att, 0, sizeof(*att));
    strncpy(att->attname, name, NAMEDATALEN - 1);
    att->atttypid = typid;
    att->atttypmod = typmod;
    att->attlen = attlen;
    att->attbyval = attbyval;
    att->attalign = attalign;
    att->attstorage = attstorage;
    att->attpackable = attstorage != 'p';
    desc->first_noncached = -1; /* needs finalize again */
}

/*
 * A by-value Datum as a tuple would return it: sign-extended from its
 * width, so a missing value reads exactly like a stored one.
 */
static Datum
canonical_byval(Datum value, int16 attlen)
{
    switch (attlen) {
    case 1:
        return (Datum)(int64)(int8)value;
    case 2:
        return (Datum)(int64)(int16)value;
    case 4:
        return (Datum)(int64)(int32)value;
    default:
        return value;
    }
}

Datum
tdb_datum_copy(MemoryContext cxt, Datum value, bool byval, int16 len)
{
    Size size;
    void *copy;

    if (byval)
        return canonical_byval(value, len);
    if (len > 0)
        size = (Size)len;
    else if (len == -1)
        size = VARSIZE_ANY(DatumGetPointer(value));
    else
        size = strlen(DatumGetPointer(value)) + 1;
    copy = tdb_mcxt_alloc(cxt, size);
    memcpy(copy, DatumGetPointer(value), size);
    return PointerGetDatum(copy);
}

void
tdb_tupdesc_set_missing(TupleDesc desc, int i, Datum value, bool isnull)
{
    MemoryContext cxt = tdb_mcxt_chunk_context(desc);
    TupleAttr *att = TupleDescAttr(desc, i);

    if (desc->constr == NULL)
        desc->constr = tdb_mcxt_alloc_zero(cxt, sizeof(TupleConstr));
    if (desc->constr->missing == NULL)
        desc->constr->missing = tdb_mcxt_alloc_zero(
            cxt, (Size)desc->natts * sizeof(AttrMissing));
    desc->constr->missing[i].am_present = !isnull;
    desc->constr->missing[i].am_value =
        isnull ? (Datum)0
               : tdb_datum_copy(cxt, value, att->attbyval, att->attlen);
    att->atthasmissing = true;
    desc->first_noncached = -1;
}

void
tdb_tupdesc_finalize(TupleDesc desc)
{
    bool caching = true;
    bool guaranteed = true;
    int ncached = 0;
    int nguaranteed = 0;
    Size off = 0;

    for (int i = 0; i < desc->natts; i++) {
        const TupleAttr *att = &desc->attrs[i];
        CompactAttribute *c = &desc->compact_attrs[i];

        c->attlen = att->attlen;
        c->attalignby = tdb_typalign_to_alignby(att->attalign);
        c->attrunlen = 0;
        c->attflags = (uint8)((att->attbyval ? ATTR_BYVAL : 0) |
                              (att->attpackable ? ATTR_PACKABLE : 0) |
                              (att->attnotnull ? ATTR_NOTNULL : 0) |
                              (att->attisdropped ? ATTR_DROPPED : 0) |
                              (att->atthasmissing ? ATTR_HASMISSING : 0));
        c->attcacheoff = -1;

        /*
         * The offset of a fixed-width column is the same in every tuple
         * with no NULL before it, as long as every earlier column is fixed
         * width too.  Offsets beyond int16 are not cached.
         */
        if (caching && att->attlen > 0) {
            off = TYPEALIGN(c->attalignby, off);
            if (off + (Size)att->attlen > INT16_MAX) {
                caching = false;
            } else {
                c->attcacheoff = (int16)off;
                off += (Size)att->attlen;
                ncached++;
            }
        } else {
            caching = false;
        }

        if (guaranteed && c->attcacheoff >= 0 && att->attnotnull &&
            att->attbyval && !att->attisdropped && !att->atthasmissing)
            nguaranteed++;
        else
            guaranteed = false;
    }
    desc->first_noncached = ncached;
    desc->first_nonguaranteed = nguaranteed;

    /* Uniform runs, computed backwards: each column counts to its end. */
    for (int i = desc->natts - 1; i >= 0; i--) {
        CompactAttribute *c = &desc->compact_attrs[i];
        const CompactAttribute *next =
            i + 1 < desc->natts ? &desc->compact_attrs[i + 1] : NULL;

        if (c->attlen <= 0 || c->attlen % c->attalignby != 0)
            c->attrunlen = c->attlen > 0 ? 1 : 0;
        else if (next != NULL && next->attrunlen > 0 &&
                 next->attlen == c->attlen &&
                 next->attalignby == c->attalignby &&
                 (next->attflags & ATTR_BYVAL) == (c->attflags & ATTR_BYVAL) &&
                 next->attrunlen < UINT16_MAX)
            c->attrunlen = (uint16)(next->attrunlen + 1);
        else
            c->attrunlen = 1;
    }
}

TupleDesc
tdb_tupdesc_copy(TupleDesc desc)
{
    TupleDesc copy = tdb_tupdesc_create(desc->natts);

    copy->tdtypeid = desc->tdtypeid;
    copy->tdtypmod = desc->tdtypmod;
    memcpy(copy->attrs, desc->attrs, (Size)desc->natts * sizeof(TupleAttr));
    if (desc->constr && desc->constr->missing) {
        for (int i = 0; i < desc->natts; i++)
            if (desc->attrs[i].atthasmissing)
                tdb_tupdesc_set_missing(copy, i,
                                        desc->constr->missing[i].am_value,
                                        !desc->constr->missing[i].am_present);
    }
    tdb_tupdesc_finalize(copy);
    return copy;
}
