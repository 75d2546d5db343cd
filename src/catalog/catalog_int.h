/*
 * catalog_int.h -- what the catalog layer's files share: reading and
 * writing catalog rows (catalog.c) for the files that keep one catalog
 * each (pg_authid.c).  Not for other layers.
 */
#ifndef TDB_CATALOG_CATALOG_INT_H
#define TDB_CATALOG_CATALOG_INT_H

#include "common/base.h"
#include "access/heapam.h"
#include "catalog/catalog.h"

#define MAX_CATALOG_COLUMNS 24

/* pg_authid's columns (catalog.c defines them, pg_authid.c uses them). */
enum {
    Anum_pg_authid_oid = 1,
    Anum_pg_authid_rolname,
    Anum_pg_authid_rolsuper,
    Anum_pg_authid_rolinherit,
    Anum_pg_authid_rolcreaterole,
    Anum_pg_authid_rolcreatedb,
    Anum_pg_authid_rolcanlogin,
    Anum_pg_authid_rolreplication,
    Anum_pg_authid_rolbypassrls,
    Anum_pg_authid_rolconnlimit,
    Anum_pg_authid_rolpassword,
    Natts_pg_authid = Anum_pg_authid_rolpassword
};

enum {
    Anum_pg_class_oid = 1,
    Anum_pg_class_relname,
    Anum_pg_class_relnamespace,
    Anum_pg_class_reltype,
    Anum_pg_class_relfilenode,
    Anum_pg_class_relpages,
    Anum_pg_class_relpersistence,
    Anum_pg_class_relkind,
    Anum_pg_class_relnatts,
    Anum_pg_class_reltoastrelid,
    Anum_pg_class_relallvisible,
    Natts_pg_class = Anum_pg_class_relallvisible
};

enum {
    Anum_pg_attribute_attrelid = 1,
    Anum_pg_attribute_attname,
    Anum_pg_attribute_atttypid,
    Anum_pg_attribute_attlen,
    Anum_pg_attribute_attnum,
    Anum_pg_attribute_atttypmod,
    Anum_pg_attribute_attbyval,
    Anum_pg_attribute_attalign,
    Anum_pg_attribute_attstorage,
    Anum_pg_attribute_attnotnull,
    Anum_pg_attribute_atthasdef,
    Anum_pg_attribute_attisdropped,
    Anum_pg_attribute_attcompression,
    Natts_pg_attribute = Anum_pg_attribute_attcompression
};

enum {
    Anum_pg_constraint_oid = 1,
    Anum_pg_constraint_conname,
    Anum_pg_constraint_contype,
    Anum_pg_constraint_conrelid,
    Anum_pg_constraint_conbin,
    /* after conbin, for the same reason as pg_class.reltoastrelid: NULL
     * in rows written before they existed (CHECK constraints: not
     * deferrable, no index, no key recorded) */
    Anum_pg_constraint_condeferrable,
    Anum_pg_constraint_condeferred,
    Anum_pg_constraint_conindid,
    Anum_pg_constraint_conkey,
    Natts_pg_constraint = Anum_pg_constraint_conkey
};

/* The pg_class row of a relation, as read by tdb_catalog_find_class. */
typedef struct ClassRow {
    Oid oid;
    char relname[NAMEDATALEN];
    RelFileNumber relfilenode;
    BlockNumber relpages;
    int relnatts;
    Oid reltoastrelid; /* InvalidOid: none (also a row older than it) */
    char relkind;
    ItemPointerData tid;
    Datum values[Natts_pg_class]; /* for rewriting the row */
} ClassRow;

/* Which pg_class row find_class looks for. */
typedef enum ClassKey {
    CLASS_BY_OID,
    CLASS_BY_NAME,
    CLASS_BY_RELFILENODE,
} ClassKey;

/* pg_index (OID 2610): one row per index.  indkey, indcollation, indclass
 * and indoption are stored as the text of their int2vector / oidvector
 * ("1 2"), indexprs and indpred as SQL text (NULL: none), as CHECK
 * expressions are. */
enum {
    Anum_pg_index_indexrelid = 1,
    Anum_pg_index_indrelid,
    Anum_pg_index_indnatts,
    Anum_pg_index_indnkeyatts,
    Anum_pg_index_indisunique,
    Anum_pg_index_indnullsnotdistinct,
    Anum_pg_index_indisprimary,
    Anum_pg_index_indisexclusion,
    Anum_pg_index_indimmediate,
    Anum_pg_index_indisclustered,
    Anum_pg_index_indisvalid,
    Anum_pg_index_indcheckxmin,
    Anum_pg_index_indisready,
    Anum_pg_index_indislive,
    Anum_pg_index_indisreplident,
    Anum_pg_index_indkey,
    Anum_pg_index_indcollation,
    Anum_pg_index_indclass,
    Anum_pg_index_indoption,
    Anum_pg_index_indexprs,
    Anum_pg_index_indpred,
    Natts_pg_index = Anum_pg_index_indpred
};

/* A sequential scan of one catalog with a fresh snapshot. */
typedef struct CatalogScan {
    Relation rel;
    HeapScanDesc scan;
    Datum values[MAX_CATALOG_COLUMNS]; /* the current row, deformed */
    bool isnull[MAX_CATALOG_COLUMNS];
    ItemPointerData tid;               /* the current row */
} CatalogScan;

void tdb_catscan_begin(CatalogScan *cs, Transaction *xact, Oid relid);
/* The next row into cs->values; false at the end. */
bool tdb_catscan_next(CatalogScan *cs);
void tdb_catscan_end(CatalogScan *cs);
/* Delete the current row as xact's current command. */
void tdb_catscan_delete_current(CatalogScan *cs, Transaction *xact);

/* A catalog's relation, built from its fixed definition (current
 * context). */
Relation tdb_catalog_relation(Oid relid);
/* Insert a row into catalog relid (with NULLs / without). */
void tdb_catalog_insert(Transaction *xact, Oid relid, const Datum *values);
void tdb_catalog_insert_nulls(Transaction *xact, Oid relid,
                              const Datum *values, const bool *isnull);
/* A name datum (NAMEDATALEN bytes, zero padded; current context) and
 * back. */
Datum tdb_catalog_name_datum(const char *s);
const char *tdb_catalog_datum_name(Datum d);
void tdb_catalog_copy_name(char *dst, const char *src);
const char *tdb_catalog_datadir_path(Transaction *xact);

/* ----------------------------------------------------------------------
 * Shared by catalog.c and pg_index.c
 * ---------------------------------------------------------------------- */

/* The pg_class row whose OID is relid (name NULL) or whose name is name
 * (TOAST relations are never found by name); false if none. */
bool tdb_catalog_find_class(Transaction *xact, Oid relid, const char *name,
                            ClassRow *row);
/* Replace the pg_class row read into row by row->values. */
void tdb_catalog_update_class_row(Transaction *xact, ClassRow *row);
/* Delete every row of catalog `catalog` whose column attnum holds relid. */
void tdb_catalog_delete_rows_of(Transaction *xact, Oid catalog, int attnum,
                                Oid relid);
/* A new OID (from the counter that also numbers files). */
Oid tdb_catalog_new_oid(Transaction *xact);
/* A new relation file, removed again if the transaction aborts. */
RelFileNumber tdb_catalog_new_relation_file(Transaction *xact);
/* Remove relation file rel when the transaction commits / aborts. */
void tdb_catalog_unlink_at(Transaction *xact, RelFileNumber rel,
                           XactEvent when);
/* The transaction changed the catalog: bump the catalog version now and
 * when it ends. */
void tdb_catalog_changed(Transaction *xact);
void tdb_catalog_insert_class_row(Transaction *xact, Oid relid,
                                  const char *name, Oid namespace,
                                  RelFileNumber relfilenode, int natts,
                                  char relkind, Oid toastrelid);
/* A pg_attribute row (and pg_attrdef row for a default). */
void tdb_catalog_insert_attribute_row(Transaction *xact, Oid relid, int attnum,
                                      const ColumnDef *col);
/* Set pg_attribute column `column` of relid's column attnum to value. */
void tdb_catalog_set_attribute_field(Transaction *xact, Oid relid, int attnum,
                                     int column, Datum value);
/* 42622 identifier too long */
void tdb_catalog_check_name_length(const char *name);

/* pg_index.c: the index list of a table (RelationData.rd_indexes), read
 * from pg_index and pg_class into the current context. */
void tdb_catalog_load_indexes(Transaction *xact, Relation rel);
/* Deep copy / free of rel's index list (the relation cache's). */
void tdb_catalog_copy_indexes(Relation dst, Relation src);
void tdb_catalog_free_indexes(Relation rel);
/* DROP TABLE: drop relid's indexes and their files (at commit). */
void tdb_catalog_drop_indexes_of(Transaction *xact, Oid relid);
/* TRUNCATE: give relid's indexes new, empty files. */
void tdb_catalog_truncate_indexes_of(Transaction *xact, Oid relid);

/* pg_authid.c: the bootstrap superuser's row (OID 10, every flag on). */
void tdb_catalog_insert_bootstrap_role(Transaction *xact, const char *name);

#endif /* TDB_CATALOG_CATALOG_INT_H */
