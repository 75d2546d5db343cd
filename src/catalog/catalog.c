/*
 * catalog.c -- the system catalogs (catalog.h): bootstrap, CREATE /
 * DROP / TRUNCATE TABLE, and opening tables by name.
 *
 * The catalogs are heap relations whose row types are fixed here
 * (CatalogDef); everything else about them -- pages, MVCC, durability --
 * is the heap's.  Reads go through CatalogScan, a sequential scan with a
 * fresh snapshot that deforms each row into values/isnull.  The catalogs
 * are small, so there are no catalog indexes or caches yet: opening a
 * table reads pg_class and pg_attribute.  (A relation cache with
 * invalidation is the obvious next step when statement overhead
 * matters.)
 */
#include "common/base.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "access/heapam.h"
#include "access/snapshot.h"
#include "catalog/catalog.h"
#include "catalog/catalog_int.h"
#include "catalog/pg_type.h"
#include "common/elog.h"
#include "storage/bufmgr.h"
#include "storage/datadir.h"
#include "storage/smgr.h"
#include "toast/toast.h"
#include "tuple/varlena.h"

/* ----------------------------------------------------------------------
 * The catalogs' row types
 * ---------------------------------------------------------------------- */

typedef struct CatalogColumn {
    const char *name;
    Oid typid;
    bool nullable; /* false (the default): NOT NULL */
} CatalogColumn;

typedef struct CatalogDef {
    Oid relid;
    const char *name;
    const CatalogColumn *columns;
    int ncolumns;
} CatalogDef;

enum {
    Anum_pg_namespace_oid = 1,
    Anum_pg_namespace_nspname,
    Natts_pg_namespace = Anum_pg_namespace_nspname
};
static const CatalogColumn pg_namespace_columns[] = {
    {"oid", OIDOID, false},
    {"nspname", NAMEOID, false},
};

enum {
    Anum_pg_type_oid = 1,
    Anum_pg_type_typname,
    Anum_pg_type_typnamespace,
    Anum_pg_type_typlen,
    Anum_pg_type_typbyval,
    Anum_pg_type_typtype,
    Anum_pg_type_typcategory,
    Anum_pg_type_typispreferred,
    Anum_pg_type_typelem,
    Anum_pg_type_typarray,
    Anum_pg_type_typalign,
    Anum_pg_type_typstorage,
    Natts_pg_type = Anum_pg_type_typstorage
};
static const CatalogColumn pg_type_columns[] = {
    {"oid", OIDOID, false},          {"typname", NAMEOID, false},
    {"typnamespace", OIDOID, false}, {"typlen", INT2OID, false},
    {"typbyval", BOOLOID, false},    {"typtype", CHAROID, false},
    {"typcategory", CHAROID, false}, {"typispreferred", BOOLOID, false},
    {"typelem", OIDOID, false},      {"typarray", OIDOID, false},
    {"typalign", CHAROID, false},    {"typstorage", CHAROID, false},
};

static const CatalogColumn pg_class_columns[] = {
    {"oid", OIDOID, false},
    {"relname", NAMEOID, false},
    {"relnamespace", OIDOID, false},
    {"reltype", OIDOID, false},
    {"relfilenode", OIDOID, false},
    {"relpages", INT4OID, false},
    {"relpersistence", CHAROID, false},
    {"relkind", CHAROID, false},
    {"relnatts", INT2OID, false},
    /* after relnatts, not where PostgreSQL has it, so that rows written
     * before it existed still read (as NULL = none) */
    {"reltoastrelid", OIDOID, true},
    /* VACUUM's count of all-visible pages, in place; NULL (read as 0)
     * in rows older than it */
    {"relallvisible", INT4OID, true},
};

static const CatalogColumn pg_attribute_columns[] = {
    {"attrelid", OIDOID, false},     {"attname", NAMEOID, false},
    {"atttypid", OIDOID, false},     {"attlen", INT2OID, false},
    {"attnum", INT2OID, false},      {"atttypmod", INT4OID, false},
    {"attbyval", BOOLOID, false},    {"attalign", CHAROID, false},
    {"attstorage", CHAROID, false},  {"attnotnull", BOOLOID, false},
    {"atthasdef", BOOLOID, false},   {"attisdropped", BOOLOID, false},
    /* last for the same reason as pg_class.reltoastrelid: NULL reads as
     * '\0', the default method */
    {"attcompression", CHAROID, true},
};

enum {
    Anum_pg_attrdef_oid = 1,
    Anum_pg_attrdef_adrelid,
    Anum_pg_attrdef_adnum,
    Anum_pg_attrdef_adbin,
    Natts_pg_attrdef = Anum_pg_attrdef_adbin
};
static const CatalogColumn pg_attrdef_columns[] = {
    {"oid", OIDOID, false},
    {"adrelid", OIDOID, false},
    {"adnum", INT2OID, false},
    {"adbin", TEXTOID, false},
};

static const CatalogColumn pg_constraint_columns[] = {
    {"oid", OIDOID, false},
    {"conname", NAMEOID, false},
    {"contype", CHAROID, false},
    {"conrelid", OIDOID, false},
    /* NULL for PRIMARY KEY and UNIQUE (rows older than them have it) */
    {"conbin", TEXTOID, true},
    /* the rest after conbin: rows older than them read NULL, which
     * means false, no index, no key */
    {"condeferrable", BOOLOID, true},
    {"condeferred", BOOLOID, true},
    {"conindid", OIDOID, true},
    {"conkey", TEXTOID, true}, /* int2[] as text: "{1,2}" */
};

static const CatalogColumn pg_index_columns[] = {
    {"indexrelid", OIDOID, false},
    {"indrelid", OIDOID, false},
    {"indnatts", INT2OID, false},
    {"indnkeyatts", INT2OID, false},
    {"indisunique", BOOLOID, false},
    {"indnullsnotdistinct", BOOLOID, false},
    {"indisprimary", BOOLOID, false},
    {"indisexclusion", BOOLOID, false},
    {"indimmediate", BOOLOID, false},
    {"indisclustered", BOOLOID, false},
    {"indisvalid", BOOLOID, false},
    {"indcheckxmin", BOOLOID, false},
    {"indisready", BOOLOID, false},
    {"indislive", BOOLOID, false},
    {"indisreplident", BOOLOID, false},
    {"indkey", TEXTOID, false},       /* int2vector as text: "1 2" */
    {"indcollation", TEXTOID, false}, /* oidvector as text */
    {"indclass", TEXTOID, false},     /* oidvector as text */
    {"indoption", TEXTOID, false},    /* int2vector as text */
    {"indexprs", TEXTOID, true},      /* SQL text of the expressions */
    {"indpred", TEXTOID, true},       /* SQL text of the predicate */
};
_Static_assert(sizeof(pg_index_columns) / sizeof(pg_index_columns[0]) ==
                   Natts_pg_index,
               "pg_index's columns match catalog_int.h");
_Static_assert(Natts_pg_index <= MAX_CATALOG_COLUMNS, "pg_index fits");

static const CatalogColumn pg_authid_columns[] = {
    {"oid", OIDOID, false},
    {"rolname", NAMEOID, false},
    {"rolsuper", BOOLOID, false},
    {"rolinherit", BOOLOID, false},
    {"rolcreaterole", BOOLOID, false},
    {"rolcreatedb", BOOLOID, false},
    {"rolcanlogin", BOOLOID, false},
    {"rolreplication", BOOLOID, false},
    {"rolbypassrls", BOOLOID, false},
    {"rolconnlimit", INT4OID, false},
    {"rolpassword", TEXTOID, true},
};
_Static_assert(sizeof(pg_authid_columns) / sizeof(pg_authid_columns[0]) ==
                   Natts_pg_authid,
               "pg_authid's columns match catalog_int.h");

#define LENGTHOF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* In bootstrap order: pg_class must exist before rows describe tables. */
static const CatalogDef catalogs[] = {
    {NamespaceRelationId, "pg_namespace", pg_namespace_columns,
     LENGTHOF(pg_namespace_columns)},
    {TypeRelationId, "pg_type", pg_type_columns, LENGTHOF(pg_type_columns)},
    {RelationRelationId, "pg_class", pg_class_columns,
     LENGTHOF(pg_class_columns)},
    {AttributeRelationId, "pg_attribute", pg_attribute_columns,
     LENGTHOF(pg_attribute_columns)},
    {AttrDefaultRelationId, "pg_attrdef", pg_attrdef_columns,
     LENGTHOF(pg_attrdef_columns)},
    {ConstraintRelationId, "pg_constraint", pg_constraint_columns,
     LENGTHOF(pg_constraint_columns)},
    /* last: data directories made before roles existed get it added */
    {AuthIdRelationId, "pg_authid", pg_authid_columns,
     LENGTHOF(pg_authid_columns)},
    /* after it, for the same reason: made before indexes existed */
    {IndexRelationId, "pg_index", pg_index_columns, LENGTHOF(pg_index_columns)},
};

_Static_assert(Natts_pg_class <= MAX_CATALOG_COLUMNS, "pg_class fits");
_Static_assert(Natts_pg_attribute <= MAX_CATALOG_COLUMNS,
               "pg_attribute fits");

static const CatalogDef *
catalog_def(Oid relid)
{
    for (int i = 0; i < LENGTHOF(catalogs); i++)
        if (catalogs[i].relid == relid)
            return &catalogs[i];
    elog(ERROR, "unknown catalog %u", relid);
}

/*
 * Each catalog's committed length (its pg_class.relpages), by position
 * in catalogs[], for the catalogs' Relations (rd_committed_blocks): set
 * by tdb_catalog_load_lengths when the database opens, raised by
 * tdb_catalog_record_length when a commit grows a catalog, zero (no
 * check) before the load and after tdb_catalog_forget_lengths.  One
 * database per process (the buffer pool is the process's); atomic
 * because sessions read it while a commit raises it.
 */
static _Atomic uint32 catalog_lengths[LENGTHOF(catalogs)];

/* ----------------------------------------------------------------------
 * Descriptors and datums
 * ---------------------------------------------------------------------- */

/* Copy a name into a NAMEDATALEN buffer, truncated and zero padded. */
void
tdb_catalog_copy_name(char *dst, const char *src)
{
    Size len = strnlen(src, NAMEDATALEN - 1);

    memset(dst, 0, NAMEDATALEN);
    memcpy(dst, src, len);
}

/*
 * Describe column i of desc as a column of type typid with storage
 * strategy storage ('\0': the type's typstorage).
 */
static void
init_column(TupleDesc desc, int i, const char *name, Oid typid,
            int32 typmod, bool not_null, char storage)
{
    const TypeInfo *type = tdb_type_lookup(typid);

    if (type == NULL)
        elog(ERROR, "cache lookup failed for type %u", typid);
    tdb_tupdesc_init_attr(desc, i, name, typid, typmod, type->len,
                          type->byval, type->align, type->storage);
    if (storage != '\0') /* the column's own (attpackable stays the type's) */
        TupleDescAttr(desc, i)->attstorage = storage;
    TupleDescAttr(desc, i)->attnotnull = not_null;
}

/* A catalog's open relation, built from its definition. */
Relation
tdb_catalog_relation(Oid relid)
{
    const CatalogDef *def = catalog_def(relid);
    Relation rel = tdb_palloc0(sizeof(RelationData));

    rel->rd_id = def->relid;
    rel->rd_relfilenumber = def->relid;
    rel->rd_att = tdb_tupdesc_create(def->ncolumns);
    for (int i = 0; i < def->ncolumns; i++)
        init_column(rel->rd_att, i, def->columns[i].name,
                    def->columns[i].typid, -1, !def->columns[i].nullable,
                    '\0');
    tdb_tupdesc_finalize(rel->rd_att);
    tdb_catalog_copy_name(rel->rd_name, def->name);
    rel->rd_target_block = InvalidBlockNumber;
    rel->rd_relkind = RELKIND_RELATION;
    rel->rd_committed_blocks = atomic_load_explicit(
        &catalog_lengths[def - catalogs], memory_order_relaxed);
    return rel;
}

/* A name datum: NAMEDATALEN bytes, zero padded. */
Datum
tdb_catalog_name_datum(const char *s)
{
    char *name = tdb_palloc(NAMEDATALEN);

    tdb_catalog_copy_name(name, s);
    return PointerGetDatum(name);
}

const char *
tdb_catalog_datum_name(Datum d)
{
    return (const char *)DatumGetPointer(d);
}

void
tdb_catalog_insert_nulls(Transaction *xact, Oid relid, const Datum *values,
                         const bool *isnull)
{
    Relation rel = tdb_catalog_relation(relid);
    HeapTuple tup = tdb_heap_form_tuple(rel->rd_att, values, isnull);

    tdb_heap_insert(rel, tup, xact, NULL);
}

void
tdb_catalog_insert(Transaction *xact, Oid relid, const Datum *values)
{
    bool isnull[MAX_CATALOG_COLUMNS] = {false};

    tdb_catalog_insert_nulls(xact, relid, values, isnull);
}

/* ----------------------------------------------------------------------
 * Catalog scans
 * ---------------------------------------------------------------------- */


/* Scan catalog relid with a fresh snapshot (see catalog.h). */
void
tdb_catscan_begin(CatalogScan *cs, Transaction *xact, Oid relid)
{
    Snapshot snap = tdb_snapshot_take(tdb_xact_manager_of(xact), xact,
                                      tdb_current_mcxt);

    cs->rel = tdb_catalog_relation(relid);
    cs->scan = tdb_heap_beginscan(cs->rel, snap);
}

/* The next row, deformed into cs->values; false at the end. */
bool
tdb_catscan_next(CatalogScan *cs)
{
    HeapTuple tup = tdb_heap_getnext(cs->scan);

    if (tup == NULL)
        return false;
    tdb_heap_deform_tuple(tup, cs->rel->rd_att, cs->values, cs->isnull);
    cs->tid = tup->t_self;
    return true;
}

void
tdb_catscan_end(CatalogScan *cs)
{
    tdb_heap_endscan(cs->scan);
}

/* Delete the current row of a catalog scan, as xact's current command. */
void
tdb_catscan_delete_current(CatalogScan *cs, Transaction *xact)
{
    TM_FailureData tmfd;
    TM_Result result = tdb_heap_delete(cs->rel, &cs->tid, xact, &tmfd);

    if (result != TM_OK)
        elog(ERROR, "could not delete row (%u,%u) of %s: result %d",
             ItemPointerGetBlockNumber(&cs->tid),
             ItemPointerGetOffsetNumber(&cs->tid), cs->rel->rd_name,
             (int)result);
}

static bool
class_row_matches(const CatalogScan *cs, ClassKey key, Oid id,
                  const char *name)
{
    switch (key) {
    case CLASS_BY_OID:
        return DatumGetObjectId(cs->values[Anum_pg_class_oid - 1]) == id;
    case CLASS_BY_RELFILENODE:
        return DatumGetObjectId(cs->values[Anum_pg_class_relfilenode - 1]) ==
               id;
    case CLASS_BY_NAME:
        break;
    }
    /* TOAST relations are outside the search path: never found by name */
    if (DatumGetObjectId(cs->values[Anum_pg_class_relnamespace - 1]) ==
        PG_TOAST_NAMESPACE)
        return false;
    return strcmp(tdb_catalog_datum_name(cs->values[Anum_pg_class_relname - 1]), name) ==
           0;
}

/*
 * Find the pg_class row whose OID / relfilenode is id, or whose name is
 * name.  false if there is none.
 */
static bool
find_class_by(Transaction *xact, ClassKey key, Oid id, const char *name,
              ClassRow *row)
{
    CatalogScan cs;
    bool found = false;

    tdb_catscan_begin(&cs, xact, RelationRelationId);
    while (!found && tdb_catscan_next(&cs)) {
        const char *relname =
            tdb_catalog_datum_name(cs.values[Anum_pg_class_relname - 1]);

        if (!class_row_matches(&cs, key, id, name))
            continue;
        found = true;
        row->oid = DatumGetObjectId(cs.values[Anum_pg_class_oid - 1]);
        tdb_catalog_copy_name(row->relname, relname);
        row->relfilenode =
            DatumGetObjectId(cs.values[Anum_pg_class_relfilenode - 1]);
        row->relnatts = DatumGetInt16(cs.values[Anum_pg_class_relnatts - 1]);
        row->relpages =
            (BlockNumber)DatumGetInt32(cs.values[Anum_pg_class_relpages - 1]);
        /* a row written before reltoastrelid existed lacks it: none */
        if (cs.isnull[Anum_pg_class_reltoastrelid - 1])
            cs.values[Anum_pg_class_reltoastrelid - 1] =
                ObjectIdGetDatum(InvalidOid);
        row->reltoastrelid =
            DatumGetObjectId(cs.values[Anum_pg_class_reltoastrelid - 1]);
        if (cs.isnull[Anum_pg_class_relallvisible - 1])
            cs.values[Anum_pg_class_relallvisible - 1] = Int32GetDatum(0);
        row->relkind = DatumGetChar(cs.values[Anum_pg_class_relkind - 1]);
        row->tid = cs.tid;
        memcpy(row->values, cs.values, sizeof(row->values));
        /* the name must outlive the scan's page pin */
        row->values[Anum_pg_class_relname - 1] = tdb_catalog_name_datum(relname);
    }
    tdb_catscan_end(&cs);
    return found;
}

/* find_class_by for an OID (name NULL) or a name (relid InvalidOid). */
bool
tdb_catalog_find_class(Transaction *xact, Oid relid, const char *name,
                       ClassRow *row)
{
    return name != NULL ? find_class_by(xact, CLASS_BY_NAME, InvalidOid, name,
                                        row)
                        : find_class_by(xact, CLASS_BY_OID, relid, NULL, row);
}

/* Delete every row of catalog relid whose column attnum holds OID relid. */
void
tdb_catalog_delete_rows_of(Transaction *xact, Oid catalog, int attnum,
                           Oid relid)
{
    CatalogScan cs;

    tdb_catscan_begin(&cs, xact, catalog);
    while (tdb_catscan_next(&cs))
        if (DatumGetObjectId(cs.values[attnum - 1]) == relid)
            tdb_catscan_delete_current(&cs, xact);
    tdb_catscan_end(&cs);
}

/* ----------------------------------------------------------------------
 * Relation files
 * ---------------------------------------------------------------------- */

const char *
tdb_catalog_datadir_path(Transaction *xact)
{
    return tdb_datadir_path(
        tdb_xact_manager_datadir(tdb_xact_manager_of(xact)));
}

/* Create relation file rel (durably: the name is fsynced). */
static void
create_relation_file(Transaction *xact, RelFileNumber rel)
{
    SMgrRelation smgr = tdb_smgr_open(NULL, tdb_catalog_datadir_path(xact), rel);

    TDB_TRY();
    {
        tdb_smgr_create(smgr, MAIN_FORKNUM, false);
        tdb_smgr_immedsync(smgr, MAIN_FORKNUM);
    }
    TDB_CATCH();
    {
        tdb_smgr_close(smgr);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    tdb_smgr_close(smgr);
}

/* What an end-of-transaction file removal needs. */
typedef struct PendingUnlink {
    RelFileNumber rel;
    XactEvent when; /* XACT_EVENT_COMMIT or XACT_EVENT_ABORT */
    char datadir[];
} PendingUnlink;

/* Forget the relation's buffers, then remove its files. */
static void
remove_relation_file(const char *datadir, RelFileNumber rel)
{
    SMgrRelation smgr;

    tdb_buf_drop_relation(rel);
    smgr = tdb_smgr_open(NULL, datadir, rel);
    TDB_TRY();
    {
        tdb_smgr_unlink(smgr);
    }
    TDB_CATCH();
    {
        tdb_smgr_close(smgr);
        TDB_RE_THROW();
    }
    TDB_END_TRY();
    tdb_smgr_close(smgr);
}

static void
pending_unlink_callback(XactEvent event, void *arg)
{
    PendingUnlink *pending = arg;

    if (event == pending->when)
        remove_relation_file(pending->datadir, pending->rel);
}

/* Remove relation file rel when the transaction commits / aborts. */
void
tdb_catalog_unlink_at(Transaction *xact, RelFileNumber rel, XactEvent when)
{
    const char *datadir = tdb_catalog_datadir_path(xact);
    PendingUnlink *pending = tdb_mcxt_alloc(
        tdb_xact_context(xact), sizeof(PendingUnlink) + strlen(datadir) + 1);

    pending->rel = rel;
    pending->when = when;
    strcpy(pending->datadir, datadir);
    tdb_xact_register_callback(xact, pending_unlink_callback, pending);
}

/* A new relation file, removed again if the transaction aborts. */
RelFileNumber
tdb_catalog_new_relation_file(Transaction *xact)
{
    RelFileNumber rel = tdb_datadir_alloc_relfilenumber(
        tdb_xact_manager_datadir(tdb_xact_manager_of(xact)));

    create_relation_file(xact, rel);
    tdb_catalog_unlink_at(xact, rel, XACT_EVENT_ABORT);
    return rel;
}

/* ----------------------------------------------------------------------
 * The catalog version (catalog.h)
 * ---------------------------------------------------------------------- */

/* Process-wide: a change in any database makes every cached plan check
 * again, which costs a re-plan at worst. */
static atomic_uint_fast64_t catalog_version = 1;

/* Bumped after each in-place rewrite of pg_class.relpages (the session
 * relation caches depend on it: see "The session's relation cache"). */
static atomic_uint_fast64_t relpages_version = 1;

uint64
tdb_catalog_version(void)
{
    return (uint64)atomic_load(&catalog_version);
}

static void
catalog_version_callback(XactEvent event, void *arg)
{
    (void)arg;
    if (event != XACT_EVENT_PRE_COMMIT)
        atomic_fetch_add(&catalog_version, 1);
}

/*
 * The transaction changed the catalog: bump the version now (its own
 * later statements must re-plan) and again when it ends (other sessions
 * see the change, or its undoing, only then).
 */
void
tdb_catalog_changed(Transaction *xact)
{
    atomic_fetch_add(&catalog_version, 1);
    tdb_xact_register_callback(xact, catalog_version_callback, NULL);
}

/* ----------------------------------------------------------------------
 * Rows describing a table
 * ---------------------------------------------------------------------- */

void
tdb_catalog_insert_class_row(Transaction *xact, Oid relid, const char *name,
                             Oid namespace, RelFileNumber relfilenode,
                             int natts, char relkind, Oid toastrelid)
{
    Datum values[Natts_pg_class];

    values[Anum_pg_class_oid - 1] = ObjectIdGetDatum(relid);
    values[Anum_pg_class_relname - 1] = tdb_catalog_name_datum(name);
    values[Anum_pg_class_relnamespace - 1] = ObjectIdGetDatum(namespace);
    values[Anum_pg_class_reltype - 1] = ObjectIdGetDatum(InvalidOid);
    values[Anum_pg_class_relfilenode - 1] = ObjectIdGetDatum(relfilenode);
    values[Anum_pg_class_relpages - 1] = Int32GetDatum(0);
    values[Anum_pg_class_relpersistence - 1] = CharGetDatum('p');
    values[Anum_pg_class_relkind - 1] = CharGetDatum(relkind);
    values[Anum_pg_class_relnatts - 1] = Int16GetDatum((int16)natts);
    values[Anum_pg_class_reltoastrelid - 1] = ObjectIdGetDatum(toastrelid);
    values[Anum_pg_class_relallvisible - 1] = Int32GetDatum(0);
    tdb_catalog_insert(xact, RelationRelationId, values);
}

void
tdb_catalog_insert_attribute_row(Transaction *xact, Oid relid, int attnum,
                                 const ColumnDef *col)
{
    const TypeInfo *type = tdb_type_lookup(col->typid);
    Datum values[Natts_pg_attribute];

    values[Anum_pg_attribute_attrelid - 1] = ObjectIdGetDatum(relid);
    values[Anum_pg_attribute_attname - 1] = tdb_catalog_name_datum(col->name);
    values[Anum_pg_attribute_atttypid - 1] = ObjectIdGetDatum(col->typid);
    values[Anum_pg_attribute_attlen - 1] = Int16GetDatum(type->len);
    values[Anum_pg_attribute_attnum - 1] = Int16GetDatum((int16)attnum);
    values[Anum_pg_attribute_atttypmod - 1] = Int32GetDatum(col->typmod);
    values[Anum_pg_attribute_attbyval - 1] = BoolGetDatum(type->byval);
    values[Anum_pg_attribute_attalign - 1] = CharGetDatum(type->align);
    values[Anum_pg_attribute_attstorage - 1] =
        CharGetDatum(col->storage != '\0' ? col->storage : type->storage);
    values[Anum_pg_attribute_attnotnull - 1] = BoolGetDatum(col->not_null);
    values[Anum_pg_attribute_atthasdef - 1] =
        BoolGetDatum(col->default_expr != NULL);
    values[Anum_pg_attribute_attisdropped - 1] = BoolGetDatum(false);
    values[Anum_pg_attribute_attcompression - 1] =
        CharGetDatum(col->compression);
    tdb_catalog_insert(xact, AttributeRelationId, values);

    if (col->default_expr != NULL) {
        Datum def[Natts_pg_attrdef];

        def[Anum_pg_attrdef_oid - 1] =
            ObjectIdGetDatum(tdb_datadir_alloc_relfilenumber(
                tdb_xact_manager_datadir(tdb_xact_manager_of(xact))));
        def[Anum_pg_attrdef_adrelid - 1] = ObjectIdGetDatum(relid);
        def[Anum_pg_attrdef_adnum - 1] = Int16GetDatum((int16)attnum);
        def[Anum_pg_attrdef_adbin - 1] = PointerGetDatum(tdb_text_from_cstring(col->default_expr));
        tdb_catalog_insert(xact, AttrDefaultRelationId, def);
    }
}

/* The rows of a table: pg_class, then pg_attribute (and pg_attrdef). */
static void
insert_table_rows(Transaction *xact, Oid relid, const char *name,
                  Oid namespace, RelFileNumber relfilenode,
                  const ColumnDef *cols, int ncols, char relkind,
                  Oid toastrelid)
{
    tdb_catalog_insert_class_row(xact, relid, name, namespace, relfilenode,
                                 ncols, relkind, toastrelid);
    for (int i = 0; i < ncols; i++)
        tdb_catalog_insert_attribute_row(xact, relid, i + 1, &cols[i]);
}

/* ----------------------------------------------------------------------
 * TOAST relations
 * ---------------------------------------------------------------------- */

/* The columns of every TOAST relation, all stored PLAIN (and, as in
 * PostgreSQL, not marked NOT NULL). */
static const ColumnDef toast_columns[] = {
    {"chunk_id", OIDOID, -1, false, NULL, TYPSTORAGE_PLAIN, '\0'},
    {"chunk_seq", INT4OID, -1, false, NULL, TYPSTORAGE_PLAIN, '\0'},
    {"chunk_data", BYTEAOID, -1, false, NULL, TYPSTORAGE_PLAIN, '\0'},
};

/* PostgreSQL's UTF8 maximum character length (pg_encoding_max_length). */
#define MAX_ENCODED_CHAR_LEN 4

/*
 * The largest a value of a variable-width type with this typmod can be,
 * header included, or -1 if unbounded (PostgreSQL's type_maximum_size):
 * only char(n), varchar(n) and numeric(p,s) are bounded.
 */
static int32
type_maximum_size(Oid typid, int32 typmod)
{
    if (typmod < 0)
        return -1;
    switch (typid) {
    case BPCHAROID:
    case VARCHAROID:
        /* typmod counts characters plus the 4-byte header */
        return (typmod - (int32)VARHDRSZ) * MAX_ENCODED_CHAR_LEN +
               (int32)VARHDRSZ;
    case NUMERICOID: {
        /* precision in the typmod's high half; 4 decimal digits per
         * 2-byte base-10000 digit, plus one at each end for alignment;
         * an 8-byte header (length, sign/dscale, weight) */
        int32 precision = ((typmod - (int32)VARHDRSZ) >> 16) & 0xffff;
        int32 ndigits = (precision + 2 * (4 - 1)) / 4;

        if (typmod < (int32)VARHDRSZ)
            return -1;
        return 8 + ndigits * 2;
    }
    default:
        return -1;
    }
}

/*
 * Does a table with these columns need a TOAST relation?  PostgreSQL's
 * rule (needs_toast_table / heapam_relation_needs_toast_table): only if
 * some variable-width column may be toasted (storage not PLAIN), and a
 * row could be wider than TOAST_TUPLE_THRESHOLD -- always, when a
 * variable-width column has no maximum size.
 */
static bool
needs_toast_table(const ColumnDef *cols, int ncols)
{
    int32 data_length = 0;
    bool maxlen_undefined = false;
    bool has_toastable_attrs = false;
    Size tuple_length;

    for (int i = 0; i < ncols; i++) {
        const TypeInfo *type = tdb_type_lookup(cols[i].typid);
        char storage =
            cols[i].storage != '\0' ? cols[i].storage : type->storage;

        data_length = (int32)TYPEALIGN(tdb_typalign_to_alignby(type->align),
                                       data_length);
        if (type->len > 0) {
            data_length += type->len; /* fixed width: never toasted */
            continue;
        }
        {
            int32 maxlen = type_maximum_size(cols[i].typid, cols[i].typmod);

            if (maxlen < 0)
                maxlen_undefined = true;
            else
                data_length += maxlen;
        }
        if (storage != TYPSTORAGE_PLAIN)
            has_toastable_attrs = true;
    }
    if (!has_toastable_attrs)
        return false;
    if (maxlen_undefined)
        return true;
    tuple_length = MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(ncols)) +
                   MAXALIGN((Size)data_length);
    return tuple_length > TOAST_TUPLE_THRESHOLD;
}

static Relation open_locked(Transaction *xact, Oid relid);

/* A new OID (from the counter that also numbers files). */
Oid
tdb_catalog_new_oid(Transaction *xact)
{
    return tdb_datadir_alloc_relfilenumber(
        tdb_xact_manager_datadir(tdb_xact_manager_of(xact)));
}

/*
 * Create TOAST relation toastoid of table relid: its file, whose number
 * is its OID (removed again if the transaction aborts), and its pg_class
 * and pg_attribute rows.
 */
static void
create_toast_relation(Transaction *xact, Oid relid, Oid toastoid)
{
    char name[NAMEDATALEN];

    create_relation_file(xact, toastoid);
    tdb_catalog_unlink_at(xact, toastoid, XACT_EVENT_ABORT);
    snprintf(name, sizeof(name), "pg_toast_%u", relid);
    insert_table_rows(xact, toastoid, name, PG_TOAST_NAMESPACE, toastoid,
                      toast_columns, LENGTHOF(toast_columns),
                      RELKIND_TOASTVALUE, InvalidOid);
}

/* ----------------------------------------------------------------------
 * Bootstrap
 * ---------------------------------------------------------------------- */

static void
insert_type_rows(Transaction *xact)
{
    int ntypes;
    const TypeInfo *types = tdb_type_all(&ntypes);

    for (int i = 0; i < ntypes; i++) {
        const TypeInfo *t = &types[i];
        Datum values[Natts_pg_type];

        values[Anum_pg_type_oid - 1] = ObjectIdGetDatum(t->oid);
        values[Anum_pg_type_typname - 1] = tdb_catalog_name_datum(t->name);
        values[Anum_pg_type_typnamespace - 1] =
            ObjectIdGetDatum(PG_CATALOG_NAMESPACE);
        values[Anum_pg_type_typlen - 1] = Int16GetDatum(t->len);
        values[Anum_pg_type_typbyval - 1] = BoolGetDatum(t->byval);
        values[Anum_pg_type_typtype - 1] = CharGetDatum(t->typtype);
        values[Anum_pg_type_typcategory - 1] = CharGetDatum(t->category);
        values[Anum_pg_type_typispreferred - 1] = BoolGetDatum(t->preferred);
        values[Anum_pg_type_typelem - 1] = ObjectIdGetDatum(InvalidOid);
        values[Anum_pg_type_typarray - 1] = ObjectIdGetDatum(t->array);
        values[Anum_pg_type_typalign - 1] = CharGetDatum(t->align);
        values[Anum_pg_type_typstorage - 1] = CharGetDatum(t->storage);
        tdb_catalog_insert(xact, TypeRelationId, values);
    }
}

static void
insert_namespace_row(Transaction *xact, Oid oid, const char *name)
{
    Datum values[Natts_pg_namespace];

    values[Anum_pg_namespace_oid - 1] = ObjectIdGetDatum(oid);
    values[Anum_pg_namespace_nspname - 1] = tdb_catalog_name_datum(name);
    tdb_catalog_insert(xact, NamespaceRelationId, values);
}

/* The rows that describe catalog def (in pg_class and pg_attribute). */
static void
insert_catalog_rows(Transaction *xact, const CatalogDef *def)
{
    ColumnDef cols[MAX_CATALOG_COLUMNS];

    for (int c = 0; c < def->ncolumns; c++)
        cols[c] = (ColumnDef){def->columns[c].name, def->columns[c].typid, -1,
                              !def->columns[c].nullable, NULL, '\0', '\0'};
    insert_table_rows(xact, def->relid, def->name, PG_CATALOG_NAMESPACE,
                      def->relid, cols, def->ncolumns, RELKIND_RELATION,
                      InvalidOid);
}

void
tdb_catalog_bootstrap(Transaction *xact, const char *superuser)
{
    (void)tdb_xact_assign_xid(xact);
    for (int i = 0; i < LENGTHOF(catalogs); i++)
        create_relation_file(xact, catalogs[i].relid);
    for (int i = 0; i < LENGTHOF(catalogs); i++)
        insert_catalog_rows(xact, &catalogs[i]);
    insert_namespace_row(xact, PG_CATALOG_NAMESPACE, "pg_catalog");
    insert_namespace_row(xact, PG_PUBLIC_NAMESPACE, "public");
    insert_namespace_row(xact, PG_TOAST_NAMESPACE, "pg_toast");
    insert_type_rows(xact);
    tdb_catalog_insert_bootstrap_role(xact, superuser);
    tdb_xact_command_counter_increment(xact);
}

/* Is there a pg_namespace row with this OID? */
static bool
namespace_exists(Transaction *xact, Oid oid)
{
    CatalogScan cs;
    bool found = false;

    tdb_catscan_begin(&cs, xact, NamespaceRelationId);
    while (!found && tdb_catscan_next(&cs))
        found = DatumGetObjectId(cs.values[Anum_pg_namespace_oid - 1]) == oid;
    tdb_catscan_end(&cs);
    return found;
}

/*
 * Columns added to the catalogs since the directory was made
 * (pg_class.reltoastrelid, pg_attribute.attcompression): their
 * pg_attribute rows and relnatts, so the catalog describes itself.  The
 * rows already there read the new columns as NULL.
 */
static bool
add_missing_catalog_columns(Transaction *xact)
{
    bool added = false;

    for (int i = 0; i < LENGTHOF(catalogs); i++) {
        const CatalogDef *def = &catalogs[i];
        ClassRow row;

        if (!tdb_catalog_find_class(xact, def->relid, NULL, &row) ||
            row.relnatts >= def->ncolumns)
            continue;
        (void)tdb_xact_assign_xid(xact);
        for (int c = row.relnatts; c < def->ncolumns; c++) {
            ColumnDef col = {def->columns[c].name, def->columns[c].typid, -1,
                             !def->columns[c].nullable, NULL, '\0', '\0'};

            tdb_catalog_insert_attribute_row(xact, def->relid, c + 1, &col);
        }
        row.values[Anum_pg_class_relnatts - 1] =
            Int16GetDatum((int16)def->ncolumns);
        tdb_catalog_update_class_row(xact, &row);
        added = true;
    }
    return added;
}

bool
tdb_catalog_add_missing(Transaction *xact, const char *superuser)
{
    SMgrRelation smgr = tdb_smgr_open(NULL, tdb_catalog_datadir_path(xact),
                                      AuthIdRelationId);
    bool exists = tdb_smgr_exists(smgr, MAIN_FORKNUM);
    bool added = false;

    tdb_smgr_close(smgr);
    if (!exists) {
        (void)tdb_xact_assign_xid(xact);
        create_relation_file(xact, AuthIdRelationId);
        tdb_catalog_unlink_at(xact, AuthIdRelationId, XACT_EVENT_ABORT);
        insert_catalog_rows(xact, catalog_def(AuthIdRelationId));
        tdb_catalog_insert_bootstrap_role(xact, superuser);
        added = true;
    }
    /* TOAST relations' schema (made before issue 10) */
    if (!namespace_exists(xact, PG_TOAST_NAMESPACE)) {
        (void)tdb_xact_assign_xid(xact);
        insert_namespace_row(xact, PG_TOAST_NAMESPACE, "pg_toast");
        added = true;
    }
    if (added)
        tdb_xact_command_counter_increment(xact);
    if (add_missing_catalog_columns(xact)) {
        tdb_xact_command_counter_increment(xact);
        added = true;
    }
    return added;
}

bool
tdb_catalog_is_bootstrapped(Transaction *xact)
{
    SMgrRelation smgr =
        tdb_smgr_open(NULL, tdb_catalog_datadir_path(xact), RelationRelationId);
    bool exists = tdb_smgr_exists(smgr, MAIN_FORKNUM);
    ClassRow row;

    tdb_smgr_close(smgr);
    if (!exists)
        return false;
    if (!tdb_catalog_find_class(xact, RelationRelationId, NULL, &row))
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("the catalog of data directory \"%s\" is incomplete",
                       tdb_catalog_datadir_path(xact)),
                errdetail("The creation of the database was interrupted."),
                errhint("Remove the directory and create it again."));
    return true;
}

/* ----------------------------------------------------------------------
 * DDL
 * ---------------------------------------------------------------------- */

void
tdb_catalog_check_name_length(const char *name)
{
    if (strlen(name) >= NAMEDATALEN)
        ereport(ERROR, errcode(ERRCODE_NAME_TOO_LONG),
                errmsg("identifier \"%s\" is too long", name),
                errdetail("Names are at most %d bytes.", NAMEDATALEN - 1));
}

static void
check_columns(const ColumnDef *cols, int ncols)
{
    if (ncols > MaxHeapAttributeNumber)
        ereport(ERROR, errcode(ERRCODE_TOO_MANY_COLUMNS),
                errmsg("tables can have at most %d columns",
                       MaxHeapAttributeNumber));
    for (int i = 0; i < ncols; i++) {
        const TypeInfo *type = tdb_type_lookup(cols[i].typid);

        tdb_catalog_check_name_length(cols[i].name);
        for (int j = 0; j < i; j++)
            if (strcmp(cols[i].name, cols[j].name) == 0)
                ereport(ERROR, errcode(ERRCODE_DUPLICATE_COLUMN),
                        errmsg("column \"%s\" specified more than once",
                               cols[i].name));
        if (type == NULL)
            ereport(ERROR, errcode(ERRCODE_UNDEFINED_OBJECT),
                    errmsg("type with OID %u does not exist", cols[i].typid));
        if (!type->column_type)
            ereport(ERROR, errcode(ERRCODE_INVALID_TABLE_DEFINITION),
                    errmsg("column \"%s\" has pseudo-type %s", cols[i].name,
                           type->name));
    }
}

Oid
tdb_catalog_create_table(Transaction *xact, const char *name,
                         const ColumnDef *cols, int ncols, bool if_not_exists)
{
    RelFileNumber relfilenode;
    Oid toastoid;
    ClassRow existing;

    tdb_catalog_check_name_length(name);
    check_columns(cols, ncols);
    (void)tdb_xact_assign_xid(xact); /* the writer lock: no racing DDL */
    if (tdb_catalog_find_class(xact, InvalidOid, name, &existing)) {
        if (if_not_exists) {
            ereport(NOTICE, errcode(ERRCODE_DUPLICATE_TABLE),
                    errmsg("relation \"%s\" already exists, skipping", name));
            return InvalidOid;
        }
        ereport(ERROR, errcode(ERRCODE_DUPLICATE_TABLE),
                errmsg("relation \"%s\" already exists", name));
    }
    relfilenode = tdb_catalog_new_relation_file(xact);
    /* the table's OID first, then its TOAST relation's, as PostgreSQL */
    toastoid =
        needs_toast_table(cols, ncols) ? tdb_catalog_new_oid(xact) : InvalidOid;
    insert_table_rows(xact, relfilenode, name, PG_PUBLIC_NAMESPACE,
                      relfilenode, cols, ncols, RELKIND_RELATION, toastoid);
    if (toastoid != InvalidOid)
        create_toast_relation(xact, relfilenode, toastoid);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
    return relfilenode;
}

bool
tdb_catalog_drop_table(Transaction *xact, const char *name, bool missing_ok)
{
    ClassRow row;
    Oid relid;

    (void)tdb_xact_assign_xid(xact);
    relid = tdb_catalog_lookup_table(xact, name);
    if (relid == InvalidOid) {
        if (missing_ok) {
            /* PostgreSQL sends this notice with SQLSTATE 00000 */
            ereport(NOTICE, errcode(ERRCODE_SUCCESSFUL_COMPLETION),
                    errmsg("table \"%s\" does not exist, skipping", name));
            return false;
        }
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("table \"%s\" does not exist", name));
    }
    if (relid < FirstNormalObjectId)
        ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                errmsg("permission denied: \"%s\" is a system catalog",
                       name));
    tdb_lock_relation(xact, relid, REL_LOCK_EXCLUSIVE);
    if (!tdb_catalog_find_class(xact, relid, NULL, &row))
        elog(ERROR, "table \"%s\" vanished", name);
    if (row.relkind == RELKIND_INDEX)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("\"%s\" is not a table", name),
                errhint("Use DROP INDEX to remove an index."));

    tdb_catalog_drop_indexes_of(xact, relid);

    if (row.reltoastrelid != InvalidOid) {
        ClassRow toast;

        /* after the table's lock, as every user of it takes them */
        tdb_lock_relation(xact, row.reltoastrelid, REL_LOCK_EXCLUSIVE);
        if (tdb_catalog_find_class(xact, row.reltoastrelid, NULL, &toast)) {
            tdb_catalog_delete_rows_of(xact, AttributeRelationId,
                                       Anum_pg_attribute_attrelid, toast.oid);
            tdb_catalog_delete_rows_of(xact, RelationRelationId,
                                       Anum_pg_class_oid, toast.oid);
            tdb_catalog_unlink_at(xact, toast.relfilenode, XACT_EVENT_COMMIT);
        }
    }
    tdb_catalog_delete_rows_of(xact, AttrDefaultRelationId,
                               Anum_pg_attrdef_adrelid, relid);
    tdb_catalog_delete_rows_of(xact, ConstraintRelationId,
                               Anum_pg_constraint_conrelid, relid);
    tdb_catalog_delete_rows_of(xact, AttributeRelationId,
                               Anum_pg_attribute_attrelid, relid);
    tdb_catalog_delete_rows_of(xact, RelationRelationId, Anum_pg_class_oid,
                               relid);
    tdb_catalog_unlink_at(xact, row.relfilenode, XACT_EVENT_COMMIT);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
    return true;
}

/* Replace the pg_class row read into row by row->values. */
void
tdb_catalog_update_class_row(Transaction *xact, ClassRow *row)
{
    Relation pg_class = tdb_catalog_relation(RelationRelationId);
    bool isnull[Natts_pg_class] = {false};
    TM_FailureData tmfd;
    HeapTuple newtup;

    newtup = tdb_heap_form_tuple(pg_class->rd_att, row->values, isnull);
    if (tdb_heap_update(pg_class, &row->tid, newtup, xact, &tmfd) != TM_OK)
        elog(ERROR, "could not update the pg_class row of \"%s\"",
             row->relname);
}

/* Give the relation of row a new, empty file; the old one goes at commit. */
static void
set_new_file(Transaction *xact, ClassRow *row)
{
    RelFileNumber relfilenode = tdb_catalog_new_relation_file(xact);

    row->values[Anum_pg_class_relfilenode - 1] = ObjectIdGetDatum(relfilenode);
    row->values[Anum_pg_class_relpages - 1] = Int32GetDatum(0);
    row->values[Anum_pg_class_relallvisible - 1] = Int32GetDatum(0);
    tdb_catalog_update_class_row(xact, row);
    tdb_catalog_unlink_at(xact, row->relfilenode, XACT_EVENT_COMMIT);
}

void
tdb_catalog_truncate_table(Transaction *xact, Oid relid)
{
    ClassRow row;

    (void)tdb_xact_assign_xid(xact);
    if (relid < FirstNormalObjectId)
        ereport(ERROR, errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                errmsg("permission denied: catalog %u is a system catalog",
                       relid));
    tdb_lock_relation(xact, relid, REL_LOCK_EXCLUSIVE);
    if (!tdb_catalog_find_class(xact, relid, NULL, &row))
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("relation with OID %u does not exist", relid));

    set_new_file(xact, &row);
    if (row.reltoastrelid != InvalidOid) {
        ClassRow toast;

        tdb_lock_relation(xact, row.reltoastrelid, REL_LOCK_EXCLUSIVE);
        if (tdb_catalog_find_class(xact, row.reltoastrelid, NULL, &toast))
            set_new_file(xact, &toast);
    }
    tdb_xact_command_counter_increment(xact);
    tdb_catalog_truncate_indexes_of(xact, relid);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
}

/* ----------------------------------------------------------------------
 * ALTER TABLE: column storage and compression, TOAST relations
 * ---------------------------------------------------------------------- */

/* Set column attnum's pg_attribute column `column` to value. */
void
tdb_catalog_set_attribute_field(Transaction *xact, Oid relid, int attnum,
                                int column, Datum value)
{
    CatalogScan cs;
    bool found = false;

    (void)tdb_xact_assign_xid(xact);
    tdb_catscan_begin(&cs, xact, AttributeRelationId);
    while (!found && tdb_catscan_next(&cs)) {
        TM_FailureData tmfd;
        HeapTuple newtup;

        if (DatumGetObjectId(cs.values[Anum_pg_attribute_attrelid - 1]) !=
                relid ||
            DatumGetInt16(cs.values[Anum_pg_attribute_attnum - 1]) != attnum)
            continue;
        found = true;
        /* a row older than attcompression gets it now */
        if (cs.isnull[Anum_pg_attribute_attcompression - 1]) {
            cs.values[Anum_pg_attribute_attcompression - 1] =
                CharGetDatum(TOAST_COMPRESSION_DEFAULT);
            cs.isnull[Anum_pg_attribute_attcompression - 1] = false;
        }
        cs.values[column - 1] = value;
        cs.isnull[column - 1] = false;
        newtup = tdb_heap_form_tuple(cs.rel->rd_att, cs.values, cs.isnull);
        if (tdb_heap_update(cs.rel, &cs.tid, newtup, xact, &tmfd) != TM_OK)
            elog(ERROR, "could not update pg_attribute row %d of relation %u",
                 attnum, relid);
    }
    tdb_catscan_end(&cs);
    if (!found)
        elog(ERROR, "cache lookup failed for attribute %d of relation %u",
             attnum, relid);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
}

void
tdb_catalog_set_attstorage(Transaction *xact, Oid relid, int attnum,
                           char storage)
{
    Assert(storage == TYPSTORAGE_PLAIN || storage == TYPSTORAGE_EXTERNAL ||
           storage == TYPSTORAGE_MAIN || storage == TYPSTORAGE_EXTENDED);
    tdb_catalog_set_attribute_field(xact, relid, attnum,
                                    Anum_pg_attribute_attstorage,
                                    CharGetDatum(storage));
}

void
tdb_catalog_set_attcompression(Transaction *xact, Oid relid, int attnum,
                               char compression)
{
    Assert(compression == TOAST_COMPRESSION_DEFAULT ||
           compression == TOAST_COMPRESSION_PGLZ ||
           compression == TOAST_COMPRESSION_LZ4);
    tdb_catalog_set_attribute_field(xact, relid, attnum,
                                    Anum_pg_attribute_attcompression,
                                    CharGetDatum(compression));
}

Oid
tdb_catalog_ensure_toast(Transaction *xact, Oid relid)
{
    ClassRow row;
    Relation rel;
    ColumnDef *cols;
    bool needed;
    Oid toastoid;

    /* the catalogs get none after bootstrap, as in PostgreSQL */
    if (relid < FirstNormalObjectId)
        return InvalidOid;
    if (!tdb_catalog_find_class(xact, relid, NULL, &row))
        elog(ERROR, "cache lookup failed for relation %u", relid);
    if (row.reltoastrelid != InvalidOid ||
        DatumGetChar(row.values[Anum_pg_class_relkind - 1]) !=
            RELKIND_RELATION)
        return InvalidOid;
    rel = open_locked(xact, relid);
    cols = tdb_palloc0(sizeof(ColumnDef) * (Size)Max(1, rel->rd_att->natts));
    for (int i = 0; i < rel->rd_att->natts; i++) {
        const TupleAttr *att = TupleDescAttr(rel->rd_att, i);

        cols[i].name = att->attname;
        cols[i].typid = att->atttypid;
        cols[i].typmod = att->atttypmod;
        cols[i].storage = att->attstorage;
    }
    needed = needs_toast_table(cols, rel->rd_att->natts);
    tdb_pfree(cols);
    tdb_relation_close(rel);
    if (!needed)
        return InvalidOid;

    (void)tdb_xact_assign_xid(xact);
    toastoid = tdb_catalog_new_oid(xact);
    create_toast_relation(xact, relid, toastoid);
    row.values[Anum_pg_class_reltoastrelid - 1] = ObjectIdGetDatum(toastoid);
    tdb_catalog_update_class_row(xact, &row);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
    return toastoid;
}

/* ----------------------------------------------------------------------
 * Relation lengths (pg_class.relpages)
 * ---------------------------------------------------------------------- */

/*
 * Overwrite int4 column attnum (relpages or relallvisible) of the
 * pg_class row at tid in place, as PostgreSQL's heap_inplace_update does
 * for VACUUM's statistics: not MVCC, because the file's length and the
 * count of all-visible pages are facts about the file, whatever becomes
 * of the transaction.  (Not a change of the row's visibility: the page's
 * visibility map bit stays, as in PostgreSQL.)  A row that lacks the
 * column (written before it existed) or has a NULL before it is left
 * alone: returns false.
 */
static bool
set_int4_in_place(Relation pg_class, const ItemPointerData *tid, int attnum,
                  int32 value)
{
    Buffer buf =
        tdb_buf_read(RelationRelationId, ItemPointerGetBlockNumber(tid), NULL);
    HeapTupleHeader hdr;
    int off = TupleDescCompactAttr(pg_class->rd_att, attnum - 1)->attcacheoff;
    bool done = false;

    Assert(off >= 0);
    tdb_buf_lock(buf, BUF_LOCK_EXCLUSIVE);
    hdr = (HeapTupleHeader)tdb_page_get_item(
        tdb_buf_page(buf),
        tdb_page_get_item_id(tdb_buf_page(buf),
                             ItemPointerGetOffsetNumber(tid)));
    if (HeapTupleHeaderGetNatts(hdr) >= attnum &&
        !(hdr->t_infomask & HEAP_HASNULL)) {
        memcpy((char *)hdr + hdr->t_hoff + off, &value, sizeof(value));
        tdb_buf_mark_dirty(buf);
        done = true;
    }
    tdb_buf_unlock_release(buf);
    return done;
}

/*
 * The heap's commit-length hook (heapam.h): record a grown length.  A
 * file found shorter than its recorded length lost blocks while this
 * transaction wrote it (truncated behind the database's back): the
 * commit fails, and the recorded length stays, so the damage is found
 * again by every later access (tdb_heap_relation_nblocks).
 */
void
tdb_catalog_record_length(Transaction *xact, RelFileNumber rel,
                          BlockNumber nblocks)
{
    ClassRow row;

    if (!find_class_by(xact, CLASS_BY_RELFILENODE, rel, NULL, &row))
        return;
    if (nblocks < row.relpages)
        tdb_heap_raise_missing_blocks(row.relname, rel, nblocks, row.relpages);
    if (row.relpages == nblocks)
        return;
    (void)set_int4_in_place(tdb_catalog_relation(RelationRelationId), &row.tid,
                            Anum_pg_class_relpages, (int32)nblocks);
    for (int i = 0; i < LENGTHOF(catalogs); i++)
        if (catalogs[i].relid == rel) /* a catalog's file number: its OID */
            atomic_store(&catalog_lengths[i], nblocks);
    /* after the rewrite: relation caches read before it drop their copy */
    atomic_fetch_add(&relpages_version, 1);
    tdb_buf_flush_relation(RelationRelationId);
}

void
tdb_catalog_set_relallvisible(Transaction *xact, Oid relid,
                              BlockNumber nvisible)
{
    ClassRow row;

    if (!tdb_catalog_find_class(xact, relid, NULL, &row))
        return;
    if (set_int4_in_place(tdb_catalog_relation(RelationRelationId), &row.tid,
                          Anum_pg_class_relallvisible, (int32)nvisible))
        tdb_buf_flush_relation(RelationRelationId);
}

void
tdb_catalog_load_lengths(Transaction *xact)
{
    CatalogScan cs;

    tdb_catalog_forget_lengths();
    tdb_catscan_begin(&cs, xact, RelationRelationId);
    while (tdb_catscan_next(&cs)) {
        Oid relid = DatumGetObjectId(cs.values[Anum_pg_class_oid - 1]);

        for (int i = 0; i < LENGTHOF(catalogs); i++)
            if (catalogs[i].relid == relid)
                atomic_store(&catalog_lengths[i],
                             (uint32)DatumGetInt32(
                                 cs.values[Anum_pg_class_relpages - 1]));
    }
    tdb_catscan_end(&cs);
    for (int i = 0; i < LENGTHOF(catalogs); i++)
        (void)tdb_heap_relation_nblocks(
            tdb_catalog_relation(catalogs[i].relid));
}

void
tdb_catalog_forget_lengths(void)
{
    for (int i = 0; i < LENGTHOF(catalogs); i++)
        atomic_store(&catalog_lengths[i], 0);
}

/* ----------------------------------------------------------------------
 * CHECK constraints
 * ---------------------------------------------------------------------- */

void
tdb_catalog_add_check(Transaction *xact, Oid relid, const char *name,
                      const char *expr)
{
    Datum values[Natts_pg_constraint];
    bool isnull[Natts_pg_constraint] = {false};

    tdb_catalog_check_name_length(name);
    (void)tdb_xact_assign_xid(xact);
    values[Anum_pg_constraint_oid - 1] =
        ObjectIdGetDatum(tdb_datadir_alloc_relfilenumber(
            tdb_xact_manager_datadir(tdb_xact_manager_of(xact))));
    values[Anum_pg_constraint_conname - 1] = tdb_catalog_name_datum(name);
    values[Anum_pg_constraint_contype - 1] = CharGetDatum('c');
    values[Anum_pg_constraint_conrelid - 1] = ObjectIdGetDatum(relid);
    values[Anum_pg_constraint_conbin - 1] =
        PointerGetDatum(tdb_text_from_cstring(expr));
    values[Anum_pg_constraint_condeferrable - 1] = BoolGetDatum(false);
    values[Anum_pg_constraint_condeferred - 1] = BoolGetDatum(false);
    values[Anum_pg_constraint_conindid - 1] = ObjectIdGetDatum(InvalidOid);
    isnull[Anum_pg_constraint_conkey - 1] = true;
    tdb_catalog_insert_nulls(xact, ConstraintRelationId, values, isnull);
    tdb_catalog_changed(xact);
    tdb_xact_command_counter_increment(xact);
}

/* Fill rel->rd_checks from pg_constraint. */
static void
load_checks(Transaction *xact, Relation rel)
{
    CatalogScan cs;

    rel->rd_checks = NULL;
    rel->rd_nchecks = 0;
    tdb_catscan_begin(&cs, xact, ConstraintRelationId);
    while (tdb_catscan_next(&cs)) {
        RelationCheck *check;

        if (DatumGetObjectId(cs.values[Anum_pg_constraint_conrelid - 1]) !=
                rel->rd_id ||
            DatumGetChar(cs.values[Anum_pg_constraint_contype - 1]) !=
                CONSTRAINT_CHECK)
            continue;
        rel->rd_checks = rel->rd_nchecks == 0
                             ? tdb_palloc(sizeof(RelationCheck))
                             : tdb_repalloc(rel->rd_checks,
                                            sizeof(RelationCheck) *
                                                (Size)(rel->rd_nchecks + 1));
        check = &rel->rd_checks[rel->rd_nchecks++];
        check->name = tdb_mcxt_strdup(
            tdb_current_mcxt,
            tdb_catalog_datum_name(cs.values[Anum_pg_constraint_conname - 1]));
        check->expr = tdb_text_to_cstring(
            DatumGetPointer(cs.values[Anum_pg_constraint_conbin - 1]));
    }
    tdb_catscan_end(&cs);
}

/* ----------------------------------------------------------------------
 * Opening tables
 * ---------------------------------------------------------------------- */

/* ----------------------------------------------------------------------
 * The session's relation cache
 *
 * Every statement opened its table three times (analysis, planning,
 * execution), and each open scanned pg_class twice, then pg_attribute,
 * pg_attrdef and pg_constraint: 11 catalog scans per statement, ~15% of
 * the server's CPU for a 10-row SELECT through the simple protocol.  So
 * a session keeps the definitions it read (PostgreSQL's relcache, per
 * session: in its Transaction, tdb_xact_catalog_slot) and opens copy
 * them.  An entry is used only while nothing it depends on can have
 * moved:
 *   - tdb_catalog_version(): any DDL bumps it when it changes the
 *     catalog and again when its transaction commits or aborts (after
 *     the commit is visible, before its locks go), so neither this
 *     session's own DDL nor anyone else's, committed or not, goes
 *     unnoticed; entries are all dropped when it moves.
 *   - relpages_version: a commit that grew a relation rewrites
 *     pg_class.relpages in place (tdb_catalog_record_length), which is
 *     no DDL; rd_committed_blocks comes from it.
 * Both are read before the catalogs are, so an entry read while a change
 * was landing is tagged with the older version and dropped at the bump.
 * Opening takes the relation's lock before it looks for the definition
 * by OID (open_locked), so the check happens under the lock, as the
 * catalog re-read did: a DDL waiting for or holding the exclusive lock
 * bumps the version before anyone else gets the lock.  Only user tables
 * are cached (catalogs are static), and only inside a transaction.
 * ---------------------------------------------------------------------- */

typedef struct RelCacheEntry {
    Relation rel;     /* in the cache's context */
    bool by_name;     /* may be found by name (not a TOAST relation) */
} RelCacheEntry;

typedef struct RelCache {
    MemoryContext cxt;       /* the entries; reset when they go stale */
    uint64 catalog_version;  /* the versions the entries were read at */
    uint64 relpages_version;
    int nentries;
    int size;
    RelCacheEntry *entries; /* in cxt */
} RelCache;

/* xact's relation cache, emptied if what it read has moved; NULL outside
 * a transaction.  create: make one if there is none. */
static RelCache *
relcache_get(Transaction *xact, bool create)
{
    void **slot;
    RelCache *cache;
    uint64 catalog = tdb_catalog_version();
    uint64 relpages = (uint64)atomic_load(&relpages_version);

    if (tdb_xact_state(xact) != XACT_STATE_IN_PROGRESS)
        return NULL;
    slot = tdb_xact_catalog_slot(xact);
    cache = *slot;
    if (cache == NULL) {
        MemoryContext parent = tdb_xact_session_context(xact);

        if (!create)
            return NULL;
        cache = tdb_mcxt_alloc_zero(parent, sizeof(*cache));
        cache->cxt = tdb_aset_create(parent, "RelationCache",
                                     ALLOCSET_SMALL_SIZES);
        cache->catalog_version = catalog;
        cache->relpages_version = relpages;
        *slot = cache;
    }
    if (cache->catalog_version != catalog ||
        cache->relpages_version != relpages) {
        tdb_mcxt_reset(cache->cxt);
        cache->entries = NULL;
        cache->nentries = cache->size = 0;
        cache->catalog_version = catalog;
        cache->relpages_version = relpages;
    }
    return cache;
}

/* A copy of rel in the current memory context (tdb_relation_close frees
 * it). */
static Relation
relation_copy(Relation src)
{
    Relation rel = tdb_palloc(sizeof(RelationData));

    *rel = *src;
    rel->rd_att = tdb_tupdesc_copy(src->rd_att);
    if (src->rd_defaults != NULL) {
        rel->rd_defaults =
            tdb_palloc0((Size)src->rd_att->natts * sizeof(char *));
        for (int i = 0; i < src->rd_att->natts; i++)
            if (src->rd_defaults[i] != NULL)
                rel->rd_defaults[i] =
                    tdb_mcxt_strdup(tdb_current_mcxt, src->rd_defaults[i]);
    }
    if (src->rd_nchecks > 0) {
        rel->rd_checks =
            tdb_palloc(sizeof(RelationCheck) * (Size)src->rd_nchecks);
        for (int i = 0; i < src->rd_nchecks; i++) {
            rel->rd_checks[i].name =
                tdb_mcxt_strdup(tdb_current_mcxt, src->rd_checks[i].name);
            rel->rd_checks[i].expr =
                tdb_mcxt_strdup(tdb_current_mcxt, src->rd_checks[i].expr);
        }
    }
    tdb_catalog_copy_indexes(rel, src);
    return rel;
}

/* The cached definition of relid, or NULL. */
static Relation
relcache_find_oid(Transaction *xact, Oid relid)
{
    RelCache *cache = relcache_get(xact, false);

    if (cache != NULL)
        for (int i = 0; i < cache->nentries; i++)
            if (cache->entries[i].rel->rd_id == relid)
                return cache->entries[i].rel;
    return NULL;
}

/* The versions an entry depends on, read before the catalogs are. */
typedef struct RelCacheVersions {
    uint64 catalog;
    uint64 relpages;
} RelCacheVersions;

static RelCacheVersions
relcache_versions(void)
{
    RelCacheVersions v;

    v.catalog = tdb_catalog_version();
    v.relpages = (uint64)atomic_load(&relpages_version);
    return v;
}

/*
 * An abort drops the cache of the session whose transaction added
 * entries (arg): a catalog change bumps the version itself, this only
 * makes sure that nothing read inside a transaction that failed halfway
 * through a change outlives it.
 */
static void
relcache_abort_callback(XactEvent event, void *arg)
{
    RelCache *cache = arg;

    if (event == XACT_EVENT_ABORT)
        cache->catalog_version = 0; /* never a real version */
}

/* Keep a copy of rel, read from the catalogs under its lock after the
 * versions were v: unless they have moved since. */
static void
relcache_add(Transaction *xact, Relation rel, bool by_name,
             RelCacheVersions v)
{
    RelCache *cache = relcache_get(xact, true);
    MemoryContext old;

    if (cache == NULL || cache->catalog_version != v.catalog ||
        cache->relpages_version != v.relpages)
        return;
    old = tdb_mcxt_switch_to(cache->cxt);
    if (cache->nentries == cache->size) {
        int size = cache->size == 0 ? 4 : cache->size * 2;

        cache->entries =
            cache->entries == NULL
                ? tdb_palloc(sizeof(RelCacheEntry) * (Size)size)
                : tdb_repalloc(cache->entries,
                               sizeof(RelCacheEntry) * (Size)size);
        cache->size = size;
    }
    cache->entries[cache->nentries].rel = relation_copy(rel);
    cache->entries[cache->nentries].by_name = by_name;
    cache->nentries++;
    tdb_mcxt_switch_to(old);
    tdb_xact_register_callback(xact, relcache_abort_callback, cache);
}

bool
tdb_catalog_is_system_column(const char *name)
{
    static const char *const names[] = {"ctid", "xmin", "cmin",
                                        "xmax", "cmax", "tableoid"};

    for (size_t i = 0; i < lengthof(names); i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

Oid
tdb_catalog_lookup_table(Transaction *xact, const char *name)
{
    ClassRow row;
    RelCache *cache = relcache_get(xact, false);

    if (cache != NULL)
        for (int i = 0; i < cache->nentries; i++)
            if (cache->entries[i].by_name &&
                strcmp(cache->entries[i].rel->rd_name, name) == 0)
                return cache->entries[i].rel->rd_id;
    return tdb_catalog_find_class(xact, InvalidOid, name, &row) ? row.oid
                                                                : InvalidOid;
}

char *
tdb_catalog_relation_name(Transaction *xact, Oid relid)
{
    ClassRow row;

    if (!tdb_catalog_find_class(xact, relid, NULL, &row))
        return NULL;
    return tdb_mcxt_strdup(tdb_current_mcxt, row.relname);
}

/* Fill rel's descriptor and defaults from pg_attribute and pg_attrdef. */
static void
load_columns(Transaction *xact, Relation rel, int natts)
{
    CatalogScan cs;
    int seen = 0;

    rel->rd_att = tdb_tupdesc_create(natts);
    tdb_catscan_begin(&cs, xact, AttributeRelationId);
    while (tdb_catscan_next(&cs)) {
        int attnum;

        if (DatumGetObjectId(cs.values[Anum_pg_attribute_attrelid - 1]) !=
            rel->rd_id)
            continue;
        attnum = DatumGetInt16(cs.values[Anum_pg_attribute_attnum - 1]);
        if (attnum < 1 || attnum > natts)
            ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                    errmsg("pg_attribute row of \"%s\" has attnum %d of %d",
                           rel->rd_name, attnum, natts));
        init_column(
            rel->rd_att, attnum - 1,
            tdb_catalog_datum_name(cs.values[Anum_pg_attribute_attname - 1]),
            DatumGetObjectId(cs.values[Anum_pg_attribute_atttypid - 1]),
            DatumGetInt32(cs.values[Anum_pg_attribute_atttypmod - 1]),
            DatumGetBool(cs.values[Anum_pg_attribute_attnotnull - 1]),
            /* the column's own, which ALTER TABLE ... SET STORAGE sets */
            DatumGetChar(cs.values[Anum_pg_attribute_attstorage - 1]));
        TupleDescAttr(rel->rd_att, attnum - 1)->atthasdef =
            DatumGetBool(cs.values[Anum_pg_attribute_atthasdef - 1]);
        TupleDescAttr(rel->rd_att, attnum - 1)->attcompression =
            cs.isnull[Anum_pg_attribute_attcompression - 1]
                ? TOAST_COMPRESSION_DEFAULT
                : DatumGetChar(
                      cs.values[Anum_pg_attribute_attcompression - 1]);
        seen++;
    }
    tdb_catscan_end(&cs);
    if (seen != natts)
        ereport(ERROR, errcode(ERRCODE_DATA_CORRUPTED),
                errmsg("table \"%s\" has %d pg_attribute rows, expected %d",
                       rel->rd_name, seen, natts));
    tdb_tupdesc_finalize(rel->rd_att);
    rel->rd_att->tdtypeid = RECORDOID;

    rel->rd_defaults = NULL;
    tdb_catscan_begin(&cs, xact, AttrDefaultRelationId);
    while (tdb_catscan_next(&cs)) {
        int attnum;

        if (DatumGetObjectId(cs.values[Anum_pg_attrdef_adrelid - 1]) !=
            rel->rd_id)
            continue;
        attnum = DatumGetInt16(cs.values[Anum_pg_attrdef_adnum - 1]);
        if (attnum < 1 || attnum > natts)
            continue;
        if (rel->rd_defaults == NULL)
            rel->rd_defaults = tdb_palloc0((Size)natts * sizeof(char *));
        rel->rd_defaults[attnum - 1] =
            tdb_text_to_cstring(
                DatumGetPointer(cs.values[Anum_pg_attrdef_adbin - 1]));
    }
    tdb_catscan_end(&cs);
}

/* Open relid, which the caller has locked; NULL if it does not exist. */
static Relation
open_locked(Transaction *xact, Oid relid)
{
    ClassRow row;
    Relation rel;
    RelCacheVersions versions;

    if (relid < FirstNormalObjectId) {
        for (int i = 0; i < LENGTHOF(catalogs); i++)
            if (catalogs[i].relid == relid)
                return tdb_catalog_relation(relid);
    }
    if ((rel = relcache_find_oid(xact, relid)) != NULL)
        return relation_copy(rel);
    versions = relcache_versions();
    if (!tdb_catalog_find_class(xact, relid, NULL, &row))
        return NULL;
    rel = tdb_palloc0(sizeof(RelationData));
    rel->rd_id = row.oid;
    rel->rd_relfilenumber = row.relfilenode;
    rel->rd_toastrelid = row.reltoastrelid;
    memcpy(rel->rd_name, row.relname, NAMEDATALEN);
    rel->rd_target_block = InvalidBlockNumber;
    rel->rd_committed_blocks = row.relpages;
    rel->rd_relkind = row.relkind;
    load_columns(xact, rel, row.relnatts);
    load_checks(xact, rel);
    tdb_catalog_load_indexes(xact, rel);
    relcache_add(xact, rel,
                 DatumGetObjectId(row.values[Anum_pg_class_relnamespace -
                                             1]) != PG_TOAST_NAMESPACE,
                 versions);
    return rel;
}

Relation
tdb_relation_open(Transaction *xact, const char *name, RelLockMode mode)
{
    Oid relid = tdb_catalog_lookup_table(xact, name);
    Relation rel = NULL;

    if (relid != InvalidOid) {
        tdb_lock_relation(xact, relid, mode);
        /* read again under the lock: a DROP may have committed between */
        rel = open_locked(xact, relid);
    }
    if (rel == NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("relation \"%s\" does not exist", name));
    /* PostgreSQL's table_open says so for every use of an index as a
     * table (SELECT, INSERT, UPDATE, DELETE, COPY, ...) */
    if (rel->rd_relkind == RELKIND_INDEX)
        ereport(ERROR, errcode(ERRCODE_WRONG_OBJECT_TYPE),
                errmsg("\"%s\" is an index", name));
    return rel;
}

Relation
tdb_relation_open_by_oid(Transaction *xact, Oid relid, RelLockMode mode)
{
    Relation rel;

    tdb_lock_relation(xact, relid, mode);
    rel = open_locked(xact, relid);
    if (rel == NULL)
        ereport(ERROR, errcode(ERRCODE_UNDEFINED_TABLE),
                errmsg("relation with OID %u does not exist", relid));
    return rel;
}

Relation
tdb_relation_open_toast(Transaction *xact, Relation rel, RelLockMode mode)
{
    if (rel->rd_toastrelid == InvalidOid)
        return NULL;
    return tdb_relation_open_by_oid(xact, rel->rd_toastrelid, mode);
}

void
tdb_relation_close(Relation rel)
{
    for (int i = 0; i < rel->rd_nchecks; i++) {
        tdb_pfree((void *)rel->rd_checks[i].name);
        tdb_pfree((void *)rel->rd_checks[i].expr);
    }
    if (rel->rd_checks != NULL)
        tdb_pfree(rel->rd_checks);
    tdb_catalog_free_indexes(rel);
    if (rel->rd_defaults != NULL) {
        for (int i = 0; i < rel->rd_att->natts; i++)
            if (rel->rd_defaults[i] != NULL)
                tdb_pfree(rel->rd_defaults[i]);
        tdb_pfree(rel->rd_defaults);
    }
    tdb_pfree(rel->rd_att);
    tdb_pfree(rel);
}

const char *
tdb_relation_column_default(Relation rel, int attnum)
{
    if (rel->rd_defaults == NULL || attnum < 1 ||
        attnum > rel->rd_att->natts)
        return NULL;
    return rel->rd_defaults[attnum - 1];
}
