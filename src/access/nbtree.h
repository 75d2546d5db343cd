/*
 * nbtree.h -- PostgreSQL's B-tree access method (btree version 4), the
 * storage core: pages in PostgreSQL 15's on-disk format, insertion with
 * Lehman & Yao page splits, deduplication into posting lists, scans,
 * bulk delete for VACUUM, a bottom-up loader for CREATE INDEX, and a
 * structure check.  See README.md ("B-tree indexes") for the design.
 *
 * The access layer cannot see types/ or the catalog, so the caller
 * describes the index in a BTIndexData: its relation file, name (for
 * messages), the index tuple descriptor (tuple/tupdesc.h: per column
 * typlen / typbyval / typalign / storage) and per key column a three-way
 * comparator with its DESC / NULLS FIRST flags.  A later caller builds
 * the comparators from pg_opclass support procedure 1; the common cases
 * can use the comparators defined here (tdb_bt_cmp_int4 / _int8 /
 * _text_c), which the tree recognizes and inlines on its hot paths.
 *
 * Concurrency: one writer (tdb_bt_insert, the loader) at a time -- the
 * database-wide writer lock (access/README.md invariant 1) -- plus any
 * number of scans and one bulk delete (VACUUM) on other threads.  Readers
 * never block on a split and never miss or repeat an item because of one.
 *
 * Memory: a BTIndexData belongs to its caller; scans and loaders allocate
 * in the memory context current at their begin and free by tdb_bt_endscan
 * / tdb_bt_load_end (or by the context's reset).  Every page access
 * pins and locks through the buffer pool (storage/bufmgr.h) and releases
 * before returning, except a scan, which holds no pin between calls.
 */
#ifndef TDB_ACCESS_NBTREE_H
#define TDB_ACCESS_NBTREE_H

#include "common/base.h"
#include "storage/block.h"
#include "tuple/datum.h"
#include "tuple/itemptr.h"
#include "tuple/tupdesc.h"

/* The most columns an index may have (PostgreSQL's INDEX_MAX_KEYS). */
#define INDEX_MAX_KEYS 32

/* ----------------------------------------------------------------------
 * Index tuples (PostgreSQL's IndexTupleData, itup.h)
 *
 *   0  6  t_tid   heap TID; pivots: downlink block + attribute count;
 *                 posting lists: posting offset + TID count
 *   6  2  t_info  size (13 bits) | 0x2000 alt-TID | 0x4000 has varwidth |
 *                 0x8000 has nulls
 *   8     null bitmap (4 bytes, 1 = not null) if has nulls, then the key
 *         data aligned as in a heap tuple, the whole MAXALIGNed
 * ---------------------------------------------------------------------- */
typedef struct IndexTupleData {
    ItemPointerData t_tid;
    uint16 t_info;
} IndexTupleData;
typedef IndexTupleData *IndexTuple;

#define INDEX_SIZE_MASK 0x1FFF
#define INDEX_ALT_TID_MASK 0x2000 /* nbtree's use of INDEX_AM_RESERVED_BIT */
#define INDEX_VAR_MASK 0x4000
#define INDEX_NULL_MASK 0x8000

static inline Size
IndexTupleSize(const IndexTupleData *itup)
{
    return itup->t_info & INDEX_SIZE_MASK;
}

/* ----------------------------------------------------------------------
 * The index description
 * ---------------------------------------------------------------------- */

/*
 * Three-way comparison of two non-null key values in the type's order:
 * < 0, 0, > 0.  arg is BTKeyColumn.cmp_arg (a collation, an FmgrInfo...).
 * May raise.
 */
typedef int (*BTCompareFunc)(Datum a, Datum b, void *arg);

typedef struct BTKeyColumn {
    BTCompareFunc cmp; /* the type's order */
    void *cmp_arg;     /* passed to cmp */
    bool desc;         /* DESC: the index stores the reverse order */
    bool nulls_first;  /* NULLS FIRST (the default for DESC) */
} BTKeyColumn;

/* Which inlined comparison the hot paths use (set by tdb_bt_index_init
 * from the comparators): none, or a single int4 / int8 / "C" text key. */
typedef enum BTFastKind {
    BT_FAST_NONE = 0,
    BT_FAST_INT4,
    BT_FAST_INT8,
} BTFastKind;

typedef struct BTIndexData {
    RelFileNumber relfilenumber; /* the index's relation file */
    char name[NAMEDATALEN];      /* for messages */
    char heap_name[NAMEDATALEN]; /* the indexed table, for messages
                                  * (tdb_bt_index_init: the index's name) */
    TupleDesc tupdesc;           /* index tuple descriptor (finalized) */
    int nkeyatts;                /* key columns: the first ones; the
                                  * rest are INCLUDE columns, in leaf
                                  * tuples only */
    BTKeyColumn keys[INDEX_MAX_KEYS];
    /*
     * Every key column's equality is bitwise equality (pg_opclass support
     * procedure 4, "equalimage"): the metapage's btm_allequalimage, and a
     * precondition of deduplication.  True for int4, int8, "C" text.
     */
    bool allequalimage;
    bool deduplicate_items; /* reloption deduplicate_items (default on) */
    int fillfactor;         /* leaf fillfactor, 10..100, default 90 */
    BTFastKind fast;        /* set by tdb_bt_index_init / _finish */
    /*
     * The root as last read from the metapage (PostgreSQL's rd_amcache):
     * a descent starts there if that page is still the root, which saves
     * reading the metapage.  Read and written atomically (threads may
     * share a BTIndexData); P_NONE (0) when unknown.
     */
    BlockNumber cached_root;
    /*
     * The transaction manager whose horizon says when a deleted page may
     * be reused, and whose next xid stamps pages deleted now; NULL: empty
     * pages are not deleted by tdb_bt_bulk_delete and new pages always
     * come from the end of the file.
     */
    struct TransactionManager *tm;
} BTIndexData;
typedef BTIndexData *BTIndex;

#define BTREE_DEFAULT_FILLFACTOR 90
#define BTREE_NONLEAF_FILLFACTOR 70
#define BTREE_SINGLEVAL_FILLFACTOR 96

/* Comparators the tree recognizes (arg unused). */
int tdb_bt_cmp_int4(Datum a, Datum b, void *arg);
int tdb_bt_cmp_int8(Datum a, Datum b, void *arg);
/* text/varchar/bytea in the "C" collation: memcmp of the bytes, then the
 * shorter first; any varlena header form, not TOASTed. */
int tdb_bt_cmp_text_c(Datum a, Datum b, void *arg);

/*
 * Fill *idx for relation file rel named name, tuple descriptor desc
 * (borrowed; must outlive idx), all columns key columns, ascending, NULLS
 * LAST, without comparators, allequalimage and deduplication on,
 * fillfactor 90.  The caller then sets keys[i].cmp (and flags), and
 * calls tdb_bt_index_finish.
 */
void tdb_bt_index_init(BTIndex idx, RelFileNumber rel, const char *name,
                       TupleDesc desc);
/* Recompute the derived fields (fast) after changing keys[] or
 * nkeyatts; an index with INCLUDE columns (nkeyatts below the
 * descriptor's columns) gets allequalimage and deduplication off. */
void tdb_bt_index_finish(BTIndex idx);

/* ----------------------------------------------------------------------
 * Creating, inserting, deleting
 * ---------------------------------------------------------------------- */

/*
 * Write the metapage of an empty index into the relation file, which
 * must exist and be empty (PostgreSQL's btbuildempty).  Use the loader
 * instead when there are rows.
 */
void tdb_bt_create_empty(BTIndex idx);

/*
 * An index tuple of values/isnull (tupdesc's columns) pointing at heap
 * TID htid, formed as PostgreSQL's index_form_tuple does, in the current
 * memory context.  Varlena values must be plain (not TOASTed or
 * compressed).  Raises 54000 if the tuple exceeds the largest index
 * entry a page can take (a third of a page).
 */
IndexTuple tdb_bt_form_tuple(BTIndex idx, const Datum *values,
                             const bool *isnull, const ItemPointerData *htid);

/*
 * Order of two leaf tuples made by tdb_bt_form_tuple, as the index sorts
 * them: the key columns (DESC and NULLS FIRST / LAST applied; two NULLs
 * compare equal), then, if with_tid, the heap TID.  < 0, 0, > 0.  The
 * comparators may raise.
 */
int tdb_bt_compare_tuples(const BTIndexData *idx, IndexTuple a, IndexTuple b,
                          bool with_tid);
/* The column values of a leaf tuple; by-reference values point into t. */
void tdb_bt_deform_tuple(const BTIndexData *idx, IndexTuple t, Datum *values,
                         bool *isnull);

/*
 * Insert (values, htid).  Caller holds the writer lock.  The pair must
 * not be in the index already (a heap TID is inserted once per index).
 */
void tdb_bt_insert(BTIndex idx, const Datum *values, const bool *isnull,
                   const ItemPointerData *htid);
/* The same for a tuple made by tdb_bt_form_tuple (not a pivot). */
void tdb_bt_insert_tuple(BTIndex idx, IndexTuple itup);

/*
 * Insert itup into a unique index after its unique check, in one descent
 * (PostgreSQL's _bt_doinsert): the leaf where itup's key would start is
 * locked exclusively and the heap TID of every entry with an equal key
 * (key columns compared in the index's order, two NULLs equal: the
 * caller skips the call for a key with a NULL unless NULLS NOT DISTINCT)
 * is passed to conflict -- this page's and its right siblings' while
 * equal keys go on; entries marked LP_DEAD are skipped -- and then itup
 * is inserted there, or to the right, where its heap TID puts it.
 * conflict says whether the row at htid makes itup a duplicate (its heap
 * row is live); it runs with the leaf locked, so it may read the heap
 * but not this index, and it may raise (everything is released).
 * Returns false, having inserted nothing and released everything, at the
 * first conflict.  Caller holds the writer lock.
 */
typedef bool (*BTConflictCheck)(const ItemPointerData *htid, void *arg);
bool tdb_bt_insert_unique(BTIndex idx, IndexTuple itup,
                          BTConflictCheck conflict, void *arg);

/*
 * Bulk delete for VACUUM: every leaf item (and every TID of a posting
 * list) whose heap TID is_dead says is dead is removed.  Runs beside the
 * single writer and scans (one bulk delete of an index at a time).
 * Returns the number of heap TIDs removed; *remaining (if not NULL)
 * receives the number left.
 *
 * With idx->tm set it also deletes the leaf pages it leaves empty
 * (PostgreSQL's page deletion: half-dead, then unlinked from its
 * siblings and marked deleted with the next xid), and records deleted
 * pages whose xid precedes the horizon as free, for splits to reuse
 * (README.md, "Page deletion").  is_dead may be NULL: only that last
 * part, VACUUM's cleanup of an index it had no entries to remove from.
 */
typedef bool (*BTDeadCallback)(const ItemPointerData *htid, void *arg);
int64 tdb_bt_bulk_delete(BTIndex idx, BTDeadCallback is_dead, void *arg,
                         int64 *remaining);

/* What one tdb_bt_bulk_delete did to the pages (tests, VACUUM VERBOSE). */
typedef struct BTVacuumStats {
    BlockNumber pages;         /* index pages when it ended */
    BlockNumber pages_deleted; /* pages it deleted */
    BlockNumber pages_free;    /* deleted pages recorded free for reuse */
} BTVacuumStats;
void tdb_bt_last_vacuum_stats(BTVacuumStats *stats);

/*
 * Should VACUUM, having no entries to remove, still visit the index to
 * recycle pages (PostgreSQL's _bt_vacuum_needs_cleanup: the metapage
 * counts deleted pages not yet free, more than 5% of the index)?
 */
bool tdb_bt_vacuum_needs_cleanup(BTIndex idx);

/* ----------------------------------------------------------------------
 * Scans
 * ---------------------------------------------------------------------- */

typedef enum BTStrategy {
    BT_LESS = 1, /* PostgreSQL's BTLessStrategyNumber ... */
    BT_LESS_EQUAL = 2,
    BT_EQUAL = 3,
    BT_GREATER_EQUAL = 4,
    BT_GREATER = 5,
    BT_IS_NULL = 6,     /* argument unused */
    BT_IS_NOT_NULL = 7, /* argument unused (PostgreSQL's SK_SEARCHNOTNULL) */
} BTStrategy;

/* One condition "column <strategy> argument" in the type's order. */
typedef struct BTScanKeyData {
    int attno;           /* 1-based key column */
    BTStrategy strategy; /* the type's order, whatever DESC says */
    Datum argument;      /* not null; unused for BT_IS_NULL */
} BTScanKeyData;

typedef enum BTScanDirection {
    BT_BACKWARD = -1,
    BT_FORWARD = 1,
} BTScanDirection;

typedef struct BTScanDescData *BTScanDesc;

/*
 * Begin a scan of the items satisfying every key (nkeys may be 0: all of
 * them), in index order (direction) and, within a key, heap TID order.
 * keys are copied; by-reference arguments are borrowed until endscan.
 */
BTScanDesc tdb_bt_beginscan(BTIndex idx, const BTScanKeyData *keys, int nkeys,
                            BTScanDirection dir);
/* The next heap TID, false at the end.  Holds no pin between calls. */
bool tdb_bt_getnext(BTScanDesc scan, ItemPointerData *htid);
/*
 * Index Only Scan: keep each returned item's index tuple, so that
 * tdb_bt_scan_current_values can give the key columns of the item
 * tdb_bt_getnext returned last (by-reference values point into the
 * scan's copy of the page's tuples: valid until the next tdb_bt_getnext).
 * Call before the first tdb_bt_getnext.
 */
void tdb_bt_scan_keep_tuples(BTScanDesc scan);
void tdb_bt_scan_current_values(BTScanDesc scan, Datum *values, bool *isnull);
/*
 * The tree's height above the leaves as the metapage's fast root says
 * (PostgreSQL's _bt_getrootheight): 0 for a single-page tree.  For the
 * planner's cost of a descent.
 */
int tdb_bt_tree_height(BTIndex idx);
/* Start over with other keys (same index and direction). */
void tdb_bt_rescan(BTScanDesc scan, const BTScanKeyData *keys, int nkeys);
void tdb_bt_endscan(BTScanDesc scan);

/*
 * Uniqueness helper: the heap TIDs of every entry whose key columns equal
 * values/isnull (a NULL equals nothing, as in a unique index, so no TID
 * is returned if any value is null).  Returns their number; *htids is
 * allocated in the current context (NULL if none).  The caller decides
 * visibility.
 */
int tdb_bt_find_equal(BTIndex idx, const Datum *values, const bool *isnull,
                      ItemPointerData **htids);

/* ----------------------------------------------------------------------
 * Bottom-up build (CREATE INDEX): tuples in index order
 * ---------------------------------------------------------------------- */

typedef struct BTLoaderData *BTLoader;

/*
 * Begin loading into idx's relation file, which must exist and be empty.
 * Leaves are filled to idx->fillfactor, internal pages to 70%, duplicates
 * merged into posting lists when idx allows deduplication.
 */
BTLoader tdb_bt_load_begin(BTIndex idx);
/* Add the next entry: tuples must come in (key, heap TID) order, which
 * the loader checks (ERRCODE_INTERNAL_ERROR otherwise). */
void tdb_bt_load_add(BTLoader ld, const Datum *values, const bool *isnull,
                     const ItemPointerData *htid);
void tdb_bt_load_add_tuple(BTLoader ld, IndexTuple itup);
/* Write the last pages, the internal levels and the metapage; flush. */
void tdb_bt_load_end(BTLoader ld);

/* ----------------------------------------------------------------------
 * Structure check
 * ---------------------------------------------------------------------- */

/*
 * Check the whole index as amcheck's bt_index_check does (with the
 * parent/child key relation): metapage, every page's special space,
 * level, flags, sibling links, item order, high keys, downlinks, posting
 * lists.  Raises XX002 (index_corrupted) naming the index on the first
 * problem.  Returns the number of leaf heap TIDs.
 */
int64 tdb_bt_check(BTIndex idx);

#endif /* TDB_ACCESS_NBTREE_H */
