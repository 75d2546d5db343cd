/*
 * pg_index.c -- indexes and key constraints in the catalog: the rows of
 * an index (pg_class relkind 'i', pg_attribute for its columns,
 * pg_index), of PRIMARY KEY / UNIQUE constraints (pg_constraint contype
 * 'p' / 'u' naming their index in conindid), and a table's index list as
 * the relation cache keeps it (RelationData.rd_indexes).
 *
 * The contents of an index file are the index access method's
 * (access/indexam.h); this file only creates the (empty) file, with
 * the same end-of-transaction discipline as a table's (catalog.h): a new
 * file goes again if the transaction aborts, a dropped or replaced one
 * goes when it commits.
 *
 * Vectors (indkey, indclass, indcollation, indoption) are stored as the
 * text of PostgreSQL's int2vector / oidvector ("1 2") and conkey as the
 * text of an int2[] ("{1,2}"), which the pg_index and pg_constraint
 * views cast back; expressions and predicates as SQL text, as CHECK
 * constraints are.
 */
#include "common/base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access/heapam.h"
#include "access/indexam.h"
#include "catalog/catalog.h"
#include "catalog/catalog_int.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "tuple/varlena.h"

/* ----------------------------------------------------------------------
 * Vectors as text
 * ---------------------------------------------------------------------- */

/* "v1 v2 ..." (int2vector / oidvector text), or with braces and commas
 * for an array ("{v1,v2}"); current context. */
static text *
vector_text(const int64 *values, int n, bool array)
{
    char *buf = tdb_palloc((Size)n * 24 + 3);
    Size len = 0;
    text *t;

    if (array)
        buf[len++] = '{';
    for (int i = 0; i < n; i++)
        len += (Size)sprintf(buf + len, "%s%lld",
                             i == 0 ? "" : (array ? "," : " "),
                             (long long)values[i]);
    if (array)
        buf[len++] = '}';
    buf[len] = '\0';
    t = tdb_text_from_cstring(buf);
    tdb_pfree(buf);
    return t;
}

static Datum
int16_vector(const int16 *v, int n, bool array)
{
    int64 values[INDEX_MAX_KEYS] = {0};

    Assert(n <= INDEX_MAX_KEYS);
    for (int i = 0; i < n; i++)
        values[i] = v[i];
    return PointerGetDatum(vector_text(values, n, array));
}

static Datum
oid_vector(const Oid *v, int n)
{
    int64 values[INDEX_MAX_KEYS] = {0};

    Assert(n <= INDEX_MAX_KEYS);
    for (int i = 0; i < n; i++)
        values[i] = v[i];
    return PointerGetDatum(vector_text(values, n, false));
}

/* Parse up to max numbers of a vector's or array's text into out;
 * returns how many. */
static int
parse_vector(const void *t, int64 *out, int max)
{
    char *s = tdb_text_to_cstring(t);
    char *p = s;
    int n = 0;

    while (*p != '\0' && n < max) {
        char *end;
        long long v;

        if (*p == '{' || *p == '}' || *p == ',' || *p == ' ') {
            p++;
            continue;
        }
        v = strtoll(p, &end, 10);
        if (end == p)
            break;
        out[n++] = v;
        p = end;
    }
    tdb_pfree(s);
    return n;
}

/* ----------------------------------------------------------------------
 * CREATE INDEX
 * ---------------------------------------------------------------------- */

static void
insert_index_row(Transaction *xact, Oid indexoid, const IndexDef *def)
{
    Datum values[Natts_pg_index];
    bool isnull[Natts_pg_index] = {false};

    values[Anum_pg_index_indexrelid - 1] = ObjectIdGetDatum(indexoid);
    values[Anum_pg_index_indrelid - 1] = ObjectIdGetDatum(def->relid);
    values[Anum_pg_index_indnatts - 1] = Int16GetDatum((int16)def->natts);
    values[Anum_pg_index_indnkeyatts - 1] = Int16GetDatum((int16)def->nkeyatts);
    values[Anum_pg_index_indisunique - 1] = BoolGetDatum(def->unique);
    values[Anum_pg_index_indnullsnotdistinct - 1] =
        BoolGetDatum(def->nulls_not_distinct);
    values[Anum_pg_index_indisprimary - 1] = BoolGetDatum(def->primary);
    values[Anum_pg_index_indisexclusion - 1] = BoolGetDatum(false);
    /* no deferred uniqueness checks: every unique index is immediate */
    values[Anum_pg_index_indimmediate - 1] = BoolGetDatum(true);
    values[Anum_pg_index_indisclustered - 1] = BoolGetDatum(false);
    values[Anum_pg_index_indisvalid - 1] = BoolGetDatum(true);
    values[Anum_pg_index_indcheckxmin - 1] = BoolGetDatum(false);
    values[Anum_pg_index_indisready - 1] = BoolGetDatum(true);
    values[Anum_pg_index_indislive - 1] = BoolGetDatum(true);
    values[Anum_pg_index_indisreplident - 1] = BoolGetDatum(false);
    values[Anum_pg_index_indkey - 1] =
        int16_vector(def->attnums, def->natts, false);
    values[Anum_pg_index_indcollation - 1] =
        oid_vector(def->collations, def->nkeyatts);
    values[Anum_pg_index_indclass - 1] =
        oid_vector(def->opclasses, def->nkeyatts);
    values[Anum_pg_index_indoption - 1] =
        int16_vector(def->options, def->nkeyatts, false);
    if (def->exprs != NULL)
        values[Anum_pg_index_indexprs - 1] =
            PointerGetDatum(tdb_text_from_cstring(def->exprs));
    else
        isnull[Anum_pg_index_indexprs - 1] = true;
    if (def->pred != NULL)
        values[Anum_pg_index_indpred - 1] =
            PointerGetDatum(tdb_text_from_cstring(def->pred));
    else
        isnull[Anum_pg_index_indpred - 1] = true;
    tdb_catalog_insert_nulls(xact, IndexRelationId, values, isnull);
}

Oid
tdb_catalog_create_index(Transaction *xact, const IndexDef *def,
                         bool if_not_exists)
{
    ClassRow existing;
    RelFileNumber relfilenode;

    Assert(def->natts >= 1 && def->natts <= INDEX_MAX_KEYS &&
           def->nkeyatts >= 1 && def->nkeyatts <= def->natts);
    tdb_catalog_check_name_length(def->name);
    (void)tdb_xact_assign_xid(xact);
    if (tdb_catalog_find_class(xact, InvalidOid, def->name, &existing)) {
        if (if_not_exists) {
            ereport(
                NOTICE, errcode(ERRCODE_DUPLICATE_TABLE),
                errmsg("relation \"%s\" already exists, skipping", def->name));
            return InvalidOid;
        }
        ereport(ERROR, errcode(ERRCODE_DUPLICATE_TABLE),
                errmsg("relation \"%s\" already exists", def->name));
    }
    relfilenode = tdb_catalog_new_relation_file(xact);
    tdb_catalog_insert_class_row(xact, relfilenode, def->name,
                                 PG_PUBLIC_NAMESPACE, relfilenode, def->natts,
                                 RELKIND_INDEX, InvalidOid);
    for (int i = 0; i < def->natts; i++) {
        /* PostgreSQL's index columns: the key's type, its storage, no
         * NOT NULL, no default */
        ColumnDef col = {def->colnames[i],
                         def->coltypes[i],
                         def->coltypmods[i],
                         false,
                         NULL,
                         '\0',
                         '\0'};

        tdb_catalog_insert_attribute_row(xact, relfilenode, i + 1, &col);
    }
    insert_index_row(xact, relfilenode, def);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
    return relfilenode;
}

/* ----------------------------------------------------------------------
 * Constraints
 * ---------------------------------------------------------------------- */

void
tdb_catalog_add_index_constraint(Transaction *xact, Oid relid, Oid indexoid,
                                 const char *name, char contype,
                                 const int16 *attnums, int nattnums)
{
    Datum values[Natts_pg_constraint];
    bool isnull[Natts_pg_constraint] = {false};

    Assert(contype == CONSTRAINT_PRIMARY || contype == CONSTRAINT_UNIQUE);
    tdb_catalog_check_name_length(name);
    (void)tdb_xact_assign_xid(xact);
    values[Anum_pg_constraint_oid - 1] =
        ObjectIdGetDatum(tdb_catalog_new_oid(xact));
    values[Anum_pg_constraint_conname - 1] = tdb_catalog_name_datum(name);
    values[Anum_pg_constraint_contype - 1] = CharGetDatum(contype);
    values[Anum_pg_constraint_conrelid - 1] = ObjectIdGetDatum(relid);
    isnull[Anum_pg_constraint_conbin - 1] = true;
    values[Anum_pg_constraint_condeferrable - 1] = BoolGetDatum(false);
    values[Anum_pg_constraint_condeferred - 1] = BoolGetDatum(false);
    values[Anum_pg_constraint_conindid - 1] = ObjectIdGetDatum(indexoid);
    values[Anum_pg_constraint_conkey - 1] =
        int16_vector(attnums, nattnums, true);
    tdb_catalog_insert_nulls(xact, ConstraintRelationId, values, isnull);
    if (contype == CONSTRAINT_PRIMARY)
        for (int i = 0; i < nattnums; i++)
            tdb_catalog_set_attribute_field(xact, relid, attnums[i],
                                            Anum_pg_attribute_attnotnull,
                                            BoolGetDatum(true));
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
}

static char *nullable_text(const CatalogScan *cs, int attnum);

/* The constraint row cs holds, into out. */
static void
constraint_from_row(const CatalogScan *cs, ConstraintInfo *out)
{
    out->oid = DatumGetObjectId(cs->values[Anum_pg_constraint_oid - 1]);
    tdb_catalog_copy_name(
        out->name,
        tdb_catalog_datum_name(cs->values[Anum_pg_constraint_conname - 1]));
    out->contype = DatumGetChar(cs->values[Anum_pg_constraint_contype - 1]);
    out->relid = DatumGetObjectId(cs->values[Anum_pg_constraint_conrelid - 1]);
    out->indexoid =
        cs->isnull[Anum_pg_constraint_conindid - 1]
            ? InvalidOid
            : DatumGetObjectId(cs->values[Anum_pg_constraint_conindid - 1]);
}

/* Which constraint find_constraint looks for. */
typedef enum ConstraintKey {
    CON_BY_NAME,  /* relid's constraint called name */
    CON_BY_INDEX, /* the one whose index is id */
    CON_PRIMARY,  /* relid's PRIMARY KEY */
    CON_BY_OID,   /* the constraint whose OID is id */
} ConstraintKey;

/* The constraint find_constraint looks for, into out (may be NULL); its
 * conbin too when conbin is not NULL (allocated in the current context,
 * NULL when the column is). */
static bool
find_constraint(Transaction *xact, ConstraintKey key, Oid id, const char *name,
                ConstraintInfo *out, char **conbin)
{
    CatalogScan cs;
    bool found = false;

    tdb_catscan_begin(&cs, xact, ConstraintRelationId);
    while (!found && tdb_catscan_next(&cs)) {
        ConstraintInfo c;

        constraint_from_row(&cs, &c);
        switch (key) {
        case CON_BY_NAME:
            found = c.relid == id && strcmp(c.name, name) == 0;
            break;
        case CON_BY_INDEX:
            found = c.indexoid == id;
            break;
        case CON_PRIMARY:
            found = c.relid == id && c.contype == CONSTRAINT_PRIMARY;
            break;
        case CON_BY_OID:
            found = c.oid == id;
            break;
        }
        if (found && out != NULL)
            *out = c;
        if (found && conbin != NULL)
            *conbin = nullable_text(&cs, Anum_pg_constraint_conbin);
    }
    tdb_catscan_end(&cs);
    return found;
}

bool
tdb_catalog_find_constraint(Transaction *xact, Oid relid, const char *name,
                            ConstraintInfo *out)
{
    return find_constraint(xact, CON_BY_NAME, relid, name, out, NULL);
}

bool
tdb_catalog_index_constraint(Transaction *xact, Oid indexoid,
                             ConstraintInfo *out)
{
    return find_constraint(xact, CON_BY_INDEX, indexoid, NULL, out, NULL);
}

bool
tdb_catalog_has_primary_key(Transaction *xact, Oid relid)
{
    return find_constraint(xact, CON_PRIMARY, relid, NULL, NULL, NULL);
}

bool
tdb_catalog_constraint_by_oid(Transaction *xact, Oid conoid,
                              ConstraintInfo *out, char **conbin)
{
    return find_constraint(xact, CON_BY_OID, conoid, NULL, out, conbin);
}

void
tdb_catalog_drop_constraint(Transaction *xact, const ConstraintInfo *c)
{
    (void)tdb_xact_assign_xid(xact);
    tdb_catalog_delete_rows_of(xact, ConstraintRelationId,
                               Anum_pg_constraint_oid, c->oid);
    tdb_xact_command_counter_increment(xact);
    if (c->indexoid != InvalidOid)
        tdb_catalog_drop_index(xact, c->indexoid);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
}

/* ----------------------------------------------------------------------
 * DROP, RENAME, new files
 * ---------------------------------------------------------------------- */

void
tdb_catalog_drop_index(Transaction *xact, Oid indexoid)
{
    ClassRow row;

    (void)tdb_xact_assign_xid(xact);
    tdb_lock_relation(xact, indexoid, REL_LOCK_EXCLUSIVE);
    if (!tdb_catalog_find_class(xact, indexoid, NULL, &row) ||
        row.relkind != RELKIND_INDEX)
        elog(ERROR, "cache lookup failed for index %u", indexoid);
    tdb_catalog_delete_rows_of(xact, IndexRelationId, Anum_pg_index_indexrelid,
                               indexoid);
    tdb_catalog_delete_rows_of(xact, AttributeRelationId,
                               Anum_pg_attribute_attrelid, indexoid);
    tdb_catalog_delete_rows_of(xact, RelationRelationId, Anum_pg_class_oid,
                               indexoid);
    tdb_catalog_unlink_at(xact, row.relfilenode, XACT_EVENT_COMMIT);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
}

/* The OIDs of relid's indexes (OID order), in the current context. */
static int
index_oids_of(Transaction *xact, Oid relid, Oid **oids)
{
    CatalogScan cs;
    int n = 0, size = 0;

    *oids = NULL;
    tdb_catscan_begin(&cs, xact, IndexRelationId);
    while (tdb_catscan_next(&cs)) {
        if (DatumGetObjectId(cs.values[Anum_pg_index_indrelid - 1]) != relid)
            continue;
        if (n == size) {
            size = size == 0 ? 4 : size * 2;
            *oids = *oids == NULL
                        ? tdb_palloc(sizeof(Oid) * (Size)size)
                        : tdb_repalloc(*oids, sizeof(Oid) * (Size)size);
        }
        (*oids)[n++] =
            DatumGetObjectId(cs.values[Anum_pg_index_indexrelid - 1]);
    }
    tdb_catscan_end(&cs);
    /* OID order, as PostgreSQL's RelationGetIndexList */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && (*oids)[j - 1] > (*oids)[j]; j--) {
            Oid t = (*oids)[j];

            (*oids)[j] = (*oids)[j - 1];
            (*oids)[j - 1] = t;
        }
    return n;
}

void
tdb_catalog_drop_indexes_of(Transaction *xact, Oid relid)
{
    Oid *oids;
    int n = index_oids_of(xact, relid, &oids);

    for (int i = 0; i < n; i++)
        tdb_catalog_drop_index(xact, oids[i]);
}

RelFileNumber
tdb_catalog_index_new_file(Transaction *xact, Oid indexoid)
{
    ClassRow row;
    RelFileNumber relfilenode;

    (void)tdb_xact_assign_xid(xact);
    tdb_lock_relation(xact, indexoid, REL_LOCK_EXCLUSIVE);
    if (!tdb_catalog_find_class(xact, indexoid, NULL, &row) ||
        row.relkind != RELKIND_INDEX)
        elog(ERROR, "cache lookup failed for index %u", indexoid);
    relfilenode = tdb_catalog_new_relation_file(xact);
    row.values[Anum_pg_class_relfilenode - 1] = ObjectIdGetDatum(relfilenode);
    row.values[Anum_pg_class_relpages - 1] = Int32GetDatum(0);
    tdb_catalog_update_class_row(xact, &row);
    tdb_catalog_unlink_at(xact, row.relfilenode, XACT_EVENT_COMMIT);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
    return relfilenode;
}

void
tdb_catalog_truncate_indexes_of(Transaction *xact, Oid relid)
{
    Oid *oids;
    int n = index_oids_of(xact, relid, &oids);
    Relation rel;

    if (n == 0)
        return;
    for (int i = 0; i < n; i++)
        (void)tdb_catalog_index_new_file(xact, oids[i]);
    /* each new file gets the empty index the access method makes */
    rel = tdb_relation_open_by_oid(xact, relid, REL_LOCK_EXCLUSIVE);
    for (int i = 0; i < rel->rd_nindexes; i++) {
        tdb_relation_written(xact, rel->rd_indexes[i].ri_relfilenumber);
        tdb_index_build_empty(rel, &rel->rd_indexes[i]);
    }
    tdb_relation_close(rel);
}

bool
tdb_catalog_lookup_relation(Transaction *xact, const char *name, Oid *relid,
                            char *relkind, Oid *indrelid)
{
    ClassRow row;
    CatalogScan cs;

    if (!tdb_catalog_find_class(xact, InvalidOid, name, &row))
        return false;
    *relid = row.oid;
    *relkind = row.relkind;
    *indrelid = InvalidOid;
    if (row.relkind != RELKIND_INDEX)
        return true;
    tdb_catscan_begin(&cs, xact, IndexRelationId);
    while (*indrelid == InvalidOid && tdb_catscan_next(&cs))
        if (DatumGetObjectId(cs.values[Anum_pg_index_indexrelid - 1]) ==
            row.oid)
            *indrelid = DatumGetObjectId(cs.values[Anum_pg_index_indrelid - 1]);
    tdb_catscan_end(&cs);
    return true;
}

/* Rename the constraint row backed by index indexoid, if any. */
static void
rename_index_constraint(Transaction *xact, Oid indexoid, const char *newname)
{
    CatalogScan cs;

    tdb_catscan_begin(&cs, xact, ConstraintRelationId);
    while (tdb_catscan_next(&cs)) {
        TM_FailureData tmfd;
        HeapTuple newtup;

        if (cs.isnull[Anum_pg_constraint_conindid - 1] ||
            DatumGetObjectId(cs.values[Anum_pg_constraint_conindid - 1]) !=
                indexoid)
            continue;
        cs.values[Anum_pg_constraint_conname - 1] =
            tdb_catalog_name_datum(newname);
        newtup = tdb_heap_form_tuple(cs.rel->rd_att, cs.values, cs.isnull);
        if (tdb_heap_update(cs.rel, &cs.tid, newtup, xact, &tmfd) != TM_OK)
            elog(ERROR, "could not update the constraint of index %u",
                 indexoid);
    }
    tdb_catscan_end(&cs);
}

void
tdb_catalog_rename_relation(Transaction *xact, Oid relid, const char *newname)
{
    ClassRow row, existing;

    tdb_catalog_check_name_length(newname);
    (void)tdb_xact_assign_xid(xact);
    tdb_lock_relation(xact, relid, REL_LOCK_EXCLUSIVE);
    if (!tdb_catalog_find_class(xact, relid, NULL, &row))
        elog(ERROR, "cache lookup failed for relation %u", relid);
    if (tdb_catalog_find_class(xact, InvalidOid, newname, &existing))
        ereport(ERROR, errcode(ERRCODE_DUPLICATE_TABLE),
                errmsg("relation \"%s\" already exists", newname));
    row.values[Anum_pg_class_relname - 1] = tdb_catalog_name_datum(newname);
    tdb_catalog_update_class_row(xact, &row);
    if (row.relkind == RELKIND_INDEX)
        rename_index_constraint(xact, relid, newname);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
}

/* ----------------------------------------------------------------------
 * The index list of an open table
 * ---------------------------------------------------------------------- */

/* The int2 vector of a pg_index column into a new array of n entries. */
static int16 *
int16_array(const void *t, int n)
{
    int64 values[INDEX_MAX_KEYS];
    int16 *out = tdb_palloc0(sizeof(int16) * (Size)Max(n, 1));
    int got = parse_vector(t, values, INDEX_MAX_KEYS);

    for (int i = 0; i < n && i < got; i++)
        out[i] = (int16)values[i];
    return out;
}

static Oid *
oid_array(const void *t, int n)
{
    int64 values[INDEX_MAX_KEYS];
    Oid *out = tdb_palloc0(sizeof(Oid) * (Size)Max(n, 1));
    int got = parse_vector(t, values, INDEX_MAX_KEYS);

    for (int i = 0; i < n && i < got; i++)
        out[i] = (Oid)values[i];
    return out;
}

static char *
nullable_text(const CatalogScan *cs, int attnum)
{
    return cs->isnull[attnum - 1]
               ? NULL
               : tdb_text_to_cstring(DatumGetPointer(cs->values[attnum - 1]));
}

/*
 * Is the operator class's equality bitwise equality (its btree support
 * function 4, "equalimage")?  PostgreSQL 15 says no for float4_ops,
 * float8_ops and numeric_ops (equal values with different images: 0 and
 * -0, 1.0 and 1.00); every other opclass tupledb has says yes.
 */
static bool
opclass_equalimage(Oid opclass)
{
    return opclass != 10012 /* float4_ops */ &&
           opclass != 3123 /* float8_ops */ &&
           opclass != 3125 /* numeric_ops */;
}

void
tdb_catalog_load_indexes(Transaction *xact, Relation rel)
{
    CatalogScan cs;
    int size = 0;

    rel->rd_indexes = NULL;
    rel->rd_nindexes = 0;
    tdb_catscan_begin(&cs, xact, IndexRelationId);
    while (tdb_catscan_next(&cs)) {
        RelationIndex *ri;

        if (DatumGetObjectId(cs.values[Anum_pg_index_indrelid - 1]) !=
            rel->rd_id)
            continue;
        if (rel->rd_nindexes == size) {
            size = size == 0 ? 2 : size * 2;
            rel->rd_indexes =
                rel->rd_indexes == NULL
                    ? tdb_palloc(sizeof(RelationIndex) * (Size)size)
                    : tdb_repalloc(rel->rd_indexes,
                                   sizeof(RelationIndex) * (Size)size);
        }
        ri = &rel->rd_indexes[rel->rd_nindexes++];
        memset(ri, 0, sizeof(*ri));
        ri->ri_oid = DatumGetObjectId(cs.values[Anum_pg_index_indexrelid - 1]);
        ri->ri_natts = DatumGetInt16(cs.values[Anum_pg_index_indnatts - 1]);
        ri->ri_nkeyatts =
            DatumGetInt16(cs.values[Anum_pg_index_indnkeyatts - 1]);
        ri->ri_attnums = int16_array(
            DatumGetPointer(cs.values[Anum_pg_index_indkey - 1]), ri->ri_natts);
        ri->ri_opclasses =
            oid_array(DatumGetPointer(cs.values[Anum_pg_index_indclass - 1]),
                      ri->ri_nkeyatts);
        ri->ri_collations = oid_array(
            DatumGetPointer(cs.values[Anum_pg_index_indcollation - 1]),
            ri->ri_nkeyatts);
        ri->ri_options =
            int16_array(DatumGetPointer(cs.values[Anum_pg_index_indoption - 1]),
                        ri->ri_nkeyatts);
        ri->ri_exprs = nullable_text(&cs, Anum_pg_index_indexprs);
        ri->ri_pred = nullable_text(&cs, Anum_pg_index_indpred);
        ri->ri_unique = DatumGetBool(cs.values[Anum_pg_index_indisunique - 1]);
        ri->ri_primary =
            DatumGetBool(cs.values[Anum_pg_index_indisprimary - 1]);
        ri->ri_nulls_not_distinct =
            DatumGetBool(cs.values[Anum_pg_index_indnullsnotdistinct - 1]);
        ri->ri_valid = DatumGetBool(cs.values[Anum_pg_index_indisvalid - 1]);
        /* an index with INCLUDE columns is never "all equal image"
         * (tdb_bt_index_finish) */
        ri->ri_allequalimage = ri->ri_natts == ri->ri_nkeyatts;
        for (int c = 0; c < ri->ri_nkeyatts; c++)
            ri->ri_allequalimage &= opclass_equalimage(ri->ri_opclasses[c]);
    }
    tdb_catscan_end(&cs);
    /* OID order, as PostgreSQL's RelationGetIndexList */
    for (int i = 1; i < rel->rd_nindexes; i++)
        for (int j = i;
             j > 0 && rel->rd_indexes[j - 1].ri_oid > rel->rd_indexes[j].ri_oid;
             j--) {
            RelationIndex t = rel->rd_indexes[j];

            rel->rd_indexes[j] = rel->rd_indexes[j - 1];
            rel->rd_indexes[j - 1] = t;
        }
    /* each index's name and file, from its pg_class row */
    for (int i = 0; i < rel->rd_nindexes; i++) {
        ClassRow row;
        RelationIndex *ri = &rel->rd_indexes[i];

        if (!tdb_catalog_find_class(xact, ri->ri_oid, NULL, &row))
            elog(ERROR, "cache lookup failed for index %u", ri->ri_oid);
        ri->ri_relfilenumber = row.relfilenode;
        memcpy(ri->ri_name, row.relname, NAMEDATALEN);
    }
}

static void *
copy_bytes(const void *src, Size size)
{
    void *dst = tdb_palloc(size);

    memcpy(dst, src, size);
    return dst;
}

void
tdb_catalog_copy_indexes(Relation dst, Relation src)
{
    dst->rd_indexes = NULL;
    dst->rd_nindexes = src->rd_nindexes;
    if (src->rd_nindexes == 0)
        return;
    dst->rd_indexes = copy_bytes(src->rd_indexes, sizeof(RelationIndex) *
                                                      (Size)src->rd_nindexes);
    for (int i = 0; i < src->rd_nindexes; i++) {
        const RelationIndex *s = &src->rd_indexes[i];
        RelationIndex *d = &dst->rd_indexes[i];
        Size nkey = (Size)Max(s->ri_nkeyatts, 1);

        d->ri_attnums = copy_bytes(s->ri_attnums,
                                   sizeof(int16) * (Size)Max(s->ri_natts, 1));
        d->ri_opclasses = copy_bytes(s->ri_opclasses, sizeof(Oid) * nkey);
        d->ri_collations = copy_bytes(s->ri_collations, sizeof(Oid) * nkey);
        d->ri_options = copy_bytes(s->ri_options, sizeof(int16) * nkey);
        d->ri_exprs = s->ri_exprs == NULL
                          ? NULL
                          : tdb_mcxt_strdup(tdb_current_mcxt, s->ri_exprs);
        d->ri_pred = s->ri_pred == NULL
                         ? NULL
                         : tdb_mcxt_strdup(tdb_current_mcxt, s->ri_pred);
    }
}

void
tdb_catalog_free_indexes(Relation rel)
{
    for (int i = 0; i < rel->rd_nindexes; i++) {
        RelationIndex *ri = &rel->rd_indexes[i];

        tdb_pfree(ri->ri_attnums);
        tdb_pfree(ri->ri_opclasses);
        tdb_pfree(ri->ri_collations);
        tdb_pfree(ri->ri_options);
        if (ri->ri_exprs != NULL)
            tdb_pfree(ri->ri_exprs);
        if (ri->ri_pred != NULL)
            tdb_pfree(ri->ri_pred);
    }
    if (rel->rd_indexes != NULL)
        tdb_pfree(rel->rd_indexes);
    rel->rd_indexes = NULL;
    rel->rd_nindexes = 0;
}

const RelationIndex *
tdb_relation_index(Relation rel, Oid indexoid)
{
    for (int i = 0; i < rel->rd_nindexes; i++)
        if (rel->rd_indexes[i].ri_oid == indexoid)
            return &rel->rd_indexes[i];
    return NULL;
}
