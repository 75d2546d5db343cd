/*
 * regnames.c -- the session's catalog lookups for the types layer
 * (types/regtypes.c reads them through TypeIOSettings.catalog): a
 * relation's name by OID and its OID by name for regclass, and a stored
 * DEFAULT/CHECK expression printed back for pg_get_expr (analyzed over
 * the relation's columns, then ruleutils.c), in the session's current
 * transaction (catalog reads take a fresh snapshot, catalog.h).
 *
 * Every relation name is unique in tupledb (public and pg_catalog share
 * one name space), so a name never needs its schema to be found and
 * regclass prints names unqualified, as PostgreSQL does for visible
 * relations.
 */
#include "common/base.h"

#include <string.h>

#include "catalog/catalog.h"
#include "parser/analyze.h"
#include "tcop/tcop_int.h"

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

static char *
deparse_expr(void *arg, const char *sql, Oid relid, bool pretty)
{
    Session *s = arg;
    Statement st = tdb_tcop_statement(s, sql, NULL, NULL);
    Relation rel = tdb_relation_open_by_oid(s->xact, relid, REL_LOCK_SHARE);
    Expr *e = NULL;
    char *printed;

    /* a column's DEFAULT is analyzed as INSERT does, coerced to the
     * column's type: the (hidden) coercion decides the parentheses, as
     * in PostgreSQL's stored tree.  Equal texts print alike, so the
     * first column with this text will do. */
    for (int attnum = 1; attnum <= rel->rd_att->natts && e == NULL; attnum++) {
        const char *def = tdb_relation_column_default(rel, attnum);

        if (def != NULL && strcmp(def, sql) == 0)
            e = tdb_analyze_column_default(&st, rel, attnum);
    }
    if (e == NULL) /* a CHECK constraint */
        e = tdb_analyze_rel_expr(&st, rel, sql);
    printed = tdb_deparse_expr(e, rel->rd_att, pretty);

    tdb_relation_close(rel);
    return printed != NULL ? printed : tdb_mcxt_strdup(tdb_current_mcxt, sql);
}

void
tdb_tcop_init_catalog_lookup(Session *s)
{
    s->catalog_lookup.arg = s;
    s->catalog_lookup.relation_name = relation_name;
    s->catalog_lookup.relation_oid = relation_oid;
    s->catalog_lookup.deparse_expr = deparse_expr;
    s->typeio.catalog = &s->catalog_lookup;
}
