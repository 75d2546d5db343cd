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

#define MAX_CATALOG_COLUMNS 16

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

/* pg_authid.c: the bootstrap superuser's row (OID 10, every flag on). */
void tdb_catalog_insert_bootstrap_role(Transaction *xact, const char *name);

#endif /* TDB_CATALOG_CATALOG_INT_H */
