/*
 * regnames.c -- the session's catalog lookups for the reg* types
 * (types/regtypes.c reads them through TypeIOSettings.catalog): a
 * relation's name by OID and its OID by name, in the session's current
 * transaction (catalog reads take a fresh snapshot, catalog.h).
 *
 * Every relation name is unique in tupledb (public and pg_catalog share
 * one name space), so a name never needs its schema to be found and
 * regclass prints names unqualified, as PostgreSQL does for visible
 * relations.
 */
#include "common/base.h"

#include "catalog/catalog.h"
#include "sql/sql_int.h"

static char *
relation_name(void *arg, Oid relid)
{
    Session *s = arg;

    return tdb_catalog_relation_name(s->xact, relid);
}

static Oid
relation_oid(void *arg, const char *name)
{
    Session *s = arg;

    return tdb_catalog_lookup_table(s->xact, name);
}

void
tdb_sql_init_catalog_lookup(Session *s)
{
    s->catalog_lookup.arg = s;
    s->catalog_lookup.relation_name = relation_name;
    s->catalog_lookup.relation_oid = relation_oid;
    s->typeio.catalog = &s->catalog_lookup;
}
