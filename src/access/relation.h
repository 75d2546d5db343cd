/*
 * relation.h -- what the access layer needs to know about an open table:
 * its ids, its row type and where inserts go.  The catalog builds these
 * (catalog/catalog.h, tdb_relation_open); a RelationData belongs to one
 * session and lives in that session's memory.
 */
#ifndef TDB_ACCESS_RELATION_H
#define TDB_ACCESS_RELATION_H

#include "common/base.h"
#include "storage/block.h"
#include "tuple/tupdesc.h"

/* A CHECK constraint: its name and expression (SQL text). */
typedef struct RelationCheck {
    const char *name;
    const char *expr;
} RelationCheck;

/* pg_index.indoption bits of a key column */
#define INDOPTION_DESC 0x0001
#define INDOPTION_NULLS_FIRST 0x0002

/*
 * One index of a table, as the executor and planner need it (the
 * relation cache keeps it with the table: catalog/pg_index.c).  Arrays
 * have natts entries (attnums) or nkeyatts (the per-key ones).
 */
typedef struct RelationIndex {
    Oid ri_oid;                     /* the index's pg_class OID */
    RelFileNumber ri_relfilenumber; /* its file */
    char ri_name[NAMEDATALEN];
    int ri_natts;       /* key + INCLUDE columns */
    int ri_nkeyatts;    /* key columns (the first ones) */
    int16 *ri_attnums;  /* table column (1-based), 0: an expression */
    Oid *ri_opclasses;  /* pg_opclass OIDs */
    Oid *ri_collations; /* 0 or a collation OID */
    int16 *ri_options;  /* INDOPTION_* bits */
    char *ri_exprs;     /* expression columns' SQL (a SELECT list, in
                         * column order), or NULL */
    char *ri_pred;      /* the partial index's predicate SQL, or NULL */
    bool ri_unique;
    bool ri_primary;
    bool ri_nulls_not_distinct;
    bool ri_valid; /* indisvalid */
    /* every key column's operator class has bitwise equality (btree
     * support 4, "equalimage") and there are no INCLUDE columns: the
     * B-tree metapage's btm_allequalimage */
    bool ri_allequalimage;
} RelationIndex;

typedef struct RelationData {
    Oid rd_id;                      /* pg_class OID: the tableoid column */
    RelFileNumber rd_relfilenumber; /* the file holding the rows */
    Oid rd_toastrelid;              /* pg_class.reltoastrelid: the TOAST
                                     * relation, or InvalidOid */
    TupleDesc rd_att;               /* the row type */
    char rd_name[NAMEDATALEN];      /* for messages */
    /*
     * Where this session's last insert went (PostgreSQL's
     * rd_targblock): the next insert tries that page first.  A hint --
     * any value is safe; InvalidBlockNumber starts at the last page.
     */
    BlockNumber rd_target_block;
    /*
     * The length the relation's file had at the last commit that grew it
     * (pg_class.relpages): a file found shorter was truncated behind the
     * database's back, and every access refuses it rather than silently
     * return fewer rows or write over the hole
     * (tdb_heap_relation_nblocks).  0 when unknown.
     */
    BlockNumber rd_committed_blocks;
    /* Column i's DEFAULT expression as SQL text, or NULL; the array is
     * NULL when no column has one. */
    char **rd_defaults;
    /* CHECK constraints (catalog order), or NULL / 0 */
    RelationCheck *rd_checks;
    int rd_nchecks;
    /* The table's indexes (OID order), or NULL / 0 */
    RelationIndex *rd_indexes;
    int rd_nindexes;
    char rd_relkind; /* pg_class.relkind */
} RelationData;

typedef RelationData *Relation;

#endif /* TDB_ACCESS_RELATION_H */
