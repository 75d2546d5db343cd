/*
 * tupdesc.h -- tuple descriptors: the full column descriptions, kept out of
 * line, and a dense array of 8-byte CompactAttributes for deforming.
 *
 * A TupleDesc is one allocation:
 *
 *   +------------------+---------------------------+----------------------+
 *   | TupleDescData    | CompactAttribute[natts]   | TupleAttr[natts]     |
 *   | natts, offsets,  | 8 bytes each: 8 columns   | name, type, typmod,  |
 *   | constr, attrs -> | per cache line            | align, storage, ...  |
 *   +------------------+---------------------------+----------------------+
 *
 * The deform and form loops read only the compact array; TupleAttr (about
 * 100 bytes per column) is for everything else.  After building or changing
 * a descriptor call tdb_tupdesc_finalize(), which fills the compact array
 * and precomputes, once per descriptor:
 *
 *   - attcacheoff of every leading fixed-width column (the data-area offset
 *     that column has in any tuple with no NULL before it);
 *   - first_noncached: the number of leading columns with a cached offset;
 *   - attrunlen: the length of each column's *uniform run* -- consecutive
 *     fixed-width columns of one width, by-value-ness and alignment, whose
 *     offsets stay aligned whatever comes before them or is NULL among
 *     them, so the deformer handles a run with one alignment and one
 *     bounds check, even after a varlena or a NULL;
 *   - first_nonguaranteed: the number of leading columns guaranteed present
 *     in every tuple -- NOT NULL, not dropped, no ADD COLUMN missing value,
 *     fixed-width and by value -- so that deforming up to there needs no
 *     per-tuple natts or null checks.
 *
 * Deformers never write to the descriptor (unlike PostgreSQL before 19),
 * so a finalized descriptor may be shared between threads.
 */
#ifndef TDB_TUPLE_TUPDESC_H
#define TDB_TUPLE_TUPDESC_H

#include "common/base.h"
#include "tuple/datum.h"

#define NAMEDATALEN 64
/* The most columns a table may have (tuple header room: 1664, minus
 * headroom for system/junk columns), as in PostgreSQL. */
#define MaxHeapAttributeNumber 1600
#define MaxTupleAttributeNumber 1664

/* CompactAttribute.attflags */
#define ATTR_BYVAL 0x01      /* passed by value in a Datum */
#define ATTR_PACKABLE 0x02   /* varlena may get a 1-byte header (storage != p) */
#define ATTR_NOTNULL 0x04    /* NOT NULL constraint */
#define ATTR_DROPPED 0x08    /* dropped column: always NULL in new tuples */
#define ATTR_HASMISSING 0x10 /* old tuples may lack it: use the missing value */

/*
 * What deforming needs of one column, in 8 bytes: eight columns share a
 * cache line and &compact[i] is a single scaled-index address.
 */
typedef struct CompactAttribute {
    int16 attcacheoff; /* fixed data-area offset, or -1 */
    int16 attlen;      /* > 0 fixed width, -1 varlena, -2 cstring */
    uint8 attalignby;  /* alignment in bytes: 1, 2, 4 or 8 */
    uint8 attflags;    /* ATTR_* */
    uint16 attrunlen;  /* fixed width: columns from this one to the end of
                        * its uniform run (same attlen, by-value-ness and
                        * alignment, attlen a multiple of the alignment);
                        * 0 for variable width */
} CompactAttribute;

_Static_assert(sizeof(CompactAttribute) == 8, "CompactAttribute is 8 bytes");

/* The full description of one column. */
typedef struct TupleAttr {
    char attname[NAMEDATALEN];
    Oid atttypid;      /* type OID (PostgreSQL's built-in type OIDs) */
    int32 atttypmod;   /* -1 or type-specific modifier (e.g. varchar(n)) */
    int16 attlen;      /* > 0 fixed width, -1 varlena, -2 cstring */
    bool attbyval;     /* passed by value */
    char attalign;     /* 'c', 's', 'i', 'd' */
    char attstorage;   /* 'p' plain, 'e' external, 'm' main, 'x' extended */
    char attcompression; /* 'p' pglz, 'l' lz4, '\0' default_toast_compression
                          * (toast/toast.h); set by the catalog */
    /* short 1-byte headers allowed: the *type's* storage is not PLAIN
     * (tdb_tupdesc_init_attr sets it from the storage given there).
     * PostgreSQL forms rows through a plan with the type's storage, so a
     * column SET STORAGE PLAIN still gets packed values; the catalog
     * keeps that by initialising with the type's storage and only then
     * setting the column's attstorage. */
    bool attpackable;
    bool attnotnull;
    bool attisdropped;
    bool atthasdef;
    bool atthasmissing;
} TupleAttr;

/* Per-column value that tuples older than an ADD COLUMN lack. */
typedef struct AttrMissing {
    bool am_present; /* false: such tuples read NULL */
    Datum am_value;  /* by-reference values point into the descriptor's
                      * memory context */
} AttrMissing;

typedef struct TupleConstr {
    AttrMissing *missing; /* natts entries, or NULL */
} TupleConstr;

typedef struct TupleDescData {
    int natts;
    Oid tdtypeid;   /* composite type OID, or RECORDOID */
    int32 tdtypmod;
    int first_noncached;     /* leading columns with a cached offset;
                              * -1 until finalized */
    int first_nonguaranteed; /* leading columns guaranteed present */
    TupleConstr *constr;     /* or NULL */
    TupleAttr *attrs;        /* natts entries, after compact_attrs */
    CompactAttribute compact_attrs[FLEXIBLE_ARRAY_MEMBER];
} TupleDescData;

typedef TupleDescData *TupleDesc;

#define RECORDOID ((Oid)2249)

static inline CompactAttribute *
TupleDescCompactAttr(TupleDesc desc, int i)
{
    Assert(i >= 0 && i < desc->natts);
    return &desc->compact_attrs[i];
}

static inline TupleAttr *
TupleDescAttr(TupleDesc desc, int i)
{
    Assert(i >= 0 && i < desc->natts);
    return &desc->attrs[i];
}

/* Alignment character ('c', 's', 'i', 'd') to a byte count. */
static inline uint8
tdb_typalign_to_alignby(char align)
{
    switch (align) {
    case 'c':
        return 1;
    case 's':
        return 2;
    case 'i':
        return 4;
    default:
        return 8; /* 'd' */
    }
}

/*
 * Create a descriptor for natts columns in the current memory context,
 * every attribute zeroed (fill them with tdb_tupdesc_init_attr, then
 * finalize).  natts may be 0; above MaxTupleAttributeNumber raises.
 */
TupleDesc tdb_tupdesc_create(int natts);

/*
 * Describe column i (0-based).  attlen/attbyval/attalign/attstorage are the
 * type's properties (pg_type's typlen, typbyval, typalign, typstorage).
 * Raises ERRCODE_INVALID_PARAMETER_VALUE on an impossible combination
 * (e.g. by-value of a width other than 1, 2, 4 or 8).
 */
void tdb_tupdesc_init_attr(TupleDesc desc, int i, const char *name,
                           Oid typid, int32 typmod, int16 attlen,
                           bool attbyval, char attalign, char attstorage);

/*
 * A copy of value in cxt: by-value Datums are returned sign-extended from
 * their width (as a tuple returns them); by-reference ones of length len
 * (typlen: > 0 fixed, -1 varlena, -2 C string) are copied.
 */
struct MemoryContextData;
Datum tdb_datum_copy(struct MemoryContextData *cxt, Datum value, bool byval,
                     int16 len);

/*
 * Set a column's missing value (ADD COLUMN ... DEFAULT for old tuples).
 * By-reference values are copied into the descriptor's memory context.
 */
void tdb_tupdesc_set_missing(TupleDesc desc, int i, Datum value,
                             bool isnull);

/* Recompute the compact array and the cached offsets.  Call after any
 * change to the attributes. */
void tdb_tupdesc_finalize(TupleDesc desc);

/* A finalized copy in the current memory context (missing values kept). */
TupleDesc tdb_tupdesc_copy(TupleDesc desc);

#endif /* TDB_TUPLE_TUPDESC_H */
