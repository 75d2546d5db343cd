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
} RelationData;

typedef RelationData *Relation;

#endif /* TDB_ACCESS_RELATION_H */
